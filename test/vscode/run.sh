#!/usr/bin/env bash
# The one entry point of the real-VS-Code tests (npm run test:vscode): installs the rig if needed, builds the extension
# and the fake chat model, and runs suite/ in code-server 1.139 against a fresh temporary workspace.
# Exit code = the suite's result. Extra environment is passed on to run-ext-tests.js (TEST_TIMEOUT_MS, KEEP_TMP...)
# and to the suite (MASSGEN_VSCODE_TESTS, MASSGEN_VSCODE_GREP).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
t0=$SECONDS
step() { echo "==> [test:vscode] $* (+$((SECONDS - t0))s)"; }

step "rig: code-server 1.139 + chromium (test/vscode/rig/setup.sh)"
bash "$HERE/rig/setup.sh"

cd "$ROOT"
[ -x node_modules/.bin/esbuild ] && [ -d node_modules/mocha ] || { echo "[test:vscode] run npm ci at the repo root first (esbuild, mocha)" >&2; exit 1; }
step "build the extension (node esbuild.mjs)"
node esbuild.mjs

step "build the fake chat model VSIX"
bash "$HERE/build-fake-lm.sh"

step "the coding agents' programs, claude and codex (tools/peers/agents.sh; cached)"
# The suite's code-server gets an XDG_CACHE_HOME of its own: the programs' cache is named for it explicitly.
export MASSGEN_PEERS_CACHE="${MASSGEN_PEERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/massgen-vscode-peers}"
bash "$ROOT/tools/peers/agents.sh"

step "bundle the fake model servers for the suite (test/fakes → test/vscode/out/fakes.js)"
node_modules/.bin/esbuild test/vscode/fakes-entry.ts --bundle --platform=node --format=cjs --target=node20 --log-level=warning --outfile="$HERE/out/fakes.js"

WS="$(mktemp -d "${TMPDIR:-/tmp}/massgen-vscode-ws.XXXXXX")"
trap 'rm -rf "$WS"' EXIT
printf 'def add(a, b):\n    return a + b\n' > "$WS/sample.py"
printf '# Sample workspace for the MassGen VS Code tests\n' > "$WS/README.md"
# A git repository as users have them (workspace runs give each agent a git worktree of it): one commit, then an
# uncommitted edit and an untracked file, which the agents' copies must show too (suite/workspace.test.js).
git -C "$WS" -c init.defaultBranch=main init -q
git -C "$WS" add sample.py README.md
git -C "$WS" -c user.name='MassGen tests' -c user.email=tests@massgen.invalid -c commit.gpgsign=false commit -q -m 'Sample workspace'
printf 'Uncommitted: a line added after the last commit.\n' >> "$WS/README.md"
printf 'Untracked notes, never committed.\n' > "$WS/notes.txt"

step "run the suite in code-server (screenshots: test-artifacts/screenshots, logs: test-artifacts/vscode-logs)"
# The runner's last line is the suite's "N passed, N failed, N skipped"; its exit code is this script's.
INSTALL_VSIX="$HERE/out/fake-lm.vsix${INSTALL_VSIX:+:$INSTALL_VSIX}" TEST_TIMEOUT_MS="${TEST_TIMEOUT_MS:-1200000}" \
  node "$HERE/run-ext-tests.js" "$ROOT" "$HERE/suite/index" "$WS"

#!/usr/bin/env bash
# The real Claude Code and Codex programs for the coding-agent tests: their SDKs with the platform packages (about
# 870 MB from the npm registry) installed from tools/peers/agents/'s own lockfile into the peers cache, keyed by that
# lockfile, so the project's own `npm ci` stays light (there the platform packages are stand-ins, see package.json).
# Prints nothing on stdout; the test helper finds the programs under $AGENTS_DIR/node_modules.
set -euo pipefail
. "$(dirname "$0")/env.sh"
hold_lock "$(basename "$0" .sh)"
source_dir="$(cd "$(dirname "$0")/agents" && pwd)"
marker="$AGENTS_DIR/.installed-$(cat "$source_dir/package.json" "$source_dir/package-lock.json" | sha256sum | cut -c1-12)"
if [ -f "$marker" ]; then log "agent programs cached: $AGENTS_DIR"; exit 0; fi
log "installing Claude Code and Codex into $AGENTS_DIR (about 870 MB from the npm registry)"
rm -rf "$AGENTS_DIR"
mkdir -p "$AGENTS_DIR"
cp "$source_dir/package.json" "$source_dir/package-lock.json" "$AGENTS_DIR/"
npm ci --prefix "$AGENTS_DIR" --no-audit --no-fund --loglevel=error >&2
touch "$marker"
log "agent programs ready: $(ls "$AGENTS_DIR/node_modules/@anthropic-ai/" | tr '\n' ' ')"

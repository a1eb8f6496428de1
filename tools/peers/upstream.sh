#!/usr/bin/env bash
# Upstream MassGen, pinned, in a cached virtualenv (for the bench's side-by-side runs; the product never uses it).
set -euo pipefail
. "$(dirname "$0")/env.sh"
if [ -x "$UPSTREAM_VENV/bin/massgen" ] && [ "$("$UPSTREAM_VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("massgen"))' 2>/dev/null)" = "$UPSTREAM_VERSION" ]; then
  log "upstream MassGen $UPSTREAM_VERSION cached: $UPSTREAM_VENV"; exit 0
fi
log "installing massgen==$UPSTREAM_VERSION into $UPSTREAM_VENV (about 450 MB from PyPI)"
rm -rf "$UPSTREAM_VENV.tmp"
python3 -m venv "$UPSTREAM_VENV.tmp"
"$UPSTREAM_VENV.tmp/bin/pip" install --quiet --disable-pip-version-check "massgen==$UPSTREAM_VERSION"
rm -rf "$UPSTREAM_VENV" && mv "$UPSTREAM_VENV.tmp" "$UPSTREAM_VENV"
# A venv's scripts name their interpreter by absolute path; the move keeps them working through the symlinked python.
sed -i "1s|$UPSTREAM_VENV.tmp|$UPSTREAM_VENV|" "$UPSTREAM_VENV"/bin/* 2>/dev/null || true
log "upstream MassGen ready: $UPSTREAM_VENV/bin/massgen"

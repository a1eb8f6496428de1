#!/usr/bin/env bash
# Upstream MassGen, pinned, in a cached virtualenv (for the bench's side-by-side runs; the product never uses it).
# A venv cannot be moved (its scripts name their interpreter by path), so it is built in place and marked complete.
set -euo pipefail
. "$(dirname "$0")/env.sh"
marker="$UPSTREAM_VENV/.installed-massgen-$UPSTREAM_VERSION-$(sha256sum "$(dirname "$0")/upstream-constraints.txt" | cut -c1-12)"
if [ -f "$marker" ] && [ -x "$UPSTREAM_VENV/bin/massgen" ]; then
  log "upstream MassGen $UPSTREAM_VERSION cached: $UPSTREAM_VENV"; exit 0
fi
log "installing massgen==$UPSTREAM_VERSION into $UPSTREAM_VENV (about 1.9 GB from PyPI; 5-10 min)"
rm -rf "$UPSTREAM_VENV"
python3 -m venv "$UPSTREAM_VENV"
"$UPSTREAM_VENV/bin/pip" install --quiet --disable-pip-version-check -c "$(dirname "$0")/upstream-constraints.txt" "massgen==$UPSTREAM_VERSION"
touch "$marker"
log "upstream MassGen ready: $UPSTREAM_VENV/bin/massgen"

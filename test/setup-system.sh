#!/usr/bin/env bash
# The Debian packages the tests need, installed when missing (idempotent; a second run only checks):
#   chromium     the webview tests in npm test and the real-VS-Code tests drive it (playwright-core, no download)
#   bubblewrap   the sandbox agents' commands run in (src/core/sandbox); its tests run the real thing
#   socat        with bubblewrap, what Claude Code's own command sandbox needs on Linux (its tests run the real program)
#   libkrb5-dev, a compiler and python3: code-server's bundled VS Code builds native modules (test/vscode/rig)
# Needs root (or the packages already there). Run by `npm test` (pretest) and by test/vscode/rig/setup.sh.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
need=()
for p in chromium bubblewrap socat libkrb5-dev; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
command -v g++ >/dev/null && command -v make >/dev/null || need+=(build-essential)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -eq 0 ]; then
  echo "[setup] Debian packages present (chromium, bubblewrap, socat, libkrb5-dev, build tools)"
  exit 0
fi
[ "$(id -u)" = 0 ] || { echo "[setup] missing Debian packages: ${need[*]} (run as root, or apt-get install them)" >&2; exit 1; }
echo "[setup] installing Debian packages: ${need[*]}"
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
echo "[setup] Debian packages installed"

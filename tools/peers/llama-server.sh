#!/usr/bin/env bash
# Builds llama.cpp's llama-server from the source bundled in the npm package node-llama-cpp (pinned), once per
# version: about 10 CPU-minutes on 2 cores. No download but the npm tarball; no curl, no OpenSSL, portable CPU code.
set -euo pipefail
. "$(dirname "$0")/env.sh"
hold_lock "$(basename "$0" .sh)"
if [ -x "$LLAMA_SERVER" ] && [ -f "$LLAMA_DIR/templates/Qwen-Qwen2.5-7B-Instruct.jinja" ]; then
  log "llama-server cached: $LLAMA_SERVER"; exit 0
fi
mkdir -p "$PEERS_CACHE"
work="$(mktemp -d "$PEERS_CACHE/llama-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "building llama-server from node-llama-cpp@$LLAMA_NPM_VERSION (about 10 CPU-minutes)"
(cd "$work" && npm pack --silent "node-llama-cpp@$LLAMA_NPM_VERSION" >/dev/null)
tar -xzf "$work"/node-llama-cpp-*.tgz -C "$work" package/llama/gitRelease.bundle
git -c advice.detachedHead=false clone -q "$work/package/llama/gitRelease.bundle" "$work/llama.cpp"
cmake -S "$work/llama.cpp" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF >/dev/null
cmake --build "$work/build" --target llama-server -j "$(nproc)" >/dev/null
mkdir -p "$work/out/bin" "$work/out/templates"
cp "$work/build/bin/llama-server" "$work/out/bin/"
cp "$work/llama.cpp/models/templates/Qwen-Qwen2.5-7B-Instruct.jinja" "$work/out/templates/"
"$work/out/bin/llama-server" --version >"$work/out/VERSION" 2>&1 || true
rm -rf "$LLAMA_DIR" && mkdir -p "$(dirname "$LLAMA_DIR")" && mv "$work/out" "$LLAMA_DIR"
log "llama-server built: $LLAMA_SERVER ($(head -n1 "$LLAMA_DIR/VERSION"))"

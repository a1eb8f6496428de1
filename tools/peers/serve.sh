#!/usr/bin/env bash
# llama-server with SmolLM2-135M in the foreground, for trying MassGen against a real model by hand:
#   npm run real-model:serve                               # PORT=8081, one thread by default
#   PORT=9000 MASSGEN_LLAMA_THREADS=2 npm run real-model:serve
# The same command line as the tests' (test/helpers/llama-server.ts): MASSGEN_LLAMA_THREADS sets the threads for
# both (THREADS is still read here), one by default: on a shared 2-core machine two threads collapse whenever the
# other core is busy. Sampling defaults are greedy with a fixed seed (the tests' GREEDY_SAMPLING), for requests that
# set none.
set -euo pipefail
. "$(dirname "$0")/env.sh"
port="${PORT:-8081}"
threads="${MASSGEN_LLAMA_THREADS:-${THREADS:-1}}"
for f in "$LLAMA_SERVER" "$SMOLLM2_GGUF" "$LLAMA_DIR/templates/Qwen-Qwen2.5-7B-Instruct.jinja"; do
  [ -e "$f" ] || { log "missing $f: run npm run real-model:setup"; exit 1; }
done
cat >&2 <<MSG
[peers] SmolLM2-135M on llama-server, $threads thread(s). Point a MassGen config at it:
  OpenAI-compatible:  backend: { type: chatcompletion, model: smollm2, base_url: http://127.0.0.1:$port/v1 }
  Anthropic Messages: backend: { type: claude, model: smollm2, base_url: http://127.0.0.1:$port }
[peers] Ctrl-C stops it.
MSG
exec "$LLAMA_SERVER" -m "$SMOLLM2_GGUF" --chat-template-file "$LLAMA_DIR/templates/Qwen-Qwen2.5-7B-Instruct.jinja" \
  --host 127.0.0.1 --port "$port" -t "$threads" -c 8192 -np 1 --no-warmup --temp 0 --seed 42

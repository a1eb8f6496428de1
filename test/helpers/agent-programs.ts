// The real Claude Code and Codex programs for the coding-agent tests, as tools/peers/agents.sh installs them into the
// peers cache (their SDKs' platform packages, from the npm registry). The test set-up installs them: a missing
// program is a broken set-up, never a skipped test.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const cache = process.env.MASSGEN_PEERS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'massgen-vscode-peers');
const modules = join(cache, 'agent-programs', 'node_modules');
const tag = `${process.platform}-${process.arch}`;
const triple = `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-unknown-linux-musl`;

export const CLAUDE = join(modules, '@anthropic-ai', `claude-agent-sdk-${tag}`, 'claude');
export const CODEX = join(modules, '@openai', `codex-${tag}`, 'vendor', triple, 'bin', 'codex');

/** Installs the programs when they are missing (tools/peers/agents.sh; cached), then checks both run. */
export function ensureAgentPrograms(): void {
  if (!existsSync(CLAUDE) || !existsSync(CODEX)) execFileSync('bash', [join(__dirname, '..', '..', 'tools', 'peers', 'agents.sh')], { stdio: 'inherit' });
  for (const program of [CLAUDE, CODEX]) {
    if (!existsSync(program)) throw new Error(`${program} is missing after tools/peers/agents.sh`);
  }
}

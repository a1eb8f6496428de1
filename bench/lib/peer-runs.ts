// The two real systems as subprocesses for the `upstream` scenario: upstream MassGen 0.1.97 from its cached venv
// (tools/peers/upstream.sh) and our CLI from the bench's production build, each run headless on one YAML config
// against the same scripted fake server, in a temp folder of its own with HOME pointed there (nothing of the user's
// home is read or written). What each says about its ending is read from its own output: the automation lines
// (WINNER:, COMPLETED:, STATUS:) and upstream's status.json.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { peerPaths } from '../../test/helpers/peers';
import { runGuarded, type GuardedRun } from './guarded-process';
import { modelOf } from './scripted-peers-server';

/** A proxy nobody listens on (port 9, discard): requests sent through it are refused at once, on this machine. */
const CLOSED_PROXY = 'http://127.0.0.1:9';

/** Upstream's environment: a dummy key, HOME (and its logs) in the temp dir, and no way off the machine. */
function upstreamEnv(home: string, logs?: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    OPENAI_API_KEY: 'dummy-key',
    // LiteLLM fetches its price list from GitHub at import unless told to use its local copy.
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    ...(logs ? { MASSGEN_LOG_BASE_DIR: logs } : {}),
    // Nothing may leave the machine: upstream fetches LiteLLM's price list from GitHub whenever it prices a model it
    // does not know (a failed fetch is not cached, and offline each waits up to its 5 s timeout) and tiktoken's
    // encoding once. Through a proxy on a closed local port they fail at once; the fake is reached directly.
    HTTPS_PROXY: CLOSED_PROXY,
    HTTP_PROXY: CLOSED_PROXY,
    NO_PROXY: '127.0.0.1,localhost',
  };
}

export interface UpstreamInstall {
  /** The venv's interpreter and its `massgen` script: run as `python massgen …`, whatever the script's #! line says. */
  python: string | null;
  massgen: string | null;
  /** Why there is none, or what the install script said. */
  log: string;
}

/**
 * Upstream's venv, installed by tools/peers/upstream.sh (idempotent; cached outside the checkout; one install at a
 * time: a second caller waits on the script's lock and then finds the first's install).
 */
export function ensureUpstream(root: string, home: string, waitGuardMs = 45 * 60_000): UpstreamInstall {
  const venv = peerPaths().upstreamVenv;
  const massgen = join(venv, 'bin', 'massgen');
  const out = spawnSync('bash', [join(root, 'tools', 'peers', 'upstream.sh')], { encoding: 'utf8', timeout: waitGuardMs });
  const said = `${out.stdout ?? ''}${out.stderr ?? ''}`.trim();
  if (out.status !== 0 || !existsSync(massgen)) return { python: null, massgen: null, log: `tools/peers/upstream.sh failed (exit ${out.status}): ${said.slice(-1500)}` };
  mkdirSync(home, { recursive: true });
  // It imports (an install can resolve a dependency to a release upstream does not work with).
  const python = join(venv, 'bin', 'python');
  const probe = spawnSync(python, ['-c', 'import massgen.cli'], { encoding: 'utf8', timeout: 120_000, env: upstreamEnv(home) });
  if (probe.status !== 0) return { python: null, massgen: null, log: `upstream MassGen in ${venv} does not import: ${(probe.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}` };
  return { python, massgen, log: said };
}

/**
 * One YAML both systems read (ours takes upstream's config format): agents a1..aN, whose sorted ids make them
 * agent1..agentN in upstream as config order does in ours, each with its own model name so the fake knows who
 * asks. No api_key (upstream 0.1.97 passes it twice to its backend and fails; the key comes from OPENAI_API_KEY),
 * no cwd (no filesystem MCP, so upstream starts no npx). The answer cap only where the behaviour needs one.
 */
export function teamYaml(n: number, baseUrl: string, cap: number | null): string {
  const agents = Array.from({ length: n }, (_, i) => `  - id: a${i + 1}\n    backend:\n      type: chatcompletion\n      model: ${modelOf(i + 1)}\n      base_url: "${baseUrl}"\n`);
  const orchestrator = cap === null ? '' : `orchestrator:\n  max_new_answers_per_agent: ${cap}\n`;
  return `agents:\n${agents.join('')}${orchestrator}`;
}

export interface SystemRun {
  run: GuardedRun;
  /** The winner's agent id, as the system printed it (WINNER:), or null. */
  winner: string | null;
  /** How the run ended, in the system's own words (ours: COMPLETED:; upstream: status.json finish_reason). */
  reason: string;
  /** The end of its output, for a report when it failed. */
  excerpt: string;
}

const line = (out: string, key: string) => new RegExp(`^${key}: (.*)$`, 'm').exec(out)?.[1]?.trim() ?? null;

function tail(run: GuardedRun, logFile?: string): string {
  const logged = logFile && existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
  return [run.stderr.trim().split('\n').slice(-15).join('\n'), run.stdout.trim().split('\n').slice(-10).join('\n'), logged].filter(Boolean).join('\n---\n').slice(-3000);
}

/** A work folder with HOME in it and the config written. */
function workFolder(dir: string, yaml: string): string {
  mkdirSync(join(dir, 'home'), { recursive: true });
  writeFileSync(join(dir, 'team.yaml'), yaml);
  return join(dir, 'team.yaml');
}

/** `massgen --automation` of upstream, in `dir`, with its logs under `dir/logs`. */
export async function runUpstream({ python, massgen }: { python: string; massgen: string }, dir: string, yaml: string, task: string, guardMs: number): Promise<SystemRun> {
  const config = workFolder(dir, yaml);
  const env = upstreamEnv(join(dir, 'home'), join(dir, 'logs'));
  const run = await runGuarded(python, [massgen, '--automation', '--no-session-registry', '--config', config, '--output-file', join(dir, 'answer.txt'), task], { cwd: dir, env, guardMs });
  const status = line(run.stdout, 'STATUS');
  let reason = run.timedOut ? `killed after ${guardMs / 1000} s` : `exit ${run.code}`;
  if (status && existsSync(status)) {
    try {
      const s = JSON.parse(readFileSync(status, 'utf8')) as { finish_reason?: string };
      if (s.finish_reason) reason = run.timedOut ? `${s.finish_reason}; ${reason}` : s.finish_reason;
    } catch {
      /* a status.json caught mid-write: the exit code says enough */
    }
  }
  // Its log sits beside status.json (turn_N/attempt_N/massgen.log).
  return { run, winner: line(run.stdout, 'WINNER'), reason, excerpt: tail(run, status ? join(dirname(status), 'massgen.log') : undefined) };
}

/** `node cli.js run --automation` of ours (the bench's production build), in `dir`. */
export async function runOurs(cli: string, dir: string, yaml: string, task: string, guardMs: number): Promise<SystemRun> {
  const config = workFolder(dir, yaml);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: join(dir, 'home') };
  const run = await runGuarded(process.execPath, [cli, 'run', '--automation', '--config', config, '--log-dir', join(dir, 'logs'), task], { cwd: dir, env, guardMs });
  const winner = line(run.stdout, 'WINNER');
  return { run, winner: winner === 'none' ? null : winner, reason: line(run.stdout, 'COMPLETED') ?? (run.timedOut ? `killed after ${guardMs / 1000} s` : `exit ${run.code}`), excerpt: tail(run) };
}

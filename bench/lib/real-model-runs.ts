// One question through one system for the real-model scenario: our `massgen run` bundle and upstream MassGen's
// `massgen --automation`, each as a subprocess with the same team (3 × SmolLM2 behind the recording proxy), the same
// sampling (temperature 0, max_tokens), the same answer cap and orchestrator timeout, under a bench guard that
// kills a run that outlives its own timeout by far. Each run's ending is read from the system's own output.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCli } from '../../test/helpers/cli';
import { runGuarded } from './guarded-process';

export type System = 'ours' | 'upstream';

export interface TeamSettings {
  agents: number;
  /** The model name sent (llama-server serves its one model whatever the name). */
  model: string;
  temperature: number;
  /** Sent by upstream (its backend block passes unknown keys through); ours has no seed key (see the notes). */
  seed: number;
  maxTokens: number;
  maxNewAnswersPerAgent: number;
  orchestratorTimeoutSeconds: number;
  /** After the orchestrator timeout, how long the bench waits before it kills the process. */
  guardGraceSeconds: number;
}

export interface SystemRun {
  system: System;
  exitCode: number | null;
  /** The bench killed it: it outlived its orchestrator timeout + the grace. */
  killed: boolean;
  wallMs: number;
  /** The ending as the system named it (ours: COMPLETED; upstream: status.json finish_reason), or why none. */
  reason: string;
  /** The winner as the system named it (its `WINNER:` line), 'none' or '' when it named none. */
  winner: string;
  answer: string;
  /** Tail of stderr (warnings of Python's libraries dropped) for a run that failed, timed out or was killed. */
  excerpt?: string;
}

const agentIds = (n: number) => Array.from({ length: n }, (_, i) => `agent_${String.fromCharCode(97 + i)}`);

/** Our config: upstream's YAML keys (ours reads them), no api_key (a loopback base URL needs none). */
export function ourConfig(s: TeamSettings, baseUrl: string): string {
  const backend = `{type: chatcompletion, model: ${s.model}, base_url: "${baseUrl}", temperature: ${s.temperature}, max_tokens: ${s.maxTokens}}`;
  return [
    'agents:',
    ...agentIds(s.agents).map((id) => `  - id: ${id}\n    backend: ${backend}`),
    'orchestrator:',
    `  max_new_answers_per_agent: ${s.maxNewAnswersPerAgent}`,
    'timeout_settings:',
    `  orchestrator_timeout_seconds: ${s.orchestratorTimeoutSeconds}`,
    '',
  ].join('\n');
}

/**
 * Upstream's config, as its headless guide has it (massgen-upstream-v0.1.97-delta.md §3): no api_key key (a
 * duplicate-keyword TypeError in its chatcompletion branch; OPENAI_API_KEY=dummy instead), no cwd (no workspace,
 * no filesystem MCP), no changedoc, no restarts.
 */
export function upstreamConfig(s: TeamSettings, baseUrl: string): string {
  const backend = `{type: chatcompletion, model: ${s.model}, base_url: "${baseUrl}", temperature: ${s.temperature}, seed: ${s.seed}, max_tokens: ${s.maxTokens}}`;
  return [
    'agents:',
    ...agentIds(s.agents).map((id) => `  - id: ${id}\n    backend: ${backend}`),
    'orchestrator:',
    `  max_new_answers_per_agent: ${s.maxNewAnswersPerAgent}`,
    '  coordination:',
    '    enable_changedoc: false',
    '    max_orchestration_restarts: 0',
    'timeout_settings:',
    `  orchestrator_timeout_seconds: ${s.orchestratorTimeoutSeconds}`,
    'ui: {display_type: simple, logging_enabled: true}',
    '',
  ].join('\n');
}

const line = (stdout: string, key: string) => new RegExp(`^${key}: (.*)$`, 'm').exec(stdout)?.[1]?.trim();

function readJson(file: string | undefined): Record<string, unknown> | undefined {
  if (!file || !existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** stdout then stderr (its errors last), without the noise of Python's libraries (deprecation warnings and the source lines they quote). */
function excerptOf(stderr: string, stdout: string, max = 1200): string {
  // eslint-disable-next-line no-control-regex -- the colour codes of upstream's log lines
  const lines = `${stdout}\n${stderr}`.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((l) => l.trim() && !/Warning: |^\s+(with |warnings\.|import )/.test(l));
  return lines.join('\n').slice(-max);
}

export async function runOurs(cli: string, dir: string, s: TeamSettings, baseUrl: string, question: string): Promise<SystemRun> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.yaml'), ourConfig(s, baseUrl));
  const logDir = join(dir, 'log');
  let killed = false;
  let guard: NodeJS.Timeout | undefined;
  const t0 = performance.now();
  const run = await runCli(cli, ['run', '--automation', '--config', 'config.yaml', '--log-dir', logDir, question], {
    cwd: dir,
    onSpawn: (child) => {
      guard = setTimeout(() => ((killed = true), child.kill('SIGKILL')), (s.orchestratorTimeoutSeconds + s.guardGraceSeconds) * 1000);
    },
  });
  clearTimeout(guard);
  const wallMs = performance.now() - t0;
  const status = readJson(join(logDir, 'status.json'));
  const fromStatus = (status?.results as Record<string, unknown> | undefined)?.end_reason;
  const reason = killed ? 'killed by the bench guard' : (line(run.stdout, 'COMPLETED') ?? (typeof fromStatus === 'string' ? fromStatus : `no reason (exit ${run.code})`));
  const answerFile = line(run.stdout, 'ANSWER_FILE');
  const answer = answerFile && answerFile !== 'none' && existsSync(answerFile) ? readFileSync(answerFile, 'utf8') : (line(run.stdout, 'ANSWER_PREVIEW') ?? '');
  const ok = !killed && run.code === 0;
  const winner = line(run.stdout, 'WINNER') ?? '';
  return { system: 'ours', exitCode: run.code, killed, wallMs, reason, winner, answer, ...(ok ? {} : { excerpt: excerptOf(run.stderr, run.stdout) }) };
}

export async function runUpstream(massgen: string, dir: string, s: TeamSettings, baseUrl: string, question: string): Promise<SystemRun> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.yaml'), upstreamConfig(s, baseUrl));
  const output = join(dir, 'final.txt');
  const env = { PATH: process.env.PATH, HOME: dir, OPENAI_API_KEY: 'dummy', LITELLM_LOCAL_MODEL_COST_MAP: 'True', MASSGEN_LOG_BASE_DIR: join(dir, 'logs') };
  const args = ['--automation', '--no-session-registry', '--config', 'config.yaml', '--output-file', output, question];
  const run = await runGuarded(massgen, args, { cwd: dir, env, guardMs: (s.orchestratorTimeoutSeconds + s.guardGraceSeconds) * 1000 });
  const { stdout, stderr, code, timedOut: killed, ms: wallMs } = run;
  const status = readJson(line(stdout, 'STATUS'));
  const finish = status?.finish_reason;
  const details = status?.finish_reason_details;
  const named = typeof finish === 'string' ? finish : undefined;
  const reason = killed ? `killed by the bench guard${named ? ` (status: ${named})` : ''}` : (named ?? `no status (exit ${code})`);
  // The winner's answer file; --output-file holds the whole streamed transcript (every agent's text, retries too).
  const answerFile = line(stdout, 'ANSWER_FILE') ?? line(stdout, 'ANSWER');
  const answer = answerFile && existsSync(answerFile) ? readFileSync(answerFile, 'utf8') : '';
  const ok = !killed && code === 0 && finish === 'completed';
  const why = typeof details === 'string' && details ? `finish_reason_details: ${details}\n` : '';
  const winner = line(stdout, 'WINNER') ?? '';
  return { system: 'upstream', exitCode: code, killed, wallMs, reason, winner, answer, ...(ok ? {} : { excerpt: why + excerptOf(stderr, stdout) }) };
}

/** Whether one of the accepted answers appears in the final answer as a whole word (case-insensitive). */
export function isCorrect(answer: string, accepted: string[]): boolean {
  return accepted.some((a) => new RegExp(`(^|[^\\w])${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`, 'i').test(answer));
}

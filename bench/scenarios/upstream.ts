// Scenario 3b: the real upstream MassGen 0.1.97 beside our real CLI, on one scripted fake server that plays the same
// behaviours for both (bench/lib/scripted-peers-server.ts). Every figure comes from the fake's own request log: model
// calls, prompt tokens, billed input under each provider's cache (priced from the bodies each system really sent),
// and the time from the first request to the last response against the run's physical bound. Upstream's failures
// (a crash, a loop, the guard) are its result in that cell, reported with an excerpt of its log.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BEHAVIOURS, type BehaviourName } from '../lib/behaviours';
import { billedInput, CACHE_MODELS, type CacheModel } from '../lib/billing';
import { ensureUpstream, runOurs, runUpstream, teamYaml, type SystemRun } from '../lib/peer-runs';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { criticalPathMs, DELAY_SCALE, startScriptedPeers, type PeerCall, type PeerSystem, type ScriptedPeers } from '../lib/scripted-peers-server';
import { tally } from '../lib/tokens';
import { COORDINATION_TOOLS } from '../../src/core/engine/tool-names';
import type { PromptBill } from '../../src/core/usage/cache';
import { TASK } from './consensus';

/** A failure guard per run of either system (then its process group is ended): never a measured time. */
const GUARD_MS = 300_000;

interface SystemFigures {
  system: PeerSystem;
  /** Coordination calls (answers, votes, enforcement retries); upstream's presentation apart. */
  calls: number;
  answers: number;
  votes: number;
  /** Calls the client closed before the reply was written out (a run that moved on, or ended). */
  cut: number;
  /** Calls with no coordination tool offered (answered with text). */
  other: number;
  presentations: number;
  promptTokens: number;
  presentationTokens: number;
  /** chars/4 of the raw JSON bodies (what the fake's usage reports), for scale. */
  wireTokens: number;
  billed: Record<CacheModel, PromptBill>;
  /** ms from the first request to the last coordination response, and to the last response of all. */
  decisionMs: number;
  endMs: number;
  /** The physical bound of the whole run (scripted times on the longest chain of calls). */
  boundMs: number;
  /** The first request as the fake read it: its tools and system prompt. */
  shape: string;
  /** Wall time of the process, start-up included. */
  processMs: number;
  winner: string | null;
  reason: string;
  exit: number | null;
  finished: boolean;
  excerpt: string;
  problems: string[];
}

/** aK (config id) → agentK: config order in ours, sorted ids in upstream; the same for ids a1..a9. */
const labelOfId = (id: string | null) => (id && /^a\d$/.test(id) ? `agent${id.slice(1)}` : id);

function figuresOf(system: PeerSystem, calls: readonly PeerCall[], run: SystemRun, problems: string[]): SystemFigures {
  const coordination = calls.filter((c) => c.kind !== 'presentation');
  const presentations = calls.filter((c) => c.kind === 'presentation');
  const t = tally(coordination.map((c) => [c.label, c.request] as [string, typeof c.request]));
  const timed = coordination.map((c) => ({ agent: c.label, request: c.request, start: c.arrived, ready: c.began }));
  const billed = Object.fromEntries(CACHE_MODELS.map((m) => [m, billedInput(timed, m, system === 'upstream')])) as Record<CacheModel, PromptBill>;
  const first = Math.min(...calls.map((c) => c.arrived));
  const lastOf = (cs: readonly PeerCall[]) => Math.max(first, ...cs.map((c) => c.finished ?? c.arrived));
  return {
    system,
    calls: coordination.length,
    answers: coordination.filter((c) => c.kind === 'answer').length,
    votes: coordination.filter((c) => c.kind === 'vote').length,
    cut: calls.filter((c) => c.outcome !== 'completed').length,
    other: coordination.filter((c) => c.kind === 'other').length,
    presentations: presentations.length,
    promptTokens: t.promptTokens,
    presentationTokens: tally(presentations.map((c) => [c.label, c.request] as [string, typeof c.request])).promptTokens,
    wireTokens: calls.reduce((s, c) => s + JSON.stringify(c.body).length / 4, 0),
    billed,
    decisionMs: calls.length ? lastOf(coordination) - first : 0,
    endMs: calls.length ? lastOf(calls) - first : 0,
    boundMs: criticalPathMs(calls),
    shape: shapeOf(calls[0]),
    processMs: run.run.ms,
    winner: labelOfId(run.winner),
    reason: run.reason,
    exit: run.run.code,
    finished: !run.run.timedOut && run.run.code === 0 && run.winner !== null,
    excerpt: run.excerpt,
    problems,
  };
}

function shapeOf(call: PeerCall | undefined): string {
  if (!call) return 'no request';
  const tools = call.request.tools.map((t) => t.name);
  const coordination = tools.filter((t) => COORDINATION_TOOLS.has(t));
  const others = tools.filter((t) => !coordination.includes(t));
  return `${tools.length} tools (${coordination.join(', ')}${others.length ? ` + ${others.length} others: ${others.join(', ')}` : ''}), system prompt ${fmt(call.request.system.length, 0)} chars`;
}

async function runSystem(peers: ScriptedPeers, system: PeerSystem, go: (dir: string) => Promise<SystemRun>, behaviour: BehaviourName, n: number, dir: string): Promise<SystemFigures> {
  peers.play(system, BEHAVIOURS[behaviour], n);
  mkdirSync(dir, { recursive: true });
  const run = await go(dir);
  await peers.settled();
  const calls = [...peers.calls];
  // The fake's log of the run, kept with BENCH_KEEP_TMP=1: every body, with its times and the reply it got.
  writeFileSync(join(dir, 'requests.jsonl'), calls.map(({ request: _request, ...c }) => JSON.stringify(c)).join('\n') + '\n');
  return figuresOf(system, calls, run, [...peers.problems]);
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

export const upstream: Scenario = {
  name: 'upstream',
  title: '3b. The real upstream MassGen 0.1.97 vs ours, on one scripted server',
  async run(ctx: BenchContext) {
    const r = new Results();
    const install = ensureUpstream(ctx.root, join(ctx.tmp, 'probe-home'));
    if (!install.python || !install.massgen) {
      r.goal('upstream.installed', 'upstream MassGen 0.1.97 runs', null, '>=', 1, '', { note: install.log });
      r.note(`upstream could not be run: ${install.log}`);
      return r.result();
    }
    const up = { python: install.python, massgen: install.massgen };
    const cli = join(ctx.dist, 'cli.js');
    const sizes = ctx.quick ? [3] : [3, 5, 8];
    const cap = ctx.quick ? 2 : 3;
    const peers = await startScriptedPeers();
    try {
      for (const behaviour of ['agree', 'converge', 'disagree'] as const) {
        for (const n of sizes) {
          const key = `upstream.${behaviour}.n${n}`;
          const yaml = teamYaml(n, peers.baseUrl, behaviour === 'disagree' ? cap : null);
          const cell = join(ctx.tmp, `${behaviour}-n${n}`);
          ctx.log(`${behaviour} N=${n}: ours`);
          const ours = await runSystem(peers, 'ours', (dir) => runOurs(cli, dir, yaml, TASK, GUARD_MS), behaviour, n, join(cell, 'ours'));
          // Our CLI failing on a scripted team is a bug, not a figure.
          if (!ours.finished) throw new Error(`ours did not finish ${behaviour} N=${n} (${ours.reason}, exit ${ours.exit}):\n${ours.excerpt}`);
          ctx.log(`${behaviour} N=${n}: upstream`);
          const theirs = await runSystem(peers, 'upstream', (dir) => runUpstream(up, dir, yaml, TASK, GUARD_MS), behaviour, n, join(cell, 'upstream'));
          report(r, key, behaviour, n, ours, theirs, r.rows.length === 0);
        }
      }
    } finally {
      await peers.close();
    }
    r.note(
      `One fake OpenAI-compatible server (bench/lib/scripted-peers-server.ts) plays the behaviours of scenario 3 for both systems, reading each request as a model would (its model = the agent, the answers shown, the tools offered). Each call streams one tool call over a scripted time: behaviours.ts durationMs × ${DELAY_SCALE} (answers ${fmt(DELAY_SCALE * 10, 0)}–${fmt(DELAY_SCALE * 10 * (1 + 0.1 * (Math.max(...sizes) - 1)), 0)} ms, votes ${fmt(DELAY_SCALE * 3, 0)}–${fmt(DELAY_SCALE * 3 * (1 + 0.1 * (Math.max(...sizes) - 1)), 0)} ms, agent K slower than agent K−1), a quarter of it before the first chunk.`,
    );
    r.note(`Same YAML for both (agents a1..aN, model bench-agentK, base_url = the fake, no api_key, no cwd; disagree: max_new_answers_per_agent ${cap}); everything else at each system's defaults. Upstream: massgen --automation --no-session-registry, OPENAI_API_KEY=dummy-key, LITELLM_LOCAL_MODEL_COST_MAP=True, HOME and MASSGEN_LOG_BASE_DIR in the temp dir. Ours: node <bench build>/cli.js run --automation.`);
    r.note('calls = coordination calls from the fake\'s log; upstream\'s final presentation (the winner asked again) is shown as +k but not counted in the call and billing ratios. Tokens = chars/4 of system + messages + tool definitions of each body (lib/tokens.ts), the same rule for both.');
    r.note(
      'Billed input: the bodies each system sent, read back into requests (lib/wire-request.ts) and priced by lib/billing.ts. openai/gemini: automatic prefix caches over the serialised body, one scope per run. anthropic: the chat-completions body put through our Anthropic provider\'s body builder (its cache_control breakpoints: system prompt and first user turn), both systems alike; upstream is billed with the cheaper of those breakpoints and none (billedInput bestPlacement). Our CLI sees a local server with no known cache, so its cache-aware choices (shared starts, prefix gate) are not in play here: scenario 3 measures those.',
    );
    r.note('time = first request → last response at the fake; bound = scripted times on the longest chain of calls each sent after the previous one was written out (the run\'s critical path, upstream\'s presentation included). The goal compares time/bound: ours ÷ upstream ≤ 1.');
    return r.result();
  },
};

function describe(f: SystemFigures): string {
  const pres = f.presentations ? ` (+${f.presentations} presentation, ${fmt(f.presentationTokens, 0)} tok)` : '';
  const extra = [f.cut ? `${f.cut} cut by the client` : '', f.other ? `${f.other} without coordination tools` : ''].filter(Boolean).join(', ');
  return `${f.calls} calls${pres}: ${f.answers} answers, ${f.votes} votes${extra ? `, ${extra}` : ''}; ${fmt(f.promptTokens, 0)} prompt tok; winner ${f.winner ?? 'none'}, ${f.reason}`;
}

function report(r: Results, key: string, behaviour: BehaviourName, n: number, ours: SystemFigures, theirs: SystemFigures, first: boolean): void {
  const head = `${behaviour} N=${n}`;
  if (first) {
    r.info('first request read by the fake: ours', ours.shape);
    r.info('first request read by the fake: upstream', theirs.shape);
  }
  r.info(`${head}: ours`, describe(ours));
  r.info(`${head}: upstream`, describe(theirs));
  const unmeasured = theirs.calls === 0 ? `upstream made no model call (${theirs.reason})` : undefined;
  const partial = !theirs.finished && theirs.calls > 0 ? ` (upstream did not finish: ${theirs.reason}; its figures up to then)` : '';
  if (!theirs.finished) r.note(`${head}: upstream did not finish (${theirs.reason}, exit ${theirs.exit}). Its log ends:\n${theirs.excerpt.split('\n').map((l) => `      ${l}`).join('\n')}`);
  for (const p of [...ours.problems.map((x) => `ours: ${x}`), ...theirs.problems.map((x) => `upstream: ${x}`)]) r.note(`${head}: the fake could not read a request: ${p}`);
  for (const model of CACHE_MODELS) {
    const [b, u] = [ours.billed[model], theirs.billed[model]];
    r.info(`${head}: billed input, ${model}`, `ours ${fmt(b.billed, 0)} (${fmt(b.read, 0)} read, ${fmt(b.written, 0)} written, ${fmt(b.uncached, 0)} uncached); upstream ${fmt(u.billed, 0)} (${fmt(u.read, 0)} read, ${fmt(u.written, 0)} written, ${fmt(u.uncached, 0)} uncached)`);
    r.goal(`${key}.billed_ratio.${model}`, `${head}: billed input ours/upstream, ${model}${partial}`, unmeasured ? null : ratio(b.billed, u.billed), '<=', 0.8, '', { note: unmeasured });
  }
  r.goal(`${key}.calls_ratio`, `${head}: calls ours/upstream${partial}`, unmeasured ? null : ratio(ours.calls, theirs.calls), '<=', 1, '', { note: unmeasured });
  const [ot, ut] = [ratio(ours.endMs, ours.boundMs), ratio(theirs.endMs, theirs.boundMs)];
  r.info(
    `${head}: time / physical bound`,
    `ours ${fmt(ours.endMs / 1000, 2)} s / ${fmt(ours.boundMs / 1000, 2)} s = ${ot === null ? '—' : fmt(ot, 2)}; upstream ${fmt(theirs.endMs / 1000, 2)} s / ${fmt(theirs.boundMs / 1000, 2)} s = ${ut === null ? '—' : fmt(ut, 2)} (to its last vote ${fmt(theirs.decisionMs / 1000, 2)} s); time ours/upstream ${fmt(ours.endMs / Math.max(1, theirs.endMs), 2)}; processes (start-up included) ${fmt(ours.processMs / 1000, 1)} s and ${fmt(theirs.processMs / 1000, 1)} s`,
  );
  r.goal(`${key}.time_ratio`, `${head}: time/bound ours ÷ upstream${partial}`, unmeasured || ot === null || ut === null ? null : ot / ut, '<=', 1, '', { note: unmeasured });
  r.figure(key, { ours: strip(ours), upstream: strip(theirs) });
}

/** The figures for the JSON line, without the log excerpt. */
function strip(f: SystemFigures): Omit<SystemFigures, 'excerpt'> {
  const { excerpt: _excerpt, ...rest } = f;
  return rest;
}

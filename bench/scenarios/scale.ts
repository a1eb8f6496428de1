// Scenario 5: scale. A 50-round disagreeing run (3 agents, a new answer from everyone every round, no cap, up to
// max_rounds) and a 16-agent run (answer, revise, vote). The providers answer at once from memory, so the run is
// CPU-bound and the time between two events is the engine's own work for the second one (the consumer's time, the
// run-state reducer here, is timed apart and left out). Compared: the first vs the last decile of events, after a
// warm-up run; heap after a forced GC at the first and last decile of a separate, untimed run.

import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { estimatePromptTokens } from '../../src/core/engine/budget';
import type { RunEvent } from '../../src/core/engine/events';
import { RunSession } from '../../src/core/run/session';
import { benchConfig } from '../lib/config';
import { applyEvent, initialRunState } from '../../src/core/engine/run-state';
import type { CompleteOptions, ModelProvider, ModelRequest, ModelResponse } from '../../src/core/providers/types';
import { answerText } from '../lib/behaviours';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { mean, median, parts } from '../lib/stats';
import { runCase } from './consensus';
import { serialise } from '../lib/tokens';
import { lineTime } from '../lib/line-time';
import { reanchorSelection } from '../../src/core/edit/reanchor';
import { parsePatch } from '../../webview/diff-parse';
import { addedFile, joinPatches } from '../../test/webview/patches';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const DELTAS_PER_CALL = 20;

/** Plays a fixed list of moves (call k → moves[min(k, last)]), streaming a little text first; no I/O, no copies. */
class InstantProvider implements ModelProvider {
  readonly description = 'bench instant provider';
  calls = 0;
  /** Prompt size of each call (chars), recorded only while `record` is set (the dry run): serialising costs time. */
  promptChars: number[] = [];
  record = true;
  /** Time the engine's budget estimate takes on each request (µs), recorded with the prompt sizes. */
  estimateUs: number[] = [];
  private readonly answers: string[];
  constructor(
    readonly model: string,
    label: string,
    private readonly moves: ('answer' | 'vote')[],
    maxCalls: number,
  ) {
    this.answers = Array.from({ length: maxCalls + 1 }, (_, k) => JSON.stringify({ content: answerText(label, k + 1) }));
  }

  async complete(request: ModelRequest, { onDelta }: CompleteOptions): Promise<ModelResponse> {
    const k = this.calls++;
    if (this.record) {
      this.promptChars.push(serialise(request).length);
      const t = performance.now();
      for (let i = 0; i < 10; i++) estimatePromptTokens(request);
      this.estimateUs.push(((performance.now() - t) / 10) * 1000);
    }
    await Promise.resolve();
    for (let i = 0; i < DELTAS_PER_CALL; i++) onDelta?.({ type: 'text', text: 'thinking about the parser and its edge cases ' });
    const move = this.moves[Math.min(k, this.moves.length - 1)];
    const call =
      move === 'answer'
        ? { id: `c${k}`, name: 'new_answer', arguments: this.answers[Math.min(k, this.answers.length - 1)] }
        : { id: `c${k}`, name: 'vote', arguments: JSON.stringify({ agent_id: 'agent1', reason: 'best' }) };
    return { text: '', toolCalls: [call], stopReason: 'tool_calls', usage: { inputTokens: 100, cachedInputTokens: 0, outputTokens: 50 } };
  }
}

interface ScaleRun {
  events: number;
  calls: number;
  rounds: number;
  reason: string;
  /** Engine time per event (µs), first and last decile: mean gap within a run, median over the runs. */
  engineUsFirst: number;
  engineUsLast: number;
  /** The same with the median gap within a run (the typical event). */
  engineMedianUsFirst: number;
  engineMedianUsLast: number;
  reducerUsFirst: number;
  reducerUsLast: number;
  heapFirstMB: number;
  heapLastMB: number;
  /** Prompt size of one agent's request in its first and last rounds (chars). */
  promptFirst: number;
  promptLast: number;
  /** The budget guard's prompt estimate (run on every call, budget or not) on one agent's first and last request, µs. */
  estimateUsFirst: number;
  estimateUsLast: number;
  /** All prompt tokens of the run (chars/4). */
  promptTokensTotal: number;
}

async function scaleRun(n: number, moves: ('answer' | 'vote')[], maxRounds: number, repeats: number): Promise<ScaleRun> {
  const providers = Array.from({ length: n }, (_, i) => new InstantProvider(`m${i + 1}`, `agent${i + 1}`, moves, maxRounds));
  // Through the run session, as every front end runs: each provider stands behind an ordinary config entry.
  const config = benchConfig(providers.map((p, i) => ({ id: `a${i + 1}`, model: p.model })), { maxRounds }, { orchestratorTimeoutSeconds: 600, agentTurnTimeoutSeconds: 120 });
  const make = (onEvent: (e: RunEvent) => void) => {
    const session = new RunSession({ task: 'Parse a CSV line into typed fields.', config, extraProviders: (a) => providers[Number(a.id.slice(1)) - 1] });
    session.subscribe(onEvent);
    return session;
  };
  // Dry run: counts the events, records prompt sizes, warms the JIT.
  let total = 0;
  await make(() => total++).start();
  const calls = providers.reduce((sum, p) => sum + p.calls, 0);
  for (const p of providers) p.record = false;

  // Measured runs: the machine is shared, so each decile's figure is the median over several runs. Within a run a
  // decile's figure is its mean gap (its engine time / its events); the median gap is shown too, for the typical
  // event (it moves with the mix of event kinds, e.g. deltas early and votes late).
  const engineFirst: number[] = [];
  const engineLast: number[] = [];
  const medianFirst: number[] = [];
  const medianLast: number[] = [];
  const reducerFirst: number[] = [];
  const reducerLast: number[] = [];
  let reason = '';
  let rounds = 0;
  let events = 0;
  for (let rep = 0; rep < repeats; rep++) {
    for (const p of providers) p.calls = 0;
    const state = initialRunState();
    const gaps: number[] = [];
    const reducer: number[] = [];
    events = 0;
    let lastOut = 0;
    const onEvent = (e: RunEvent) => {
      const tIn = performance.now();
      if (events > 0) gaps.push(tIn - lastOut);
      applyEvent(state, e);
      reducer.push(performance.now() - tIn);
      events++;
      lastOut = performance.now();
    };
    gc();
    const result = await make(onEvent).start();
    reason = result.reason;
    rounds = state.round;
    const d = parts(gaps, 10);
    const rd = parts(reducer, 10);
    engineFirst.push(mean(d[0]) * 1000);
    engineLast.push(mean(d[9]) * 1000);
    medianFirst.push(median(d[0]) * 1000);
    medianLast.push(median(d[9]) * 1000);
    reducerFirst.push(mean(rd[0]) * 1000);
    reducerLast.push(mean(rd[9]) * 1000);
  }

  // Heap: one more run, not timed (a forced GC would itself disturb the next events' timing), sampled after a forced
  // GC at the start of the first and of the last decile.
  const sampleAt = new Set([Math.floor(total / 10), Math.floor((9 * total) / 10)]);
  const heap: number[] = [];
  let seen = 0;
  for (const p of providers) p.calls = 0;
  await make(() => {
    if (sampleAt.has(++seen)) {
      gc();
      heap.push(process.memoryUsage().heapUsed);
    }
  }).start();

  const promptChars = providers[0].promptChars;
  return {
    events,
    calls,
    rounds,
    reason,
    engineUsFirst: median(engineFirst),
    engineUsLast: median(engineLast),
    engineMedianUsFirst: median(medianFirst),
    engineMedianUsLast: median(medianLast),
    reducerUsFirst: median(reducerFirst),
    reducerUsLast: median(reducerLast),
    heapFirstMB: heap[0] / 2 ** 20,
    heapLastMB: heap[1] / 2 ** 20,
    promptFirst: promptChars[0],
    promptLast: promptChars[promptChars.length - 1],
    estimateUsFirst: providers[0].estimateUs[0],
    estimateUsLast: providers[0].estimateUs[providers[0].estimateUs.length - 1],
    promptTokensTotal: providers.reduce((sum, p) => sum + p.promptChars.reduce((a, b) => a + b, 0), 0) / 4,
  };
}

export const scale: Scenario = {
  name: 'scale',
  title: '5. Scale: 50-round disagreeing run, 16-agent run (first vs last decile of events)',
  async run(ctx: BenchContext) {
    const r = new Results();
    const rounds = ctx.quick ? 10 : 50;
    // One run takes ~10 ms, so a single preempted millisecond moves a decile's mean: many runs, and their median.
    const repeats = ctx.quick ? 15 : 101;
    const runs: [string, string, () => Promise<ScaleRun>][] = [
      [`rounds${rounds}`, `${rounds}-round disagreeing run (3 agents)`, () => scaleRun(3, ['answer'], rounds, repeats)],
      [`agents${ctx.quick ? 8 : 16}`, `${ctx.quick ? 8 : 16}-agent run (answer, revise, vote)`, () => scaleRun(ctx.quick ? 8 : 16, ['answer', 'answer', 'vote'], 10, repeats)],
    ];
    for (const [key, title, fn] of runs) {
      // Node prints process warnings to the user's terminal (the CLI's stderr): count the ones the engine causes.
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message.slice(0, 90)}`);
      process.on('warning', onWarning);
      const s = await fn();
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
      process.off('warning', onWarning);
      if (warnings.length) r.info('    Node warnings printed during the run', `${warnings.length}× ${[...new Set(warnings)].join('; ')}`);
      ctx.log(`scale ${key}: ${s.events} events, ${s.calls} calls, ${s.rounds} rounds, ${s.reason}`);
      r.info(title, `${s.events} events, ${s.calls} calls, ${s.rounds} rounds (${s.reason})`);
      r.goal(`scale.${key}.event_time_ratio`, `  engine time per event, last/first decile`, s.engineUsLast / s.engineUsFirst, '<=', 1.5);
      r.info('    engine µs per event (first → last decile)', `${fmt(s.engineUsFirst, 1)} → ${fmt(s.engineUsLast, 1)}; reducer ${fmt(s.reducerUsFirst, 1)} → ${fmt(s.reducerUsLast, 1)}`);
      r.info('    engine µs for the median event (first → last decile)', `${fmt(s.engineMedianUsFirst, 2)} → ${fmt(s.engineMedianUsLast, 2)}`);
      r.goal(`scale.${key}.heap_growth_mb`, `  heap growth, first → last decile (after GC)`, s.heapLastMB - s.heapFirstMB, '<=', 5, ' MB', { digits: 1 });
      r.info('    one agent\'s prompt, first → last request', `${fmt(s.promptFirst / 4, 0)} → ${fmt(s.promptLast / 4, 0)} tokens (chars/4)`);
      r.info('    budget estimate per call (estimatePromptTokens), first → last', `${fmt(s.estimateUsFirst, 1)} → ${fmt(s.estimateUsLast, 1)} µs`);
      r.figure(key, s);
    }
    // The same disagreeing behaviour under upstream's policy: everyone answers every round until the answer cap
    // (= the round count), then votes. Ours ends at max_rounds one round later with the same votes.
    const c = await runCase(3, 'disagree', rounds, rounds + 1);
    r.info(
      `${rounds}-round disagreeing run: prompt tokens`,
      `ours ${fmt(c.ours.promptTokens, 0)} (${c.ours.calls} calls; ${fmt(c.ours.compactedTokens, 0)} if compacted) vs upstream ${fmt(c.upstream.promptTokens, 0)} (${c.upstream.calls} calls); uncached ${fmt(c.ours.uncachedTokens, 0)} vs ${fmt(c.upstream.uncachedTokens, 0)}`,
    );
    r.goal(`scale.rounds${rounds}.tokens_ratio`, `${rounds}-round disagreeing run: prompt tokens ours/upstream`, c.ours.promptTokens / c.upstream.promptTokens, '<', 1);
    r.figure(`rounds${rounds}_vs_upstream`, { ours: c.ours, upstream: c.upstream });

    // Large texts the user's side handles in one pass: the viewer's diff parser, the selection's re-anchoring.
    const linesOf = (n: number) => Array.from({ length: n }, (_, i) => `export const value${i} = ${i};`);
    const parse = lineTime(50_000, (n) => joinPatches([addedFile('big.ts', linesOf(n))]).patch, parsePatch, ctx.quick ? 5 : 21);
    const reanchor = lineTime(
      40_000,
      (n) => {
        const doc = `${linesOf(n).join('\n')}\n`;
        const start = doc.indexOf(`export const value${Math.floor(n * 0.75)} =`);
        return { originalDoc: doc, currentDoc: doc.replace(/\n/g, '\r\n'), start, end: doc.indexOf('\n', start) };
      },
      (selection) => {
        if (!reanchorSelection(selection).ok) throw new Error('the selection was not re-anchored');
      },
      ctx.quick ? 5 : 21,
    );
    for (const [key, title, t] of [['parse_patch', 'viewer: parsing a patch', parse], ['reanchor_crlf', 'selection: re-anchoring across LF → CRLF', reanchor]] as const) {
      r.goal(`scale.${key}.line_time_ratio`, `${title}, time per line ${fmt(t.largeLines, 0)} / ${fmt(t.smallLines, 0)} lines`, t.ratio, '<=', 2);
      r.info(`    µs per line (${fmt(t.smallLines, 0)} → ${fmt(t.largeLines, 0)} lines)`, `${fmt(t.smallUsPerLine, 3)} → ${fmt(t.largeUsPerLine, 3)}`);
      r.figure(key, t);
    }
    r.note('Engine time per event excludes the event consumer; prompt size is what every provider must serialise and send per call.');
    return r.result();
  },
};

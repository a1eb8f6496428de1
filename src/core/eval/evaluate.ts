// The eval loop: every item × system not yet done, item by item (so an interrupted eval leaves whole items behind
// it), through the limiter; each pair's row is handed out as soon as it is scored, to be appended to results.jsonl.
// Cancelling stops the runs going and the ones waiting; what finished is kept. A configuration problem found by a
// run (a backend that cannot be built) stops the eval, since every other run would hit it too.

import { setMaxListeners } from 'node:events';
import type { EvalItem } from './dataset';
import { expectedOf } from './dataset';
import type { RunLimiter } from './limiter';
import { pairKey, type ResultRow } from './results';
import { scoreRun, type Score } from './scoring';
import type { RunOnce, RunOutcome, Who } from './session-run';
import type { SystemSpec } from './systems';

export interface EvaluateOptions {
  items: readonly EvalItem[];
  systems: readonly SystemSpec[];
  /** Pairs already done (`pairKey`), skipped. */
  done: ReadonlySet<string>;
  runOnce: RunOnce;
  limiter: RunLimiter;
  /** The providers a system's runs use, for the limiter. */
  providersOf(system: SystemSpec): string[];
  signal: AbortSignal;
  /** Where a run keeps its log (absolute), or undefined for none; `sample` for the baseline's samples (1-based). */
  logDirFor?(item: EvalItem, system: SystemSpec, sample?: number): string | undefined;
  /** How a row names a log directory (relative to the eval's folder). */
  displayPath?(path: string): string;
  onStart?(item: EvalItem, system: SystemSpec): void;
  onRow(row: ResultRow): void;
}

export interface EvaluateResult {
  /** Rows made by this call, in the order they finished. */
  rows: ResultRow[];
  /** Pairs not finished because the eval was cancelled. */
  unfinished: number;
}

export function pendingPairs(items: readonly EvalItem[], systems: readonly SystemSpec[], done: ReadonlySet<string>): { item: EvalItem; system: SystemSpec }[] {
  return items.flatMap((item) => systems.filter((s) => !done.has(pairKey(item.id, s.id))).map((system) => ({ item, system })));
}

export async function evaluate(o: EvaluateOptions): Promise<EvaluateResult> {
  const inner = new AbortController();
  // Each running run listens on it, and the limiter once for every run waiting: a bound that still shows a leak.
  setMaxListeners(Math.max(10, o.limiter.total + 1), inner.signal);
  const stop = () => inner.abort(new Error('cancelled'));
  if (o.signal.aborted) stop();
  else o.signal.addEventListener('abort', stop, { once: true });
  const rows: ResultRow[] = [];
  let unfinished = 0;
  let fatal: { err: unknown } | undefined;
  const pairs = pendingPairs(o.items, o.systems, o.done);
  const once = (item: EvalItem, system: SystemSpec, who: Who, sample?: number) =>
    o.limiter.run(o.providersOf(system), async (): Promise<RunOutcome | 'cancelled'> => {
      if (inner.signal.aborted) return 'cancelled';
      if (sample === undefined || sample === 1) o.onStart?.(item, system);
      try {
        return await o.runOnce(item, who, { signal: inner.signal, logDir: o.logDirFor?.(item, system, sample) });
      } catch (err) {
        // Stopped here, before the limiter frees the slot, so no waiting run starts into the same failure.
        if (!inner.signal.aborted) {
          fatal ??= { err };
          stop();
        }
        throw err;
      }
    }, inner.signal);
  await Promise.all(
    pairs.map(async ({ item, system }) => {
      try {
        const row = await runPair(item, system, once, o.displayPath ?? ((p) => p));
        if (row === 'cancelled') unfinished++;
        else {
          rows.push(row);
          o.onRow(row);
        }
      } catch (err) {
        // Runs stopped by the cancel (or by a fatal error elsewhere) are unfinished; anything else is fatal.
        if (!inner.signal.aborted) {
          fatal ??= { err };
          stop();
        }
        unfinished++;
      }
    }),
  );
  o.signal.removeEventListener('abort', stop);
  if (fatal) throw fatal.err;
  return { rows, unfinished };
}

type Once = (item: EvalItem, system: SystemSpec, who: Who, sample?: number) => Promise<RunOutcome | 'cancelled'>;

async function runPair(item: EvalItem, system: SystemSpec, once: Once, displayPath: (p: string) => string): Promise<ResultRow | 'cancelled'> {
  if (system.kind !== 'self-consistency') {
    const who: Who = system.kind === 'team' ? { team: true } : system.kind === 'team-escalating' ? { team: true, escalation: { stages: system.stages, minAgreeing: system.minAgreeing } } : { agent: system.agent };
    const outcome = await once(item, system, who);
    if (outcome === 'cancelled') return 'cancelled';
    return rowOf(item, system, outcome, scoreRun(item, outcome), displayPath);
  }
  const samples = await Promise.all(Array.from({ length: system.samples }, (_, i) => once(item, system, { agent: system.agent }, i + 1)));
  if (samples.some((s) => s === 'cancelled')) return 'cancelled';
  return selfConsistencyRow(item, system, samples as RunOutcome[], displayPath);
}

/** The cost of a run's usage: unknown (null) when no call was priced, a lower bound when some were not. */
function costOf(usage: RunOutcome['usage']): { cost_usd: number | null; cost_partial: boolean } {
  if (usage.calls > 0 && usage.unpricedCalls === usage.calls) return { cost_usd: null, cost_partial: false };
  return { cost_usd: Math.round(usage.costUsd * 1e8) / 1e8, cost_partial: usage.unpricedCalls > 0 };
}

export function rowOf(item: EvalItem, system: SystemSpec, outcome: RunOutcome, score: Score, displayPath: (p: string) => string = (p) => p): ResultRow {
  const u = outcome.usage;
  return {
    item: item.id,
    index: item.index,
    kind: item.kind,
    system: system.id,
    system_kind: system.kind,
    answer: outcome.finalAnswer,
    extracted: score.extracted,
    key: score.key,
    correct: score.correct,
    expected: expectedOf(item),
    calls: u.calls,
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    tokens: u.inputTokens + u.outputTokens,
    ...costOf(u),
    seconds: outcome.seconds,
    end_reason: outcome.reason,
    ...(system.kind === 'team' || system.kind === 'team-escalating' ? { winner: outcome.winnerId, votes: outcome.votes ?? {} } : {}),
    ...(outcome.escalation ? { escalation: { stages_called: outcome.escalation.stagesCalled, reasons: outcome.escalation.reasons } } : {}),
    ...(item.kind === 'code' ? { failed_checks: score.failedChecks ?? null } : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.logDir ? { log_dir: displayPath(outcome.logDir) } : {}),
  };
}

/**
 * The most common answer among the samples (by key), ties to the earliest sample; samples without an answer do not
 * vote. Returns the index of the sample that stands for the majority.
 */
export function majorityIndex(keys: readonly (string | null)[]): number {
  const counts = new Map<string, number>();
  for (const k of keys) if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
  let best = -1;
  let bestCount = 0;
  keys.forEach((k, i) => {
    const n = k === null ? 0 : counts.get(k)!;
    if (n > bestCount) {
      best = i;
      bestCount = n;
    }
  });
  return best;
}

function selfConsistencyRow(item: EvalItem, system: Extract<SystemSpec, { kind: 'self-consistency' }>, samples: RunOutcome[], displayPath: (p: string) => string): ResultRow {
  const scores = samples.map((s) => scoreRun(item, s));
  const chosen = majorityIndex(scores.map((s) => s.key));
  const pick = chosen >= 0 ? chosen : Math.max(0, samples.findIndex((s) => s.finalAnswer !== null));
  const usage = samples.reduce(
    (t, s) => ({
      inputTokens: t.inputTokens + s.usage.inputTokens,
      cachedInputTokens: t.cachedInputTokens + s.usage.cachedInputTokens,
      outputTokens: t.outputTokens + s.usage.outputTokens,
      calls: t.calls + s.usage.calls,
      estimated: t.estimated || s.usage.estimated,
      costUsd: t.costUsd + s.usage.costUsd,
      unpricedCalls: t.unpricedCalls + s.usage.unpricedCalls,
    }),
    { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0, estimated: false, costUsd: 0, unpricedCalls: 0 },
  );
  const every = samples.every((s) => s.error);
  const outcome: RunOutcome = {
    ...samples[pick],
    usage,
    // The samples are independent, so they could all run at once: the longest is the baseline's wall time.
    seconds: Math.max(...samples.map((s) => s.seconds)),
    ...(every ? { error: samples[0].error } : { error: undefined }),
    logDir: samples[pick].logDir,
  };
  const row = rowOf(item, system, outcome, scores[pick], displayPath);
  return { ...row, samples: scores.map((s) => ({ key: s.key, correct: s.correct })) };
}

// Scenario 1: engine time against the physical bound. N agents each stream 1,500 tokens per call at 500 tokens/s
// from the fake OpenAI server (its own process), through the real OpenAI-compatible provider (the openai SDK) and
// the run session every front end uses (which folds the RunState), with a listener writing the JSON log line. A run
// is one answer round and one vote round. Bound = the busiest agent's summed stream time as the fake itself timed
// it; engine time = start() to the result.
// Also a team whose agents all write the same answer (a fake that ignores the prompt does that): the copies are
// rejected as duplicates and their authors vote in the same turn, while the agent whose answer stood still needs a
// vote turn of its own — which must not wait for the others' votes.

import { performance } from 'node:perf_hooks';
import type { RunEvent } from '../../src/core/engine/events';
import { RunSession } from '../../src/core/run/session';
import { benchConfig } from '../lib/config';
import { startFakeProcess, type FakeProcess } from '../lib/fake-client';
import type { StreamTiming } from '../lib/fake-proc';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { mean, sum } from '../lib/stats';

const TOKENS_PER_CALL = 1500;
const TOKENS_PER_SECOND = 500;
const TTFT_MS = 250;
/** 8 tokens per SSE chunk: 62.5 chunks/s per stream at 500 tokens/s. */
const CHUNK_CHARS = 32;

/** Wall clock with sub-millisecond resolution, comparable between processes on one machine. */
const clock = () => performance.timeOrigin + performance.now();

function filler(chars: number): string {
  const words = 'considering the edge cases the parser must handle quoted fields escaped quotes and empty values '.repeat(Math.ceil(chars / 90));
  return words.slice(0, chars);
}

export interface OverheadRun {
  n: number;
  engineMs: number;
  boundMs: number;
  ratio: number;
  /** First request reached the fake, from run start. */
  startMs: number;
  /** Mean time from a round's last stream end to the next round's first request. */
  turnaroundMs: number;
  /** Run end after the last stream ended. */
  tailMs: number;
  /** Time spent in the event listener (the JSON line; the session folds the state before it). */
  consumersMs: number;
  events: number;
  calls: number;
}

async function runOnce(fake: FakeProcess, n: number, tokens: number, sameAnswer = false): Promise<OverheadRun> {
  const models = Array.from({ length: n }, (_, i) => `m${i + 1}`);
  const answerChars = 160;
  const textChars = tokens * 4 - answerChars;
  const reply = { text: filler(textChars), chunkSize: CHUNK_CHARS, delayMsPerChunk: (1000 * CHUNK_CHARS) / 4 / TOKENS_PER_SECOND, ttftMs: TTFT_MS };
  fake.reset();
  const answer = (i: number) => (sameAnswer ? `Answer: ${filler(answerChars - 8)}` : `Answer ${i + 1}: ${filler(answerChars - 12)}`);
  // In the same-answer team agent1 starts last, so its copy is the one refused, and the votes for "agent1" (the
  // fake's habit) must still count (for the answer agent1's matched).
  const replyOf = (i: number) => (sameAnswer && i === 0 ? { ...reply, ttftMs: TTFT_MS + 100 } : reply);
  fake.configure(Object.fromEntries(models.map((m, i) => [m, { answer: answer(i), voteFor: 'agent1', reply: replyOf(i) }])));
  let consumersMs = 0;
  let events = 0;
  // Through the run session, as every front end runs (it folds the state; the listener writes the JSON line).
  const config = benchConfig(models.map((m) => ({ id: m, model: m, baseUrl: fake.baseUrl })), {}, { orchestratorTimeoutSeconds: 300, agentTurnTimeoutSeconds: 120 });
  const session = new RunSession({ task: 'Parse a CSV line into typed fields.', config });
  session.subscribe((e: RunEvent) => {
    const t = performance.now();
    JSON.stringify(e);
    events++;
    consumersMs += performance.now() - t;
  });
  const t0 = clock();
  const result = await session.start();
  const t1 = clock();
  if (result.reason !== 'consensus') throw new Error(`overhead run ended with ${result.reason}: ${result.error ?? ''}`);
  let timings: StreamTiming[] = [];
  for (let i = 0; i < 50; i++) {
    timings = await fake.timings();
    if (timings.every((s) => Number.isFinite(s.end))) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const perModel = models.map((m) => sum(timings.filter((s) => s.model === m).map((s) => s.end - s.start)));
  const boundMs = Math.max(...perModel);
  // Rounds: the k-th stream of every agent.
  const rounds: StreamTiming[][] = [];
  for (const m of models) timings.filter((s) => s.model === m).forEach((s, k) => (rounds[k] ??= []).push(s));
  const turnarounds = rounds.slice(1).map((r, k) => Math.min(...r.map((s) => s.start)) - Math.max(...rounds[k].map((s) => s.end)));
  // The fake's clock is its own performance.now(); convert through the absolute epoch the same way.
  const toAbs = (fakeT: number) => fakeT + fake.timeOrigin;
  const startMs = toAbs(Math.min(...timings.map((s) => s.start))) - t0;
  const tailMs = t1 - toAbs(Math.max(...timings.map((s) => s.end)));
  const engineMs = t1 - t0;
  return { n, engineMs, boundMs, ratio: engineMs / boundMs, startMs, turnaroundMs: mean(turnarounds), tailMs, consumersMs, events, calls: timings.length };
}

export const overhead: Scenario = {
  name: 'overhead',
  title: '1. Engine time vs the physical bound (real provider, fake server in its own process)',
  async run(ctx: BenchContext) {
    const r = new Results();
    const fake = await startFakeProcess();
    try {
      const tokens = ctx.quick ? 300 : TOKENS_PER_CALL;
      // A short warm-up run: module loading and the first connection are start-up, measured in scenario 2.
      await runOnce(fake, 2, 50);
      for (const n of ctx.quick ? [2] : [2, 4, 8]) {
        const run = await runOnce(fake, n, tokens);
        ctx.log(`overhead N=${n}: engine ${run.engineMs.toFixed(0)} ms, bound ${run.boundMs.toFixed(0)} ms`);
        r.goal(`overhead.n${n}.ratio`, `N=${n}: engine time / bound`, run.ratio, '<=', 1.05, '', { digits: 3 });
        r.info(
          `N=${n}: where the extra time goes`,
          `engine ${fmt(run.engineMs, 0)} ms − bound ${fmt(run.boundMs, 0)} ms = ${fmt(run.engineMs - run.boundMs, 1)} ms; ` +
            `start→1st request ${fmt(run.startMs, 1)} ms, round turnaround ${fmt(run.turnaroundMs, 1)} ms, last stream→end ${fmt(run.tailMs, 1)} ms, ` +
            `consumers ${fmt(run.consumersMs, 1)} ms over ${run.events} events`,
        );
        r.figure(`n${n}`, run);
      }
      const same = await runOnce(fake, 4, tokens, true);
      ctx.log(`overhead N=4, same answer: engine ${same.engineMs.toFixed(0)} ms, bound ${same.boundMs.toFixed(0)} ms`);
      r.goal('overhead.same_answer.n4.ratio', 'N=4, every agent writes the same answer: engine time / bound', same.ratio, '<=', 1.05, '', { digits: 3 });
      r.info('  where the extra time goes', `engine ${fmt(same.engineMs, 0)} ms − bound ${fmt(same.boundMs, 0)} ms = ${fmt(same.engineMs - same.boundMs, 1)} ms over ${same.calls} calls`);
      r.figure('same_answer_n4', same);
      r.note(`${tokens} tokens per call at ${TOKENS_PER_SECOND} tokens/s in ${CHUNK_CHARS}-char chunks, TTFT ${TTFT_MS} ms; two calls per agent (answer, vote).`);
    } finally {
      await fake.close();
    }
    return r.result();
  },
};

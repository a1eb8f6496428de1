// Scenario: coordination under stress (issue 19), through the run session and the real OpenAI-compatible provider
// against the fake server in its own process.
//   a) One member rate-limited (429, retry-after 30 s) on its first call: the others must not wait for it. Figure:
//      the others' decision (both holding a current vote) vs their own time in a team without it.
//   b) One member 10× slower with answers capped at one per agent: with early decision the majority's answer
//      arrives without waiting for the slow vote. Figure: time to the answer with and without.

import { performance } from 'node:perf_hooks';
import type { OrchestratorConfig } from '../../src/core/config/types';
import { RunSession, type SessionResult } from '../../src/core/run/session';
import type { AgentScript } from '../../test/fakes/openai-server';
import { benchConfig } from '../lib/config';
import { startFakeProcess, type FakeProcess } from '../lib/fake-client';
import { fmt, Results, type BenchContext, type Scenario } from '../lib/report';
import { median } from '../lib/stats';

const TIMEOUTS = { orchestratorTimeoutSeconds: 300, agentTurnTimeoutSeconds: 120 };
/** About 0.6 s per call: 300 tokens at 500 tokens/s after 250 ms to the first token. */
const REPLY = { text: 'considering the parser '.repeat(50), chunkSize: 32, delayMsPerChunk: 16, ttftMs: 250 };

interface Timed {
  /** ms from start() until every agent in `deciders` held a current vote. */
  decidedMs: number;
  /** ms from start() until the result. */
  endedMs: number;
  result: SessionResult;
}

async function timedRun(fake: FakeProcess, agents: Record<string, AgentScript>, deciders: string[], orchestrator: Partial<OrchestratorConfig>): Promise<Timed> {
  fake.reset();
  fake.configure(agents, { voteFor: 'agent1', reply: REPLY });
  const config = benchConfig(Object.keys(agents).map((m) => ({ id: m, model: m, baseUrl: fake.baseUrl })), orchestrator, TIMEOUTS);
  const session = new RunSession({ task: 'Parse a CSV line into typed fields.', config });
  const t0 = performance.now();
  let decidedMs = NaN;
  session.subscribe((_event, state) => {
    if (Number.isNaN(decidedMs) && deciders.every((id) => state.agents.find((a) => a.id === id)?.currentVote)) decidedMs = performance.now() - t0;
  });
  const result = await session.start();
  return { decidedMs, endedMs: performance.now() - t0, result };
}

export const stress: Scenario = {
  name: 'stress',
  title: '9. Coordination under stress: a rate-limited member, a slow member (early decision)',
  async run(ctx: BenchContext) {
    const r = new Results();
    const fake = await startFakeProcess();
    const repeats = ctx.quick ? 1 : 3;
    try {
      // a) Waiting 3 s rather than the default 30 s keeps the bench short; the figure is the others' decision.
      const limited: AgentScript = { first: [{ error: { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '30' } } }] };
      const own: number[] = [];
      const withLimited: number[] = [];
      let ended = 0;
      let outcome = '';
      for (let i = 0; i < repeats; i++) {
        own.push((await timedRun(fake, { m1: {}, m2: {} }, ['m1', 'm2'], {})).decidedMs);
        const run = await timedRun(fake, { m1: {}, m2: {}, m3: limited }, ['m1', 'm2'], { unavailableWaitSeconds: 3 });
        withLimited.push(run.decidedMs);
        ended = run.endedMs;
        outcome = `${run.result.reason}, winner ${run.result.winnerLabel}`;
      }
      ctx.log(`stress: others decide in ${median(withLimited).toFixed(0)} ms with a rate-limited member, ${median(own).toFixed(0)} ms alone`);
      r.goal('stress.rate_limited.decision_ratio', "a member rate-limited for 30 s: the others' decision / their own time", median(withLimited) / median(own), '<=', 1.2, '', { digits: 2 });
      r.info('  the times', `others with the limited member ${fmt(median(withLimited), 0)} ms, alone ${fmt(median(own), 0)} ms; the run ended after ${fmt(ended, 0)} ms (${outcome}) once the member had been unavailable 3 s`);
      r.figure('rate_limited', { ownMs: own, withLimitedMs: withLimited, endedMs: ended });

      // b) The slow member's vote would come 10× later; capped answers make its turn vote-only.
      const slow: AgentScript = { reply: { ...REPLY, ttftMs: 2500, delayMsPerChunk: 160 } };
      const on: number[] = [];
      const off: number[] = [];
      for (let i = 0; i < repeats; i++) {
        on.push((await timedRun(fake, { m1: {}, m2: {}, m3: slow }, [], { maxNewAnswersPerAgent: 1 })).endedMs);
        off.push((await timedRun(fake, { m1: {}, m2: {}, m3: slow }, [], { maxNewAnswersPerAgent: 1, earlyDecision: false })).endedMs);
      }
      r.info('one member 10× slower, answers capped at 1: time to the answer', `early decision ${fmt(median(on), 0)} ms, without ${fmt(median(off), 0)} ms (${fmt(median(on) / median(off), 2)}×)`);
      r.figure('early_decision', { onMs: on, offMs: off });
      r.note('Calls stream 300 tokens at 500 tokens/s after 250 ms (the slow member 10× slower); medians of 3 runs (1 with --quick).');
    } finally {
      await fake.close();
    }
    return r.result();
  },
};

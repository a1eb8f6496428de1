// Scenario 3: model calls and prompt tokens to consensus, ours vs upstream's documented policy on the same
// behaviours. Teams of 3, 5, 8 agents that agree at once, converge after one revision, or disagree until their
// answer cap. Ours runs the real engine with scripted providers; upstream's policy runs in bench/lib/upstream-sim.ts.

import { reply } from '../../src/core/providers/scripted';
import { runTeam } from '../../test/helpers/test-team';
import { BEHAVIOURS, durationMs, viewOfRequest, type BehaviourName } from '../lib/behaviours';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { loglogSlope, mean } from '../lib/stats';
import { tally, compactedTokens, type PromptTally } from '../lib/tokens';
import { simulateUpstream } from '../lib/upstream-sim';

export const TASK = 'Write a TypeScript function that parses a CSV line into typed fields, with error reporting.';
const NOW = new Date(2026, 0, 2, 3, 4, 5);

export interface PolicyCounts {
  calls: number;
  promptTokens: number;
  uncachedTokens: number;
}

export interface CaseResult {
  n: number;
  behaviour: BehaviourName;
  cap: number | null;
  ours: PolicyCounts & { rounds: number; reason: string; growthPerRound: number; compactedTokens: number };
  upstream: PolicyCounts & { answers: number; discardedVotes: number; presentationTokens: number };
}

/** Runs one team through our engine and through the upstream simulator. */
export async function runCase(n: number, behaviourName: BehaviourName, cap: number | null, maxRounds = 10): Promise<CaseResult> {
  const behaviour = BEHAVIOURS[behaviourName];
  const members = Array.from({ length: n }, (_, i) => {
    const label = `agent${i + 1}`;
    return {
      id: `a${i + 1}`,
      script: (request: Parameters<typeof viewOfRequest>[1]) => {
        const d = behaviour(viewOfRequest(label, request));
        return d.kind === 'answer'
          ? reply.answer(d.content, { delayMs: durationMs(i, 'answer') })
          : reply.vote(d.target, d.reason, { delayMs: durationMs(i, 'vote') });
      },
    };
  });
  const team = runTeam(members, { task: TASK, orchestrator: { maxNewAnswersPerAgent: cap, maxRounds }, timeouts: { orchestratorTimeoutSeconds: 600, agentTurnTimeoutSeconds: 60 } });
  const result = await team.result;
  const ourRequests = members.flatMap((m) => team.requests(m.id).map((r) => [m.id, r] as [string, typeof r]));
  const ours = tally(ourRequests);
  const compacted = ourRequests.reduce((n, [, r]) => n + compactedTokens(r, TASK), 0);
  const rounds = team.of('round_started').length;

  const sim = simulateUpstream({ task: TASK, n, behaviour, maxNewAnswersPerAgent: cap, now: NOW });
  const up = tally(sim.requests);
  const pres = tally([sim.presentation]);
  return {
    n,
    behaviour: behaviourName,
    cap,
    ours: { calls: ours.calls, promptTokens: ours.promptTokens, uncachedTokens: ours.uncachedTokens, rounds, reason: result.reason, growthPerRound: growth(ours), compactedTokens: compacted },
    upstream: { calls: up.calls, promptTokens: up.promptTokens, uncachedTokens: up.uncachedTokens, answers: sim.answers, discardedVotes: sim.discardedVotes, presentationTokens: pres.promptTokens },
  };
}

/** Mean growth of one agent's prompt from one request to its next (= per round here: one call per agent per round). */
function growth(t: PromptTally): number {
  const deltas: number[] = [];
  for (const prompts of t.perAgent.values()) for (let k = 1; k < prompts.length; k++) deltas.push(prompts[k] - prompts[k - 1]);
  return deltas.length ? mean(deltas) : 0;
}

export const consensus: Scenario = {
  name: 'consensus',
  title: '3. Model calls and prompt tokens to consensus (ours vs upstream policy)',
  async run(ctx: BenchContext) {
    const r = new Results();
    const sizes = ctx.quick ? [3] : [3, 5, 8];
    const cap = ctx.quick ? 2 : 3;
    const cases: CaseResult[] = [];
    for (const behaviour of ['agree', 'converge', 'disagree'] as const) {
      for (const n of sizes) {
        const c = await runCase(n, behaviour, behaviour === 'disagree' ? cap : null);
        cases.push(c);
        const key = `${behaviour}.n${n}`;
        const { ours, upstream: up } = c;
        r.info(
          `${behaviour} N=${n}: ours`,
          `${ours.calls} calls, ${fmt(ours.promptTokens, 0)} prompt tok (${fmt(ours.uncachedTokens, 0)} uncached; ${fmt(ours.compactedTokens, 0)} if compacted), ${ours.rounds} rounds, ${ours.reason}`,
        );
        r.info(
          `${behaviour} N=${n}: upstream`,
          `${up.calls} calls (+1 presentation), ${fmt(up.promptTokens, 0)} prompt tok (+${fmt(up.presentationTokens, 0)}; ${fmt(up.uncachedTokens, 0)} uncached), ${up.discardedVotes} votes discarded`,
        );
        if (behaviour === 'agree') r.goal(`${key}.calls`, `agree N=${n}: calls`, ours.calls, '<=', 2 * n, '', { digits: 0 });
        r.goal(`${key}.calls_ratio`, `${behaviour} N=${n}: calls ours/upstream`, ours.calls / up.calls, '<', 1);
        r.goal(`${key}.tokens_ratio`, `${behaviour} N=${n}: prompt tokens ours/upstream`, ours.promptTokens / up.promptTokens, '<', 1);
        r.figure(key, { ours, upstream: up });
      }
    }
    if (sizes.length >= 3) {
      // Per-agent prompt growth from one round to the next, against N: slope 1 = linear in N, 2 = quadratic.
      for (const behaviour of ['converge', 'disagree'] as const) {
        const cs = cases.filter((c) => c.behaviour === behaviour);
        const slope = loglogSlope(cs.map((c) => c.n), cs.map((c) => c.ours.growthPerRound));
        r.info(`${behaviour}: prompt growth per round per agent`, cs.map((c) => `N=${c.n}: ${fmt(c.ours.growthPerRound, 0)} tok`).join(', '));
        r.goal(`${behaviour}.growth_exponent`, `${behaviour}: growth per round ∝ N^k, k`, slope, '<=', 1.2);
      }
    } else {
      r.note('quick mode: one team size, so the growth exponent in N is not computed.');
    }
    r.note('Upstream = its documented policy, simulated with charitable simplifications (see bench/lib/upstream-sim.ts); its presentation call is shown but not counted in the ratios.');
    r.note('"if compacted": the same requests, each rebuilt as a fresh start (ORIGINAL MESSAGE + latest answers) whenever its conversation held an answer twice (superseded, or its own repeated back): the proposed change, see bench/lib/tokens.ts.');
    r.note('Tokens = chars/4 of system + messages + tool definitions per request; "uncached" = not a prefix of the same agent\'s previous request.');
    return r.result();
  },
};

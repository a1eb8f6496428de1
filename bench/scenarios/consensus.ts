// Scenario 3: model calls and prompt tokens to consensus, ours vs upstream's documented policy on the same
// behaviours. Teams of 3, 5, 8 agents that agree at once, converge after one revision, or disagree until their
// answer cap. Ours runs the real engine with scripted providers; upstream's policy runs in bench/lib/upstream-sim.ts.
// The real upstream, run over HTTP on the same behaviours, is scenario `upstream` (scenarios/upstream.ts).

import { performance } from 'node:perf_hooks';
import { reply } from '../../src/core/providers/scripted';
import { runTeam } from '../../test/helpers/test-team';
import { BEHAVIOURS, durationMs, viewOfRequest, type BehaviourName } from '../lib/behaviours';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { loglogSlope, mean } from '../lib/stats';
import { tally, compactedTokens, type PromptTally } from '../lib/tokens';
import { simulateUpstream } from '../lib/upstream-sim';
import { billedInput, CACHE_MODELS, type CacheModel, type TimedRequest } from '../lib/billing';
import { CACHE_POLICIES, type PromptBill } from '../../src/core/usage/cache';

export const TASK = 'Write a TypeScript function that parses a CSV line into typed fields, with error reporting.';
const NOW = new Date(2026, 0, 2, 3, 4, 5);

export interface PolicyCounts {
  calls: number;
  promptTokens: number;
  uncachedTokens: number;
}

/** Billed input of a run under one provider's cache, in input-token units (see bench/lib/billing.ts). */
export type Billed = Record<CacheModel, PromptBill>;

export interface OurRun extends PolicyCounts {
  rounds: number;
  reason: string;
  growthPerRound: number;
  compactedTokens: number;
}

export interface CaseResult {
  n: number;
  behaviour: BehaviourName;
  cap: number | null;
  /** The engine with a backend whose cache it does not know (today's scripted run). */
  ours: OurRun;
  /** The engine with a backend of each cache model, billed under that model. */
  oursWith: Record<CacheModel, OurRun & { billed: PromptBill }>;
  upstream: PolicyCounts & { answers: number; discardedVotes: number; presentationTokens: number; billed: Billed };
}

/** One run of our engine; `cache`: the cache model its backends declare (the engine may decide by it). */
async function runOurs(n: number, behaviourName: BehaviourName, cap: number | null, maxRounds: number, cache?: CacheModel): Promise<{ run: OurRun; timed: TimedRequest[] }> {
  const behaviour = BEHAVIOURS[behaviourName];
  const sent: (Omit<TimedRequest, 'ready'> & { call: number })[] = [];
  const members = Array.from({ length: n }, (_, i) => {
    const label = `agent${i + 1}`;
    const id = `a${i + 1}`;
    return {
      id,
      // One backend for the team, as upstream's simulated team has: the agents share its cache.
      model: 'bench-model',
      promptCache: cache && CACHE_POLICIES[cache],
      script: (request: Parameters<typeof viewOfRequest>[1], index: number) => {
        const d = behaviour(viewOfRequest(label, request));
        const delayMs = durationMs(i, d.kind);
        sent.push({ agent: id, request: structuredClone(request), start: performance.now(), call: index });
        return d.kind === 'answer' ? reply.answer(d.content, { delayMs }) : reply.vote(d.target, d.reason, { delayMs });
      },
    };
  });
  const team = runTeam(members, { task: TASK, orchestrator: { maxNewAnswersPerAgent: cap, maxRounds }, timeouts: { orchestratorTimeoutSeconds: 600, agentTurnTimeoutSeconds: 60 } });
  const result = await team.result;
  // When each response began, as the scripted provider told the engine (a response that never began cached nothing).
  const timed: TimedRequest[] = sent.map(({ call, ...s }) => ({ ...s, ready: team.providers[s.agent].began[call] ?? Infinity }));
  const ourRequests = members.flatMap((m) => team.requests(m.id).map((r) => [m.id, r] as [string, typeof r]));
  const t = tally(ourRequests);
  const compacted = ourRequests.reduce((sum, [, r]) => sum + compactedTokens(r, TASK), 0);
  const rounds = team.of('round_started').length;
  return { run: { calls: t.calls, promptTokens: t.promptTokens, uncachedTokens: t.uncachedTokens, rounds, reason: result.reason, growthPerRound: growth(t), compactedTokens: compacted }, timed };
}

/** Runs one team through our engine (plain, then with each provider's cache) and through the upstream simulator. */
export async function runCase(n: number, behaviourName: BehaviourName, cap: number | null, maxRounds = 10): Promise<CaseResult> {
  const { run: ours } = await runOurs(n, behaviourName, cap, maxRounds);
  const oursWith = {} as CaseResult['oursWith'];
  for (const model of CACHE_MODELS) {
    const { run, timed } = await runOurs(n, behaviourName, cap, maxRounds, model);
    oursWith[model] = { ...run, billed: billedInput(timed, model) };
  }
  const sim = simulateUpstream({ task: TASK, n, behaviour: BEHAVIOURS[behaviourName], maxNewAnswersPerAgent: cap, now: NOW });
  const up = tally(sim.requests);
  const pres = tally([sim.presentation]);
  const upTimed = sim.requests.map(([agent, request], k) => ({ agent, request, ...sim.times[k] }));
  const billed = Object.fromEntries(CACHE_MODELS.map((m) => [m, billedInput(upTimed, m, true)])) as Billed;
  return {
    n,
    behaviour: behaviourName,
    cap,
    ours,
    oursWith,
    upstream: { calls: up.calls, promptTokens: up.promptTokens, uncachedTokens: up.uncachedTokens, answers: sim.answers, discardedVotes: sim.discardedVotes, presentationTokens: pres.promptTokens, billed },
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
        for (const model of CACHE_MODELS) {
          const run = c.oursWith[model];
          const [b, u] = [run.billed, up.billed[model]];
          r.info(
            `${behaviour} N=${n}: billed input, ${model}`,
            `ours ${fmt(b.billed, 0)} (${run.calls} calls, ${fmt(run.promptTokens, 0)} tok: ${fmt(b.read, 0)} read, ${fmt(b.written, 0)} written, ${fmt(b.uncached, 0)} uncached); upstream ${fmt(u.billed, 0)} (${fmt(u.read, 0)} read, ${fmt(u.written, 0)} written, ${fmt(u.uncached, 0)} uncached)`,
          );
          r.goal(`${key}.billed_ratio.${model}`, `${behaviour} N=${n}: billed input ours/upstream, ${model}`, b.billed / u.billed, '<=', 0.8);
        }
        // Calls and tokens are held to the worst of our runs: a cache-aware choice must not cost calls or tokens.
        const runs = [ours, ...CACHE_MODELS.map((m) => c.oursWith[m])];
        const calls = Math.max(...runs.map((x) => x.calls));
        const tokens = Math.max(...runs.map((x) => x.promptTokens));
        if (behaviour === 'agree') r.goal(`${key}.calls`, `agree N=${n}: calls`, calls, '<=', 2 * n, '', { digits: 0 });
        r.goal(`${key}.calls_ratio`, `${behaviour} N=${n}: calls ours/upstream`, calls / up.calls, '<', 1);
        r.goal(`${key}.tokens_ratio`, `${behaviour} N=${n}: prompt tokens ours/upstream`, tokens / up.promptTokens, '<', 1);
        r.figure(key, { ours, oursWith: c.oursWith, upstream: up });
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
    r.note('The real upstream MassGen 0.1.97 on the same behaviours, over HTTP, is scenario `upstream` (3b). Against it this simulation makes more calls at N ≥ 5 (upstream 0.1.97 keeps a vote cast with no unseen revision) and far smaller prompts (ours, not upstream\'s own): see bench/README.md.');
    r.note('"if compacted": the same requests, each rebuilt as a fresh start (ORIGINAL MESSAGE + latest answers) whenever its conversation held an answer twice (superseded, or its own repeated back): the proposed change, see bench/lib/tokens.ts.');
    r.note('Tokens = chars/4 of system + messages + tool definitions per request; "uncached" = not a prefix of the same agent\'s previous request.');
    r.note('Billed input = uncached + read × read price + written × write price, in input tokens, under each cache (src/core/usage/cache.ts CACHE_POLICIES): anthropic = breakpoints as our provider places them, reads 0.1×, writes 1.25×; openai = automatic prefix cache in 128-token steps, 0.5×, one cache per prompt_cache_key; gemini = implicit prefix cache, 0.25×. 1,024 tokens at least; an entry serves requests sent after its response began (a quarter into its time, for both policies). Our agents share one backend and one cache key per run; upstream gets the same providers, without a cache key.');
    return r.result();
  },
};

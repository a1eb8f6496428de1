// Scenario `escalation`: pay for the team only when it is needed. A scripted dataset of items, 70 % easy (the cheap
// agents agree on the right answer) and 30 % hard (they disagree, each with its own wrong answer; the strong member is
// right and the others vote for its answer once they see it), run through the real engine twice: the full team, and
// the same team with escalation stages [[cheap-a, cheap-b], [strong-c]]. Accuracy, cost (priced by model from the
// price table) and, on the hard items, the time to decision on the scripted clock (FakeClock: model time only).

import { estimatePromptTokens } from '../../src/core/engine/budget';
import type { Escalation, Pricing } from '../../src/core/config/types';
import { reply, requestText, type Script } from '../../src/core/providers/scripted';
import type { ModelRequest } from '../../src/core/providers/types';
import { resolvePricing } from '../../src/core/usage/cost';
import { FakeClock } from '../../test/helpers/fake-clock';
import { runTeam, type TeamMember } from '../../test/helpers/test-team';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';

/** How a model is billed and how long its calls take: time = ttft + (reasoning + output tokens) / speed. */
interface ModelProfile {
  model: string;
  ttftMs: number;
  tokensPerSecond: number;
  /** Hidden reasoning tokens per answer and per vote (billed as output). */
  reasoning: { answer: number; vote: number };
}

const ANSWER_TOKENS = 300;
const VOTE_TOKENS = 60;

/** The cheap members: a small non-reasoning model. */
const CHEAP: ModelProfile = { model: 'gpt-4o-mini', ttftMs: 500, tokensPerSecond: 100, reasoning: { answer: 0, vote: 0 } };
/** The strong member, as a reasoning model (the usual reason to keep one in a team). */
const STRONG_REASONING: ModelProfile = { model: 'o3', ttftMs: 2000, tokensPerSecond: 50, reasoning: { answer: 1500, vote: 500 } };
/** The strong member as a larger non-reasoning model: only twice as slow as the cheap one (sensitivity row). */
const STRONG_PLAIN: ModelProfile = { model: 'gpt-4o', ttftMs: 600, tokensPerSecond: 60, reasoning: { answer: 0, vote: 0 } };

interface Item {
  index: number;
  hard: boolean;
  right: string;
}

/** 30 % hard, spread through the set (every item whose index ends in 2, 5 or 8). */
function dataset(n: number): Item[] {
  return Array.from({ length: n }, (_, index) => ({ index, hard: [2, 5, 8].includes(index % 10), right: `value-${index}` }));
}

const FINAL = (value: string) => `FINAL: ${value}`;

/**
 * One member's behaviour on one item: it answers at its first call (`value`, in words of its own); then it votes for
 * the first label (config order) whose latest answer shows the right value, or for its own answer when none does.
 */
function member(id: string, label: string, profile: ModelProfile, item: Item, value: string): TeamMember {
  const pricing = resolvePricing(profile.model) as Pricing;
  const usage = (request: ModelRequest, output: number) => ({ inputTokens: estimatePromptTokens(request), cachedInputTokens: 0, outputTokens: output });
  const delay = (output: number) => profile.ttftMs + (output * 1000) / profile.tokensPerSecond;
  const script: Script = (request, call) => {
    if (call === 0) {
      const output = ANSWER_TOKENS + profile.reasoning.answer;
      return reply.answer(`${id} worked it out step by step. ${FINAL(value)}`, { delayMs: delay(output), usage: usage(request, output) });
    }
    const text = requestText(request);
    const blocks = [...text.matchAll(/<(agent\d+)> ([\s\S]*?) <end of agent\d+>/g)];
    const latest = new Map<string, string>();
    for (const [, who, content] of blocks) latest.set(who, content);
    if (value === item.right) latest.set(label, FINAL(value));
    const target = [...latest.entries()].filter(([, content]) => content.includes(FINAL(item.right))).map(([who]) => who).sort()[0] ?? label;
    const output = VOTE_TOKENS + profile.reasoning.vote;
    return reply.vote(target, 'its result checks out', { delayMs: delay(output), usage: usage(request, output) });
  };
  return { id, script, model: profile.model, pricing };
}

interface ItemRun {
  correct: boolean;
  costUsd: number;
  /** Scripted time from the start to the winner (ms). */
  decisionMs: number;
  calls: number;
  stages: number;
}

async function runItem(item: Item, strong: ModelProfile, escalation?: Escalation): Promise<ItemRun> {
  const members = [
    member('cheap-a', 'agent1', CHEAP, item, item.hard ? `wrong-a-${item.index}` : item.right),
    member('cheap-b', 'agent2', CHEAP, item, item.hard ? `wrong-b-${item.index}` : item.right),
    member('strong-c', 'agent3', strong, item, item.right),
  ];
  const team = runTeam(members, {
    task: `Item ${item.index}: compute the value.`,
    clock: new FakeClock(),
    orchestrator: escalation ? { escalation } : {},
    timeouts: { orchestratorTimeoutSeconds: 3600, agentTurnTimeoutSeconds: 600 },
  });
  const result = await team.result;
  const usage = team.of('usage');
  return {
    correct: Boolean(result.finalAnswer?.includes(FINAL(item.right))),
    costUsd: usage.reduce((sum, e) => sum + (e.costUsd ?? 0), 0),
    decisionMs: team.of('winner_selected')[0]?.t ?? Number.NaN,
    calls: usage.length,
    stages: Math.max(1, team.of('stage_started').length),
  };
}

interface SystemResult {
  accuracy: number;
  costUsd: number;
  hardDecisionMs: number;
  easyDecisionMs: number;
  calls: number;
  escalated: number;
}

async function runSystem(items: Item[], strong: ModelProfile, escalation?: Escalation): Promise<SystemResult> {
  const runs: (ItemRun & { hard: boolean })[] = [];
  for (const item of items) runs.push({ ...(await runItem(item, strong, escalation)), hard: item.hard });
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  return {
    accuracy: runs.filter((r) => r.correct).length / runs.length,
    costUsd: runs.reduce((s, r) => s + r.costUsd, 0),
    hardDecisionMs: mean(runs.filter((r) => r.hard).map((r) => r.decisionMs)),
    easyDecisionMs: mean(runs.filter((r) => !r.hard).map((r) => r.decisionMs)),
    calls: runs.reduce((s, r) => s + r.calls, 0),
    escalated: runs.filter((r) => r.stages > 1).length,
  };
}

const STAGES: Escalation = { stages: [['cheap-a', 'cheap-b'], ['strong-c']], minAgreeing: 1 };

export const escalation: Scenario = {
  name: 'escalation',
  title: '11. Escalation: the strong member only when the cheap ones disagree (scripted dataset)',
  async run(ctx: BenchContext) {
    const r = new Results();
    const items = dataset(ctx.quick ? 10 : 40);
    const hard = items.filter((i) => i.hard).length;
    r.info('dataset', `${items.length} items, ${items.length - hard} easy, ${hard} hard`);
    for (const [key, strong] of [['reasoning', STRONG_REASONING], ['plain', STRONG_PLAIN]] as const) {
      const full = await runSystem(items, strong);
      const esc = await runSystem(items, strong, STAGES);
      const who = `strong = ${strong.model}`;
      for (const [name, s] of [['full team', full], ['escalating', esc]] as const) {
        r.info(`${who}: ${name}`, `accuracy ${fmt(s.accuracy * 100, 1)} %, cost $${fmt(s.costUsd, 4)}, ${s.calls} calls, decision ${fmt(s.easyDecisionMs / 1000, 1)} s easy / ${fmt(s.hardDecisionMs / 1000, 1)} s hard${name === 'escalating' ? `, escalated on ${s.escalated} of ${items.length}` : ''}`);
      }
      const costRatio = esc.costUsd / full.costUsd;
      const timeRatio = esc.hardDecisionMs / full.hardDecisionMs;
      if (key === 'reasoning') {
        r.goal('escalation.accuracy_diff', `${who}: accuracy escalating − full team`, esc.accuracy - full.accuracy, '>=', 0, '', { digits: 3 });
        r.goal('escalation.cost_ratio', `${who}: cost escalating / full team`, costRatio, '<=', 0.5);
        r.goal('escalation.hard_time_ratio', `${who}: hard items, time to decision escalating / full team`, timeRatio, '<=', 1.3);
      } else {
        r.info(`${who}: cost and hard-item time ratios`, `cost ${fmt(costRatio, 2)}×, time ${fmt(timeRatio, 2)}× (accuracy ${fmt(esc.accuracy * 100, 1)} % vs ${fmt(full.accuracy * 100, 1)} %)`);
      }
      r.figure(key, { strong: strong.model, full, escalating: esc, costRatio, timeRatio });
    }
    r.note(`Members: cheap-a, cheap-b = ${CHEAP.model}; strong-c = ${STRONG_REASONING.model} (goals) or ${STRONG_PLAIN.model} (sensitivity row), priced from src/core/usage/prices.json on the engine's usage events (input = the prompt's estimated tokens, output = ${ANSWER_TOKENS} per answer and ${VOTE_TOKENS} per vote, plus the reasoning model's hidden tokens).`);
    r.note(`Time is scripted model time on a fake clock: ttft + tokens / speed (${CHEAP.model} ${CHEAP.ttftMs} ms + ${CHEAP.tokensPerSecond} tok/s; ${STRONG_REASONING.model} ${STRONG_REASONING.ttftMs} ms + ${STRONG_REASONING.tokensPerSecond} tok/s with ${STRONG_REASONING.reasoning.answer}/${STRONG_REASONING.reasoning.vote} reasoning tokens per answer/vote; ${STRONG_PLAIN.model} ${STRONG_PLAIN.ttftMs} ms + ${STRONG_PLAIN.tokensPerSecond} tok/s). On a hard item the escalating team spends stage 1's answer and vote rounds before the strong member starts, so its time ratio is 1 + (cheap answer + vote) / (the full team's time): small beside a slow strong member, large beside a fast one.`);
    return r.result();
  },
};

import assert from 'node:assert/strict';
import type { Pricing } from '../config/types';
import { boardHasAnswers, runTeam } from '../../../test/helpers/test-team';
import type { ModelRequest } from '../providers/types';
import { reply } from '../providers/scripted';
import { estimateRun, VOTE_TOKENS, type EstimateAgent, type EstimateInput } from './estimate';
import { DEFAULT_ANSWER_TOKENS } from './tokens';

const team = (...models: string[]): EstimateAgent[] => models.map((model, i) => ({ id: `a${i + 1}`, model }));
const THREE = team('gpt-4.1-mini', 'claude-haiku-4-5', 'gpt-4.1');
const run = (overrides: Partial<EstimateInput> = {}) => estimateRun({
  agents: THREE,
  question: 'How should I structure a TypeScript monorepo?',
  maxNewAnswersPerAgent: null,
  maxRounds: 10,
  finalAnswer: 'as_is',
  ...overrides,
});
const perMillion = (input: number, output: number): Pricing => ({ inputPerMillion: input, cachedInputPerMillion: input, outputPerMillion: output });

describe('estimateRun', () => {
  it('the minimum is the agreeing team: N answers, then N votes', () => {
    for (const n of [1, 2, 3, 5]) {
      const estimate = run({ agents: team(...Array<string>(n).fill('gpt-4o')) });
      assert.equal(estimate.calls.min, 2 * n);
      assert.equal(estimate.outputTokens.min, n * (DEFAULT_ANSWER_TOKENS + VOTE_TOKENS));
    }
  });

  it('synthesis adds one call and one answer of output', () => {
    const asIs = run();
    const synth = run({ finalAnswer: 'synthesize' });
    assert.equal(synth.calls.min, asIs.calls.min + 1);
    assert.equal(synth.calls.max, asIs.calls.max + 1);
    assert.equal(synth.outputTokens.min, asIs.outputTokens.min + DEFAULT_ANSWER_TOKENS);
    assert.ok(synth.inputTokens.min > asIs.inputTokens.min + 3 * DEFAULT_ANSWER_TOKENS, 'the synthesis prompt holds every answer');
    assert.ok(synth.costUsd!.min > asIs.costUsd!.min);
  });

  it('max is never below min', () => {
    for (const cap of [null, 1, 2, 3]) {
      for (const maxRounds of [1, 2, 3, 5, 12]) {
        for (const finalAnswer of ['as_is', 'synthesize'] as const) {
          const e = run({ maxNewAnswersPerAgent: cap, maxRounds, finalAnswer });
          const label = JSON.stringify({ cap, maxRounds, finalAnswer });
          for (const range of [e.calls, e.inputTokens, e.outputTokens, e.costUsd!]) assert.ok(range.max >= range.min && range.min > 0, label);
        }
      }
    }
  });

  it('without an answer cap, every agent answers in every round up to the rounds cap', () => {
    assert.equal(run({ maxRounds: 3 }).calls.max, 9);
    assert.equal(run({ maxRounds: 6 }).calls.max, 18);
    assert.equal(run({ maxRounds: 6 }).outputTokens.max, 18 * DEFAULT_ANSWER_TOKENS);
    const [r3, r6] = [run({ maxRounds: 3 }), run({ maxRounds: 6 })];
    assert.ok(r6.inputTokens.max > 2 * r3.inputTokens.max, 'conversations grow, so prompts grow faster than rounds');
    assert.ok(r6.costUsd!.max > r3.costUsd!.max);
  });

  it('with a cap, the longest run has one revision per round after the first, then a vote', () => {
    // N × (cap − 1) + 2 rounds of N turns.
    assert.equal(run({ maxNewAnswersPerAgent: 1 }).calls.max, 6);
    assert.equal(run({ maxNewAnswersPerAgent: 2 }).calls.max, 15);
    assert.equal(run({ maxNewAnswersPerAgent: 3 }).calls.max, 24);
    assert.equal(run({ maxNewAnswersPerAgent: 3 }).outputTokens.max, 9 * DEFAULT_ANSWER_TOKENS + 15 * VOTE_TOKENS);
    // ... unless the rounds cap comes first.
    assert.equal(run({ maxNewAnswersPerAgent: 3, maxRounds: 4 }).calls.max, 12);
    assert.equal(run({ maxNewAnswersPerAgent: 3, maxRounds: 4 }).outputTokens.max, 9 * DEFAULT_ANSWER_TOKENS + 3 * VOTE_TOKENS);
    const tokens = [1, 2, 3, 4].map((cap) => run({ maxNewAnswersPerAgent: cap }).inputTokens.max);
    assert.ok(tokens.every((t, i) => i === 0 || t > tokens[i - 1]), tokens.join(' < '));
  });

  it('a one-round cap leaves no room to vote', () => {
    const e = run({ maxRounds: 1 });
    assert.deepEqual([e.calls.min, e.calls.max], [3, 3]);
    assert.match(e.assumptions.join('\n'), /no voting round/);
  });

  it('figures scale with the question and the answer length', () => {
    const short = run();
    const long = run({ question: 'x'.repeat(4000) });
    // The question opens every conversation: 2N prompts carry its ~1000 tokens at least.
    assert.ok(long.inputTokens.min - short.inputTokens.min >= 6 * 950);
    assert.ok(long.inputTokens.max - short.inputTokens.max >= 30 * 950);
    assert.ok(long.costUsd!.max > short.costUsd!.max);
    const terse = run({ expectedAnswerTokens: 200 });
    assert.equal(terse.outputTokens.max, 30 * 200);
    assert.ok(terse.inputTokens.max < short.inputTokens.max);
  });

  it('prices every call; the minimum counts repeated prompt prefixes as cache hits', () => {
    const agents = [{ id: 'a', model: 'anything', pricing: perMillion(1, 0) }];
    const e = run({ agents });
    assert.ok(Math.abs(e.costUsd!.max - e.inputTokens.max / 1e6) < 1e-12);
    assert.ok(Math.abs(e.costUsd!.min - e.inputTokens.min / 1e6) < 1e-12, 'cached price = input price here');
    const cheapCache = run({ agents: [{ id: 'a', model: 'anything', pricing: { ...perMillion(1, 0), cachedInputPerMillion: 0 } }] });
    assert.ok(cheapCache.costUsd!.min < e.costUsd!.min);
    assert.equal(cheapCache.costUsd!.max, e.costUsd!.max);
  });

  it('cost is null when no model is priced, and a flagged lower bound when some are not', () => {
    const none = run({ agents: team('llama3.2', 'qwen3:8b') });
    assert.equal(none.costUsd, null);
    assert.match(none.assumptions.join('\n'), /set backend\.pricing/);
    assert.ok(none.calls.min === 4 && none.inputTokens.max > 0, 'tokens are still estimated');

    const mixed = run({ agents: team('gpt-4o', 'llama3.2'), finalAnswer: 'synthesize' });
    const priced = run({ agents: [THREE[0], { id: 'a2', model: 'llama3.2', pricing: perMillion(0, 0) }], finalAnswer: 'synthesize' });
    assert.equal(mixed.costUsd!.partial, true);
    assert.deepEqual(mixed.costUsd!.unpricedAgentIds, ['a2']);
    assert.match(mixed.assumptions.join('\n'), /No known price for a2/);
    assert.equal(priced.costUsd!.partial, false);
  });

  it('pricing: null marks a model as unpriced even when the table lists it', () => {
    const e = run({ agents: [{ id: 'copilot', model: 'gpt-4o', pricing: null }, { id: 'api', model: 'gpt-4o' }] });
    assert.deepEqual(e.costUsd!.unpricedAgentIds, ['copilot']);
  });

  it('states its assumptions', () => {
    const text = run({ finalAnswer: 'synthesize' }).assumptions.join('\n');
    for (const needle of [/characters \/ 4/, /Retries/, /re-prompts/, /reasoning tokens/, /cache hit/, /Synthesis/]) assert.match(text, needle);
  });

  describe('against the engine', () => {
    const ANSWER_CHARS = DEFAULT_ANSWER_TOKENS * 4;
    const QUESTION = 'How should I structure a TypeScript monorepo? '.repeat(5);
    /** What the request sends, in characters: the same chars/4 yardstick the estimate uses. */
    const promptTokens = (r: ModelRequest) => (r.system.length + JSON.stringify(r.tools).length + r.messages.reduce((n, m) =>
      n + m.content.length + (m.role === 'assistant' ? (m.toolCalls ?? []).reduce((k, c) => k + c.arguments.length, 0) : 0), 0)) / 4;
    const answer = (id: string, call: number) => reply.answer(`${id} ${call} `.padEnd(ANSWER_CHARS, 'y'));
    const ids = ['a1', 'a2', 'a3'];
    const vote = reply.vote('agent1', 'r'.repeat(VOTE_TOKENS * 4 - 30));
    const within = (actual: number, estimate: number) => assert.ok(Math.abs(actual - estimate) / actual < 0.02, `${actual} vs estimated ${estimate}`);

    it('the agreeing team matches the minimum', async () => {
      const team = runTeam(ids.map((id) => ({
        id, script: (req, i) => (boardHasAnswers(req) ? vote : answer(id, i)),
      })), { task: QUESTION });
      await team.result;
      const requests = ids.flatMap((id) => team.requests(id));
      const estimate = run({ question: QUESTION });
      assert.equal(requests.length, estimate.calls.min);
      within(requests.reduce((n, r) => n + promptTokens(r), 0), estimate.inputTokens.min);
    });

    it('a team that never stops revising matches the maximum', async () => {
      const team = runTeam(ids.map((id) => ({ id, script: (_req, i) => answer(id, i) })), { task: QUESTION, orchestrator: { maxRounds: 4, contextCompaction: 'never' } });
      await team.result;
      const requests = ids.flatMap((id) => team.requests(id));
      const estimate = run({ question: QUESTION, maxRounds: 4 });
      assert.equal(requests.length, estimate.calls.max);
      within(requests.reduce((n, r) => n + promptTokens(r), 0), estimate.inputTokens.max);
    });

    it('with the default compaction, a revising team stays under the maximum', async () => {
      const team = runTeam(ids.map((id) => ({ id, script: (_req, i) => answer(id, i) })), { task: QUESTION, orchestrator: { maxRounds: 4 } });
      await team.result;
      const requests = ids.flatMap((id) => team.requests(id));
      const estimate = run({ question: QUESTION, maxRounds: 4 });
      const actual = requests.reduce((n, r) => n + promptTokens(r), 0);
      assert.ok(actual <= estimate.inputTokens.max && actual >= estimate.inputTokens.min, `${actual} within [${estimate.inputTokens.min}, ${estimate.inputTokens.max}]`);
    });

    it('with a cap, revisions one per round match the maximum', async () => {
      // Round 1 everyone answers; rounds 2-4 a1, a2, a3 revise in turn while the others vote; round 5 everyone votes.
      const team = runTeam(ids.map((id, k) => ({ id, script: (_req, i) => (i === 0 || i === k + 1 ? answer(id, i) : vote) })),
        { task: QUESTION, orchestrator: { maxNewAnswersPerAgent: 2, contextCompaction: 'never' } });
      const result = await team.result;
      assert.equal(result.reason, 'answer_cap');
      const requests = ids.flatMap((id) => team.requests(id));
      const estimate = run({ question: QUESTION, maxNewAnswersPerAgent: 2 });
      assert.equal(requests.length, estimate.calls.max);
      within(requests.reduce((n, r) => n + promptTokens(r), 0), estimate.inputTokens.max);
    });
  });

  it('needs an agent', () => {
    assert.throws(() => run({ agents: [] }), /at least one agent/);
  });
});

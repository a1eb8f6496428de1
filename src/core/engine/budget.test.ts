import assert from 'node:assert/strict';
import type { ModelRequest } from '../providers/types';
import { BudgetGuard, BudgetStop, estimatePromptTokens, type BudgetReached } from './budget';

const request = (chars: number): ModelRequest => ({ system: 'x'.repeat(chars), messages: [], tools: [] });
const TOOLS_CHARS = JSON.stringify([]).length;

describe('budget guard', () => {
  it('estimates prompt tokens at four characters a token', () => {
    assert.equal(estimatePromptTokens(request(400 - TOOLS_CHARS)), 100);
    assert.equal(estimatePromptTokens({ system: '', tools: [], messages: [{ role: 'user', content: 'y'.repeat(400 - 2 * TOOLS_CHARS) }] }), 100);
  });

  it('admits calls under every cap and keeps nothing reserved after settling', () => {
    const g = new BudgetGuard({ maxCalls: 3 }, () => assert.fail('not reached'));
    for (let i = 0; i < 3; i++) g.settle(g.reserve(request(10), null), { inputTokens: 5, cachedInputTokens: 0, outputTokens: 5 }, null);
    assert.equal(g.reached, null);
  });

  it('counts a failed attempt as a call', () => {
    const reached: BudgetReached[] = [];
    const g = new BudgetGuard({ maxCalls: 1 }, (r) => reached.push(r));
    g.settle(g.reserve(request(10), null), undefined, null);
    assert.throws(() => g.reserve(request(10), null), BudgetStop);
    assert.equal(reached[0].spent.calls, 1);
  });

  it('includes in-flight reservations', () => {
    const g = new BudgetGuard({ maxCalls: 2 }, () => {});
    g.reserve(request(10), null);
    g.reserve(request(10), null);
    assert.throws(() => g.reserve(request(10), null), (e: unknown) => e instanceof BudgetStop && e.limit === 'max_calls');
  });

  it('stays reached once reached, even for a call that would fit', () => {
    let count = 0;
    const g = new BudgetGuard({ maxTotalTokens: 700 }, () => count++);
    assert.throws(() => g.reserve(request(400), null)); // 100 prompt + 600 typical output > 700
    assert.throws(() => g.reserve(request(0), null));
    assert.equal(count, 1, 'reported once');
  });

  it('predicts output from the calls so far and learns how far off the prompt rule is', () => {
    const pricing = { inputPerMillion: 1_000_000, cachedInputPerMillion: 0, outputPerMillion: 1_000_000 }; // $1 a token
    const g = new BudgetGuard({ maxCostUsd: 1_000 }, () => {});
    const first = g.reserve(request(400 - TOOLS_CHARS), pricing);
    assert.equal(first.costUsd, 100 + 600);
    // The server counted twice the rule's prompt tokens and wrote 50 tokens.
    g.settle(first, { inputTokens: 200, cachedInputTokens: 0, outputTokens: 50 }, 250);
    const second = g.reserve(request(400 - TOOLS_CHARS), pricing);
    assert.equal(second.costUsd, 200 + 50);
  });

  it('has no caps without a budget', () => {
    const g = new BudgetGuard(undefined, () => assert.fail('no budget'));
    for (let i = 0; i < 100; i++) g.reserve(request(100_000), null);
  });
});

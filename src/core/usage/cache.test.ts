import { strict as assert } from 'node:assert';
import { billPrompts, CACHE_POLICIES, rebuildPays, servedTokens, sumBills, type CachedPrompt } from './cache';

// 4 chars per token: a block of `t` tokens.
const tok = (t: number, c = 'a') => c.repeat(t * 4);
const prompt = (blocks: { text: string; breakpoint?: boolean }[], start: number, ready = start + 1, scope = 'org'): CachedPrompt => ({ scope, blocks, start, ready });

describe('prompt cache billing', () => {
  it('serves OpenAI prefixes from 1,024 tokens in steps of 128', () => {
    assert.equal(servedTokens(1023, CACHE_POLICIES.openai), 0);
    assert.equal(servedTokens(1024, CACHE_POLICIES.openai), 1024);
    assert.equal(servedTokens(1300, CACHE_POLICIES.openai), 1280);
  });

  it('prefix caches: a later prompt reads what an earlier one in its scope shared, once that one began', () => {
    const base = tok(2000);
    const bills = billPrompts(
      [prompt([{ text: base }], 0, 5), prompt([{ text: base + tok(100, 'b') }], 6), prompt([{ text: base }], 1), prompt([{ text: base }], 7, 8, 'other')],
      CACHE_POLICIES.gemini,
    );
    assert.deepEqual(bills.map((b) => b.read), [0, 2000, 0, 0], 'the second reads; the third started before the first began; another scope misses');
    assert.equal(bills[1].billed, 100 + 2000 * 0.25);
  });

  it('breakpoints: only marked prefixes are stored, reads at block boundaries, writes up to the last mark at 1.25×', () => {
    const system = { text: tok(1100), breakpoint: true };
    const first = billPrompts([prompt([system, { text: tok(300) }], 0)], CACHE_POLICIES.anthropic)[0];
    assert.deepEqual([first.read, first.written, first.uncached], [0, 1100, 300]);
    const [, second] = billPrompts([prompt([system, { text: tok(300) }], 0), prompt([system, { text: tok(300) }, { text: tok(50), breakpoint: true }], 2)], CACHE_POLICIES.anthropic);
    assert.deepEqual([second.read, second.written, second.uncached], [1100, 350, 0]);
    assert.equal(second.billed, 1100 * 0.1 + 350 * 1.25);
  });

  it('breakpoints: a prefix under the minimum is neither written nor charged the premium', () => {
    const [b] = billPrompts([prompt([{ text: tok(500), breakpoint: true }, { text: tok(100) }], 0)], CACHE_POLICIES.anthropic);
    assert.deepEqual([b.written, b.billed], [0, 600]);
  });

  it('breakpoints: a changed block before the mark misses, even with the same length', () => {
    const bills = billPrompts([prompt([{ text: tok(1100), breakpoint: true }], 0), prompt([{ text: tok(1100, 'z'), breakpoint: true }], 2)], CACHE_POLICIES.anthropic);
    assert.equal(bills[1].read, 0);
    assert.equal(sumBills(bills).written, 2200);
  });

  it('rebuilding pays without a cache whenever it is shorter, and not when the cache serves the carried conversation', () => {
    const choice = { stable: 400, sent: 3000, appended: 3600, rebuilt: 2500, prefixChanged: false };
    assert.equal(rebuildPays(undefined, choice), true);
    assert.equal(rebuildPays(CACHE_POLICIES.anthropic, { ...choice, sent: 3000 }), false);
    assert.equal(rebuildPays(CACHE_POLICIES.anthropic, { ...choice, prefixChanged: true }), true, 'a changed toolset leaves nothing cached');
    assert.equal(rebuildPays(CACHE_POLICIES.openai, { ...choice, sent: 900 }), true, 'under the minimum nothing is served');
  });

  it('under breakpoints a rebuilt conversation keeps only its system prompt cached; a prefix cache serves it whole next turn', () => {
    // Carried: 1,100 served now and next turn; rebuilt: nothing served (its 400 of tools and system are under the minimum).
    const choice = { stable: 400, sent: 1100, appended: 3000, rebuilt: 2200, prefixChanged: false };
    assert.equal(rebuildPays(CACHE_POLICIES.anthropic, choice), false, '2 × 2,200 > 2 × (3,000 − 0.9 × 1,100)');
    assert.equal(rebuildPays(CACHE_POLICIES.gemini, choice), true, '2,200 + 0.25 × 2,200 < 3,000 − 0.75 × 1,100 + 0.25 × 3,000');
  });

  it('a rebuilt start other agents send too pays where the agent alone would carry its conversation on', () => {
    // Carried: 1,500 held; rebuilt: 1,450 of which 1,400 are the task and board every agent is shown.
    const alone = { stable: 450, sent: 1500, appended: 2100, rebuilt: 1450, shared: 1400, prefixChanged: false };
    assert.equal(rebuildPays(CACHE_POLICIES.anthropic, alone), false, 'alone, the rebuilt start is not even marked');
    assert.equal(rebuildPays(CACHE_POLICIES.anthropic, { ...alone, sharers: 3 }), true, 'two of three read 1,400 at 0.1×; the first writes it at 1.25×');
    assert.equal(rebuildPays(CACHE_POLICIES.gemini, { ...alone, sent: 3000, appended: 3100 }), false);
    assert.equal(rebuildPays(CACHE_POLICIES.gemini, { ...alone, sent: 3000, appended: 3100, sharers: 3 }), true);
    assert.equal(rebuildPays(CACHE_POLICIES.anthropic, { ...alone, shared: 500, sharers: 3 }), false, 'a shared start under the minimum is never read');
  });
});

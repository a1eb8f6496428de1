import assert from 'node:assert/strict';
import { findTooSimilar, jaccard, NOVELTY_THRESHOLDS } from './novelty';

/** `n` distinct words w0..w(n-1), with an optional prefix to make disjoint sets. */
const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

describe('novelty: jaccard', () => {
  it('identical texts → 1', () => {
    assert.equal(jaccard('the quick brown fox', 'the quick brown fox'), 1);
  });

  it('disjoint texts → 0', () => {
    assert.equal(jaccard('alpha beta', 'gamma delta'), 0);
  });

  it('is case-insensitive', () => {
    assert.equal(jaccard('The Quick BROWN fox', 'the quick brown FOX'), 1);
  });

  it('ignores amount and kind of whitespace', () => {
    assert.equal(jaccard('a  b\n\nc\td', ' a b c d '), 1);
  });

  it('compares word sets: repetition and order do not matter', () => {
    assert.equal(jaccard('a b a b a', 'b a'), 1);
  });

  it('is |shared| / |union|', () => {
    // {a,b,c} vs {b,c,d}: 2 / 4
    assert.equal(jaccard('a b c', 'b c d'), 0.5);
    // {a} vs {a,b,c}: 1 / 3
    assert.equal(jaccard('a', 'a b c'), 1 / 3);
  });

  it('is symmetric', () => {
    assert.equal(jaccard('a b c d e', 'c d x'), jaccard('c d x', 'a b c d e'));
  });

  it('punctuation is part of a word', () => {
    assert.equal(jaccard('four.', 'four'), 0);
  });

  it('two empty (or blank) strings → 1', () => {
    assert.equal(jaccard('', ''), 1);
    assert.equal(jaccard('  \n', '\t'), 1);
  });

  it('one empty string against text → 0', () => {
    assert.equal(jaccard('', 'something'), 0);
    assert.equal(jaccard('something', '   '), 0);
  });
});

describe('novelty: thresholds', () => {
  it('lenient has no threshold, balanced 0.70, strict 0.50', () => {
    assert.deepEqual(NOVELTY_THRESHOLDS, { lenient: null, balanced: 0.7, strict: 0.5 });
  });

  it('lenient never finds anything too similar, not even an identical text', () => {
    assert.equal(findTooSimilar('same words', [{ label: 'agent1', content: 'same words' }], 'lenient'), undefined);
  });

  it('balanced: exactly 0.70 passes', () => {
    // 7 shared words, union 10
    const candidate = `${words(7)} x1 x2 x3`;
    assert.equal(jaccard(candidate, words(7)), 0.7);
    assert.equal(findTooSimilar(candidate, [{ label: 'agent1', content: words(7) }], 'balanced'), undefined);
  });

  it('balanced: just above 0.70 is refused with the similarity and threshold', () => {
    // 8 shared words, union 11 ≈ 0.727
    const candidate = `${words(8)} x1 x2 x3`;
    const hit = findTooSimilar(candidate, [{ label: 'agent1', content: words(8) }], 'balanced');
    assert.deepEqual(hit, { label: 'agent1', similarity: 8 / 11, threshold: 0.7 });
  });

  it('strict: exactly 0.50 passes', () => {
    assert.equal(findTooSimilar('a b c', [{ label: 'agent1', content: 'b c d' }], 'strict'), undefined);
  });

  it('strict: just above 0.50 is refused', () => {
    // {a,b,c,d} vs {b,c,d,e}: 3 / 5
    const hit = findTooSimilar('a b c d', [{ label: 'agent2', content: 'b c d e' }], 'strict');
    assert.deepEqual(hit, { label: 'agent2', similarity: 0.6, threshold: 0.5 });
  });

  it('0.6 passes balanced', () => {
    assert.equal(findTooSimilar('a b c d', [{ label: 'agent2', content: 'b c d e' }], 'balanced'), undefined);
  });

  it('returns the first offending answer in the given order, not the most similar one', () => {
    const existing = [
      { label: 'agent1', content: 'totally unrelated text here' },
      { label: 'agent2', content: 'a b c d e f g h i' }, // 9/10 with the candidate
      { label: 'agent3', content: 'a b c d e f g h i j' }, // identical
    ];
    const hit = findTooSimilar('a b c d e f g h i j', existing, 'balanced');
    assert.equal(hit?.label, 'agent2');
    assert.equal(hit?.similarity, 0.9);
  });

  it('no existing answers → undefined', () => {
    assert.equal(findTooSimilar('anything', [], 'strict'), undefined);
  });
});

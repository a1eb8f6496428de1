import { strict as assert } from 'node:assert';
import { closestName, editDistance } from './edit-distance';

describe('edit distance and near misses', () => {
  it('counts insertions, deletions and substitutions', () => {
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('same', 'same'), 0);
  });

  it('suggests the nearest known name, ignoring case, only when it is close enough to be a typo', () => {
    const known = ['max_tokens', 'temperature', 'ollama', 'openai'];
    assert.equal(closestName('max_token', known), 'max_tokens');
    assert.equal(closestName('OLAMA', known), 'ollama');
    assert.equal(closestName('opnai', known), 'openai');
    assert.equal(closestName('gemini-ultra', known), undefined);
    assert.equal(closestName('x', [], 2), undefined);
  });

  it('lets short names match within a floor of edits', () => {
    assert.equal(closestName('a2', ['a1', 'b7']), 'a1');
    assert.equal(closestName('ab', ['xy']), undefined);
    assert.equal(closestName('ab', ['xy'], 2), 'xy');
  });
});

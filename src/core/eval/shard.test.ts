import assert from 'node:assert/strict';
import { parseShard, selectItems } from './shard';

describe('eval shards', () => {
  const items = Array.from({ length: 10 }, (_, i) => i);
  it('round robin over the (limited) items: every item in exactly one shard, sizes within one', () => {
    const shards = [1, 2, 3].map((index) => selectItems(items, { shard: { index, count: 3 } }));
    assert.deepEqual(shards, [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]);
    assert.deepEqual(selectItems(items, { limit: 4, shard: { index: 2, count: 2 } }), [1, 3]);
    assert.deepEqual(selectItems(items, { limit: 3 }), [0, 1, 2]);
    assert.deepEqual(selectItems([0, 1], { shard: { index: 3, count: 3 } }), [], 'more shards than items: some are empty');
  });

  it('parses K/N and explains bad ones', () => {
    assert.deepEqual(parseShard('2/8'), { index: 2, count: 8 });
    assert.deepEqual(parseShard(' 1 / 1 '), { index: 1, count: 1 });
    assert.equal(parseShard('0/2'), '--shard 0/2: K must be between 1 and N (shards are numbered 1…N)');
    assert.equal(parseShard('3/2'), '--shard 3/2: K must be between 1 and N (shards are numbered 1…N)');
    assert.equal(parseShard('half'), "--shard must be K/N (e.g. 2/8), got 'half'");
  });
});

import assert from 'node:assert/strict';
import type { VoteRecord } from './events';
import { countByLabel, tallyVotes } from './tally';

function v(voterId: string, targetId: string, targetLabel = `${targetId}.1`): VoteRecord {
  return { voterId, targetId, targetLabel, reason: '', seenRevision: 1 };
}

const all = (...ids: string[]) => new Set(ids);

describe('tally: tallyVotes', () => {
  it('picks the plurality winner', () => {
    const t = tallyVotes(['a', 'b', 'c'], [v('a', 'b'), v('b', 'b'), v('c', 'a')], all('a', 'b', 'c'));
    assert.equal(t.winnerId, 'b');
    assert.equal(t.tieBreak, false);
    assert.deepEqual(t.counts, { b: 2, a: 1 });
  });

  it('a plurality without a majority still wins', () => {
    const t = tallyVotes(['a', 'b', 'c', 'd', 'e'], [v('a', 'c'), v('b', 'c'), v('c', 'a'), v('d', 'b'), v('e', 'd')], all('a', 'b', 'c', 'd'));
    assert.equal(t.winnerId, 'c');
  });

  it('breaks a tie by config order, not by vote order', () => {
    // c's vote comes first, but a precedes c in config order
    const t = tallyVotes(['a', 'b', 'c'], [v('x', 'c'), v('y', 'a')], all('a', 'b', 'c'));
    assert.equal(t.winnerId, 'a');
    assert.equal(t.tieBreak, true);
  });

  it('breaks a tie by config order, not by sorted id', () => {
    const t = tallyVotes(['zed', 'amy'], [v('amy', 'amy'), v('zed', 'zed')], all('amy', 'zed'));
    assert.equal(t.winnerId, 'zed');
    assert.equal(t.tieBreak, true);
  });

  it('only agents sharing the top count take part in the tie-break', () => {
    const t = tallyVotes(['a', 'b', 'c'], [v('1', 'a'), v('2', 'c'), v('3', 'c')], all('a', 'b', 'c'));
    assert.equal(t.winnerId, 'c');
    assert.equal(t.tieBreak, false);
  });

  it('ignores votes for non-candidates', () => {
    const t = tallyVotes(['a', 'b', 'c'], [v('1', 'c'), v('2', 'c'), v('3', 'a')], all('a', 'b'));
    assert.equal(t.winnerId, 'a');
    assert.deepEqual(t.counts, { a: 1 });
  });

  it('no votes → winnerId null, no tie-break, empty counts', () => {
    assert.deepEqual(tallyVotes(['a', 'b'], [], all('a', 'b')), { counts: {}, winnerId: null, tieBreak: false });
  });

  it('only votes for non-candidates → winnerId null', () => {
    const t = tallyVotes(['a', 'b'], [v('a', 'b')], all('a'));
    assert.equal(t.winnerId, null);
    assert.deepEqual(t.counts, {});
  });

  it('a top-voted candidate missing from the config order still yields a string or null winner', () => {
    const t = tallyVotes(['a'], [v('1', 'ghost'), v('2', 'ghost'), v('3', 'a')], all('a', 'ghost'));
    assert.ok(t.winnerId === null || typeof t.winnerId === 'string', `winnerId was ${String(t.winnerId)}`);
  });

  it('counts per agent regardless of which answer version was voted for', () => {
    const t = tallyVotes(['a', 'b'], [v('1', 'a', 'agent1.1'), v('2', 'a', 'agent1.2'), v('3', 'b', 'agent2.1')], all('a', 'b'));
    assert.deepEqual(t.counts, { a: 2, b: 1 });
    assert.equal(t.winnerId, 'a');
  });
});

describe('tally: countByLabel', () => {
  it('counts votes per answer version label', () => {
    assert.deepEqual(countByLabel([v('1', 'a', 'agent1.1'), v('2', 'a', 'agent1.2'), v('3', 'a', 'agent1.2'), v('4', 'b', 'agent2.1')]), {
      'agent1.1': 1,
      'agent1.2': 2,
      'agent2.1': 1,
    });
  });

  it('no votes → empty object', () => {
    assert.deepEqual(countByLabel([]), {});
  });
});

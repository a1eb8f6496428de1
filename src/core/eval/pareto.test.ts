import assert from 'node:assert/strict';
import { paretoFront } from './pareto';

describe('eval Pareto front', () => {
  it('keeps the systems no other beats on both accuracy and cost, cheapest first', () => {
    const front = paretoFront([
      { id: 'team', accuracy: 0.9, cost: 1 },
      { id: 'a', accuracy: 0.5, cost: 0.1 },
      { id: 'b', accuracy: 0.6, cost: 0.5 },
      { id: 'team-escalating', accuracy: 0.85, cost: 0.3 },
      { id: 'self-consistency', accuracy: 0.7, cost: 1.2 },
    ]);
    assert.deepEqual(front, { front: ['a', 'team-escalating', 'team'], unknownCost: [] });
  });

  it('ties: equal points are both on it; equal accuracy at a higher cost (or the reverse) is not', () => {
    assert.deepEqual(paretoFront([{ id: 'x', accuracy: 0.8, cost: 1 }, { id: 'y', accuracy: 0.8, cost: 1 }]).front, ['x', 'y']);
    assert.deepEqual(paretoFront([{ id: 'x', accuracy: 0.8, cost: 1 }, { id: 'y', accuracy: 0.8, cost: 2 }]).front, ['x']);
    assert.deepEqual(paretoFront([{ id: 'x', accuracy: 0.7, cost: 1 }, { id: 'y', accuracy: 0.8, cost: 1 }]).front, ['y']);
  });

  it('unknown cost: left out of the front and named; it dominates nothing', () => {
    const front = paretoFront([{ id: 'local', accuracy: 1, cost: null }, { id: 'a', accuracy: 0.4, cost: 0.2 }, { id: 'b', accuracy: 0.6, cost: null }]);
    assert.deepEqual(front, { front: ['a'], unknownCost: ['local', 'b'] });
    assert.deepEqual(paretoFront([{ id: 'a', accuracy: 0.4, cost: null }]), { front: [], unknownCost: ['a'] });
  });

  it('one system is its own front; none gives an empty one', () => {
    assert.deepEqual(paretoFront([{ id: 'team', accuracy: 0, cost: 0 }]), { front: ['team'], unknownCost: [] });
    assert.deepEqual(paretoFront([]), { front: [], unknownCost: [] });
  });
});

import assert from 'node:assert/strict';
import { PatchStore } from './patch-store';

describe('patch store', () => {
  it('keeps patches up to its size, dropping the least recently used first', () => {
    const store = new PatchStore(10);
    store.set('agent1.1', 'aaaa');
    store.set('agent2.1', 'bbbb');
    assert.equal(store.get('agent1.1'), 'aaaa');
    store.set('agent1.2', 'cccc');
    assert.equal(store.get('agent2.1'), undefined, 'the least recently used went');
    assert.equal(store.get('agent1.1'), 'aaaa');
    assert.equal(store.get('agent1.2'), 'cccc');
  });

  it('does not keep a patch larger than its size, and counts a replaced patch once', () => {
    const store = new PatchStore(10);
    store.set('agent1.1', 'x'.repeat(11));
    assert.equal(store.get('agent1.1'), undefined);
    store.set('agent1.2', 'aaaaa');
    store.set('agent1.2', 'bbbbb');
    store.set('agent2.1', 'ccccc');
    assert.equal(store.get('agent1.2'), 'bbbbb');
    assert.equal(store.get('agent2.1'), 'ccccc');
  });
});

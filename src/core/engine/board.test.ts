import assert from 'node:assert/strict';
import { Board, toBoardEntry } from './board';

// Config order differs from id sort on purpose: labels follow config order.
const order = [
  { id: 'zeta', label: 'agent1' },
  { id: 'alpha', label: 'agent2' },
  { id: 'mid', label: 'agent3' },
];

describe('board', () => {
  it('starts empty at revision 0', () => {
    const b = new Board(order);
    assert.equal(b.revision, 0);
    assert.equal(b.hasAnswers, false);
    assert.deepEqual(b.current(), []);
    assert.equal(b.latest('zeta'), undefined);
  });

  it('counts versions per agent from 1 and labels them agentK.M with the config-order label', () => {
    const b = new Board(order);
    const a1 = b.add('alpha', 'first');
    const z1 = b.add('zeta', 'z first');
    const a2 = b.add('alpha', 'second');
    assert.equal(a1.version, 1);
    assert.equal(a1.label, 'agent2.1');
    assert.equal(a1.agentLabel, 'agent2');
    assert.equal(z1.version, 1);
    assert.equal(z1.label, 'agent1.1');
    assert.equal(a2.version, 2);
    assert.equal(a2.label, 'agent2.2');
    assert.equal(a2.content, 'second');
    assert.equal(a2.agentId, 'alpha');
  });

  it('increments the revision with every answer and stamps it on the answer', () => {
    const b = new Board(order);
    assert.equal(b.add('mid', 'x').revision, 1);
    assert.equal(b.add('mid', 'y').revision, 2);
    assert.equal(b.add('zeta', 'z').revision, 3);
    assert.equal(b.revision, 3);
    assert.equal(b.hasAnswers, true);
  });

  it('latest() is the newest version of that agent', () => {
    const b = new Board(order);
    b.add('alpha', 'one');
    b.add('zeta', 'other');
    b.add('alpha', 'two');
    assert.equal(b.latest('alpha')?.label, 'agent2.2');
    assert.equal(b.latest('mid'), undefined);
  });

  it('current() lists the latest answer per agent in config order, skipping agents without one', () => {
    const b = new Board(order);
    b.add('mid', 'm1');
    b.add('alpha', 'a1');
    b.add('mid', 'm2');
    assert.deepEqual(
      b.current().map((a) => a.label),
      ['agent2.1', 'agent3.2'],
    );
    b.add('zeta', 'z1');
    assert.deepEqual(
      b.current().map((a) => a.label),
      ['agent1.1', 'agent2.1', 'agent3.2'],
    );
  });

  it('since(revision) returns the answers added after that revision, in order', () => {
    const b = new Board(order);
    b.add('zeta', 'a');
    b.add('alpha', 'b');
    b.add('zeta', 'c');
    assert.deepEqual(
      b.since(1).map((a) => a.label),
      ['agent2.1', 'agent1.2'],
    );
    assert.deepEqual(b.since(3), []);
    assert.equal(b.since(0).length, 3);
  });

  it('history() keeps every version', () => {
    const b = new Board(order);
    b.add('zeta', 'a');
    b.add('zeta', 'b');
    assert.deepEqual(
      b.history().map((a) => a.content),
      ['a', 'b'],
    );
  });

  it('adding for an unknown agent throws and changes nothing', () => {
    const b = new Board(order);
    assert.throws(() => b.add('ghost', 'boo'), /unknown agent ghost/);
    assert.equal(b.revision, 0);
    assert.equal(b.hasAnswers, false);
  });

  it('toBoardEntry maps to the prompt shape', () => {
    const b = new Board(order);
    b.add('alpha', 'x');
    const a = b.add('alpha', 'content here');
    assert.deepEqual(toBoardEntry(a), { label: 'agent2', versionLabel: 'agent2.2', content: 'content here' });
  });
});

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { RunLimiter } from './limiter';

/** A task that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { task: async () => { log.push(name); await done; return name; }, release };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('eval RunLimiter', () => {
  it('at most `total` at once, at most `perProvider` on one provider', async () => {
    const l = new RunLimiter(3, 2);
    const log: string[] = [];
    const g = ['a1', 'a2', 'a3', 'b1'].map((n) => gate(log, n));
    const runs = [l.run(['A'], g[0].task), l.run(['A'], g[1].task), l.run(['A'], g[2].task), l.run(['B'], g[3].task)];
    await tick();
    assert.deepEqual(log, ['a1', 'a2', 'b1'], 'a3 waits for A; b1 goes on B');
    assert.deepEqual(l.stats, { running: 3, waiting: 1 });
    g[0].release();
    await tick();
    assert.deepEqual(log, ['a1', 'a2', 'b1', 'a3']);
    for (const x of g) x.release();
    assert.deepEqual(await Promise.all(runs), ['a1', 'a2', 'a3', 'b1']);
    assert.deepEqual(l.stats, { running: 0, waiting: 0 });
  });

  it('a run needing several providers takes them all at once, and later runs cannot starve it', async () => {
    const l = new RunLimiter(10, 1);
    const log: string[] = [];
    const a = gate(log, 'a');
    const team = gate(log, 'team');
    const b = gate(log, 'b');
    const c = gate(log, 'c');
    const runs = [l.run(['A'], a.task), l.run(['A', 'B'], team.task), l.run(['B'], b.task), l.run(['C'], c.task)];
    await tick();
    assert.deepEqual(log, ['a', 'c'], 'b would take B from the waiting team run; c uses a free provider');
    a.release();
    await tick();
    assert.deepEqual(log, ['a', 'c', 'team']);
    team.release();
    await tick();
    assert.deepEqual(log, ['a', 'c', 'team', 'b']);
    b.release();
    c.release();
    await Promise.all(runs);
  });

  it('a waiting run is dropped when its signal aborts; a failing task frees its slot', async () => {
    const l = new RunLimiter(1, 1);
    const log: string[] = [];
    const first = gate(log, 'first');
    const running = l.run(['A'], first.task);
    const ac = new AbortController();
    const waiting = l.run(['A'], async () => 'never', ac.signal);
    ac.abort(new Error('stop'));
    await assert.rejects(waiting, /stop/);
    assert.deepEqual(l.stats, { running: 1, waiting: 0 });
    first.release();
    await running;
    await assert.rejects(l.run(['A'], async () => { throw new Error('boom'); }), /boom/);
    assert.equal(await l.run(['A'], async () => 'next'), 'next');
    await assert.rejects(l.run(['A'], async () => 'x', AbortSignal.abort(new Error('already'))), /already/);
  });

  it('however many runs wait on one signal, it carries one listener, gone once none waits', async () => {
    const l = new RunLimiter(1, 1);
    const abort = new AbortController();
    const log: string[] = [];
    const g = Array.from({ length: 50 }, (_, i) => gate(log, `r${i}`));
    const runs = g.map((x) => l.run(['A'], x.task, abort.signal));
    await tick();
    assert.equal(getEventListeners(abort.signal, 'abort').length, 1);
    for (const x of g) x.release();
    await Promise.all(runs);
    assert.equal(getEventListeners(abort.signal, 'abort').length, 0);
  });

  it('limits below 1 are refused', () => {
    assert.throws(() => new RunLimiter(0, 1), /at least 1/);
  });
});

import assert from 'node:assert/strict';
import { AbortedError, linkedSignal, raceAbort } from './abort';

describe('raceAbort', () => {
  it('settles as the promise does while the signal is quiet', async () => {
    const signal = new AbortController().signal;
    assert.equal(await raceAbort(Promise.resolve(7), signal), 7);
    await assert.rejects(raceAbort(Promise.reject(new Error('boom')), signal), /boom/);
  });

  it('rejects with AbortedError when the signal fires, though the promise never settles', async () => {
    const ac = new AbortController();
    const raced = raceAbort(new Promise(() => undefined), ac.signal);
    ac.abort();
    await assert.rejects(raced, AbortedError);
  });

  it('rejects at once on a signal that has already fired, and a late rejection is not left unhandled', async () => {
    const ac = new AbortController();
    ac.abort();
    let fail!: (err: Error) => void;
    const late = new Promise((_resolve, reject) => (fail = reject));
    await assert.rejects(raceAbort(late, ac.signal), AbortedError);
    fail(new Error('late'));
    await new Promise((r) => setImmediate(r));
  });

  it('removes its listener once the promise settles', async () => {
    const ac = new AbortController();
    let listeners = 0;
    const add = ac.signal.addEventListener.bind(ac.signal);
    const remove = ac.signal.removeEventListener.bind(ac.signal);
    ac.signal.addEventListener = ((...args: Parameters<typeof add>) => (listeners++, add(...args))) as typeof add;
    ac.signal.removeEventListener = ((...args: Parameters<typeof remove>) => (listeners--, remove(...args))) as typeof remove;
    await raceAbort(Promise.resolve(1), ac.signal);
    assert.equal(listeners, 0);
  });
});

describe('linkedSignal', () => {
  it('aborts when any source does, and then lets go of every source', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkedSignal([a.signal, b.signal]);
    assert.equal(linked.signal.aborted, false);
    b.abort();
    assert.equal(linked.signal.aborted, true);
    // No listener is left on the other, long-lived source.
    let heard = 0;
    linked.signal.addEventListener('abort', () => heard++);
    a.abort();
    assert.equal(heard, 0);
  });

  it('starts aborted when a source has; dispose detaches it from sources that live on', () => {
    const done = new AbortController();
    done.abort();
    assert.equal(linkedSignal([new AbortController().signal, done.signal]).signal.aborted, true);
    const run = new AbortController();
    const linked = linkedSignal([run.signal]);
    linked.dispose();
    run.abort();
    assert.equal(linked.signal.aborted, false, 'a disposed link no longer follows its source');
  });
});

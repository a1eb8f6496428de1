import assert from 'node:assert/strict';
import { OncePerKey } from './once-per-key';

const deferred = <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe('OncePerKey', () => {
  it('a second call while the first is going, or after it succeeded, gets its value without starting again', async () => {
    const once = new OncePerKey<string>();
    const first = deferred<string>();
    let starts = 0;
    const start = () => (starts++, first.promise);
    const a = once.run('run1/note1', start);
    const b = once.run('run1/note1', start);
    first.resolve('run2');
    assert.deepEqual([await a, await b, await once.run('run1/note1', start)], ['run2', 'run2', 'run2']);
    assert.equal(starts, 1);
    assert.equal(await once.run('run1/note2', async () => 'run3'), 'run3', 'another key starts its own');
  });

  it('a failed start may be tried again; a value that no longer holds starts afresh', async () => {
    const gone = new Set<string>();
    const once = new OncePerKey<string>((id) => !gone.has(id));
    await assert.rejects(once.run('k', () => Promise.reject(new Error('the run could not start'))), /could not start/);
    assert.equal(await once.run('k', async () => 'run2'), 'run2');
    gone.add('run2');
    assert.equal(await once.run('k', async () => 'run3'), 'run3');
  });
});

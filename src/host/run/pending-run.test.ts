import assert from 'node:assert/strict';
import { firstAnswer, PendingRuns } from './pending-run';

/** A promise settled from outside, so the test decides the order. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the run waiting for the checks answer', () => {
  it('takes the first answer, the notification\'s or the viewer\'s; none when the wait runs out first', async () => {
    const viewerFirst = { toast: deferred<boolean | undefined>(), viewer: deferred<boolean | undefined>(), waited: deferred<void>() };
    const a = firstAnswer([viewerFirst.toast.promise, viewerFirst.viewer.promise], viewerFirst.waited.promise);
    viewerFirst.viewer.resolve(false);
    viewerFirst.toast.resolve(true);
    assert.equal(await a, false, 'the viewer answered first');

    const waitedFirst = { toast: deferred<boolean | undefined>(), viewer: deferred<boolean | undefined>(), waited: deferred<void>() };
    const b = firstAnswer([waitedFirst.toast.promise, waitedFirst.viewer.promise], waitedFirst.waited.promise);
    waitedFirst.waited.resolve();
    await Promise.resolve();
    waitedFirst.toast.resolve(true);
    assert.equal(await b, undefined, 'the wait ran out first: a later "Use it" does not start this run with checks');
  });

  it('shows one run at a time; an answer counts once, only while open; a newer run replaces an older one', () => {
    const pending = new PendingRuns();
    const seen: (string | null)[] = [];
    pending.onDidChange(() => seen.push(pending.shown ? `${pending.shown.title}${pending.shown.answered ? ' (answered)' : ''}` : null));
    const answers: boolean[] = [];
    const first = pending.ask({ title: 'one', command: 'npm test', why: 'package.json' }, (use) => answers.push(use));
    const id = pending.shown!.id;
    assert.equal(pending.answer('someone-else', true), false);
    assert.equal(pending.answer(id, true), true);
    first.settled();
    assert.equal(pending.answer(id, false), false, 'settled: no second answer');
    assert.deepEqual(answers, [true]);
    const second = pending.ask({ title: 'two', command: 'npm test', why: 'package.json' }, () => undefined);
    first.dispose();
    assert.equal(pending.shown?.title, 'two', 'the older run\'s end does not hide the newer one');
    second.dispose();
    assert.deepEqual(seen, ['one', 'one (answered)', 'two', null]);
  });
});

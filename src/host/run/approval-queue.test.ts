import { strict as assert } from 'node:assert';
import { ApprovalQueue, type ApprovalChoice, type PendingApproval } from './approval-queue';

/** A toast port that records what it shows and lets the test click. */
function fakeToast() {
  const shown: { head: PendingApproval; more: number; click(choice: ApprovalChoice | undefined): void }[] = [];
  return {
    shown,
    port: {
      show: (head: PendingApproval, more: number) => new Promise<ApprovalChoice | undefined>((resolve) => shown.push({ head, more, click: resolve })),
    },
  };
}

const request = (agentId: string, command: string, extra: Partial<PendingApproval> = {}) => ({ runId: 'run1', agentId, label: agentId, command, folder: 'proj', copy: `/copies/run1/${agentId}`, sandboxed: true, ...extra });
const tick = () => new Promise((r) => setImmediate(r));

describe('ApprovalQueue', () => {
  it('shows one toast at a time: the head, naming how many more wait; the next after it is answered', async () => {
    const toast = fakeToast();
    const q = new ApprovalQueue(toast.port);
    const a = q.ask(request('agent1', 'npm test'), new AbortController().signal);
    const b = q.ask(request('agent2', 'ls'), new AbortController().signal);
    assert.equal(toast.shown.length, 1);
    assert.equal(toast.shown[0].head.agentId, 'agent1');
    assert.deepEqual(q.pending.map((p) => p.command), ['npm test', 'ls']);
    toast.shown[0].click('allow');
    assert.equal(await a, 'allow');
    await tick();
    assert.equal(toast.shown.length, 2);
    assert.equal(toast.shown[1].head.agentId, 'agent2');
    assert.equal(toast.shown[1].more, 0);
    toast.shown[1].click(undefined);
    assert.equal(await b, 'deny', 'closing the notification denies');
    assert.deepEqual(q.pending, []);
  });

  it('answered in the viewer: the request leaves, the next head gets a toast, the late click does nothing', async () => {
    const toast = fakeToast();
    const q = new ApprovalQueue(toast.port);
    let changes = 0;
    q.onDidChange(() => changes++);
    const a = q.ask(request('agent1', 'npm test'), new AbortController().signal);
    const b = q.ask(request('agent2', 'ls'), new AbortController().signal);
    assert.equal(toast.shown[0].more, 0, 'the first toast came before the second request');
    assert.ok(q.answer(q.pending[0].id, 'deny'));
    assert.equal(await a, 'deny');
    assert.equal(toast.shown.length, 2);
    assert.equal(toast.shown[1].head.agentId, 'agent2');
    // The first (stale) toast is clicked late: the waiting request is not touched.
    toast.shown[0].click('allow');
    await tick();
    assert.deepEqual(q.pending.map((p) => p.agentId), ['agent2']);
    assert.equal(toast.shown.length, 2, 'no new toast for a stale click');
    assert.equal(q.answer('approval-1', 'allow'), false, 'an answered request cannot be answered again');
    toast.shown[1].click('allow');
    assert.equal(await b, 'allow');
    assert.ok(changes >= 4);
  });

  it('a cancelled run or agent takes its request out of the queue', async () => {
    const toast = fakeToast();
    const q = new ApprovalQueue(toast.port);
    const stop = new AbortController();
    const a = q.ask(request('agent1', 'npm test'), stop.signal);
    const b = q.ask(request('agent2', 'ls'), new AbortController().signal);
    stop.abort();
    assert.equal(await a, undefined);
    assert.deepEqual(q.pending.map((p) => p.agentId), ['agent2']);
    assert.equal(toast.shown.at(-1)!.head.agentId, 'agent2');
    toast.shown[0].click('allow');
    await tick();
    assert.deepEqual(q.pending.map((p) => p.agentId), ['agent2'], 'the cancelled request\u2019s toast answers nothing');
    q.answer(q.pending[0].id, 'allow');
    assert.equal(await b, 'allow');
    assert.equal(await q.ask(request('agent3', 'pwd'), stop.signal), undefined, 'an aborted signal never queues');
  });

  it('"for this run" only fits sandboxed commands', async () => {
    const q = new ApprovalQueue(fakeToast().port);
    const a = q.ask(request('agent1', 'rm -rf build', { sandboxed: false }), new AbortController().signal);
    const id = q.pending[0].id;
    assert.equal(q.answer(id, 'allowRun'), false);
    assert.equal(q.pending.length, 1);
    assert.ok(q.answer(id, 'allow'));
    assert.equal(await a, 'allow');
  });

  it('answerAll answers the requests it picks', async () => {
    const q = new ApprovalQueue(fakeToast().port);
    const a = q.ask(request('agent1', 'a'), new AbortController().signal);
    const b = q.ask(request('agent2', 'b', { runId: 'run2' }), new AbortController().signal);
    const c = q.ask(request('agent3', 'c', { sandboxed: false }), new AbortController().signal);
    q.answerAll((p) => p.runId === 'run1' && p.sandboxed, 'allow');
    assert.equal(await a, 'allow');
    assert.deepEqual(q.pending.map((p) => p.agentId), ['agent2', 'agent3']);
    q.answerAll(() => true, 'deny');
    assert.deepEqual([await b, await c], ['deny', 'deny']);
  });
});

// Command approvals in the vote viewer, in real Chromium, over the real approval queue (src/host/run/approval-queue.ts)
// and hub: each waiting command shows in its agent's column with Allow / Allow for this run / Deny (not "for this run"
// when unsandboxed), the agent's status reads "waiting for approval"; a click answers the request (the same one the
// notification answers), one answered in the notification leaves the column, and a hostile command stays text.

import assert from 'node:assert/strict';
import type { RunEvent } from '../../src/core/engine/events';
import { ApprovalQueue, type ApprovalChoice, type PendingApproval } from '../../src/host/run/approval-queue';
import { ViewerHub } from '../../src/host/viewer/hub';
import { eventually } from '../helpers/eventually';
import { describeInChromium, FakeServices, FakeSource, replay, useViewerRig, type Harness } from './harness';
import { midRun } from './scenarios';
import type { ThemeName } from './themes';

/** A run source with the window's approval queue, its notification a fake the test clicks. */
class ApprovalSource extends FakeSource {
  readonly toasts: { head: PendingApproval; click(choice: ApprovalChoice | undefined): void }[] = [];
  readonly approvals = new ApprovalQueue({ show: (head) => new Promise((resolve) => this.toasts.push({ head, click: resolve })) });
}

const HOSTILE = 'rm -rf build <img src="/leak-approval" onerror="window.__pwned=1"> **x**';

describeInChromium('vote viewer in Chromium: command approvals', function () {
  this.timeout(90_000);
  const rig = useViewerRig();
  const hubs: ViewerHub[] = [];
  let mid: RunEvent[];

  before(async () => {
    mid = (await midRun()).events;
  });
  after(() => hubs.forEach((h) => h.dispose()));

  async function harness(): Promise<Harness & { source: ApprovalSource }> {
    const { browser, server } = await rig.harness();
    const source = new ApprovalSource();
    const services = new FakeServices();
    const hub = new ViewerHub(source, null, services, { coalescer: { intervalMs: 20 }, headDelayMs: 200 });
    hubs.push(hub);
    return { browser, server, source, services, hub };
  }

  it('waiting commands show in their agents\u2019 columns; Allow there answers them; one answered in the notification leaves', async () => {
    const h = await harness();
    const run = h.source.start('run-approvals', 'Approvals', mid.slice(0, 1));
    await replay(run, mid.slice(1));
    const [a, b] = run.state.agents.filter((x) => x.status !== 'failed');
    const ask = (agent: typeof a, command: string, sandboxed: boolean) =>
      h.source.approvals.ask({ runId: run.id, agentId: agent.id, label: agent.label, command, folder: 'shop', copy: `/copies/${run.id}/${agent.label}`, sandboxed }, new AbortController().signal);
    const p = await rig.open(h, { theme: 'dark', surface: 'panel', width: 1280 });
    const { page } = p;
    const column = (id: string) => page.locator(`article.agent[data-agent="${id}"]`);
    assert.equal(await page.locator('.approval').count(), 0, 'nothing waits yet');

    const first = ask(a, 'npm test', true);
    const second = ask(b, HOSTILE, false);
    const nameA = a.id === a.label ? a.label : `${a.id} (${a.label})`;
    const nameB = b.id === b.label ? b.label : `${b.id} (${b.label})`;
    await eventually(async () => (await page.locator('.approval').count()) === 2, { what: 'both approvals in the page' });
    await p.settle();
    const boxA = column(a.id).locator('.approval');
    assert.match(await boxA.innerText(), new RegExp(`${nameA.replace(/[()]/g, '\\$&')} waits for your approval:\\s*npm test`));
    assert.match(await boxA.innerText(), /in its copy of shop/);
    assert.equal(await column(a.id).locator('.badge').innerText(), 'waiting for approval', 'the waiting agent is not "streaming"');
    for (const label of [`Allow: ${nameA}`, `Allow for this run: ${nameA}`, `Deny: ${nameA}`]) assert.equal(await page.locator(`[aria-label="${label}"]`).count(), 1, label);
    // Unsandboxed: asked one by one, so no "for this run"; the command stays text.
    const boxB = column(b.id).locator('.approval');
    assert.equal(await boxB.locator('.approval-command').textContent(), HOSTILE);
    assert.equal(await page.locator(`[aria-label="Allow for this run: ${nameB}"]`).count(), 0);
    assert.equal(await page.locator('.approval img').count(), 0);
    await p.screenshotOf('approvals-column-dark', `article.agent[data-agent="${a.id}"]`);

    // Allow in the viewer: the request is answered (it was the notification's, too) and leaves the column.
    await page.locator(`[aria-label="Allow: ${nameA}"]`).click();
    assert.deepEqual(await p.waitFor((m) => m.type === 'approve'), { v: 1, type: 'approve', requestId: 'approval-1', choice: 'allow' });
    assert.equal(await first, 'allow');
    await eventually(async () => (await boxA.count()) === 0, { what: 'the answered approval to leave the column' });
    await p.settle();
    assert.notEqual(await column(a.id).locator('.badge').innerText(), 'waiting for approval');
    // The notification now is the other request's; its late first notification does nothing.
    assert.equal(h.source.toasts.at(-1)!.head.agentId, b.id);
    h.source.toasts[0].click('deny');
    h.source.toasts.at(-1)!.click('deny');
    assert.equal(await second, 'deny');
    await eventually(async () => (await page.locator('.approval').count()) === 0, { what: 'the approval answered in the notification to leave' });
    for (const theme of ['light', 'hc'] as ThemeName[]) {
      const q = await rig.open(h, { theme, surface: 'view', width: 380 });
      const waiting = ask(a, 'npm run lint', true);
      await eventually(async () => (await q.page.locator('.approval').count()) === 1, { what: 'the approval in the sidebar page' });
      await q.settle();
      // The narrow sidebar's roster says so too.
      assert.equal(await q.page.locator(`.roster-row[aria-label^="${nameA}, waiting for approval"]`).count(), 1);
      await q.screenshotOf(`approvals-column-${theme}`, `article.agent[data-agent="${a.id}"]`);
      h.source.approvals.answerAll(() => true, 'deny');
      await waiting;
    }
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(rig.server.leaks, []);
    assert.deepEqual(await p.cspViolations(), []);
    assert.deepEqual(p.pageErrors, []);
  });
});

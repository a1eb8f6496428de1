// Escalation stages in the vote viewer, in real Chromium: the header's "Stage 1 of 2", an agent of a stage not
// called shown greyed with its stage (in its column and the roster), Escalate now by keyboard with a refusal shown in
// words, and, once the stage joins, why its agent was called (column and timeline). Agent ids are user-written text:
// a hostile one stays text. (What the page derives is unit-tested in src/protocol/stage-words.test.ts.)

import assert from 'node:assert/strict';
import type { RunEvent, RunEventBody } from '../../src/core/engine/events';
import { describeInChromium, replay, useViewerRig } from './harness';

const HOSTILE_ID = '<img src="/leak-stage" onerror="window.__pwned=1">';
const agent = (id: string, i: number) => ({ id, label: `agent${i + 1}`, model: 'm', provider: 'p', priced: false });
const BODIES: RunEventBody[] = [
  { type: 'run_started', runId: 'run-stages', question: 'Pick a name', agents: ['alpha', 'beta', HOSTILE_ID].map(agent), startedAt: '2026-01-01T00:00:00.000Z', finalAnswerMode: 'as_is' },
  { type: 'stage_started', stage: 1, agents: ['alpha', 'beta'], reason: 'start' },
  { type: 'round_started', round: 1, agentIds: ['alpha', 'beta'] },
  { type: 'turn_started', agentId: 'alpha', round: 1, boardRevision: 0, voteOnly: false },
  { type: 'turn_started', agentId: 'beta', round: 1, boardRevision: 0, voteOnly: false },
];
const EVENTS = BODIES.map((b, i) => ({ ...b, seq: i + 1, t: i * 500 }) as RunEvent);

describeInChromium('vote viewer in Chromium: escalation stages', function () {
  this.timeout(90_000);
  const rig = useViewerRig();
  const { harness, open } = rig;

  it('an agent not called yet is greyed with its stage; Escalate now asks the host; the joined agent says why', async () => {
    const h = await harness();
    const run = h.source.start('run-stages', 'Stages', EVENTS.slice(0, 1));
    await replay(run, EVENTS.slice(1));
    run.stages = [['alpha', 'beta'], [HOSTILE_ID]];
    const p = await open(h, { theme: 'dark', surface: 'panel', width: 1280 });
    const { page } = p;
    await p.settle();

    const bar = page.locator('.run-header .stage-bar');
    assert.equal(await bar.locator('.stage-text').innerText(), 'Stage 1 of 2');
    const waiting = page.locator('article.agent.not-called');
    assert.equal(await waiting.count(), 1, 'one agent is not called yet');
    assert.equal(await waiting.getAttribute('data-agent'), HOSTILE_ID);
    assert.equal(await waiting.locator('.badge-text').innerText(), 'not called yet (stage 2)');
    assert.equal(await page.locator('.roster-row[data-status="notcalled"]').count(), 1, 'the roster greys it too');
    assert.equal(await page.locator('article.agent:not(.not-called)').count(), 2);
    assert.equal(await page.locator('.agent-stage:visible').count(), 0, 'stage 1 started the run: nothing to explain');
    await p.screenshotOf('stages-header-dark', '.run-header');
    await p.screenshotOf('stages-not-called-dark', '.agents-section');

    // Escalate now, by keyboard: the engine refuses first (a stage is on its way), and the page says so.
    const escalate = page.locator('vscode-button.escalate-now');
    assert.equal(await escalate.isVisible(), true);
    assert.equal(await escalate.getAttribute('aria-label'), 'Escalate now: call stage 2');
    assert.equal(await escalate.getAttribute('disabled'), null);
    run.escalateError = 'the next stage is already on its way';
    await escalate.focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await p.waitFor((m) => m.type === 'escalate'), { v: 1, type: 'escalate', runId: 'run-stages' });
    await p.settle();
    assert.equal(await bar.locator('.stage-status').innerText(), 'No stage was called: the next stage is already on its way.');
    assert.equal(await escalate.getAttribute('disabled'), null, 'it can be asked again');

    run.escalateError = null;
    await escalate.focus();
    await page.keyboard.press('Enter');
    await p.settle();
    assert.equal(run.escalations, 2);
    assert.equal(await escalate.getAttribute('disabled'), '', 'it waits for the stage it asked for');
    assert.equal(await bar.locator('.stage-status').innerText(), '', 'the refusal is gone');

    // The stage joins (as the engine records the user's escalation).
    run.emitBody({ type: 'stage_started', stage: 2, agents: [HOSTILE_ID], reason: 'user_note' });
    await p.settle();
    assert.equal(await bar.locator('.stage-text').innerText(), 'Stage 2 of 2');
    assert.equal(await escalate.isVisible(), false, 'no stage left');
    assert.equal(await page.locator('article.agent.not-called').count(), 0);
    const joined = page.locator('article.agent[data-agent^="<img"] .agent-stage');
    assert.equal(await joined.innerText(), 'joined in stage 2: you asked for it');
    await p.screenshotOf('stages-joined-dark', '.agents-section');
    const marks = page.locator('.tl-stage');
    assert.equal(await marks.count(), 2, 'one timeline entry per stage');
    assert.match((await marks.nth(1).getAttribute('aria-label')) ?? '', /Stage 2: agent3 joined, because you asked for it$/);

    // The hostile id stayed text everywhere.
    assert.equal(await page.locator('.run-header img, article.agent img, .roster img').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(rig.server.leaks, []);
    assert.deepEqual(await p.cspViolations(), []);
    assert.deepEqual(p.pageErrors, []);
  });
});

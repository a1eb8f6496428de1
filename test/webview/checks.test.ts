// The project's checks in the vote viewer, in real headless Chromium fed by the real host hub (test/webview/scenarios.ts
// checksRun): a badge per answer version (passed / failed / running / not run), the failing output opened in place by
// mouse and by keyboard, shown as text however it reads, the version still being checked, and the winner's
// verification (the gate overruling the votes) in the result; screenshots in dark and light themes and the sidebar.

import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { describeInChromium, replay, useViewerRig, ViewerPage } from './harness';
import { checksRun, HOSTILE_CHECK_OUTPUT } from './scenarios';
import type { ThemeName } from './themes';

describeInChromium('vote viewer in Chromium: checks', function () {
  this.timeout(90_000);
  const rig = useViewerRig();

  async function open(options: { inProgress?: boolean; theme?: ThemeName; surface?: 'view' | 'panel' } = {}): Promise<ViewerPage> {
    const h = await rig.harness();
    const events = checksRun(options.inProgress);
    const run = h.source.start('checks', 'Fix add()', events.slice(0, 1));
    await replay(run, events.slice(1));
    return rig.open(h, { theme: options.theme ?? 'dark', surface: options.surface ?? 'panel', height: 1000 });
  }

  const answer = (p: ViewerPage, label: string) => p.page.locator(`.agent details.answer[data-label="${label}"]`);
  const badge = (p: ViewerPage, label: string): Locator => answer(p, label).locator('.checks-badge');

  async function assertClean(p: ViewerPage): Promise<void> {
    assert.deepEqual(await p.cspViolations(), [], 'no CSP violations');
    assert.deepEqual(p.pageErrors, [], 'no page errors');
  }

  it('a badge per answer version; the failing output opens in place, as text; the result says the gate overruled the votes', async () => {
    const p = await open();
    assert.equal((await badge(p, 'agent1.1').textContent())?.trim(), '1/2 failed');
    assert.match((await badge(p, 'agent1.1').getAttribute('class')) ?? '', /\bchecks-failed\b/);
    assert.equal((await badge(p, 'agent2.1').textContent())?.trim(), '2/2 passed');
    assert.match((await badge(p, 'agent2.1').getAttribute('class')) ?? '', /\bchecks-passed\b/);
    assert.equal((await badge(p, 'agent3.1').textContent())?.trim(), '2/2 failed');
    assert.match((await badge(p, 'agent2.1').getAttribute('title')) ?? '', /^npm test: passed in 2\.3 s\nlint: passed in 2\.3 s\n/);

    // agent1.1 is folded (agent2's and agent3's columns are other agents' latest; agent1 has one version, open):
    // fold it, then the badge alone opens the version around its results.
    const a1 = answer(p, 'agent1.1');
    if ((await a1.getAttribute('open')) !== null) await a1.locator('> summary .answer-label').click();
    assert.equal(await a1.getAttribute('open'), null);
    const panel = a1.locator('.checks-panel');
    assert.equal(await panel.isVisible(), false);
    await badge(p, 'agent1.1').click();
    assert.notEqual(await a1.getAttribute('open'), null, 'the version opened around its results');
    assert.equal(await badge(p, 'agent1.1').getAttribute('aria-expanded'), 'true');
    assert.equal(await panel.isVisible(), true);
    const output = panel.locator('.check-failed pre.check-output');
    assert.equal(await output.textContent(), HOSTILE_CHECK_OUTPUT, 'the output, character for character');
    assert.equal(await panel.locator('img').count(), 0, 'markup in the output stays text');
    assert.equal(await p.page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned), undefined);
    assert.match((await panel.locator('.check-failed .check-line').textContent()) ?? '', /^npm test: failed \(exit 1\) in 2\.3 s$/);
    // A passing check's output is there, folded.
    assert.equal(await panel.locator('.check-passed details.check-output-fold').count(), 1);
    await p.screenshotOf('checks-failing-output-dark', '.agent[data-agent="agent-a"]');
    // A second click closes the results and leaves the version open.
    await badge(p, 'agent1.1').click();
    assert.equal(await panel.isVisible(), false);
    assert.notEqual(await a1.getAttribute('open'), null);

    // The cached failure, and an optional check's failure said so.
    await badge(p, 'agent3.1').click();
    const lines = await answer(p, 'agent3.1').locator('.check-line').allTextContents();
    assert.deepEqual(lines, ['npm test: failed (exit 1) in 0.0 s (same change as checked before)', 'lint: failed (exit 1) in 0.0 s (optional) (same change as checked before)']);

    // agent3.2 was being checked when agent3 stopped: the run ended, so no "checking" row stays.
    assert.equal(await p.page.locator('.checks-pending:not([hidden])').count(), 0);

    const verification = p.page.locator('.result .verification');
    assert.equal(await verification.textContent(), 'Checks overruled the votes: they chose agent1.1, which failed npm test; agent2.1 passed and wins.');
    assert.match((await verification.getAttribute('class')) ?? '', /verification-overruled/);
    assert.equal(await p.page.locator('.result .end-detail').textContent(), "The agents' votes agreed on agent1.1; the checks then decided for agent2.1.", 'not "they all voted for agent2.1"');
    await p.screenshot('checks-run-dark');
    await assertClean(p);
  });

  it('the keyboard: Tab reaches the badge, Enter and Space open and close the results; the summary is not toggled', async () => {
    const p = await open({ theme: 'light' });
    const b = badge(p, 'agent2.1');
    const a2 = answer(p, 'agent2.1');
    await b.focus();
    await p.page.keyboard.press('Enter');
    assert.equal(await b.getAttribute('aria-expanded'), 'true');
    assert.equal(await a2.locator('.checks-panel').isVisible(), true);
    assert.equal((await a2.getAttribute('open')) !== null, true, 'the version is open to show the results');
    await p.page.keyboard.press('Space');
    assert.equal(await b.getAttribute('aria-expanded'), 'false');
    assert.equal(await a2.locator('.checks-panel').isVisible(), false);
    assert.equal((await a2.getAttribute('open')) !== null, true, 'Space closed the results only');
    assert.equal(await b.getAttribute('aria-controls'), await a2.locator('.checks-panel').getAttribute('id'));
    assert.match((await b.getAttribute('aria-label')) ?? '', /^agent2\.1: 2\/2 passed\. Show the check results$/);
    await b.click();
    await p.screenshotOf('checks-passed-light', '.agent[data-agent="agent-b"]');
    await assertClean(p);
  });

  it('a run in progress: the version being checked shows in its column, running; no verification yet', async () => {
    const p = await open({ inProgress: true, surface: 'view' });
    const pending = p.page.locator('.agent[data-agent="agent-c"] .checks-pending');
    assert.equal(await pending.isVisible(), true);
    assert.equal((await pending.textContent())?.trim(), 'agent3.2: checking npm test (lint passed)…');
    assert.equal(await pending.locator('.codicon-loading').count(), 1);
    assert.equal(await p.page.locator('.verification:not([hidden])').count(), 0);
    await p.screenshot('checks-in-progress-sidebar-dark');
    await assertClean(p);
  });
});

// Cancel is the user's own choice, so it must read as one, everywhere: no error notification, no "best answer so far"
// when there is none, agents shown as cancelled (not "done"), and "you cancelled" rather than "ended by cancelled".
'use strict';
const vscode = require('vscode');
const { assert, until, screenshot, webview, playwright, notificationTexts } = require('./helpers');
const fakes = require('../out/fakes.js');
const { WINNER, setAgents, team, openSample, selectionRunHooks } = require('./selection-run');

/** The notifications in the center with their severity (the icon VS Code shows: error, warning or info). */
function notifications() {
  return playwright(async ({ page }) => {
    const items = await page.locator('.notifications-center .notification-list-item').all();
    return Promise.all(items.map(async (item) => ({
      text: (await item.innerText()).replace(/\s+/g, ' '),
      error: (await item.locator('.codicon-error').count()) > 0,
    })));
  });
}

/** The vote viewer's result text, each agent's status and the header's phase, once the result shows `re`. */
async function viewerAfter(runId, re) {
  await vscode.commands.executeCommand('massgen.showVoteViewer', { runId });
  return until(async () => {
    const result = (await webview('.result', { property: 'innerText', timeoutMs: 5000 })).values.join('\n');
    if (!re.test(result)) return false;
    const statuses = (await webview('article.agent', { property: 'data-status', timeoutMs: 2000 })).values;
    const phase = (await webview('.phase', { property: 'innerText', timeoutMs: 2000 })).values.join('');
    return { result, statuses, phase };
  }, 15000, `the viewer's result to match ${re}`);
}

describe('Cancelling a run', function () {
  this.timeout(120000);
  const rig = selectionRunHooks();

  it('before any answer: no error notification, the viewer says you cancelled (no "best answer so far"), agents cancelled', async () => {
    rig.server = await fakes.startFakeOpenAI(fakes.coordinationScript({}, { reply: { ttftMs: 30000 } }));
    await setAgents(team(rig.server.baseUrl));
    await openSample();
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Slow please' });
    await until(() => rig.server.chatRequests().length >= 2, 10000, 'both agents requesting');
    await vscode.commands.executeCommand('massgen.cancelRun');
    await running;
    const run = rig.api.runs.latest;
    assert.strictEqual(run.state.endReason, 'cancelled');

    await vscode.commands.executeCommand('notifications.showList');
    const shown = await notifications();
    assert.deepStrictEqual(shown.filter((n) => n.error), [], `no error notification for the user's own cancel: ${JSON.stringify(shown)}`);
    const view = await viewerAfter(run.id, /Cancelled/);
    await screenshot('cancel-before-answers');
    assert.ok(!/best answer so far/i.test(view.result), `no best answer is claimed: ${view.result}`);
    assert.match(view.result, /before any agent answered/);
    assert.deepStrictEqual(view.statuses, ['cancelled', 'cancelled'], 'the agents read cancelled, not done');
    assert.ok(!/Done/.test(view.phase), `the phase reads as cancelled: ${view.phase}`);
  });

  it('after the first answer: the best answer so far wins, and every message says you cancelled', async () => {
    rig.server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { reply: { ttftMs: 30000 } } }));
    await setAgents(team(rig.server.baseUrl));
    await openSample();
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    const run = await until(() => rig.api.runs.latest && rig.api.runs.latest.state.answers.length > 0 && rig.api.runs.latest, 15000, 'the first answer');
    await vscode.commands.executeCommand('massgen.cancelRun');
    await running;
    assert.strictEqual(run.state.endReason, 'cancelled');
    assert.strictEqual(run.state.winner.label, 'agent1.1');

    const told = (await notificationTexts()).join('\n');
    assert.ok(!/ended by cancel/.test(told), told);
    assert.match(told, /you cancelled/i, told);
    const view = await viewerAfter(run.id, /Cancelled/);
    await screenshot('cancel-after-first-answer');
    assert.match(view.result, /agent1\.1/);
    assert.match(view.result, /You cancelled/);
    assert.ok(['answered', 'voted'].includes(view.statuses[0]), `alpha keeps what it did: ${view.statuses[0]}`);
    assert.strictEqual(view.statuses[1], 'cancelled', 'beta, stopped before it answered, reads cancelled');
  });
});

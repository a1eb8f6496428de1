// Cancel is the user's own choice, so it must read as one, everywhere: no error notification, no "best answer so far",
// agents shown as cancelled (not "done"), and "you cancelled" rather than "ended by cancelled". A cancel proposes
// nothing: no winner, no diff, nothing to apply (Answer now is how to take the best answer so far).
'use strict';
const vscode = require('vscode');
const { assert, until, screenshot, webview, playwright, notificationTexts } = require('./helpers');
const fakes = require('../out/fakes.js');
const { WINNER, setAgents, team, openSample, previewTab, selectionRunHooks } = require('./selection-run');

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

  it('after the first answer: nothing is proposed (no winner, no diff, nothing to apply), the answers stay visible', async () => {
    rig.server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { reply: { ttftMs: 30000 } } }));
    await setAgents(team(rig.server.baseUrl));
    await openSample();
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    const run = await until(() => rig.api.runs.latest && rig.api.runs.latest.state.answers.length > 0 && rig.api.runs.latest, 15000, 'the first answer');
    await vscode.commands.executeCommand('massgen.cancelRun');
    await running;
    assert.strictEqual(run.state.endReason, 'cancelled');
    assert.strictEqual(run.state.winner, null, 'a cancel chooses no winner');
    assert.strictEqual(run.state.finalAnswer, null, 'and writes no final answer');
    assert.strictEqual((await run.result).change, undefined, 'and proposes no change');
    assert.strictEqual(run.state.answers[0].content, WINNER, 'the answer so far is kept');

    const told = (await notificationTexts()).join('\n');
    assert.ok(!/ended by cancel|best answer so far/i.test(told), told);
    assert.match(told, /you cancelled the run, so no answer was chosen/i, told);
    assert.strictEqual(previewTab(), undefined, 'no diff opens');
    const view = await viewerAfter(run.id, /Cancelled/);
    await screenshot('cancel-after-first-answer');
    assert.match(view.result, /no answer was chosen/);
    assert.ok(!/best answer so far|wins|won/.test(view.result), `no winner is claimed: ${view.result}`);
    const offered = await webview('.apply-actions:not([hidden]) vscode-button', { property: 'innerText', timeoutMs: 1000 });
    assert.deepStrictEqual(offered.values, [], 'no Review diff / Apply is offered');
    const answers = await webview('article.agent .answer-label', { property: 'innerText', timeoutMs: 5000 });
    assert.ok(answers.values.includes('agent1.1'), `the answer stays in alpha's column: ${JSON.stringify(answers.values)}`);
    const body = (await webview('article.agent .answer-body', { property: 'innerText', timeoutMs: 5000 })).values.join('\n');
    assert.match(body, /Return the sum of a and b/, 'its text is there to read and copy');
    assert.ok(['answered', 'voted'].includes(view.statuses[0]), `alpha keeps what it did: ${view.statuses[0]}`);
    assert.strictEqual(view.statuses[1], 'cancelled', 'beta, stopped before it answered, reads cancelled');
  });
});

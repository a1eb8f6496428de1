// Applying a Run on Selection winner, from every place that offers it (the diff's title bar and Ctrl+Alt+Enter, the
// notification, the vote viewer): only code written for that file is applied, never prose, and never without its
// diff having been shown; once applied, every view says so and offers Undo, and nothing stale is left to click.
'use strict';
const vscode = require('vscode');
const { assert, until, screenshot, webview, playwright, clickInViewer, clearNotifications, notificationTexts } = require('./helpers');
const fakes = require('../out/fakes.js');
const { ORIGINAL, WINNER, LOSER, setAgents, team, openSample, previewTab, selectionRunHooks } = require('./selection-run');
const { toldUntil } = require('./told');

const PROSE = 'The function is already correct: it adds a and b, and nothing needs to change.';
const PROSE_2 = 'No change is needed; add is fine as written.';

/** The notifications in the center that show a button with this label (the center lists toasts that timed out too). */
async function notificationsWithButton(label) {
  await vscode.commands.executeCommand('notifications.showList');
  return playwright(async ({ page }, name) => {
    const items = await page.locator('.notifications-center .notification-list-item').all();
    const found = [];
    for (const item of items) {
      const buttons = await item.locator('.monaco-button').allInnerTexts();
      if (buttons.some((b) => b.trim() === name)) found.push(await item.innerText());
    }
    return found;
  }, label);
}

/** Texts of the vote viewer's result area. */
async function resultText() {
  return (await webview('.result', { property: 'innerText', timeoutMs: 15000 })).values.join('\n');
}

describe('Applying a winner (Run on Selection)', function () {
  this.timeout(120000);
  const rig = selectionRunHooks();

  it('a prose answer is never applied: no diff opens, and neither Ctrl+Alt+Enter nor the viewer\u2019s Apply touch the code', async () => {
    rig.server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: PROSE, voteFor: 'agent1' }, m2: { answer: PROSE_2, voteFor: 'agent1' } }));
    await setAgents(team(rig.server.baseUrl));
    const { doc } = await openSample();
    await vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Is this right?' });
    const run = rig.api.runs.latest;
    assert.strictEqual(run.state.finalAnswer.content, PROSE);
    assert.ok(!previewTab(), 'no diff of prose against the code');

    await vscode.window.showTextDocument(doc);
    await playwright(async ({ page }) => page.keyboard.press('Control+Alt+Enter'));
    assert.strictEqual(await vscode.commands.executeCommand('massgen.applyWinner'), false);
    assert.strictEqual(await vscode.commands.executeCommand('massgen.applyRun', run.id), false, 'what the viewer\u2019s Apply runs');
    assert.strictEqual(doc.getText(), ORIGINAL, 'the code is untouched');
    assert.ok(!previewTab(), 'still no diff');

    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    const result = await until(async () => {
      const text = await resultText();
      return /no python code/i.test(text) && text;
    }, 15000, 'the viewer to say there is no code to apply');
    const apply = await webview('[aria-label="Apply the winner"]', { timeoutMs: 1000 });
    assert.ok(!apply.found, `no Apply in the viewer: ${result}`);
    const told = (await notificationTexts()).join('\n');
    assert.match(told, /no python code block/, told);
    await screenshot('apply-prose-answer');
  });

  it('the viewer\u2019s Apply opens the diff first and writes nothing until it is applied from there', async () => {
    rig.server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { answer: LOSER, voteFor: 'agent1' } }));
    await setAgents(team(rig.server.baseUrl));
    const { doc } = await openSample();
    await vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    const run = rig.api.runs.latest;
    await vscode.commands.executeCommand('massgen.discardWinner');
    assert.ok(!previewTab(), 'the diff is closed');

    assert.strictEqual(await vscode.commands.executeCommand('massgen.applyRun', run.id), false, 'not applied unseen');
    assert.ok(previewTab(), 'the diff is shown instead');
    assert.strictEqual(doc.getText(), ORIGINAL);
    assert.strictEqual(await vscode.commands.executeCommand('massgen.applyWinner'), true, 'applied from the diff');
    assert.match(doc.getText(), /'''Return the sum of a and b\.'''/);
  });

  it('after Apply: "Applied" with Undo in the viewer, no stale Apply anywhere, a second Apply blames no one, Undo restores the code', async () => {
    rig.server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { answer: LOSER, voteFor: 'agent1' } }));
    await setAgents(team(rig.server.baseUrl));
    const { doc } = await openSample();
    await vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    const run = rig.api.runs.latest;
    assert.ok(previewTab(), 'the diff is open');
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    assert.strictEqual(await clickInViewer('Apply the winner'), true, 'the viewer offers Apply while the diff is open');
    await until(() => doc.getText().includes("'''Return the sum"), 10000, 'the edit');
    const applied = doc.getText();

    const result = await until(async () => {
      const text = await resultText();
      return /Applied/.test(text) && text;
    }, 15000, 'the viewer to say Applied');
    assert.match(result, /sample\.py/, `it says where: ${result}`);
    assert.ok(!(await webview('[aria-label="Apply the winner"]', { timeoutMs: 500 })).found, 'no Apply left in the viewer');
    assert.ok((await webview('[aria-label="Undo the apply"]', { timeoutMs: 2000 })).found, 'Undo is offered');
    assert.deepStrictEqual(await notificationsWithButton('Apply'), [], 'no notification still offers Apply');
    await screenshot('apply-applied-undo');

    await clearNotifications();
    assert.strictEqual(await vscode.commands.executeCommand('massgen.applyRun', run.id), false, 'a second Apply does nothing');
    assert.strictEqual(doc.getText(), applied);
    assert.ok(!previewTab(), 'no out-of-date diff reopened');
    const told = (await notificationTexts()).join('\n');
    assert.match(told, /already applied/, told);
    assert.ok(!/not applied|edited|changed since/i.test(told), `nobody is blamed for MassGen's own edit: ${told}`);

    assert.strictEqual(await clickInViewer('Undo the apply'), true);
    await until(() => doc.getText() === ORIGINAL, 10000, 'Undo to restore the code');
    assert.ok((await webview('[aria-label="Review the winner\u2019s diff"]', { timeoutMs: 10000 })).found, 'after Undo the winner can be reviewed again');
  });

  describe('what Apply says happens to the file, after the user\u2019s files.autoSave', () => {
    // The rig turns auto-save off in the User settings (run-ext-tests.js); a test that changes it puts it back.
    let rigValue;
    before(() => {
      rigValue = vscode.workspace.getConfiguration('files').inspect('autoSave').globalValue;
    });
    afterEach(() => vscode.workspace.getConfiguration('files').update('autoSave', rigValue, vscode.ConfigurationTarget.Global));

    it('afterDelay (the browser\u2019s default): "saved by auto-save", and it is saved; Undo in the viewer puts the code back', async () => {
      await vscode.workspace.getConfiguration('files').update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
      rig.server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { answer: LOSER, voteFor: 'agent1' } }));
      await setAgents(team(rig.server.baseUrl));
      const { doc } = await openSample();
      await vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
      const run = rig.api.runs.latest;
      await clearNotifications();
      assert.strictEqual(await vscode.commands.executeCommand('massgen.applyWinner'), true);
      const told = await toldUntil(/applied .* to sample\.py: saved by auto-save; Undo in the vote viewer or Ctrl\+Z puts it back/);
      assert.ok(!/unsaved/.test(told), told);
      await until(() => !doc.isDirty, 15000, 'auto-save to save the file, as said');
      await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
      const result = await until(async () => {
        const text = await resultText();
        return /Saved by auto-save/.test(text) && text;
      }, 15000, 'the viewer to say it was saved by auto-save');
      assert.ok(!/unsaved/.test(result), result);
      assert.strictEqual(await clickInViewer('Undo the apply'), true);
      await until(() => doc.getText() === ORIGINAL, 10000, 'Undo to restore the code');
    });

    it('off: "left unsaved for your review", and it is', async () => {
      assert.strictEqual(vscode.workspace.getConfiguration('files').get('autoSave'), 'off');
      rig.server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { answer: LOSER, voteFor: 'agent1' } }));
      await setAgents(team(rig.server.baseUrl));
      const { doc } = await openSample();
      await vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
      await clearNotifications();
      assert.strictEqual(await vscode.commands.executeCommand('massgen.applyWinner'), true);
      await toldUntil(/to sample\.py: left unsaved for your review/);
      assert.ok(doc.isDirty, 'unsaved, as said');
    });
  });
});

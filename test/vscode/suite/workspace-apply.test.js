// Applying a workspace run's winner in VS Code's refactor preview, as much or as little of it as the user ticks:
// everything proposed starts ticked; what was really written is read back and reported ("Applied 1 of 2 files",
// "(1 partly: sample.py)"), and Undo puts back exactly that.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { assert, log, until, fakeLm, screenshot, webview, clickInViewer, runnerAvailable, clearNotifications, notificationTexts, refactorPreview } = require('./helpers');
const { ORIGINAL, root, sampleUri, teamHandler, workspaceRunHooks } = require('./workspace-team');
const { toldUntil } = require('./told');

const CHANGED = "def add(a, b):\n    if not all(isinstance(x, (int, float)) for x in (a, b)):\n        raise TypeError('add() takes two numbers')\n    return a + b\n";
const UTIL = 'def sub(a, b):\n    return a - b\n';
// Two hunks of one file: one the user keeps, one unticked.
const HEADER = '# Arithmetic helpers.\n';
const FOOTER = '# End of the helpers.\n';
const ANSWER = 'Done: the change is in the files.';

let api;
const utilPath = () => path.join(root(), 'util.py');

/** Runs on the workspace with the writer's tool calls; resolves with the run and the command's promise once the
 * refactor preview lists sample.py. */
async function runUntilPreview(title, steps) {
  await fakeLm.configure({ handler: teamHandler({ api, answer: ANSWER, steps }) });
  const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction: title, folder: vscode.workspace.workspaceFolders[0].uri });
  const run = await until(() => api.runs.latest && api.runs.latest.title.startsWith(title) && api.runs.latest, 30000, 'the workspace run');
  await run.result;
  await refactorPreview.rows('sample.py');
  return { run, running };
}

async function viewerResult(runId, pattern) {
  await vscode.commands.executeCommand('massgen.showVoteViewer', { runId });
  return until(async () => {
    const text = (await webview('.result', { property: 'innerText', timeoutMs: 5000 })).values.join('\n');
    return pattern.test(text) && text;
  }, 15000, `the viewer to say ${pattern}`);
}

describe('Applying a workspace run in the refactor preview', function () {
  this.timeout(180000);

  workspaceRunHooks({ activated: (a) => (api = a) });
  // util.py is the second file these runs add.
  beforeEach(() => fs.rmSync(utilPath(), { force: true }));
  afterEach(() => fs.rmSync(utilPath(), { force: true }));

  it('both files start ticked; unticking one applies the other: "Applied 1 of 2 files", and Undo puts back exactly that file', async function () {
    if (!runnerAvailable) this.skip();
    const { run, running } = await runUntilPreview('Two files', [
      { name: 'write_file', input: { path: 'sample.py', content: CHANGED } },
      { name: 'write_file', input: { path: 'util.py', content: UTIL } },
    ]);
    assert.deepStrictEqual((await run.result).change.files.map((f) => f.path).sort(), ['sample.py', 'util.py']);
    await refactorPreview.rows('util.py');
    const before = await refactorPreview.ticks();
    log('ticks:', JSON.stringify(before));
    for (const name of ['sample.py', 'util.py']) assert.strictEqual(before.find((r) => r.text.includes(name))?.checked, 'true', `${name} starts ticked: ${JSON.stringify(before)}`);
    assert.strictEqual(await refactorPreview.setTick('util.py', false), 'false');
    await screenshot('workspace-apply-one-of-two');
    await refactorPreview.click('Apply');
    await running;

    const doc = await vscode.workspace.openTextDocument(sampleUri());
    assert.strictEqual(doc.getText(), CHANGED, 'the ticked file is written');
    assert.ok(!fs.existsSync(utilPath()), 'the unticked new file is not');
    const told = await toldUntil(/Applied 1 of 2 files/);
    assert.ok(!/Applied 2 files/.test(told), told);
    const shown = await viewerResult(run.id, /Applied to 1 of 2 files/);
    log('viewer:', shown.replace(/\s+/g, ' ').slice(0, 200));

    await clearNotifications();
    assert.strictEqual(await clickInViewer('Undo the apply'), true);
    await until(() => doc.getText() === ORIGINAL, 10000, 'Undo to put sample.py back');
    assert.ok(!fs.existsSync(utilPath()), 'Undo creates nothing');
    assert.ok(!/nothing to undo|changed since/.test((await notificationTexts()).join('\n')), 'nobody is blamed');
    await until(async () => (await webview('[aria-label="Review and apply the winner\u2019s changes"]', { timeoutMs: 2000 })).found, 15000, 'the winner offered again');
  });

  it('one of a file\u2019s two edits unticked: applied partly, said so, and Undo puts the file back', async function () {
    if (!runnerAvailable) this.skip();
    const { run, running } = await runUntilPreview('Two hunks', [{ name: 'write_file', input: { path: 'sample.py', content: HEADER + ORIGINAL + FOOTER } }]);
    assert.strictEqual(await refactorPreview.unfold('sample.py'), 'true');
    const rows = await refactorPreview.ticks();
    log('ticks:', JSON.stringify(rows));
    assert.ok(rows.filter((r) => /Arithmetic|End of the helpers/.test(r.text)).every((r) => r.checked === 'true'), `each edit starts ticked: ${JSON.stringify(rows)}`);
    assert.strictEqual(await refactorPreview.setTick('End of the helpers', false), 'false');
    await screenshot('workspace-apply-one-hunk');
    await refactorPreview.click('Apply');
    await running;

    const doc = await vscode.workspace.openTextDocument(sampleUri());
    assert.strictEqual(doc.getText(), HEADER + ORIGINAL, 'only the ticked edit is written');
    await toldUntil(/Applied 1 file \(1 partly: sample\.py\)/);
    const shown = await viewerResult(run.id, /Applied to 1 file/);
    assert.match(shown, /Partly applied: sample\.py/, shown);

    await clearNotifications();
    assert.strictEqual(await clickInViewer('Undo the apply'), true);
    await until(() => doc.getText() === ORIGINAL, 10000, 'Undo to put sample.py back');
    assert.ok(!/nothing to undo|changed since/.test((await notificationTexts()).join('\n')), 'the partly applied file is not blamed');
  });
});

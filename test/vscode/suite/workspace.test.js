// Workspace runs in real VS Code: MassGen: Run on Workspace and `@massgen /edit` without attachments. Every agent works
// on its own copy of the workspace folder (a git repository with an uncommitted edit and an untracked file, see
// run.sh); the real folder is untouched until the user applies the winner's change in VS Code's refactor preview;
// the vote viewer shows the answer's changed files and diff; Undo restores the file; no copy is left behind.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { assert, askInChat, log, until, fakeLm, screenshot, webview, playwright, clickInViewer, runnerAvailable, requestText, copiesEntries, clearNotifications, notificationTexts, refactorPreview } = require('./helpers');
const { ORIGINAL, root, sampleUri, teamHandler, writerText, workspaceRunHooks } = require('./workspace-team');
const { toldUntil } = require('./told');

const CHANGED = "def add(a, b):\n    if not all(isinstance(x, (int, float)) for x in (a, b)):\n        raise TypeError('add() takes two numbers')\n    return a + b\n";
const ANSWER = 'add() now raises TypeError unless both arguments are numbers (sample.py).';
const UNCOMMITTED = 'Uncommitted: a line added after the last commit.';
const UNTRACKED = 'notes.txt';

let api;
const git = (...args) => execFileSync('git', ['-C', root(), ...args], { encoding: 'utf8' });

/** Every file of the folder (outside .git) with its bytes, and what git knows: nothing of it may change in a run. */
function folderState() {
  const files = {};
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.git') walk(p);
      } else files[path.relative(root(), p)] = fs.readFileSync(p, 'base64');
    }
  };
  walk(root());
  // .git's own files, but the index, which `git status` itself may refresh.
  const gitFiles = [];
  const walkGit = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walkGit(p);
      else if (p !== path.join(root(), '.git', 'index')) gitFiles.push(`${path.relative(root(), p)} ${fs.statSync(p).size}`);
    }
  };
  walkGit(path.join(root(), '.git'));
  return { files, gitFiles: gitFiles.sort(), status: git('status', '--porcelain=v1', '-uall'), head: git('rev-parse', 'HEAD'), worktrees: git('worktree', 'list', '--porcelain'), refs: git('for-each-ref') };
}

/** Expands the answer version's changed files in the vote viewer, then each file's diff; returns what they show. */
function viewerChanges(version) {
  return playwright(async ({ webviewFrames, sleep }, label) => {
    for (let i = 0; i < 100; i++) {
      for (const frame of await webviewFrames()) {
        const answer = await frame.$(`details.answer[data-label="${label}"]`);
        if (!answer) continue;
        if (!(await answer.evaluate((d) => d.open))) await (await answer.$('summary')).click();
        const folded = await answer.$eval('summary', (s) => s.textContent);
        const toggle = await answer.$('.changes-toggle');
        if (!toggle) return { error: 'no changed-files summary', folded, html: await answer.evaluate((d) => d.outerHTML.slice(0, 2000)) };
        const summary = { text: (await toggle.textContent()).trim(), label: await toggle.getAttribute('aria-label') };
        if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
        const fileToggle = await answer.waitForSelector('.file-toggle', { state: 'visible', timeout: 10000 });
        const file = { text: (await fileToggle.textContent()).trim(), label: await fileToggle.getAttribute('aria-label') };
        if ((await fileToggle.getAttribute('aria-expanded')) !== 'true') await fileToggle.click();
        await answer.waitForSelector('.diff-row', { state: 'visible', timeout: 15000 });
        const rows = await answer.$$eval('.diff-row', (els) => els.map((e) => ({ kind: e.className.replace('diff-row ', ''), text: e.textContent })));
        await (await answer.$('.diff-row')).scrollIntoViewIfNeeded();
        return { folded, summary, file, rows };
      }
      await sleep(200);
    }
    return { error: `no answer ${label} in any webview` };
  }, version, 90000);
}

describe('Workspace runs in real VS Code', function () {
  this.timeout(180000);

  workspaceRunHooks({ activated: (a) => (api = a) });

  it('Run on Workspace: agents change their copies only; viewer shows the diff; refactor preview → Apply → Undo; no copy left', async function () {
    if (!runnerAvailable) this.skip();
    const before = folderState();
    assert.ok(before.status.includes(' M README.md') && before.status.includes(`?? ${UNTRACKED}`), `the workspace has uncommitted work: ${before.status}`);
    const during = {};
    await fakeLm.configure({
      handler: teamHandler({
        api,
        answer: ANSWER,
        steps: [
          { name: 'read_file', input: { path: 'README.md' } },
          { name: 'list_directory', input: { path: '.' } },
          { name: 'write_file', input: { path: 'sample.py', content: CHANGED } },
        ],
        // The writer has written its copy and is about to answer: the real file must not have changed.
        beforeAnswer: () => {
          const run = api.runs.latest;
          during.real = fs.readFileSync(sampleUri().fsPath, 'utf8');
          during.copies = copiesEntries(api.logUri);
          const own = during.copies.find((d) => path.basename(d) === run.id);
          during.copy = own && fs.existsSync(path.join(own, 'agent1', 'sample.py')) ? fs.readFileSync(path.join(own, 'agent1', 'sample.py'), 'utf8') : null;
          during.agents = own ? fs.readdirSync(own).filter((n) => n.startsWith('agent')).sort() : [];
        },
      }),
    });

    const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction: 'Make add() check its arguments', folder: vscode.workspace.workspaceFolders[0].uri });
    const run = await until(() => api.runs.latest && api.runs.latest.title.startsWith('Make add() check its arguments') && api.runs.latest, 30000, 'the workspace run');
    const result = await run.result;
    log('run ended:', result.reason, result.winnerLabel, JSON.stringify(result.change && result.change.files));

    // While it ran: the writer's copy had the change, the real file did not; one copy per agent, in the extension's storage.
    assert.strictEqual(during.real, ORIGINAL, 'the real sample.py is untouched while the run goes');
    assert.strictEqual(during.copy, CHANGED, "the writer's own copy has its change");
    assert.deepStrictEqual(during.agents, ['agent1', 'agent2'], `a copy per agent under the run folder (${during.copies.join(', ')})`);
    // The copies are what the user sees: the uncommitted edit and the untracked file are in them.
    const seen = writerText(await fakeLm.requests());
    assert.ok(seen.includes(UNCOMMITTED), 'read_file README.md shows the uncommitted edit');
    assert.ok(seen.includes(UNTRACKED), 'list_directory shows the untracked file');

    assert.strictEqual(result.reason, 'consensus');
    assert.strictEqual(result.winnerLabel, 'agent1.1');
    assert.deepStrictEqual(result.change.files.map((f) => [f.path, f.status]), [['sample.py', 'modified']]);
    assert.strictEqual(run.state.workspace.source, root());
    assert.strictEqual(run.state.workspace.kind, 'git', `a git worktree per agent (${JSON.stringify(run.state.workspace)})`);
    // The run has ended: nothing of it is left in the storage, and the folder is as it was (the preview waits).
    assert.deepStrictEqual(copiesEntries(api.logUri), [], 'no copy left behind once the run ended');
    assert.strictEqual(fs.readFileSync(sampleUri().fsPath, 'utf8'), ORIGINAL, 'untouched after the run, until Apply');
    assert.deepStrictEqual(folderState(), before, 'the folder and its .git are exactly as before the run');

    // The vote viewer: the answer version's changed files, and the diff when expanded.
    const shown = await viewerChanges('agent1.1');
    log('viewer:', JSON.stringify({ ...shown, rows: shown.rows && shown.rows.length }));
    assert.ok(!shown.error, JSON.stringify(shown));
    assert.match(shown.folded, /1 file/, 'the folded version says how many files it changed');
    assert.strictEqual(shown.summary.text, '1 file changed, +2 \u22120');
    assert.strictEqual(shown.file.label, 'modified sample.py, +2 \u22120');
    const rowsOf = (kind) => shown.rows.filter((r) => r.kind === kind).map((r) => r.text);
    assert.strictEqual(rowsOf('diff-hunk').length, 1, JSON.stringify(shown.rows));
    assert.deepStrictEqual(rowsOf('diff-del'), []);
    assert.deepStrictEqual(rowsOf('diff-add'), ['    if not all(isinstance(x, (int, float)) for x in (a, b)):', "        raise TypeError('add() takes two numbers')"]);
    assert.deepStrictEqual(rowsOf('diff-ctx'), ['def add(a, b):', '    return a + b']);
    await screenshot('workspace-viewer-diff');

    // The refactor preview lists the winner's change ticked (the user unticks what to reject), and one opt-in entry,
    // unticked: the answer in an untitled editor. Apply as it opened writes the change.
    const rows = await refactorPreview.rows('sample.py');
    log('refactor preview rows:', JSON.stringify(rows));
    assert.ok(rows.some((r) => r.includes('sample.py')), JSON.stringify(rows));
    assert.strictEqual(fs.readFileSync(sampleUri().fsPath, 'utf8'), ORIGINAL, 'nothing written while the preview is open');
    assert.strictEqual(await refactorPreview.open(), true, 'the refactor preview waits for the user');
    const ticked = await refactorPreview.ticks();
    log('ticks:', JSON.stringify(ticked));
    const tick = (text) => ticked.filter((r) => r.text === text).map((r) => r.checked);
    assert.deepStrictEqual(tick('sample.py'), ['true'], `the winner's change is ticked: ${JSON.stringify(ticked)}`);
    assert.deepStrictEqual(tick('MassGen agent1.1 answer.md'), ['false'], `the optional answer note is not: ${JSON.stringify(ticked)}`);
    await screenshot('workspace-refactor-preview');
    await clearNotifications();
    await refactorPreview.click('Apply');
    await running;
    assert.strictEqual(await refactorPreview.open(), false, 'the preview is gone once applied');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'untitled' && d.getText() === ANSWER), 'the unticked answer note opened nothing');

    const doc = await vscode.workspace.openTextDocument(sampleUri());
    assert.strictEqual(doc.getText(), CHANGED, "exactly the winner's change");
    // Like Run on selection, the edit is left unsaved for review (with files.autoSave off, desktop VS Code's default).
    assert.strictEqual(vscode.workspace.getConfiguration('files').get('autoSave'), 'off', 'auto save is off (run-ext-tests.js)');
    assert.ok(doc.isDirty, 'applied, unsaved');
    assert.strictEqual(fs.readFileSync(sampleUri().fsPath, 'utf8'), ORIGINAL, 'not saved by Apply');
    await toldUntil(/Applied 1 file: left unsaved for your review/);
    const after = folderState();
    for (const f of Object.keys(before.files)) if (f !== 'sample.py') assert.strictEqual(after.files[f], before.files[f], `${f} is untouched by Apply`);
    assert.deepStrictEqual(Object.keys(after.files).sort(), Object.keys(before.files).sort(), 'no file added or removed');
    await vscode.window.showTextDocument(doc);
    await screenshot('workspace-applied');

    // One Undo restores the file: the saved one, as nothing saved the edit (the runner turns off code-server's default
    // auto save, which would have written it a second after Apply).
    await vscode.commands.executeCommand('undo');
    await until(() => doc.getText() === ORIGINAL, 5000, 'undo of the workspace edit');
    assert.ok(!doc.isDirty, 'back to the saved file');
    assert.strictEqual(fs.readFileSync(sampleUri().fsPath, 'utf8'), ORIGINAL);
  });

  it('after Apply the viewer says Applied with Undo; a second Apply opens nothing; Undo puts the file back', async function () {
    if (!runnerAvailable) this.skip();
    await fakeLm.configure({ handler: teamHandler({ api, answer: ANSWER, steps: [{ name: 'write_file', input: { path: 'sample.py', content: CHANGED } }] }) });
    const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction: 'Make add() check its arguments (undo)', folder: vscode.workspace.workspaceFolders[0].uri });
    const run = await until(() => api.runs.latest && api.runs.latest.title.startsWith('Make add() check its arguments (undo)') && api.runs.latest, 30000, 'the workspace run');
    await run.result;
    await refactorPreview.rows('sample.py');
    await refactorPreview.click('Apply');
    await running;
    const doc = await vscode.workspace.openTextDocument(sampleUri());
    assert.strictEqual(doc.getText(), CHANGED);

    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    const applied = await until(async () => {
      const text = (await webview('.result', { property: 'innerText', timeoutMs: 5000 })).values.join('\n');
      return /Applied to 1 file/.test(text) && text;
    }, 15000, 'the viewer to say Applied');
    log('viewer result:', applied.replace(/\s+/g, ' ').slice(0, 200));
    await clearNotifications();
    assert.strictEqual(await vscode.commands.executeCommand('massgen.applyRun', run.id), false, 'a second Apply does nothing');
    assert.strictEqual(await refactorPreview.open(), false, 'and opens no preview');
    assert.match((await notificationTexts()).join('\n'), /already applied/);

    assert.strictEqual(await clickInViewer('Undo the apply'), true);
    await until(() => doc.getText() === ORIGINAL, 10000, 'Undo to put sample.py back');
    await until(async () => (await webview('[aria-label="Review and apply the winner\u2019s changes"]', { timeoutMs: 2000 })).found, 15000, 'the winner offered again');
    await screenshot('workspace-undone');
  });

  it('@massgen /edit without attachments runs on the workspace folder and offers "Review and apply the changes…"', async function () {
    if (!runnerAvailable) this.skip();
    const before = folderState();
    let copyDuringRun;
    await fakeLm.configure({
      handler: teamHandler({
        api,
        answer: ANSWER,
        steps: [{ name: 'edit_file', input: { path: 'sample.py', old_text: '    return a + b\n', new_text: CHANGED.split('\n').slice(1).join('\n') } }],
        beforeAnswer: () => {
          const own = copiesEntries(api.logUri).find((d) => path.basename(d) === api.runs.latest.id);
          copyDuringRun = own && fs.readFileSync(path.join(own, 'agent1', 'sample.py'), 'utf8');
        },
      }),
    });
    const text = await askInChat('@massgen /edit Make add() check its arguments', { onFakeModel: true });
    log('chat response:', text.replace(/\s+/g, ' ').slice(0, 400));
    const run = api.runs.latest;
    const result = await run.result;
    assert.strictEqual(run.state.workspace && run.state.workspace.source, root(), 'the run worked on the workspace folder');
    assert.strictEqual(result.winnerLabel, 'agent1.1');
    assert.deepStrictEqual(result.change.files.map((f) => [f.path, f.status, f.added, f.removed]), [['sample.py', 'modified', 2, 0]]);
    assert.strictEqual(copyDuringRun, CHANGED, "edit_file changed the writer's copy of the workspace file");
    assert.match(text, /agent1\.1 wins/);
    assert.match(text, /Review and apply the changes…/);
    assert.ok(!/FAKE-LM says/.test(text));
    // No file was attached: the task names the workspace, not attached files.
    const first = (await fakeLm.requests())[0];
    assert.match(requestText(first), /your own copy of the project/);
    assert.deepStrictEqual(copiesEntries(api.logUri), [], 'no copy left behind');
    assert.deepStrictEqual(folderState(), before, 'the folder is untouched');
    await screenshot('chat-edit-workspace');

    // The button opens the refactor preview; Discard leaves the file as it was, says so, and keeps the winner ready.
    await clearNotifications();
    await playwright(async ({ page }) => {
      await page.locator('.interactive-response').last().getByRole('button', { name: 'Review and apply the changes…' }).click();
    });
    const rows = await refactorPreview.rows('sample.py');
    assert.ok(rows.some((r) => r.includes('sample.py')), JSON.stringify(rows));
    await screenshot('chat-edit-refactor-preview');
    await refactorPreview.click('Discard');
    await until(async () => !(await refactorPreview.open()), 10000, 'the preview to close');
    const doc = await vscode.workspace.openTextDocument(sampleUri());
    assert.strictEqual(doc.getText(), ORIGINAL, 'discarded: the document is unchanged');
    assert.ok(!doc.isDirty);
    assert.deepStrictEqual(folderState(), before, 'discarded: the folder is unchanged');
    const told = await toldUntil(/nothing was applied/);
    assert.ok(!/Applied/.test(told), told);
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    await until(async () => (await webview('[aria-label="Review and apply the winner\u2019s changes"]', { timeoutMs: 2000 })).found, 15000, 'the winner still offered');
  });
});

// The project's checks in real VS Code: `massgen.checks` in the workspace settings makes a workspace run (here
// `@massgen /edit` without attachments) check every answer version in the bubblewrap sandbox; the vote viewer shows a
// badge per version whose results open in place (check output as text), the winner's verification, and the chat's
// summary line. Without checks, a workspace run (Run on Workspace, or @massgen /edit) offers the project's own test
// command (a Makefile `test:` target, package.json, go.mod):
// "Use it" writes massgen.checks in the workspace settings and this run is checked; "Not now" runs without.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { assert, askInChat, EXTENSION_ID, FAKE_VENDOR, FAKE_MODEL_ID, log, until, waitForFakeModel, fakeLm, screenshot, webview, playwright, clickInViewer, runnerAvailable, clearNotifications, clickNotificationButton, notificationTexts, refactorPreview } = require('./helpers');
const { setTeam, teamHandler } = require('./workspace-team');

const ORIGINAL = 'def add(a, b):\n    return a + b\n';
const CHANGED = "def add(a, b):\n    if not all(isinstance(x, (int, float)) for x in (a, b)):\n        raise TypeError('add() takes two numbers')\n    return a + b\n";
const ANSWER = 'add() now raises TypeError unless both arguments are numbers (sample.py).';
const LINT_OUTPUT = '<img src=x onerror="window.__pwned = 1">sample.py:3: E501 line too long';

let api;
const root = () => vscode.workspace.workspaceFolders[0].uri.fsPath;
const rootUri = () => vscode.workspace.workspaceFolders[0].uri;
const settingsDir = () => path.join(root(), '.vscode');
const makefile = () => path.join(root(), 'Makefile');
const packageJson = () => path.join(root(), 'package.json');
const goMod = () => path.join(root(), 'go.mod');
const cargoToml = () => path.join(root(), 'Cargo.toml');
const pytestIni = () => path.join(root(), 'pytest.ini');
const writeSample = () => ({ name: 'write_file', input: { path: 'sample.py', content: CHANGED } });

/** The viewer's view of version `label`: its badge, and (opened with a click) its results and output. */
function viewerChecks(label) {
  return playwright(async ({ webviewFrames, sleep }, l) => {
    for (let i = 0; i < 150; i++) {
      for (const frame of await webviewFrames()) {
        const badge = await frame.$(`details.answer[data-label="${l}"] .checks-badge:not([hidden])`);
        if (!badge || /Checking/.test(await badge.textContent())) continue;
        const verification = await frame.$('.result .verification:not([hidden])');
        if (!verification) continue;
        await badge.scrollIntoViewIfNeeded();
        await badge.click();
        const panel = await frame.waitForSelector(`details.answer[data-label="${l}"] .checks-panel:not([hidden])`, { timeout: 5000 });
        return {
          badge: (await badge.textContent()).trim(),
          kind: await badge.getAttribute('class'),
          expanded: await badge.getAttribute('aria-expanded'),
          lines: await panel.$$eval('.check-line', (els) => els.map((e) => e.textContent)),
          outputs: await panel.$$eval('pre.check-output', (els) => els.map((e) => e.textContent)),
          images: await panel.$$eval('img', (els) => els.length),
          pwned: await frame.evaluate(() => window.__pwned === undefined ? null : window.__pwned),
          verification: (await verification.textContent()).trim(),
        };
      }
      await sleep(200);
    }
    return { error: `no finished checks badge for ${l} in any webview` };
  }, label, 60000);
}

/** What the vote viewer shows: the pending run's card (its text, or null) and whether a run's header is visible. */
function viewerPage() {
  return playwright(async ({ webviewFrames }) => {
    const seen = { pending: null, runHeaderShown: false };
    for (const frame of await webviewFrames()) {
      const state = await frame.evaluate(() => {
        const card = document.querySelector('.pending-run');
        const header = document.querySelector('.run-header');
        return { pending: card ? card.innerText : null, runHeaderShown: Boolean(header && header.checkVisibility()) };
      }).catch(() => null);
      if (!state) continue;
      seen.pending = seen.pending || state.pending;
      seen.runHeaderShown = seen.runHeaderShown || state.runHeaderShown;
    }
    return seen;
  });
}

/** A preview left open holds the next run's edit: discard it and wait for the command to finish. */
async function discardPreview(running) {
  await refactorPreview.rows('sample.py');
  await refactorPreview.click('Discard');
  await until(async () => !(await refactorPreview.open()), 10000, 'the preview to close');
  await running;
}

describe('Checks in real VS Code (massgen.checks, the suggestion, the viewer\'s badges)', function () {
  this.timeout(180000);
  let hadSettingsDir;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
    await setTeam();
    hadSettingsDir = fs.existsSync(settingsDir());
  });

  beforeEach(async () => {
    await clearNotifications();
  });

  afterEach(async () => {
    await fakeLm.reset();
    if (runnerAvailable && (await refactorPreview.open())) await refactorPreview.click('Discard');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('massgen', rootUri()).update('checks', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.getConfiguration('massgen', rootUri()).update('verification', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(makefile(), { force: true });
    fs.rmSync(packageJson(), { force: true });
    fs.rmSync(goMod(), { force: true });
    fs.rmSync(cargoToml(), { force: true });
    fs.rmSync(pytestIni(), { force: true });
    fs.writeFileSync(path.join(root(), 'sample.py'), ORIGINAL);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('massgen').update('agents', undefined, vscode.ConfigurationTarget.Global);
    // The workspace is shared with the other test files: leave it as run.sh made it.
    if (!hadSettingsDir) fs.rmSync(settingsDir(), { recursive: true, force: true });
  });

  it('massgen.checks set: @massgen /edit on the workspace checks every version; badges, output on click, verification, the chat line', async function () {
    if (!runnerAvailable) this.skip();
    const config = vscode.workspace.getConfiguration('massgen', rootUri());
    await config.update('checks', [{ name: 'typed', command: 'grep -q TypeError sample.py' }, { name: 'lint', command: `printf '%s\\n' '${LINT_OUTPUT}'; exit 1`, required: false }], vscode.ConfigurationTarget.Workspace);
    await config.update('verification', 'gate', vscode.ConfigurationTarget.Workspace);
    await until(() => vscode.workspace.getConfiguration('massgen', rootUri()).get('checks').length === 2, 10000, 'massgen.checks in the workspace settings');
    await fakeLm.configure({ handler: teamHandler({ api, answer: ANSWER, steps: [writeSample()] }) });

    const text = await askInChat('@massgen /edit Make add() check its arguments', { onFakeModel: true });
    log('chat response:', text.replace(/\s+/g, ' ').slice(0, 600));
    const run = api.runs.latest;
    const result = await run.result;
    assert.strictEqual(result.winnerLabel, 'agent1.1');
    const checked = run.state.checks['agent1.1'];
    assert.ok(checked, `agent1.1 was checked: ${JSON.stringify(run.state.checks)}`);
    assert.deepStrictEqual(checked.results.map((r) => [r.name, r.status, r.required]), [['typed', 'passed', true], ['lint', 'failed', false]]);
    assert.deepStrictEqual(run.state.winner.verification, { status: 'passed' });
    assert.ok(run.state.workspace.notes.some((n) => /MassGen runs the checks \(typed, lint, from massgen\.checks in the workspace settings\) on every answer's change in bubblewrap/.test(n)), JSON.stringify(run.state.workspace.notes));
    assert.match(text, /Checks \(typed, lint\) — agent1\.1: 1\/2 failed \(optional\)\. Verified: agent1\.1 passed every required check\./);

    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    const shown = await viewerChecks('agent1.1');
    log('viewer checks:', JSON.stringify(shown));
    assert.ok(!shown.error, JSON.stringify(shown));
    assert.strictEqual(shown.badge, '1/2 failed (optional)');
    assert.match(shown.kind, /checks-failed/);
    assert.strictEqual(shown.expanded, 'true');
    assert.match(shown.lines[0], /^typed: passed in \d+\.\d s$/);
    assert.match(shown.lines[1], /^lint: failed \(exit 1\) in \d+\.\d s \(optional\)$/);
    assert.deepStrictEqual(shown.outputs.map((o) => o.trim()), [LINT_OUTPUT], 'the failing output, as text');
    assert.strictEqual(shown.images, 0);
    assert.strictEqual(shown.pwned, null);
    assert.strictEqual(shown.verification, 'Verified: agent1.1 passed every required check.');
    await screenshot('checks-viewer-badges');
  });

  it('no checks set: Run on Workspace offers the Makefile\'s test target; "Use it" writes massgen.checks and this run is checked', async function () {
    if (!runnerAvailable) this.skip();
    fs.writeFileSync(makefile(), 'test:\n\tgrep -q TypeError sample.py\n');
    await fakeLm.configure({ handler: teamHandler({ api, answer: ANSWER, steps: [writeSample()] }) });
    const previous = api.runs.latest;
    const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction: 'Make add() check its arguments', folder: rootUri() });
    await until(async () => (await notificationTexts()).some((t) => t.includes('as a check?')), 30000, 'the suggestion');
    assert.strictEqual(api.runs.latest, previous, 'the run waits for the answer');
    const asked = await clickNotificationButton('as a check?', 'Use it', { screenshotName: 'checks-suggestion' });
    log('suggestion:', JSON.stringify(asked));
    assert.match(asked, /MassGen: use “make test” as a check\? Found the “test” target of Makefile: MassGen would run it on every answer's change \(in the sandbox where this machine has one, else asking you first\)/);

    const run = await until(() => api.runs.latest !== previous && api.runs.latest, 30000, 'the workspace run');
    const result = await run.result;
    const inspected = vscode.workspace.getConfiguration('massgen', rootUri()).inspect('checks');
    assert.deepStrictEqual(inspected.workspaceValue, ['make test'], 'written in the workspace settings');
    assert.ok(fs.readFileSync(path.join(settingsDir(), 'settings.json'), 'utf8').includes('make test'));
    assert.strictEqual(result.winnerLabel, 'agent1.1');
    assert.deepStrictEqual(run.state.checks['agent1.1'].results.map((r) => [r.name, r.status]), [['make test', 'passed']]);
    assert.deepStrictEqual(run.state.winner.verification, { status: 'passed' });

    const shown = await viewerChecks('agent1.1');
    log('viewer checks:', JSON.stringify(shown));
    assert.ok(!shown.error, JSON.stringify(shown));
    assert.strictEqual(shown.badge, 'Check passed');
    assert.match(shown.kind, /checks-passed/);
    assert.strictEqual(shown.verification, 'Verified: agent1.1 passed every required check.');
    await screenshot('checks-suggested-run');
    await discardPreview(running);
  });

  it('"Not now" (package.json\'s test script this time: each suggestion is offered once a window): the run goes on without checks', async function () {
    if (!runnerAvailable) this.skip();
    fs.writeFileSync(packageJson(), JSON.stringify({ name: 'sample', scripts: { test: 'node test.js' } }));
    await fakeLm.configure({ handler: teamHandler({ api, answer: ANSWER, steps: [writeSample()] }) });
    const previous = api.runs.latest;
    const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction: 'Make add() validate', folder: rootUri() });
    assert.match(await clickNotificationButton('as a check?', 'Not now'), /use “npm test” as a check\? Found package\.json's test script \(“node test\.js”\)/);
    const run = await until(() => api.runs.latest !== previous && api.runs.latest, 30000, 'the workspace run');
    const result = await run.result;
    assert.strictEqual(result.winnerLabel, 'agent1.1');
    assert.deepStrictEqual(run.state.checks, {});
    assert.strictEqual(run.state.winner.verification, undefined);
    assert.strictEqual(vscode.workspace.getConfiguration('massgen', rootUri()).inspect('checks').workspaceValue, undefined, 'nothing written');
    const badges = await webview('details.answer[data-label="agent1.1"] .checks-badge', { property: 'hidden', timeoutMs: 10000 });
    assert.ok(badges.values.length > 0 && badges.values.every((v) => v !== null), `no badge shown: ${JSON.stringify(badges)}`);
    await discardPreview(running);
  });

  it('the viewer shows the coming run at once, waiting for the checks answer; answered there, the run starts and the card goes; a late "Use it" on the notification saves for the next runs only', async function () {
    if (!runnerAvailable) this.skip();
    fs.writeFileSync(pytestIni(), '[pytest]\n');
    await fakeLm.configure({ handler: teamHandler({ api, answer: ANSWER, steps: [writeSample()] }) });
    const previous = api.runs.latest;
    const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction: 'Make add() refuse strings', folder: rootUri() });
    try {
      const card = await until(async () => {
        const v = await viewerPage();
        return v.pending && /Waiting for your answer about checks/.test(v.pending) && v;
      }, 30000, 'the coming run in the viewer, waiting');
      assert.match(card.pending, /Make add\(\) refuse strings[\s\S]*Use pytest as a check\?[\s\S]*Found pytest\.ini/);
      assert.strictEqual(card.runHeaderShown, false, 'the previous run is not shown meanwhile');
      assert.strictEqual(api.runs.latest, previous, 'the run waits for the answer');
      await screenshot('checks-question-in-viewer');
      assert.strictEqual(await clickInViewer('Not now: run without checks'), true);
      const run = await until(() => api.runs.latest !== previous && api.runs.latest, 30000, 'the workspace run');
      const shown = await until(async () => {
        const v = await viewerPage();
        return !v.pending && v.runHeaderShown && v;
      }, 30000, 'the run instead of the card');
      assert.strictEqual(shown.pending, null);
      // The notification cannot be withdrawn: its "Use it" now only saves the setting for the next runs, and says so.
      await clickNotificationButton('as a check?', 'Use it');
      await until(() => (vscode.workspace.getConfiguration('massgen', rootUri()).inspect('checks').workspaceValue || [])[0] === 'pytest', 15000, 'massgen.checks saved');
      await until(async () => (await notificationTexts()).some((t) => /“pytest” is saved as a check \(massgen\.checks\) for the next runs; the run that already started goes on without it/.test(t)), 15000, 'the late answer explained');
      const result = await run.result;
      assert.strictEqual(result.winnerLabel, 'agent1.1');
      assert.deepStrictEqual(run.state.checks, {}, 'this run goes on without checks');
      await discardPreview(running);
    } finally {
      fs.rmSync(pytestIni(), { force: true });
    }
  });

  it('massgen.verification off: no suggestion (checks were turned off on purpose), and the run goes on', async function () {
    if (!runnerAvailable) this.skip();
    fs.writeFileSync(cargoToml(), '[package]\nname = "sample"\nversion = "0.1.0"\n');
    await vscode.workspace.getConfiguration('massgen', rootUri()).update('verification', 'off', vscode.ConfigurationTarget.Workspace);
    await fakeLm.configure({ handler: teamHandler({ api, answer: ANSWER, steps: [writeSample()] }) });
    const previous = api.runs.latest;
    const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction: 'Make add() strict', folder: rootUri() });
    const run = await until(() => api.runs.latest !== previous && api.runs.latest, 30000, 'the workspace run');
    assert.strictEqual((await run.result).winnerLabel, 'agent1.1');
    assert.deepStrictEqual(run.state.checks, {});
    assert.ok(!(await notificationTexts()).some((t) => t.includes('as a check?')), 'no suggestion');
    await discardPreview(running);
  });

  it('@massgen /edit on the workspace offers the suggestion too (go.mod here); "Not now" and the chat run goes on', async function () {
    if (!runnerAvailable) this.skip();
    fs.writeFileSync(goMod(), 'module example.com/sample\n\ngo 1.22\n');
    await fakeLm.configure({ handler: teamHandler({ api, answer: ANSWER, steps: [writeSample()] }) });
    const previous = api.runs.latest;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@massgen /edit Make add() validate its input', modelSelector: { vendor: FAKE_VENDOR, id: FAKE_MODEL_ID } });
    assert.match(await clickNotificationButton('as a check?', 'Not now'), /use “go test \.\/\.\.\.” as a check\? Found go\.mod/);
    const run = await until(() => api.runs.latest !== previous && api.runs.latest, 30000, 'the chat\'s workspace run');
    const result = await run.result;
    assert.strictEqual(result.winnerLabel, 'agent1.1');
    assert.deepStrictEqual(run.state.checks, {});
    assert.strictEqual(vscode.workspace.getConfiguration('massgen', rootUri()).inspect('checks').workspaceValue, undefined, 'nothing written');
  });

  it('@massgen /edit on the workspace asks in the viewer too: the coming run waits there; answered there, the chat run starts and the card goes', async function () {
    if (!runnerAvailable) this.skip();
    fs.writeFileSync(cargoToml(), '[package]\nname = "sample"\nversion = "0.1.0"\n');
    await fakeLm.configure({ handler: teamHandler({ api, answer: ANSWER, steps: [writeSample()] }) });
    const previous = api.runs.latest;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@massgen /edit Make add() reject strings', modelSelector: { vendor: FAKE_VENDOR, id: FAKE_MODEL_ID } });
    const card = await until(async () => {
      const v = await viewerPage();
      return v.pending && /Waiting for your answer about checks/.test(v.pending) && v;
    }, 30000, 'the chat\'s coming run in the viewer, waiting');
    assert.match(card.pending, /Make add\(\) reject strings[\s\S]*Use cargo test as a check\?[\s\S]*Found Cargo\.toml/);
    assert.strictEqual(api.runs.latest, previous, 'the run waits for the answer');
    await screenshot('checks-chat-question-in-viewer');
    assert.strictEqual(await clickInViewer('Not now: run without checks'), true);
    const run = await until(() => api.runs.latest !== previous && api.runs.latest, 30000, 'the chat\'s workspace run');
    await until(async () => {
      const v = await viewerPage();
      return !v.pending && v.runHeaderShown && v;
    }, 30000, 'the run instead of the card');
    assert.strictEqual((await run.result).winnerLabel, 'agent1.1');
    assert.deepStrictEqual(run.state.checks, {}, 'answered "Not now": no checks');
    assert.strictEqual(vscode.workspace.getConfiguration('massgen', rootUri()).inspect('checks').workspaceValue, undefined, 'nothing written');
  });
});

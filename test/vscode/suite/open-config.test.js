// MassGen: Open Config on a workspace without .massgen/config.yaml: the file it writes takes over from the settings,
// so it asks first, must start as the team that runs now (the massgen.agents setting, or the chat models), say so,
// and the vote viewer must then show the team from the file, with where it comes from. A file that exists is opened
// as it is; Cancel writes nothing.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { assert, EXTENSION_ID, until, waitForFakeModel, fakeLm, screenshot, openStartPage, notificationTexts, clearNotifications } = require('./helpers');
const { setTeam } = require('./workspace-team');
const { answerNextModal } = require('./dialogs');

/** Runs Open Config and answers its "create?" dialog with `button`; returns what the dialog asked. */
async function openConfigAnswering(button) {
  const answer = answerNextModal('decide this workspace', button);
  try {
    await vscode.commands.executeCommand('massgen.openConfig');
    // Asked before the command finished, or not at all.
    const asked = await Promise.race([answer.asked, Promise.resolve(undefined)]);
    assert.ok(asked, 'Open Config asked before creating the file');
    return asked;
  } finally {
    answer.restore();
  }
}

const root = () => vscode.workspace.workspaceFolders[0].uri.fsPath;
const configDir = () => path.join(root(), '.massgen');
const configFile = () => path.join(configDir(), 'config.yaml');
/** The YAML without its comment lines: what the loader reads. */
const uncommented = (text) => text.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n');

describe('MassGen: Open Config', function () {
  this.timeout(90000);
  let api;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
  });

  afterEach(async () => {
    await fakeLm.reset();
    fs.rmSync(configDir(), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('massgen').update('agents', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('starts the file from the massgen.agents team, says it takes over, and that team runs; the viewer shows it and where it comes from', async () => {
    await setTeam();
    await clearNotifications();
    const asked = await openConfigAnswering('Create');
    assert.strictEqual(asked.message, "Create a config file that will decide this workspace's team?");
    assert.deepStrictEqual(asked.buttons, ['Create'], 'Create, and the dialog\u2019s own Cancel');
    assert.match(asked.detail, /massgen\.agents/, `it says what the file takes over from: ${asked.detail}`);
    assert.ok(fs.existsSync(configFile()), '.massgen/config.yaml was written');
    const yaml = uncommented(fs.readFileSync(configFile(), 'utf8'));
    for (const s of ['writer', 'reviewer', 'vscode-lm', 'massgen-fake/fake-agent', 'ROLE=writer']) assert.ok(yaml.includes(s), `the file has ${s}:\n${yaml}`);
    assert.ok(!/gpt-4\.1-mini|claude-haiku/.test(yaml), `no sample team outside comments:\n${yaml}`);
    assert.strictEqual(vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.fsPath, configFile(), 'the file is open');
    const told = await until(async () => (await notificationTexts()).find((t) => t.includes('config.yaml')), 10000, 'the notification about the new file');
    assert.match(told, /massgen\.agents/, `it names what it takes over from: ${told}`);

    const run = await api.runs.start({ task: 'Say hello', title: 'after Open Config', prompt: 'Say hello' });
    const result = await run.result;
    assert.strictEqual(result.reason, 'consensus');
    assert.deepStrictEqual(run.state.agents.map((a) => a.id), ['writer', 'reviewer'], 'the team from the file, the same as before');

    const page = await openStartPage();
    await screenshot('open-config-viewer-team');
    assert.match(page, /\.massgen\/config\.yaml/, `the viewer says where the team comes from:\n${page}`);
    assert.ok(page.includes('writer') && page.includes('reviewer'), `the viewer lists the file's team:\n${page}`);
  });

  it('with no agents configured, the file starts from the chat models that would run', async () => {
    await openConfigAnswering('Create');
    const yaml = uncommented(fs.readFileSync(configFile(), 'utf8'));
    assert.ok(yaml.includes('vscode-lm') && yaml.includes('massgen-fake/fake-agent'), `the chat model team:\n${yaml}`);
    assert.ok(!/gpt-4\.1-mini|claude-haiku/.test(yaml), `no sample team outside comments:\n${yaml}`);
    const run = await api.runs.start({ task: 'Say hello', title: 'chat-model team from the file', prompt: 'Say hello' });
    const result = await run.result;
    assert.strictEqual(result.reason, 'consensus');
    assert.ok(run.state.agents.length >= 1 && run.state.agents.every((a) => a.provider.startsWith('vscode-lm')), JSON.stringify(run.state.agents.map((a) => a.provider)));
  });

  it('asks before creating the file: unanswered or cancelled, nothing is written and the team stays where it was', async () => {
    await setTeam();
    // Unanswered: VS Code itself is asked for the modal (it refuses to show one in tests, naming its text).
    const unanswered = await Promise.resolve(vscode.commands.executeCommand('massgen.openConfig')).then(() => undefined, (e) => e);
    assert.ok(unanswered, 'Open Config waits for the answer: without one it does not go on');
    assert.match(String(unanswered.message), /Create a config file that will decide this workspace's team\?/, String(unanswered));
    assert.ok(!fs.existsSync(configFile()), 'nothing was written before the answer');

    const asked = await openConfigAnswering(undefined);
    assert.match(asked.message, /decide this workspace's team/);
    assert.ok(!fs.existsSync(configDir()), 'nothing was written after Cancel');
    const page = await openStartPage();
    await screenshot('open-config-cancelled');
    assert.match(page, /massgen\.agents/, `the team still comes from the setting:\n${page}`);
  });

  it('opens an existing file as it is, without asking and without writing to it', async () => {
    fs.mkdirSync(configDir(), { recursive: true });
    const text = 'agents:\n  - id: mine\n    backend: { type: vscode-lm, model: massgen-fake/fake-agent }\n';
    fs.writeFileSync(configFile(), text);
    const before = fs.statSync(configFile()).mtimeMs;
    const answer = answerNextModal('', 'Create');
    try {
      await vscode.commands.executeCommand('massgen.openConfig');
    } finally {
      answer.restore();
    }
    await until(() => vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.fsPath === configFile(), 10000, 'the file to open');
    const wasAsked = await Promise.race([answer.asked.then(() => true), Promise.resolve(false)]);
    assert.strictEqual(wasAsked, false, 'no dialog for a file that exists');
    assert.strictEqual(fs.readFileSync(configFile(), 'utf8'), text, 'the file is unchanged');
    assert.strictEqual(fs.statSync(configFile()).mtimeMs, before, 'the file was not written');
  });
});

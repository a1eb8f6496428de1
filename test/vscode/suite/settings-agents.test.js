// What a user pastes into `massgen.agents`: upstream MassGen's YAML shape (backend: {type, model, base_url, api_key})
// runs as the flat shape does; an API key written there is flagged and, on the user's word, moved to the secret
// storage and out of settings.json; a team whose server cannot be reached ends in one line with the URL and the
// actions that fix it.
'use strict';
const vscode = require('vscode');
const { assert, EXTENSION_ID, until, waitForFakeModel, fakeLm, screenshot, clearNotifications, clickNotificationButton, playwright, userSettings, FAKE_VENDOR, FAKE_MODEL_ID } = require('./helpers');
const { openSample } = require('./selection-run');

const KEY = 'sk-test-pasted-into-settings-0123456789';
/** A URL Node's fetch refuses (port 9 is a WHATWG "bad port"), so a run on it fails at once and offline. */
const REFUSED_URL = 'http://127.0.0.1:9/v1';

/** The User settings.json's text, as the user sees it. */
async function settingsJsonText() {
  await vscode.commands.executeCommand('workbench.action.openSettingsJson');
  const editor = await until(() => {
    const e = vscode.window.activeTextEditor;
    return e && e.document.uri.path.endsWith('/User/settings.json') && e;
  }, 10000, 'the User settings.json editor');
  return editor.document.getText();
}

describe('massgen.agents as users write it', function () {
  this.timeout(120000);
  let api;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
  });

  beforeEach(() => clearNotifications());

  afterEach(async () => {
    await fakeLm.reset();
    await userSettings.set('massgen.agents', undefined);
    await api.keys.clear('OPENAI_API_KEY');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('an agent in upstream\u2019s shape (backend: {type, model}) is accepted by the team check and runs', async () => {
    const model = `${FAKE_VENDOR}/${FAKE_MODEL_ID}`;
    await userSettings.set('massgen.agents', [
      { id: 'writer', backend: { type: 'vscode-lm', model }, system_message: 'ROLE=writer' },
      { id: 'reviewer', provider: 'vscode-lm', model },
    ]);
    await until(() => vscode.workspace.getConfiguration('massgen').get('agents').length === 2, 10000, 'the setting to be read');
    assert.strictEqual(await api.runs.problem(), null, 'the team check finds nothing wrong');
    const run = await api.runs.start({ task: 'Say hello', title: 'upstream-shaped team', prompt: 'Say hello' });
    const result = await run.result;
    assert.strictEqual(result.reason, 'consensus', result.error);
    assert.deepStrictEqual(run.state.agents.map((a) => a.id), ['writer', 'reviewer']);
    assert.ok(run.state.agents.every((a) => a.provider.startsWith('vscode-lm')), JSON.stringify(run.state.agents.map((a) => a.provider)));
  });

  it('an API key written into the setting is flagged; Move stores it in the secret storage and takes it out of settings.json', async () => {
    assert.strictEqual(await api.keys.get('OPENAI_API_KEY'), process.env.OPENAI_API_KEY, 'no key stored before');
    await userSettings.set('massgen.agents', [{ id: 'gpt', backend: { type: 'openai', model: 'gpt-4.1-mini', base_url: REFUSED_URL, api_key: KEY } }]);
    await until(() => vscode.workspace.getConfiguration('massgen').get('agents').length === 1, 10000, 'the setting to be read');
    assert.ok((await settingsJsonText()).includes(KEY), 'the key is in settings.json to begin with');
    const run = await api.runs.start({ task: 'Say hello', title: 'team with a pasted key', prompt: 'Say hello' });
    const told = await clickNotificationButton('API key as plain text', 'Move to Secret Storage', { screenshotName: 'settings-key-flagged' });
    assert.match(told, /massgen\.agents/, told);
    assert.ok(!told.includes(KEY), 'the notification never shows the key');
    await run.result;
    await until(async () => (await api.keys.get('OPENAI_API_KEY')) === KEY, 10000, 'the key in the secret storage');
    const agents = await until(() => {
      const value = vscode.workspace.getConfiguration('massgen').get('agents');
      return value.length === 1 && !('api_key' in value[0].backend) && value;
    }, 10000, 'the setting without the key');
    assert.deepStrictEqual(agents[0].backend, { type: 'openai', model: 'gpt-4.1-mini', base_url: REFUSED_URL });
    const text = await until(async () => {
      const t = await settingsJsonText();
      return !t.includes(KEY) && t;
    }, 10000, 'settings.json without the key');
    assert.match(text, /massgen\.agents/, 'the team itself stays in settings.json');
  });

  it('a server that cannot be reached ends in one line with its URL, why, and Open Settings', async () => {
    await userSettings.set('massgen.agents', [
      { id: 'a', provider: 'chatcompletion', model: 'm1', baseUrl: REFUSED_URL },
      { id: 'b', provider: 'chatcompletion', model: 'm2', baseUrl: REFUSED_URL },
    ]);
    await until(() => vscode.workspace.getConfiguration('massgen').get('agents').length === 2, 10000, 'the setting to be read');
    await openSample();
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    const told = await clickNotificationButton(`cannot reach ${REFUSED_URL}`, 'Open Settings', { screenshotName: 'server-down', timeoutMs: 60000 });
    await running;
    const line = told.split('\n').find((l) => l.includes('cannot reach')) || '';
    assert.match(line, /^MassGen: No answer: cannot reach http:\/\/127\.0\.0\.1:9\/v1: port 9 is one the network library refuses to use; pick another port/, told);
    assert.match(told, /Show Log/, `the log is offered too: ${told}`);
    assert.ok(!/Every agent failed|bad port/.test(told), `one line, in words: ${told}`);
    // The settings editor may still show an earlier search for a moment: wait for the setting itself (a timeout fails).
    await playwright(async ({ page }) => {
      await page.locator('.settings-editor .setting-item-contents').filter({ hasText: /Agents/ }).first().waitFor({ state: 'visible', timeout: 20000 });
    });
    await screenshot('server-down-settings');
  });

  it('in the chat too: a server that cannot be reached ends in one line with its URL and why, not a failure per agent', async () => {
    await userSettings.set('massgen.agents', [
      { id: 'a', provider: 'chatcompletion', model: 'm1', baseUrl: REFUSED_URL },
      { id: 'b', provider: 'chatcompletion', model: 'm2', baseUrl: REFUSED_URL },
    ]);
    await until(() => vscode.workspace.getConfiguration('massgen').get('agents').length === 2, 10000, 'the setting to be read');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@massgen Explain closures', modelSelector: { vendor: FAKE_VENDOR, id: FAKE_MODEL_ID } });
    const text = await playwright(async ({ page }, timeout) => {
      const response = page.locator('.interactive-response').last();
      await response.getByText('No answer:').waitFor({ timeout });
      return response.innerText();
    }, 60000, 90000);
    await screenshot('server-down-chat');
    const line = text.split('\n').find((l) => l.includes('No answer:')) || '';
    assert.match(line, /^No answer: cannot reach http:\/\/127\.0\.0\.1:9\/v1: port 9 is one the network library refuses to use; pick another port/, text);
    assert.ok(!/Every agent failed/.test(text), `one line, not a failure per agent: ${text}`);
  });
});

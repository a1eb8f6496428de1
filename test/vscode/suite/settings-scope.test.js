// Where the team's settings live, in a remote window (code-server is one: its extension host runs on the "remote").
// A user writes `massgen.agents` where VS Code shows it, the User settings (Settings UI or settings.json); it must be
// the team that runs, and "Configure agents…" must open a tab where the setting is listed.
'use strict';
const vscode = require('vscode');
const { assert, EXTENSION_ID, until, waitForFakeModel, fakeLm, screenshot, playwright, userSettings } = require('./helpers');
const { teamAgents } = require('./workspace-team');

describe('Settings in a remote window (massgen.agents and the endpoint settings)', function () {
  this.timeout(90000);
  let api;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
  });

  afterEach(async () => {
    await fakeLm.reset();
    await userSettings.set('massgen.agents', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a team written in the User settings.json (as the Settings UI does) is read and is the team that runs', async () => {
    assert.ok(vscode.env.remoteName, 'code-server is a remote window: the extension host runs on the server');
    const team = teamAgents();
    await userSettings.set('massgen.agents', team);
    const read = await until(() => {
      const agents = vscode.workspace.getConfiguration('massgen').get('agents');
      return agents.length === team.length && agents;
    }, 10000, 'massgen.agents from the User settings').catch((err) => {
      throw new Error(`${err.message}; inspect: ${JSON.stringify(vscode.workspace.getConfiguration('massgen').inspect('agents'))}`);
    });
    assert.deepStrictEqual(read.map((a) => a.id), ['writer', 'reviewer']);
    const run = await api.runs.start({ task: 'Say hello', title: 'user-settings team', prompt: 'Say hello' });
    await run.result;
    assert.deepStrictEqual(run.state.agents.map((a) => a.id), ['writer', 'reviewer'], 'the run uses the team from the User settings');
  });

  it('the Settings editor lists massgen.agents in the User tab and says where the setting lives', async () => {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'massgen.agents');
    const shown = await playwright(async ({ page, sleep }) => {
      const editor = page.locator('.settings-editor');
      await editor.waitFor({ state: 'visible', timeout: 20000 });
      await sleep(1000);
      const tab = await editor.locator('.settings-tabs-widget .action-label.checked').first().innerText().catch(() => '');
      const items = await editor.locator('.setting-item-contents').allInnerTexts();
      return { tab, items };
    });
    await screenshot('settings-user-tab-agents');
    assert.match(shown.tab, /User/, `the User tab is shown: ${JSON.stringify(shown)}`);
    const agents = shown.items.find((t) => /Agents/.test(t) && /team/i.test(t));
    assert.ok(agents, `the User tab lists massgen.agents: ${JSON.stringify(shown.items)}`);
    assert.match(agents, /User settings/, 'its description says where it lives');
  });
});

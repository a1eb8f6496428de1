// With nothing that can run (no agents configured, no VS Code chat model), MassGen says so before asking what to
// do, and the message carries the actions that fix it.
'use strict';
const vscode = require('vscode');
const { assert, EXTENSION_ID, until, waitForFakeModel, fakeLm, screenshot, playwright, clearNotifications, clickNotificationButton, openStartPage } = require('./helpers');
const { openSample } = require('./selection-run');

describe('No team to run', function () {
  this.timeout(90000);

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
    await vscode.workspace.getConfiguration('massgen').update('agents', undefined, vscode.ConfigurationTarget.Global);
  });

  beforeEach(() => clearNotifications());

  afterEach(async () => {
    await fakeLm.reset();
    await waitForFakeModel();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Run on Selection says there is no model before asking for an instruction, and offers Configure Agents and Set API Key', async () => {
    await fakeLm.configure({ models: [] });
    await until(async () => (await vscode.lm.selectChatModels()).length === 0, 10000, 'no chat model');
    await openSample();
    const running = vscode.commands.executeCommand('massgen.runOnSelection');
    const message = await clickNotificationButton('No VS Code chat models', 'Configure Agents', { screenshotName: 'no-team-notification' });
    assert.match(message, /Set API Key/, `both fixes are offered: ${message}`);
    const asked = await playwright(async ({ page }) => page.locator('.quick-input-widget').isVisible());
    assert.strictEqual(asked, false, 'no instruction was asked for');
    await running;
    const settings = await playwright(async ({ page }) => {
      const item = page.locator('.settings-editor .setting-item-contents').first();
      await item.waitFor({ state: 'visible', timeout: 20000 });
      return item.innerText();
    });
    assert.match(settings, /Agents/);
  });

  it('the vote viewer\u2019s start page says what is missing, with the fix', async () => {
    await fakeLm.configure({ models: [] });
    await until(async () => (await vscode.lm.selectChatModels()).length === 0, 10000, 'no chat model');
    const page = await until(async () => {
      const text = await openStartPage();
      return /No VS Code chat models are available/.test(text) && text;
    }, 15000, 'the start page to say there is no model');
    await screenshot('no-team-start-page');
    assert.match(page, /Configure agents…/);
  });
});

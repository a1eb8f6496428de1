// The vote viewer's start page (shown before the first run, and from "New run" in its header): its buttons start
// things the way a person expects: "Ask @massgen in Chat" puts @massgen in the chat input and sends nothing;
// "Configure agents…" opens the Settings editor where the team setting is listed.
'use strict';
const vscode = require('vscode');
const { assert, EXTENSION_ID, until, waitForFakeModel, fakeLm, screenshot, playwright, clickInViewer, openStartPage } = require('./helpers');

/** What the chat view shows: its input's text and how many requests it lists. */
function chatView() {
  return playwright(async ({ page }) => ({
    input: (await page.locator('.interactive-input-part .monaco-editor .view-lines').first().innerText().catch(() => '')).replace(/\u00a0/g, ' '),
    requests: await page.locator('.interactive-request').count(),
  }));
}

describe('The vote viewer\u2019s start page', function () {
  this.timeout(90000);

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
  });

  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('"Ask @massgen in Chat" pre-fills the chat input and sends no request', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await fakeLm.reset();
    const before = await chatView();
    const page = await openStartPage();
    assert.match(page, /Ask @massgen in Chat/);
    assert.strictEqual(await clickInViewer('Ask @massgen in Chat'), true);
    const after = await until(async () => {
      const v = await chatView();
      return /@massgen/.test(v.input) && v;
    }, 15000, 'the chat input to hold @massgen').catch(async (err) => {
      throw new Error(`${err.message}: ${JSON.stringify(await chatView())}`);
    });
    await screenshot('start-page-ask-in-chat');
    assert.strictEqual(after.requests, before.requests, 'nothing was sent');
    assert.deepStrictEqual(await fakeLm.requests(), [], 'no model request');
  });

  it('"Configure agents…" opens the Settings editor on massgen.agents', async () => {
    await openStartPage();
    assert.strictEqual(await clickInViewer('Configure agents…'), true);
    const items = await playwright(async ({ page }) => {
      const editor = page.locator('.settings-editor');
      await editor.locator('.setting-item-contents').first().waitFor({ state: 'visible', timeout: 20000 });
      return editor.locator('.setting-item-contents').allInnerTexts();
    });
    assert.ok(items.some((t) => /Agents/.test(t) && /User/.test(t)), JSON.stringify(items));
  });
});

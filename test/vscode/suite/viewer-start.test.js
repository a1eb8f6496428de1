// The vote viewer's start page (shown before the first run, and from "New run" in its header): its buttons start
// things the way a person expects: "Ask @massgen in Chat" puts @massgen in the chat input and sends nothing;
// "Configure agents…" opens the Settings editor where the team setting is listed. Without a chat model (no Copilot)
// the chat could only answer "Language model unavailable": the page then leads with what works.
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

  it('without a chat model the first button is what works (Configure agents…), not "Ask @massgen in Chat"', async () => {
    await vscode.workspace.getConfiguration('massgen').update('agents', undefined, vscode.ConfigurationTarget.Global);
    await fakeLm.configure({ models: [] });
    try {
      await until(async () => (await vscode.lm.selectChatModels()).length === 0, 10000, 'no chat model');
      const buttons = () =>
        playwright(async ({ webviewFrames }) => {
          for (const frame of await webviewFrames()) {
            if (!(await frame.$('.empty'))) continue;
            return frame.$$eval('.empty vscode-button', (els) => els.map((e) => ({ text: e.textContent.trim(), primary: !e.hasAttribute('secondary') })));
          }
          return null;
        });
      await openStartPage();
      const seen = await until(async () => {
        const b = await buttons();
        return b && b.length && b[0].text === 'Configure agents…' && b;
      }, 20000, 'Configure agents… first').catch(async (err) => {
        throw new Error(`${err.message}: ${JSON.stringify(await buttons())}`);
      });
      await screenshot('start-page-no-chat-model');
      assert.strictEqual(seen[0].primary, true, JSON.stringify(seen));
      assert.ok(!seen.some((b) => /Ask @massgen in Chat/.test(b.text)), `no chat button: ${JSON.stringify(seen)}`);
      assert.ok(seen.some((b) => b.text === 'Run on Selection'), JSON.stringify(seen));
      assert.match(await openStartPage(), /@massgen in the Chat view needs a VS Code chat model/);
    } finally {
      await fakeLm.reset();
      await waitForFakeModel();
    }
    // With the chat model back, the chat is first again.
    const back = await until(async () => {
      const text = await openStartPage();
      return /Ask @massgen in Chat/.test(text) && text;
    }, 20000, 'the chat button back');
    assert.match(back, /Ask @massgen in Chat/);
  });
});

// MassGen in VS Code's own surfaces: the editor's context menu names the command with its product ("MassGen: Run on
// Selection", not a bare "Run on Selection" among other extensions' entries), the command palette shows the English
// texts of package.nls.json (not the manifest's %keys%), and a status-bar item shows a run in progress, opening the
// vote viewer on it.
'use strict';
const vscode = require('vscode');
const { assert, EXTENSION_ID, FAKE_VENDOR, FAKE_MODEL_ID, until, waitForFakeModel, fakeLm, screenshot, playwright, webview } = require('./helpers');
const { openSample } = require('./selection-run');

/** The status-bar entries whose text mentions MassGen. */
const statusItems = () => playwright(async ({ page }) => page.locator('.statusbar-item', { hasText: 'MassGen' }).allInnerTexts());

describe('MassGen in the workbench: context menu and status bar', function () {
  this.timeout(90000);
  let api;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
  });

  after(async () => {
    await fakeLm.reset();
    await vscode.workspace.getConfiguration('massgen').update('agents', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the editor\u2019s context menu says "MassGen: Run on Selection"', async () => {
    await openSample();
    const items = await playwright(async ({ page, sleep }) => {
      await page.locator('.monaco-editor .view-lines').first().click({ button: 'right' });
      const menu = page.locator('.monaco-menu .action-label');
      await menu.first().waitFor({ state: 'visible', timeout: 10000 });
      await sleep(200);
      const labels = await menu.allInnerTexts();
      await page.keyboard.press('Escape');
      return labels;
    });
    assert.ok(items.includes('MassGen: Run on Selection'), JSON.stringify(items));
  });

  it('the command palette shows the commands\u2019 English titles from package.nls.json, not %keys%', async () => {
    const rows = await playwright(async ({ page, sleep, screenshot: shoot }) => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 20000 });
      await input.fill('>MassGen');
      const list = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
      await list.filter({ hasText: 'Show Vote Viewer' }).first().waitFor({ timeout: 20000 });
      await sleep(300);
      const texts = await list.allInnerTexts();
      await shoot('palette-massgen');
      await page.keyboard.press('Escape');
      return texts;
    });
    const shows = (title) => rows.some((r) => r.split('\n').some((line) => line.trim() === title));
    for (const title of ['MassGen: Run on Selection', 'MassGen: Run on Workspace', 'MassGen: Show Vote Viewer', 'MassGen: Set API Key\u2026']) assert.ok(shows(title), `${title} in ${JSON.stringify(rows)}`);
    assert.ok(!rows.some((r) => r.includes('%')), JSON.stringify(rows));
  });

  it('a status-bar item shows the run going; a click opens the vote viewer on it; it goes when the run ends', async () => {
    const model = `${FAKE_VENDOR}/${FAKE_MODEL_ID}`;
    await vscode.workspace.getConfiguration('massgen').update('agents', [{ id: 'slow', provider: 'vscode-lm', model }, { id: 'slower', provider: 'vscode-lm', model }], vscode.ConfigurationTarget.Global);
    await fakeLm.configure({ delayMs: 20000 });
    const run = await api.runs.start({ task: 'Take your time', title: 'A slow run for the status bar', prompt: 'Take your time' });
    const shown = await until(async () => (await statusItems()).find((t) => /round 1/.test(t)), 15000, 'the MassGen status-bar item');
    assert.match(shown, /MassGen · round 1 · 0 answers · 0\/2 voted/);
    await screenshot('status-bar-run');
    await playwright(async ({ page }) => page.locator('.statusbar-item', { hasText: 'MassGen' }).first().click());
    await until(async () => (await webview('.run-title-text', { timeoutMs: 2000 })).values.includes('A slow run for the status bar'), 15000, 'the vote viewer on the run');
    run.cancel();
    await run.result;
    await until(async () => (await statusItems()).length === 0, 10000, 'the item to go once the run ended');
  });
});

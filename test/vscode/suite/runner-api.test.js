'use strict';
// The runner's control API that UI tests build on: screenshots, reading a webview's DOM, Playwright steps.
const fs = require('fs');
const vscode = require('vscode');
const { assert, screenshot, webview, playwright, until, runnerAvailable } = require('./helpers');

describe('runner control API (screenshots, webview DOM, Playwright)', () => {
  let panel;
  before(function () {
    if (!runnerAvailable) this.skip();
  });
  after(() => panel && panel.dispose());

  it('reads the DOM of an open webview', async () => {
    panel = vscode.window.createWebviewPanel('massgenTestProbe', 'Test probe webview', vscode.ViewColumn.One, {});
    panel.webview.html = '<!DOCTYPE html><html><body><h1 id="hello">Hello from a test webview</h1><p class="item">a</p><p class="item">b</p></body></html>';
    const h1 = await webview('#hello', { timeoutMs: 20000 });
    assert.deepStrictEqual(h1, { found: true, values: ['Hello from a test webview'] });
    const items = await webview('.item');
    assert.deepStrictEqual(items.values, ['a', 'b']);
    const missing = await webview('#nope', { timeoutMs: 500 });
    assert.strictEqual(missing.found, false);
  });

  it('runs Playwright steps in the runner', async () => {
    const info = await playwright(async ({ page }, arg) => ({
      arg,
      workbench: await page.locator('.monaco-workbench').count(),
      tabs: await page.locator('.tabs-container .tab .label-name').allTextContents(),
    }), { x: 1 });
    assert.deepStrictEqual(info.arg, { x: 1 });
    assert.strictEqual(info.workbench, 1);
    assert.ok(info.tabs.includes('Test probe webview'), JSON.stringify(info.tabs));
  });

  it('drives the UI like a person: command palette, keyboard', async () => {
    assert.ok(vscode.window.tabGroups.all.some((g) => g.tabs.length), 'an editor is open');
    await playwright(async ({ page }, command) => {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 20000 });
      await input.fill(`>${command}`);
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: command }).waitFor({ timeout: 20000 });
      await page.keyboard.press('Enter');
    }, 'View: Close All Editors');
    await until(() => vscode.window.tabGroups.all.every((g) => g.tabs.length === 0), 15000, 'all editors closed');
  });

  it('saves a named screenshot', async () => {
    const file = await screenshot('runner-api webview');
    assert.ok(file.endsWith('runner-api-webview.png'), file);
    assert.ok(fs.statSync(file).size > 1000);
  });
});

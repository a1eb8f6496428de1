'use strict';
const fs = require('fs');
const vscode = require('vscode');
const { assert, EXTENSION_ID, FAKE_VENDOR, FAKE_MODEL_ID, waitForFakeModel, screenshot, runnerAvailable } = require('./helpers');

describe('activation (real VS Code, code-server extension host)', () => {
  it('runs in a real Node extension host', () => {
    assert.strictEqual(vscode.env.appName, 'code-server');
    const [major, minor] = vscode.version.split('.').map(Number);
    assert.ok(major === 1 && minor >= 100, `VS Code ${vscode.version}`);
    assert.ok(process.versions.node, 'Node APIs available');
  });

  it(`finds the extension under development (${EXTENSION_ID})`, () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
    assert.ok(ext.extensionPath, 'has a path');
  });

  it('activates without throwing', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  it('sees the fake chat model from the helper VSIX', async () => {
    const models = await waitForFakeModel();
    assert.ok(models.some((m) => m.vendor === FAKE_VENDOR && m.id === FAKE_MODEL_ID), JSON.stringify(models.map((m) => [m.vendor, m.id])));
  });

  it('can save a screenshot of the workbench', async function () {
    if (!runnerAvailable) this.skip();
    const file = await screenshot('activation');
    assert.ok(fs.statSync(file).size > 1000, `${file} is a real PNG`);
  });
});

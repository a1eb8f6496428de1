// Run on Selection against the fake OpenAI-compatible server (massgen.test.js, apply.test.js, cancel.test.js): a
// two-agent team (alpha on model m1, beta on m2), sample.py open with everything selected, the diff preview's tab,
// and the suites' hooks.
'use strict';
const fs = require('fs');
const vscode = require('vscode');
const { EXTENSION_ID, clearNotifications } = require('./helpers');

const ORIGINAL = 'def add(a, b):\n    return a + b\n';
// No double quotes: the fake agent recognises its own answer in the request text (see coordinationScript).
const WINNER = "```python\ndef add(a, b):\n    '''Return the sum of a and b.'''\n    return a + b\n```\nAdds a docstring.";
const LOSER = '```python\ndef add(a, b):\n    # add two numbers\n    return a + b\n```';

async function setAgents(agents) {
  await vscode.workspace.getConfiguration('massgen').update('agents', agents, vscode.ConfigurationTarget.Global);
}

/** alpha (m1) and beta (m2) on the fake server. */
function team(baseUrl, extra = {}) {
  return [
    { id: 'alpha', provider: 'chatcompletion', model: 'm1', baseUrl, ...extra },
    { id: 'beta', provider: 'chatcompletion', model: 'm2', baseUrl, ...extra },
  ];
}

/** sample.py with its original text, open, all of it selected. */
async function openSample() {
  const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'sample.py');
  fs.writeFileSync(uri.fsPath, ORIGINAL);
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  if (doc.getText() !== ORIGINAL) await vscode.commands.executeCommand('workbench.action.files.revert');
  editor.selection = new vscode.Selection(0, 0, doc.lineCount, 0);
  return { doc, editor };
}

/** The winner's diff preview tab, if open. */
function previewTab() {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'massgen-preview');
}

/** Discards a pending winner, reverts and closes every editor. */
async function closeAll() {
  await vscode.commands.executeCommand('massgen.discardWinner');
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * A Run on Selection suite's hooks: the extension's test API first; notifications cleared before each test; the fake
 * server the test started (`rig.server`) closed and every editor closed after it; the default team after the suite.
 */
function selectionRunHooks() {
  const rig = { api: undefined, server: undefined };
  before(async () => {
    rig.api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
  });
  beforeEach(() => clearNotifications());
  afterEach(async () => {
    if (rig.server) await rig.server.close();
    rig.server = undefined;
    await closeAll();
  });
  after(() => setAgents(undefined));
  return rig;
}

module.exports = { ORIGINAL, WINNER, LOSER, setAgents, team, openSample, previewTab, closeAll, selectionRunHooks };

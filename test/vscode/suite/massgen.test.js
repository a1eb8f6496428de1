// MassGen's own flows in real VS Code: Run on selection against a local fake OpenAI-compatible server (diff preview,
// Apply, Undo, re-anchoring, refusal, Cancel), @massgen in the chat view through the fake chat model, Set API Key,
// and the scratch-folder path guard. Screenshots of the key states go to test-artifacts/screenshots.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { assert, askInChat, EXTENSION_ID, log, until, waitForFakeModel, screenshot, webview, playwright, clickInViewer, runnerAvailable, refactorPreview } = require('./helpers');
const fakes = require('../out/fakes.js');
const { ORIGINAL, WINNER, LOSER, setAgents, team, openSample, previewTab, closeAll } = require('./selection-run');

const SECRET = 'sk-test-SECRET-7f3a9c1e5b';

let api;
let server;

describe('MassGen in real VS Code', function () {
  this.timeout(120000);

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    api = await ext.activate();
    assert.ok(api && api.runs && api.preview, 'activate() returns the test API');
  });

  afterEach(async () => {
    if (server) await server.close();
    server = undefined;
    await closeAll();
  });

  after(async () => {
    await setAgents(undefined);
  });

  it('Run on selection: the viewer shows the agents, the diff preview opens, Apply edits the document, Undo restores it', async () => {
    server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { answer: LOSER, voteFor: 'agent1' } }));
    await setAgents(team(server.baseUrl));
    const { doc } = await openSample();

    await vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });

    const tab = await until(() => previewTab(), 10000, 'the diff preview');
    assert.match(tab.label, /MassGen: sample\.py \(winner agent1\.1 \(m1\)\)/);
    assert.strictEqual(doc.getText(), ORIGINAL, 'the file is untouched until Apply');
    const run = api.runs.latest;
    assert.strictEqual(run.state.endReason, 'consensus');
    assert.deepStrictEqual(run.state.agents.map((a) => a.id), ['alpha', 'beta']);
    await screenshot('run-on-selection-diff');

    await vscode.commands.executeCommand('massgen.showVoteViewer');
    if (runnerAvailable) {
      const shown = await webview('body', { property: 'textContent', timeoutMs: 15000 });
      const text = shown.values.join(' ');
      for (const s of ['alpha', 'beta', 'agent1.1', 'agent2.1']) assert.ok(text.includes(s), `viewer shows ${s}`);
      await screenshot('vote-viewer-after-run');
    }

    const applied = await vscode.commands.executeCommand('massgen.applyWinner');
    assert.strictEqual(applied, true);
    assert.match(doc.getText(), /'''Return the sum of a and b\.'''/);
    assert.ok(doc.isDirty, 'left unsaved for review');
    assert.ok(!previewTab(), 'the preview is closed');
    await screenshot('applied');

    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(doc.getText(), ORIGINAL, 'one undo step restores the file');
  });

  it('re-anchors the selection when the file was edited above it during the run', async () => {
    server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { answer: LOSER, voteFor: 'agent1' } }, { reply: { ttftMs: 800 } }));
    await setAgents(team(server.baseUrl));
    const { doc, editor } = await openSample();
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    await until(() => server.chatRequests().length > 0, 10000, 'the first model request');
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '# edited during the run\n'));
    await running;
    assert.strictEqual(await vscode.commands.executeCommand('massgen.applyWinner'), true);
    assert.ok(doc.getText().startsWith("# edited during the run\ndef add(a, b):\n    '''Return the sum"), doc.getText());
  });

  it('refuses to apply when the selected code itself was edited during the run', async () => {
    server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { answer: LOSER, voteFor: 'agent1' } }, { reply: { ttftMs: 800 } }));
    await setAgents(team(server.baseUrl));
    const { doc, editor } = await openSample();
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    await until(() => server.chatRequests().length > 0, 10000, 'the first model request');
    await editor.edit((e) => e.replace(new vscode.Range(1, 11, 1, 16), 'a - b'));
    const edited = doc.getText();
    await running;
    assert.strictEqual(await vscode.commands.executeCommand('massgen.applyWinner'), false);
    assert.strictEqual(doc.getText(), edited, 'the user\'s edit is kept');
    await screenshot('apply-refused');
  });

  it('Cancel stops the run and closes the HTTP streams', async () => {
    server = await fakes.startFakeOpenAI(fakes.coordinationScript({}, { reply: { ttftMs: 30000 } }));
    await setAgents(team(server.baseUrl));
    await openSample();
    const started = Date.now();
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Slow please' });
    await until(() => server.chatRequests().length >= 2, 10000, 'both agents requesting');
    await vscode.commands.executeCommand('massgen.cancelRun');
    await running;
    assert.ok(Date.now() - started < 15000, 'cancel is prompt');
    const outcomes = await Promise.all(server.chatRequests().map((r) => r.outcome));
    assert.deepStrictEqual(outcomes, ['client_closed', 'client_closed']);
    assert.strictEqual(api.runs.latest.state.endReason, 'cancelled');
    assert.ok(!previewTab(), 'no preview for a cancelled run without answers');
  });

  it('the vote viewer follows a live run, and its buttons drive Cancel and Apply', async function () {
    if (!runnerAvailable) this.skip();
    // Cancel from the viewer while the agents are still streaming.
    server = await fakes.startFakeOpenAI(fakes.coordinationScript({}, { reply: { ttftMs: 30000 } }));
    await setAgents(team(server.baseUrl));
    await openSample();
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Slow please' });
    await until(() => server.chatRequests().length >= 2, 10000, 'both agents requesting');
    await vscode.commands.executeCommand('massgen.showVoteViewer');
    const live = await webview('body', { property: 'textContent', timeoutMs: 15000 });
    assert.ok(live.values.join(' ').includes('alpha'), 'the viewer shows the live run');
    await screenshot('viewer-live-run');
    assert.strictEqual(await clickInViewer('Cancel the run'), true, 'the Cancel button is there');
    await running;
    assert.strictEqual(api.runs.latest.state.endReason, 'cancelled');
    assert.deepStrictEqual(await Promise.all(server.chatRequests().map((r) => r.outcome)), ['client_closed', 'client_closed']);
    await server.close();

    // Apply from the viewer's result.
    server = await fakes.startFakeOpenAI(fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { answer: LOSER, voteFor: 'agent1' } }));
    await setAgents(team(server.baseUrl));
    const { doc } = await openSample();
    await vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    await vscode.commands.executeCommand('massgen.showVoteViewer');
    assert.strictEqual(await clickInViewer('Apply the winner'), true, 'the Apply button is there');
    await until(() => doc.getText().includes("'''Return the sum"), 10000, 'the edit from the viewer');
    await screenshot('viewer-applied');
  });

  it('Set API Key stores the key in SecretStorage only: not in settings, logs or the webview', async function () {
    if (!runnerAvailable) this.skip();
    const storing = vscode.commands.executeCommand('massgen.setApiKey', 'OPENAI_API_KEY');
    await playwright(async ({ page, sleep }, secret) => {
      await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: 15000 });
      await sleep(200);
      await page.keyboard.type(secret);
      await page.keyboard.press('Enter');
    }, SECRET);
    await storing;
    assert.strictEqual(await api.keys.get('OPENAI_API_KEY'), SECRET);

    // A run with an OpenAI agent pointed at the fake server uses it.
    server = await fakes.startFakeOpenAI(fakes.coordinationScript({ 'gpt-keyed': { answer: WINNER, voteFor: 'agent1' } }));
    await setAgents([{ id: 'keyed', provider: 'openai', model: 'gpt-keyed', baseUrl: server.baseUrl }]);
    await openSample();
    await vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    assert.strictEqual(server.chatRequests()[0].headers.authorization, `Bearer ${SECRET}`);

    const settings = JSON.stringify(vscode.workspace.getConfiguration('massgen'));
    assert.ok(!settings.includes(SECRET), 'not in settings');
    const logs = [];
    const walk = (dir) => fs.existsSync(dir) && fs.readdirSync(dir, { withFileTypes: true }).forEach((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : logs.push(path.join(dir, e.name))));
    walk(api.logUri.fsPath);
    assert.ok(logs.length > 0, `the log channel writes to ${api.logUri.fsPath}`);
    const logged = logs.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    assert.ok(logged.includes('keyed'), 'the run was logged');
    assert.ok(!logged.includes(SECRET), 'not in the log');
    await vscode.commands.executeCommand('massgen.showVoteViewer');
    const dom = await webview('html', { property: 'outerHTML', timeoutMs: 15000 });
    assert.ok(dom.values.length > 0 && !dom.values.join('').includes(SECRET), 'not in the webview');
    await api.keys.clear('OPENAI_API_KEY');
  });

  it('@massgen answers in the chat view through the VS Code chat model and offers the buttons', async function () {
    if (!runnerAvailable) this.skip();
    await waitForFakeModel();
    await setAgents([]);
    const text = await askInChat('@massgen What is the capital of France?', { waitMs: 60000 });
    log('chat response:', text.slice(0, 300));
    assert.match(text, /wins/);
    assert.match(text, /Open vote viewer/);
    const run = api.runs.latest;
    assert.ok(run.state.agents.every((a) => a.provider.startsWith('vscode-lm')), 'zero-config team of chat models');
    await screenshot('chat-participant');
  });

  it('the scratch-folder file tools refuse path escapes; the workspace is never written by agents', async () => {
    const outside = path.join(path.dirname(vscode.workspace.workspaceFolders[0].uri.fsPath), 'massgen-escape.txt');
    const baseDir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'massgen-scratch-test-'));
    let ownCopy; // the agent's scratch copy of sample.py once it wrote it: <baseDir>/<run id>/agent1/sample.py
    server = await fakes.startFakeOpenAI(({ body }) => {
      const toolResults = body.messages.filter((m) => m.role === 'tool');
      if (toolResults.length === 2 && ownCopy === undefined) {
        const runs = fs.readdirSync(baseDir);
        ownCopy = runs.length === 1 ? fs.readFileSync(path.join(baseDir, runs[0], 'agent1', 'sample.py'), 'utf8') : `run folders: ${runs.join(', ')}`;
      }
      if (toolResults.length === 0) return { toolCalls: [{ name: 'write_file', arguments: { path: '../../massgen-escape.txt', content: 'escaped' } }] };
      if (toolResults.length === 1) return { toolCalls: [{ name: 'write_file', arguments: { path: 'sample.py', content: 'print(1)\n' } }] };
      const offered = (body.tools || []).map((t) => t.function.name);
      if (offered.includes('new_answer') && !body.messages.some((m) => typeof m.content === 'string' && m.content.includes('<agent1>'))) {
        return { toolCalls: [{ name: 'new_answer', arguments: { content: 'Rewrote sample.py' } }] };
      }
      return { toolCalls: [{ name: 'vote', arguments: { agent_id: 'agent1', reason: 'only answer' } }] };
    });
    await setAgents([{ id: 'writer', provider: 'chatcompletion', model: 'w', baseUrl: server.baseUrl }]);
    const root = vscode.workspace.workspaceFolders[0].uri.fsPath;
    fs.writeFileSync(path.join(root, 'sample.py'), ORIGINAL);
    const run = await api.runs.start({
      task: 'Rewrite sample.py',
      title: 'path guard',
      files: { kind: 'scratch', baseDir, seed: [{ relativePath: 'sample.py', content: ORIGINAL }] },
    });
    const result = await run.result;
    assert.strictEqual(result.reason, 'consensus');
    const results = server.chatRequests().flatMap((r) => r.body.messages.filter((m) => m.role === 'tool').map((m) => m.content));
    assert.ok(results.some((c) => /write_file failed/.test(c) && !c.includes(root)), JSON.stringify(results));
    assert.ok(!fs.existsSync(outside), 'nothing written outside the scratch folder');
    assert.strictEqual(fs.readFileSync(path.join(root, 'sample.py'), 'utf8'), ORIGINAL, 'the workspace file is untouched');
    assert.strictEqual(ownCopy, 'print(1)\n', 'the agent wrote its own copy');
    assert.deepStrictEqual(fs.readdirSync(baseDir), [], 'the scratch folders are removed when the run ends');

    if (!runnerAvailable) return;
    // The winner's folder comes back as one WorkspaceEdit that VS Code's refactor preview asks to confirm.
    const uri = vscode.Uri.file(path.join(root, 'sample.py'));
    api.previews.registerFiles(run.id, (relativePath) => (relativePath === 'sample.py' ? uri : undefined));
    const applying = vscode.commands.executeCommand('massgen.applyRun', run.id);
    // The winner's change comes ticked: Apply writes it as proposed.
    await refactorPreview.rows('sample.py');
    const rows = await refactorPreview.ticks();
    assert.deepStrictEqual(rows.filter((r) => r.text === 'sample.py').map((r) => r.checked), ['true'], JSON.stringify(rows));
    await screenshot('refactor-preview');
    await refactorPreview.click('Apply');
    assert.strictEqual(await applying, true);
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.strictEqual(doc.getText(), 'print(1)\n', 'applied after confirmation');
    fs.rmSync(baseDir, { recursive: true, force: true });
  });

  it('MCP servers from settings: tools run for the agents, and a side-effecting tool waits for approval (denied here)', async function () {
    if (!runnerAvailable) this.skip();
    const root = path.resolve(vscode.extensions.getExtension(EXTENSION_ID).extensionPath);
    const sandbox = fs.mkdtempSync(path.join(require('os').tmpdir(), 'massgen-mcp-e2e-'));
    const serverJs = (name) => path.join(root, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');
    await vscode.workspace.getConfiguration('massgen.mcp').update('servers', [
      { name: 'everything', command: process.execPath, args: [serverJs('server-everything'), 'stdio'] },
      { name: 'files', command: process.execPath, args: [serverJs('server-filesystem'), sandbox] },
    ], vscode.ConfigurationTarget.Global);
    const target = path.join(sandbox, 'written.txt');
    server = await fakes.startFakeOpenAI(({ body }) => {
      const results = body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      if (results.length === 0) return { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello-mcp' } }] };
      if (results.length === 1) return { toolCalls: [{ name: 'mcp__files__write_file', arguments: { path: target, content: 'x' } }] };
      const offered = (body.tools || []).map((t) => t.function.name);
      if (offered.includes('new_answer') && results.length === 2) return { toolCalls: [{ name: 'new_answer', arguments: { content: `tools said: ${results.join(' | ')}` } }] };
      return { toolCalls: [{ name: 'vote', arguments: { agent_id: 'agent1', reason: 'only answer' } }] };
    });
    try {
      await setAgents([{ id: 'toolsmith', provider: 'chatcompletion', model: 't', baseUrl: server.baseUrl }]);
      const run = await api.runs.start({ task: 'Use the tools', title: 'mcp e2e' });
      await until(() => run.state.agents[0].status === 'streaming' && server.chatRequests().length >= 2, 20000, 'the write_file call');
      // Toasts are not shown while the test driver runs the workbench; the notification center lists them all.
      await vscode.commands.executeCommand('notifications.showList');
      const denied = await playwright(async ({ page, sleep }) => {
        const deny = page.locator('.notifications-center .monaco-button, .notifications-toasts .monaco-button').filter({ hasText: 'Deny' }).first();
        await deny.waitFor({ state: 'visible', timeout: 30000 });
        await sleep(200);
        await deny.click();
        return true;
      });
      assert.strictEqual(denied, true, 'the approval prompt appeared');
      const result = await run.result;
      assert.strictEqual(result.reason, 'consensus');
      assert.match(result.finalAnswer, /hello-mcp/, 'the echo result reached the answer');
      assert.match(result.finalAnswer, /not run: the user did not approve it/, 'the model was told the write was not approved');
      assert.ok(!fs.existsSync(target), 'nothing was written');
      assert.deepStrictEqual(run.state.agents[0].tools.filter((t) => t.startsWith('mcp__everything__echo') || t === 'mcp__files__write_file').sort(), ['mcp__everything__echo', 'mcp__files__write_file']);
    } finally {
      await vscode.workspace.getConfiguration('massgen.mcp').update('servers', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

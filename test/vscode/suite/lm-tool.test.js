// The massgen_run language-model tool in real VS Code, as Copilot's agent mode uses it: listed in vscode.lm.tools,
// invoked through vscode.lm.invokeTool (the team is the fake chat model, or a local fake OpenAI server), its
// confirmation (prepareInvocation's result) shown inline in the chat when a participant invokes it, the run going
// through the RunManager (so the vote viewer follows it), the answer and tally returned, a workspace run's change
// returned but never applied, and cancellation stopping the run's model requests.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { assert, EXTENSION_ID, FAKE_DEFAULT_ANSWER, FAKE_VENDOR, FAKE_MODEL_ID, log, until, waitForFakeModel, fakeLm, screenshot, webview, playwright, runnerAvailable } = require('./helpers');
const { setTeam, teamHandler } = require('./workspace-team');
const fakes = require('../out/fakes.js');

const TOOL = 'massgen_run';
const QUESTION = 'Which sorting algorithms are stable?';

const texts = (result) => result.content.filter((p) => p instanceof vscode.LanguageModelTextPart).map((p) => p.value);
const setAgents = (agents) => vscode.workspace.getConfiguration('massgen').update('agents', agents, vscode.ConfigurationTarget.Global);
const markdown = (m) => (typeof m === 'string' ? m : m && m.value);

describe('the massgen_run language-model tool', function () {
  this.timeout(180000);
  let api;
  let server;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
  });

  beforeEach(async () => {
    await fakeLm.reset();
    await setAgents(undefined);
  });

  afterEach(async () => {
    if (server) await server.close();
    server = undefined;
  });

  after(async () => {
    await setAgents(undefined);
    await fakeLm.reset();
    // Leave the workbench as the next file expects it: no chat session or chat view open.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  });

  it('is listed in vscode.lm.tools with its input schema', () => {
    const tool = vscode.lm.tools.find((t) => t.name === TOOL);
    assert.ok(tool, `listed: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    assert.deepStrictEqual(Object.keys(tool.inputSchema.properties).sort(), ['question', 'workspace']);
    assert.deepStrictEqual(tool.inputSchema.required, ['question']);
  });

  it('prepareInvocation asks first for chat models (billed by the plan) and for workspace runs, not for a free local team', async () => {
    const token = new vscode.CancellationTokenSource().token;
    const chat = await api.lmTool.prepareInvocation({ input: { question: QUESTION } }, token);
    assert.strictEqual(chat.confirmationMessages.title, 'Run a MassGen team? It spends money.');
    const chatMessage = markdown(chat.confirmationMessages.message);
    assert.match(chatMessage, new RegExp(`VS Code chat models \\(${FAKE_VENDOR}/${FAKE_MODEL_ID}\\): \\d+–\\d+ requests in all, billed by your plan`));
    assert.match(chatMessage, /\*\*Question:\*\* Which sorting algorithms are stable\?/);
    assert.match(markdown(chat.invocationMessage), /MassGen: 3 agents on “Which sorting algorithms are stable\?” — \[open the vote viewer\]\(command:massgen\.showVoteViewer\)/);

    const folder = vscode.workspace.workspaceFolders[0].name;
    const ws = await api.lmTool.prepareInvocation({ input: { question: 'Add a docstring', workspace: true } }, token);
    assert.strictEqual(ws.confirmationMessages.title, `Run a MassGen team on copies of ${folder}?`);
    assert.match(markdown(ws.confirmationMessages.message), /Your folder is not changed: the winner's change is returned for you to review, and this tool never applies it\./);

    server = await fakes.startFakeOpenAI(fakes.coordinationScript());
    await setAgents([{ id: 'local', provider: 'chatcompletion', model: 'local-model', baseUrl: server.baseUrl }]);
    const free = await api.lmTool.prepareInvocation({ input: { question: QUESTION } }, token);
    assert.strictEqual(free.confirmationMessages, undefined, 'a local unpriced server costs nothing: no confirmation');
    assert.match(markdown(free.invocationMessage), /MassGen: 1 agents on/);
  });

  it('vscode.lm.invokeTool runs the team through the RunManager: the viewer follows it, the answer and the tally come back', async () => {
    const before = api.runs.latest;
    const result = await vscode.lm.invokeTool(TOOL, { input: { question: QUESTION }, toolInvocationToken: undefined });
    const [answer, summary] = texts(result);
    log('tool result:', answer.slice(0, 120), '|', summary.replace(/\s+/g, ' ').slice(0, 200));
    assert.match(answer, /^MassGen's answer \(agent1\.1, massgen-fake\/fake-agent; ended by consensus\):\n\n/);
    assert.ok(answer.endsWith(FAKE_DEFAULT_ANSWER), answer);
    assert.match(summary, /^Votes per answer:\n- agent1\.1 \(massgen-fake\/fake-agent\) — winner: 3 vote\(s\) from agent1, agent2, agent3/);
    const run = api.runs.latest;
    assert.notStrictEqual(run, before, 'the run went through the RunManager');
    assert.strictEqual(run.state.endReason, 'consensus');
    assert.match(summary, new RegExp(`run ${run.id}\\)`));
    if (runnerAvailable) {
      await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
      const shown = await webview('body', { property: 'textContent', timeoutMs: 15000 });
      assert.ok(shown.values.join(' ').includes(QUESTION), 'the vote viewer shows the tool\'s run');
    }
  });

  it('a chat participant invoking the tool gets the confirmation in the chat; nothing runs before Allow, then the team answers', async function () {
    if (!runnerAvailable) this.skip();
    const before = api.runs.latest;
    const prompt = JSON.stringify({ tool: TOOL, input: { question: 'What is the capital of France?' } });
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@fake-tool-caller ${prompt}`, modelSelector: { vendor: FAKE_VENDOR, id: FAKE_MODEL_ID } });
    // VS Code 1.139 shows a pending tool confirmation above the chat input, with Allow (in this session) and Skip.
    const confirmation = await playwright(async ({ page }) => {
      const widget = page.locator('.chat-confirmation-widget-container:visible', { hasText: 'Run a MassGen team?' }).first();
      await widget.waitFor({ state: 'visible', timeout: 30000 });
      // The title is drawn apart from the message; the widget's accessible label carries both.
      return { label: await widget.getAttribute('aria-label'), text: await widget.innerText(), buttons: await widget.locator('.monaco-button:visible').allInnerTexts() };
    }, null, 60000);
    log('confirmation:', confirmation.text.replace(/\s+/g, ' ').slice(0, 400), JSON.stringify(confirmation.buttons));
    assert.match(confirmation.label, /^Chat Confirmation Dialog Run a MassGen team\? It spends money\. 3 agents:/);
    assert.deepStrictEqual(confirmation.buttons.filter(Boolean), ['Allow in this Session', 'Skip']);
    assert.match(confirmation.text, /3 agents: fake-agent-reviewer \(vscode-lm massgen-fake\/fake-agent\)/);
    assert.match(confirmation.text, /VS Code chat models \(massgen-fake\/fake-agent\): \d+–\d+ requests in all, billed by your plan/);
    assert.match(confirmation.text, /Question: What is the capital of France\?/);
    await screenshot('lm-tool-confirmation');
    assert.strictEqual(api.runs.latest, before, 'nothing runs while the confirmation is pending');

    await playwright(async ({ page }) => {
      const widget = page.locator('.chat-confirmation-widget-container:visible', { hasText: 'Run a MassGen team?' }).first();
      await widget.locator('.monaco-button:visible', { hasText: /^Allow/ }).first().click();
    });
    const answered = await playwright(async ({ page, sleep }) => {
      const response = page.locator('.interactive-response').last();
      for (const end = Date.now() + 60000; Date.now() < end; await sleep(200)) {
        const text = await response.innerText().catch(() => '');
        if (/Votes per answer|TOOL ERROR/.test(text)) return text;
      }
      return response.innerText();
    }, null, 90000);
    log('chat response:', answered.replace(/\s+/g, ' ').slice(0, 300));
    assert.match(answered, /MassGen's answer \(agent1\.1/);
    assert.ok(answered.includes(FAKE_DEFAULT_ANSWER), answered);
    assert.match(answered, /Votes per answer/);
    assert.notStrictEqual(api.runs.latest, before, 'Allow started the run');
    await screenshot('lm-tool-chat-result');
  });

  it('a workspace run returns the winner\'s change and its patch; the folder is not changed', async () => {
    const sample = path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, 'sample.py');
    const original = fs.readFileSync(sample, 'utf8');
    const changed = `${original}\n\ndef sub(a, b):\n    return a - b\n`;
    await setTeam();
    await fakeLm.configure({ handler: teamHandler({ api, steps: [{ name: 'write_file', input: { path: 'sample.py', content: changed } }], answer: 'Added sub() to sample.py.' }) });
    const result = await vscode.lm.invokeTool(TOOL, { input: { question: 'Add a sub() function', workspace: true }, toolInvocationToken: undefined });
    const [answer, , change] = texts(result);
    assert.match(answer, /Added sub\(\) to sample\.py\./);
    assert.match(change, /^The winner's change \(1 file\(s\): sample\.py \(modified\)\) is NOT applied: the user reviews and applies it from the vote viewer/);
    assert.match(change, /^\+def sub\(a, b\):$/m);
    assert.strictEqual(fs.readFileSync(sample, 'utf8'), original, 'the tool never writes to the workspace');
    assert.strictEqual(api.runs.latest.state.workspace.source, path.dirname(sample));
  });

  it('cancelling the token stops the run and its model requests', async () => {
    await fakeLm.configure({ delayMs: 30000 });
    const cts = new vscode.CancellationTokenSource();
    const seen = (await fakeLm.requests()).length;
    const invoking = vscode.lm.invokeTool(TOOL, { input: { question: 'Slow please' }, toolInvocationToken: undefined }, cts.token);
    await until(async () => (await fakeLm.requests()).length >= seen + 3, 15000, 'the three agents requesting');
    const started = Date.now();
    cts.cancel();
    await assert.rejects(Promise.resolve(invoking), (err) => /cancel/i.test(`${err.name} ${err.message}`));
    const run = api.runs.latest;
    await until(() => run.state.endReason === 'cancelled', 10000, 'the run to end as cancelled');
    assert.ok(Date.now() - started < 10000, 'cancel is prompt (the fake model would answer after 30 s)');
    assert.ok(run.state.agents.every((a) => a.status !== 'streaming'), 'no agent is still streaming');
  });
});

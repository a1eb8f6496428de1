// A scripted two-agent team on the fake chat model for workspace runs (workspace.test.js, workspace-apply.test.js,
// commands.test.js), and the workspace's sample.py put back between tests.
// agent1 ("writer") makes its tool calls one per request, then gives its answer; agent2 ("reviewer") waits for that
// answer and votes for it, so the run ends by consensus with agent1.1 the winner. Both agents are the fake model's
// `fake-agent`; the handler tells them apart by the role each agent's system message carries.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { assert, EXTENSION_ID, FAKE_VENDOR, FAKE_MODEL_ID, until, offers, requestText, called, showsAnswerOf, waitForFakeModel, fakeLm, clearNotifications, runnerAvailable, refactorPreview } = require('./helpers');

/** sample.py as committed in the test workspace (run.sh). */
const ORIGINAL = 'def add(a, b):\n    return a + b\n';
const root = () => vscode.workspace.workspaceFolders[0].uri.fsPath;
const sampleUri = () => vscode.Uri.file(path.join(root(), 'sample.py'));

/** sample.py back to its committed text, on disk and in any open document; no editor open. */
async function resetSample() {
  fs.writeFileSync(sampleUri().fsPath, ORIGINAL);
  const doc = await vscode.workspace.openTextDocument(sampleUri());
  if (doc.isDirty || doc.getText() !== ORIGINAL) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  assert.strictEqual(doc.getText(), ORIGINAL);
}

const WRITER = 'ROLE=writer';
const REVIEWER = 'ROLE=reviewer';

/** The team as `massgen.agents` settings: agent1 = writer, agent2 = reviewer. */
function teamAgents() {
  const model = `${FAKE_VENDOR}/${FAKE_MODEL_ID}`;
  return [
    { id: 'writer', provider: 'vscode-lm', model, systemMessage: `${WRITER}: you make the change.` },
    { id: 'reviewer', provider: 'vscode-lm', model, systemMessage: `${REVIEWER}: you check the change.` },
  ];
}

async function setTeam(agents = teamAgents()) {
  await vscode.workspace.getConfiguration('massgen').update('agents', agents, vscode.ConfigurationTarget.Global);
}

/** Assistant messages of the conversation that hold a tool call (the fake writes calls as `name {json}`). */
function toolCallsSoFar(req) {
  return req.messages.filter((m) => m.role === 'assistant' && /\b[a-z_]+ \{/.test(m.text)).length;
}

/**
 * The fake model's handler for the team.
 *   steps:   the writer's tool calls in order, `{ name, input }` or `(req) => ({ name, input })`, one per request
 *   answer:  the writer's new_answer text (no double quotes: the fake model matches it in request texts)
 *   beforeAnswer(req): called (awaited) when the writer is about to answer, with its request (all tool results in it)
 *   api:     the extension's test API (the reviewer waits for agent1's answer in api.runs.latest)
 * Requests without the coordination tools (none in these runs) get the fake model's default.
 */
function teamHandler({ api, steps = [], answer, beforeAnswer }) {
  return async (req) => {
    if (!offers(req, 'vote')) return undefined;
    const text = requestText(req);
    if (text.includes(WRITER)) {
      if (called(req, 'new_answer') || showsAnswerOf(req, 'agent1')) return { toolCalls: [{ name: 'vote', input: { agent_id: 'agent1', reason: 'My change is done.' } }] };
      const n = toolCallsSoFar(req);
      if (n < steps.length) {
        const step = typeof steps[n] === 'function' ? steps[n](req) : steps[n];
        return { toolCalls: [step] };
      }
      if (beforeAnswer) await beforeAnswer(req);
      return { toolCalls: [{ name: 'new_answer', input: { content: answer } }] };
    }
    if (text.includes(REVIEWER)) {
      if (showsAnswerOf(req, 'agent1')) return { toolCalls: [{ name: 'vote', input: { agent_id: 'agent1', reason: 'The change does what was asked.' } }] };
      // Nothing to vote for yet: wait for agent1's answer, then look at the folder; the tool result brings the update.
      await until(() => api.runs.latest && api.runs.latest.state.answers.some((a) => a.label.startsWith('agent1.')), 90000, "agent1's answer");
      return { toolCalls: [{ name: 'list_directory', input: { path: '.' } }] };
    }
    return undefined;
  };
}

/** The requests the writer (agent1) made, oldest first. */
const writerRequests = (requests) => requests.filter((r) => requestText(r).includes(WRITER));
/** Every tool result text the writer's requests carried (each request repeats the earlier ones). */
const writerText = (requests) => writerRequests(requests).map(requestText).join('\n');

/**
 * The hooks of a suite of workspace runs with this team: the team set (and, with `commands`, massgen.commands.enabled)
 * for the suite; sample.py reset and the notifications cleared before each test; after it the fake model reset, a
 * run still going cancelled, a refactor preview left open discarded (it would hold the next run's edit) and the
 * editors closed. `activated(api)` receives the extension's API.
 */
function workspaceRunHooks({ activated, commands = false }) {
  const commandsSetting = () => vscode.workspace.getConfiguration('massgen.commands');
  let api;
  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    activated(api);
    await waitForFakeModel();
    await setTeam();
    if (commands) await commandsSetting().update('enabled', true, vscode.ConfigurationTarget.Global);
  });
  beforeEach(async () => {
    await resetSample();
    await clearNotifications();
  });
  afterEach(async () => {
    await fakeLm.reset();
    // Only when one is going: with none, the command says so in a notification that would outlive the test.
    if (api.runs.active.length) await vscode.commands.executeCommand('massgen.cancelRun');
    if (runnerAvailable && (await refactorPreview.open())) await refactorPreview.click('Discard');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    if (commands) await commandsSetting().update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('massgen').update('agents', undefined, vscode.ConfigurationTarget.Global);
    await resetSample();
  });
}

module.exports = { ORIGINAL, root, sampleUri, resetSample, teamAgents, setTeam, teamHandler, writerRequests, writerText, workspaceRunHooks, WRITER, REVIEWER };

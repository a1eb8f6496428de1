// Command approvals in one queue the user can see: two agents ask at once; one notification is up (naming the agent
// and the folder), the vote viewer shows each waiting command in its agent's column with Allow / Allow for this run
// / Deny, the status bar counts them. Allow in the viewer runs that command; the other agent's request then has the
// notification, and Deny there reaches its agent as a tool result.
'use strict';
const path = require('path');
const vscode = require('vscode');
const { assert, log, until, fakeLm, screenshot, webview, playwright, clickInViewer, runnerAvailable, offers, requestText, called, showsAnswerOf, clickNotificationButton, notificationTexts } = require('./helpers');
const { WRITER, REVIEWER, workspaceRunHooks } = require('./workspace-team');

// What the commands print is not in their text: seeing it means the command ran.
const WRITER_CMD = `python3 -c "print('the writer got', 6*7)"`;
const WRITER_OUT = 'the writer got 42';
const REVIEWER_CMD = `python3 -c "print('the reviewer got', 7*6)"`;
const REVIEWER_OUT = 'the reviewer got 42';
const DENIED = 'the user did not approve this command, so it did not run';

let api;
const folderName = () => path.basename(vscode.workspace.workspaceFolders[0].uri.fsPath);
const statusItems = () => playwright(async ({ page }) => page.locator('.statusbar-item', { hasText: 'MassGen' }).allInnerTexts());
const byRole = (requests, role) => requests.filter((r) => requestText(r).includes(role));
const ran = (req) => req.messages.some((m) => m.role === 'assistant' && m.text.includes('execute_command {'));

/**
 * Both agents start by running a command (so both ask at once); then the writer (agent1) answers and votes for its
 * answer, the reviewer (agent2) waits for that answer and votes for it.
 */
function handler() {
  return async (req) => {
    if (!offers(req, 'vote')) return undefined;
    const text = requestText(req);
    if (text.includes(WRITER)) {
      if (!ran(req)) return { toolCalls: [{ name: 'execute_command', input: { command: WRITER_CMD } }] };
      if (called(req, 'new_answer') || showsAnswerOf(req, 'agent1')) return { toolCalls: [{ name: 'vote', input: { agent_id: 'agent1', reason: 'Done.' } }] };
      return { toolCalls: [{ name: 'new_answer', input: { content: 'The writer ran its command.' } }] };
    }
    if (text.includes(REVIEWER)) {
      if (!ran(req)) return { toolCalls: [{ name: 'execute_command', input: { command: REVIEWER_CMD } }] };
      if (showsAnswerOf(req, 'agent1')) return { toolCalls: [{ name: 'vote', input: { agent_id: 'agent1', reason: 'Fine.' } }] };
      await until(() => api.runs.latest && api.runs.latest.state.answers.some((a) => a.label.startsWith('agent1.')), 90000, "agent1's answer");
      return { toolCalls: [{ name: 'list_directory', input: { path: '.' } }] };
    }
    return undefined;
  };
}

/** The approval prompts in the notification center (other notifications left out). */
const approvalPrompts = async () => (await notificationTexts()).filter((t) => t.includes('wants to run'));

describe('Command approvals: one queue, in the notification and the vote viewer', function () {
  this.timeout(240000);

  workspaceRunHooks({ activated: (a) => (api = a), commands: true });

  it('two agents ask at once: one notification, both in the viewer; Allow there runs it, Deny in the notification refuses', async function () {
    if (!runnerAvailable) this.skip();
    await fakeLm.configure({ handler: handler() });
    const instruction = 'Both agents run a command';
    const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction, folder: vscode.workspace.workspaceFolders[0].uri });
    const run = await until(() => api.runs.latest && api.runs.latest.title.startsWith(instruction) && api.runs.latest, 30000, 'the workspace run');
    // Both agents' first requests are their commands: once both went out, both wait for the user.
    await until(async () => {
      const reqs = await fakeLm.requests();
      return byRole(reqs, WRITER).length >= 1 && byRole(reqs, REVIEWER).length >= 1;
    }, 60000, 'both agents to ask to run a command');
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });

    // The viewer: each waiting command in its agent's column, with the three answers; the status reads so.
    const shown = await until(async () => {
      const r = await webview('.approval', { property: 'innerText', timeoutMs: 2000 });
      return r.values.length === 2 && r.values;
    }, 60000, 'the two waiting approvals in the viewer');
    log('viewer approvals:', JSON.stringify(shown));
    const writerBox = shown.find((t) => t.includes('writer (agent1) waits for your approval'));
    const reviewerBox = shown.find((t) => t.includes('reviewer (agent2) waits for your approval'));
    assert.ok(writerBox && writerBox.includes(WRITER_CMD), `the writer's column shows its command: ${JSON.stringify(shown)}`);
    assert.ok(reviewerBox && reviewerBox.includes(REVIEWER_CMD), `the reviewer's column shows its command: ${JSON.stringify(shown)}`);
    assert.ok(writerBox.includes(folderName()), 'the viewer names the folder');
    for (const name of ['Allow: writer (agent1)', 'Allow for this run: writer (agent1)', 'Deny: writer (agent1)', 'Deny: reviewer (agent2)']) {
      const b = await webview(`[aria-label="${name}"]`, { property: 'aria-label', timeoutMs: 5000 });
      assert.strictEqual(b.values.length, 1, `the viewer offers "${name}"`);
    }
    const badges = await until(async () => {
      const r = await webview('.agent .badge', { property: 'innerText', timeoutMs: 2000 });
      return r.values.filter((t) => t.includes('waiting for approval')).length === 2 && r.values;
    }, 20000, 'both agents to read "waiting for approval"');
    assert.ok(!badges.some((t) => /streaming/.test(t)), `no waiting agent reads streaming: ${JSON.stringify(badges)}`);

    // One notification for the queue, naming the agent and the folder.
    const prompts = await approvalPrompts();
    log('prompts:', JSON.stringify(prompts));
    assert.strictEqual(prompts.length, 1, `one approval notification at a time: ${JSON.stringify(prompts)}`);
    assert.match(prompts[0], /(writer \(agent1\)|reviewer \(agent2\)) wants to run/);
    assert.ok(prompts[0].includes(folderName()), `the notification names the folder: ${prompts[0]}`);

    // The status bar counts them.
    await until(async () => (await statusItems()).some((t) => t.includes('MassGen · 2 approvals waiting')), 20000, 'the status bar to count 2 approvals');
    await screenshot('approvals-two-waiting', { fullPage: true });

    // Allow the writer's command in the viewer: it runs; the reviewer's request is then the one left.
    assert.ok(await clickInViewer('Allow: writer (agent1)'), 'clicked Allow in the writer\u2019s column');
    await until(async () => byRole(await fakeLm.requests(), WRITER).map(requestText).join('\n').includes(WRITER_OUT), 60000, 'the writer\u2019s command to run');
    await until(async () => (await statusItems()).some((t) => t.includes('MassGen · 1 approval waiting')), 20000, 'the status bar to count 1 approval');
    const left = await until(async () => {
      const r = await webview('.approval', { property: 'innerText', timeoutMs: 2000 });
      return r.values.length === 1 && r.values;
    }, 20000, 'one waiting approval in the viewer');
    assert.ok(left[0].includes('reviewer (agent2)'), `the reviewer's request is left: ${JSON.stringify(left)}`);
    await until(async () => (await approvalPrompts()).some((t) => t.includes('reviewer (agent2) wants to run')), 20000, 'the notification for the reviewer\u2019s request');

    // Deny it in the notification: the reviewer is told, as before, and the run ends.
    await clickNotificationButton('reviewer (agent2) wants to run', 'Deny');
    const result = await run.result;
    await running;
    assert.strictEqual(result.reason, 'consensus');
    const reviewerSeen = byRole(await fakeLm.requests(), REVIEWER).map(requestText).join('\n');
    assert.ok(reviewerSeen.includes(DENIED), `the reviewer got the refusal:\n${reviewerSeen.slice(-800)}`);
    assert.ok(!reviewerSeen.includes(REVIEWER_OUT), 'the reviewer\u2019s command did not run');
    assert.deepStrictEqual(api.runs.approvals.pending, [], 'nothing waits after the run');
    await until(async () => !(await statusItems()).some((t) => t.includes('approval')), 20000, 'the status bar to stop counting');
  });
});

// Agents' commands in real VS Code: with `massgen.commands.enabled`, agents in a workspace run get execute_command,
// and every command waits for the user's answer in a warning notification (Allow / Allow for this run / Deny).
// The command runs sandboxed in the agent's copy; a denied one comes back to the model as a tool result saying so.
'use strict';
const path = require('path');
const vscode = require('vscode');
const { assert, log, until, fakeLm, screenshot, webview, runnerAvailable, offers, requestText, clickNotificationButton, notificationTexts, copiesEntries } = require('./helpers');
const { teamHandler, writerRequests, writerText, workspaceRunHooks } = require('./workspace-team');

// What the commands print is not in their text: seeing it means the command ran.
const SIX_BY_SEVEN = `python3 -c "print('six times seven is', 6*7)" && pwd && ls`;
const SIX_BY_SEVEN_OUT = 'six times seven is 42';
const SEVEN_BY_SIX = `python3 -c "print('seven times six is', 7*6)"`;
const SEVEN_BY_SIX_OUT = 'seven times six is 42';
const DENIED = 'the user did not approve this command, so it did not run';

let api;
const root = () => vscode.workspace.workspaceFolders[0].uri.fsPath;

/** Starts a workspace run whose writer runs `commands` one by one, then answers; returns { running, run }. */
async function startRun(instruction, commands) {
  await fakeLm.configure({
    handler: teamHandler({ api, answer: `Ran ${commands.length} command(s); see the tool results.`, steps: commands.map((command) => ({ name: 'execute_command', input: { command } })) }),
  });
  const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction, folder: vscode.workspace.workspaceFolders[0].uri });
  const run = await until(() => api.runs.latest && api.runs.latest.title.startsWith(instruction) && api.runs.latest, 30000, 'the workspace run');
  return { running, run };
}

describe('Agents\u2019 commands in real VS Code (massgen.commands.enabled)', function () {
  this.timeout(180000);

  workspaceRunHooks({ activated: (a) => (api = a), commands: true });

  it('Deny: the command does not run and the model is told so', async function () {
    if (!runnerAvailable) this.skip();
    const { running, run } = await startRun('Check the arithmetic (deny)', [SIX_BY_SEVEN]);
    const message = await clickNotificationButton('print(', 'Deny', { screenshotName: 'command-approval-notification' });
    log('approval prompt:', message.replace(/\s+/g, ' '));
    assert.match(message, /writer \(agent1\) wants to run/);
    assert.ok(message.includes(SIX_BY_SEVEN), 'the prompt shows the command');
    for (const button of ['Allow', 'Allow for this run', 'Deny']) assert.ok(message.includes(button), `the prompt offers ${button}`);
    const result = await run.result;
    await running;
    assert.strictEqual(result.reason, 'consensus');

    const requests = await fakeLm.requests();
    assert.ok(writerRequests(requests).every((r) => offers(r, 'execute_command')), 'agents in a workspace run are offered execute_command');
    const seen = writerText(requests);
    assert.ok(seen.includes(DENIED), `the next request carries the refusal as the tool result:\n${seen.slice(-800)}`);
    assert.ok(!requests.some((r) => requestText(r).includes(SIX_BY_SEVEN_OUT)), 'the command did not run');
    assert.strictEqual(run.state.agents[0].toolUse.execute_command && run.state.agents[0].toolUse.execute_command.calls, 1);
  });

  it('Allow: the command runs in the agent\u2019s copy and its output reaches the model', async function () {
    if (!runnerAvailable) this.skip();
    const { running, run } = await startRun('Check the arithmetic (allow)', [SIX_BY_SEVEN]);
    await clickNotificationButton(SIX_BY_SEVEN, 'Allow');
    const result = await run.result;
    await running;
    assert.strictEqual(result.reason, 'consensus');
    const seen = writerText(await fakeLm.requests());
    assert.ok(seen.includes(SIX_BY_SEVEN_OUT), `the output reached the model:\n${seen.slice(-800)}`);
    assert.match(seen, /exit code 0/);
    // `pwd` and `ls`: it ran in the agent's copy of the workspace (in the extension's storage), not in the folder.
    const pwd = new RegExp(`^(/.*/${run.id}/agent1)$`, 'm').exec(seen);
    assert.ok(pwd, `pwd is the agent's copy:\n${seen.slice(-800)}`);
    assert.notStrictEqual(pwd[1], root());
    assert.ok(/^sample\.py$/m.test(seen) && /^notes\.txt$/m.test(seen), 'ls lists the copy of the workspace');
    assert.ok(!copiesEntries(api.logUri).some((p) => path.basename(p) === run.id), 'the copy is gone after the run');
  });

  it('Allow for this run: a second command of the run does not ask again', async function () {
    if (!runnerAvailable) this.skip();
    const { running, run } = await startRun('Check the arithmetic (allow for the run)', [SIX_BY_SEVEN, SEVEN_BY_SIX]);
    await clickNotificationButton(SIX_BY_SEVEN, 'Allow for this run');
    // Every command asks unless allowed for the run: the second one finishing without a click means it did not ask.
    await until(async () => writerText(await fakeLm.requests()).includes(SEVEN_BY_SIX_OUT), 60000, 'the second command to run without a prompt');
    const shown = await notificationTexts();
    assert.ok(!shown.some((t) => t.includes('7*6')), `no prompt for the second command: ${JSON.stringify(shown)}`);
    const result = await run.result;
    await running;
    assert.strictEqual(result.reason, 'consensus');
    const seen = writerText(await fakeLm.requests());
    assert.ok(seen.includes(SIX_BY_SEVEN_OUT) && seen.includes(SEVEN_BY_SIX_OUT), 'both commands ran');
    assert.strictEqual(run.state.agents[0].toolUse.execute_command.calls, 2);
    // The viewer shows the commands in the writer's column.
    const viewer = await until(async () => {
      const body = await webview('body', { property: 'innerText', timeoutMs: 2000 });
      const text = body.values.join('\n');
      return text.includes('Check the arithmetic (allow for the run)') && (text.match(/execute_command/g) || []).length >= 2 && text;
    }, 20000, 'the vote viewer to show both commands');
    log('viewer:', viewer.replace(/\s+/g, ' ').slice(0, 600));
    await screenshot('command-allowed-for-run');

    // "For this run" ends with the run: the next run asks again.
    const next = await startRun('Check the arithmetic (a new run asks again)', [SEVEN_BY_SIX]);
    await clickNotificationButton('7*6', 'Deny');
    await next.run.result;
    await next.running;
    const last = writerRequests(await fakeLm.requests()).pop();
    assert.ok(requestText(last).includes(DENIED), 'the new run asked, and was denied');
  });
});

// Follow-ups to @massgen in the chat view: the previous exchange goes to the agents as the run's continuation (the
// <PREVIOUS RUN> block of the engine's task, as `massgen run --continue` gives it), but the vote viewer shows the
// user's own words as the run's task; a turn that produced no answer is not continued.
'use strict';
const vscode = require('vscode');
const { assert, EXTENSION_ID, log, until, waitForFakeModel, fakeLm, screenshot, webview, playwright } = require('./helpers');

const FRANCE = 'Paris is the capital of France.';
const ITALY = 'Rome is the capital of Italy.';

/**
 * Sends `@massgen <prompt>` in the chat view and waits for a response matching `done`, which must be unique to this
 * turn (the chat list is virtualised and measures rows with copies: turns are found by content, not position).
 */
async function ask(prompt, done) {
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@massgen ${prompt}` });
  return playwright(async ({ page, screenshot }, a) => {
    const response = page.locator('.interactive-response').filter({ hasText: new RegExp(a.done) }).first();
    try {
      await response.waitFor({ state: 'attached', timeout: 60000 });
    } catch (err) {
      await screenshot('chat-ask-timeout');
      throw new Error(`no response matching /${a.done}/ to "${a.prompt}": ${err.message}`);
    }
    return response.textContent();
  }, { done: done.source, prompt }, 90000);
}

/** The engine tasks (the first user message of each request) the fake model got since `from`. */
async function tasksSince(from) {
  return (await fakeLm.requests()).slice(from).map((r) => r.messages.map((m) => m.text).join('\n'));
}

describe('@massgen follow-ups', function () {
  this.timeout(180000);
  let api;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
    await vscode.workspace.getConfiguration('massgen').update('agents', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    // A notification center left open by an earlier test file covers the follow-up buttons this file clicks.
    await vscode.commands.executeCommand('notifications.hideList');
  });

  after(async () => {
    await fakeLm.reset();
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  it('a turn without an answer is not history; a follow-up gets the previous answer, and the viewer shows its words as the TASK', async () => {
    await fakeLm.configure({ error: 'NoPermissions' });
    const failed = await ask('What is the capital of Spain?', /No answer: Every agent failed/);
    log('failed turn:', failed.replace(/\s+/g, ' ').slice(0, 300));
    await fakeLm.reset();
    // An answer per question: the fake model answers while its answer is not yet in the conversation, and a
    // follow-up carries the previous answer.
    await fakeLm.configure({ answer: (req) => (req.messages.some((m) => m.text.includes('Italy')) ? ITALY : FRANCE) });

    let seen = (await fakeLm.requests()).length;
    await ask('What is the capital of France?', /Paris is the capital[\s\S]*Open vote viewer/);
    const second = await tasksSince(seen);
    assert.ok(second.length > 0, 'the second question reached the model');
    assert.ok(second.every((t) => !t.includes('<PREVIOUS RUN>') && !t.includes('capital of Spain')), `the failed turn is not fed back:\n${second[0].slice(0, 600)}`);

    seen = (await fakeLm.requests()).length;
    await ask('And of Italy?', /Rome is the capital[\s\S]*Open vote viewer/);
    const third = await tasksSince(seen);
    assert.ok(third[0].includes('<PREVIOUS RUN>'), `the follow-up continues the previous exchange:\n${third[0].slice(0, 600)}`);
    assert.ok(third[0].includes(`Question: What is the capital of France?\nFinal answer:\n${FRANCE}`), `with its question and answer:\n${third[0].slice(0, 600)}`);
    assert.ok(third[0].includes('Follow-up: And of Italy?'), `then the follow-up:\n${third[0].slice(0, 600)}`);

    const run = api.runs.latest;
    assert.ok(run.state.question.startsWith('<PREVIOUS RUN>'), 'the engine\u2019s task is kept as it is');
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    const task = await until(async () => {
      const t = await webview('.task-title', { timeoutMs: 5000 });
      return t.found && t.values.join('') === 'And of Italy?' && t.values.join('');
    }, 15000, 'the viewer\u2019s TASK to show the user\u2019s words').catch(async (err) => {
      throw new Error(`${err.message}: ${JSON.stringify((await webview('.task-title', { timeoutMs: 1000 })).values)}`);
    });
    assert.strictEqual(task, 'And of Italy?');
    await screenshot('chat-follow-up-task');
  });

  it('"Explain the vote" and "Which agents ran?" answer from the run\u2019s record, without a new run', async () => {
    const before = (await fakeLm.requests()).length;
    const runs = api.runs.latest;
    const clickFollowup = (label) => playwright(async ({ page }, name) => {
      const link = page.locator('.interactive-session').getByText(name, { exact: true }).last();
      await link.waitFor({ timeout: 20000 });
      await link.click();
    }, label);
    await clickFollowup('Explain the vote');
    // The chat renders a response progressively: wait for its last part, then read it whole.
    const explained = await playwright(async ({ page }) => {
      const r = page.locator('.interactive-response').filter({ hasText: /won: 3 votes[\s\S]*agrees with this answer/ }).first();
      await r.waitFor({ state: 'attached', timeout: 30000 });
      return r.textContent();
    });
    assert.match(explained, /agent1\.1\*{0,2}.*won: 3 votes/);
    assert.match(explained, /The fake test model agrees with this answer/, 'each vote\u2019s reason');
    await clickFollowup('Which agents ran?');
    const ran = await playwright(async ({ page }) => {
      const r = page.locator('.interactive-response').filter({ hasText: /3 agents ran[\s\S]*careful reviewer/ }).first();
      await r.waitFor({ state: 'attached', timeout: 30000 });
      return r.textContent();
    });
    await screenshot('chat-which-agents-ran');
    assert.match(ran, /massgen-fake\/fake-agent via vscode-lm, persona: You are a careful reviewer/);
    assert.strictEqual((await fakeLm.requests()).length, before, 'no model was asked');
    assert.strictEqual(api.runs.latest, runs, 'no new run');
  });
});

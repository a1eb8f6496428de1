// The human in the loop in real VS Code, on Run on Selection against the fake OpenAI-compatible server: a note typed in
// the vote viewer, and an @massgen chat message sent while the run is going, reach a later request of each agent's
// model; a note sent during the final vote turns still reaches both (they vote again having seen it); Answer now (the
// viewer's button, and the command palette's MassGen: Answer Now) ends the run at once with the best current answer,
// and the winner's diff opens.
'use strict';
const vscode = require('vscode');
const { assert, EXTENSION_ID, log, until, screenshot, webview, playwright, clickInViewer, clearNotifications, notificationTexts, waitForFakeModel } = require('./helpers');
const fakes = require('../out/fakes.js');
const { WINNER, LOSER, setAgents, team, openSample, previewTab, closeAll } = require('./selection-run');

/**
 * Holds the replies `which(model, n)` picks (n: that model's n-th request, 1-based) until `release()`: the test, not
 * a delay, decides when they go, so a note sent meanwhile arrives while they are being decided on any machine.
 */
function held(base, which) {
  const count = new Map();
  let open;
  const gate = new Promise((resolve) => (open = resolve));
  const handler = async (request) => {
    const model = request.body.model;
    count.set(model, (count.get(model) || 0) + 1);
    if (which(model, count.get(model))) await gate;
    return base(request);
  };
  return { handler, release: () => open() };
}

/** alpha answers WINNER, beta LOSER, both vote for agent1. */
const script = () => fakes.coordinationScript({ m1: { answer: WINNER, voteFor: 'agent1' }, m2: { answer: LOSER, voteFor: 'agent1' } });

/** beta's first reply never comes (it stays mid-request until the run ends). */
const betaNeverReplies = () => held(script(), (model, n) => model === 'm2' && n === 1).handler;

const text = (messages) => messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content || ''))).join('\n');

/** Types `note` into the vote viewer's box to every agent and sends it with its button. */
function typeNoteInViewer(note) {
  return playwright(async ({ webviewFrames, sleep }, a) => {
    for (let i = 0; i < 100; i++) {
      for (const frame of await webviewFrames()) {
        const input = await frame.$('.run-header .note-box:not([hidden]) textarea');
        if (!input) continue;
        await input.fill(a.note);
        await (await frame.$('[aria-label="Send the note to every agent"]:not([disabled])')).click();
        return true;
      }
      await sleep(150);
    }
    throw new Error('no note box in the vote viewer');
  }, { note });
}

describe('Notes and Answer now (Run on Selection)', function () {
  this.timeout(150000);
  let api;
  let server;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
  });

  /** The run started after `before` (the latest run until then), once it has its first answer. */
  const firstAnswerOfNewRun = (before) =>
    until(() => {
      const run = api.runs.latest;
      return run && run !== before && run.state.answers.length > 0 && run;
    }, 20000, 'the first answer of the new run');

  /** A selection run whose beta never replies, once alpha's first answer is in. */
  const untilFirstAnswer = async () => {
    server = await fakes.startFakeOpenAI(betaNeverReplies());
    await setAgents(team(server.baseUrl));
    await openSample();
    const before = api.runs.latest;
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    return { running, run: await firstAnswerOfNewRun(before) };
  };

  beforeEach(() => clearNotifications());

  afterEach(async () => {
    if (api.runs.active.length) await vscode.commands.executeCommand('massgen.cancelRun');
    if (server) await server.close();
    server = undefined;
    await closeAll();
  });

  after(async () => {
    await setAgents(undefined);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  it('a note typed in the viewer and an @massgen message sent while the run goes reach a later request of each agent', async () => {
    // The first replies wait until both notes are in, however long the chat takes to hand @massgen the message.
    const first = held(script(), (_model, n) => n === 1);
    server = await fakes.startFakeOpenAI(first.handler);
    await setAgents(team(server.baseUrl));
    await openSample();
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    await until(() => server.chatRequests().length >= 2, 15000, 'both agents requesting');
    const run = api.runs.latest;
    const fromViewer = 'Please keep the function signature exactly as it is.';
    const fromChat = 'Also mention the return type in the docstring.';

    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id, preserveFocus: true });
    await typeNoteInViewer(fromViewer);
    await until(() => run.state.notes.length === 1, 10000, 'the viewer\u2019s note to reach the run');
    const marker = await until(async () => {
      const r = await webview('.tl-note', { property: 'aria-label', timeoutMs: 3000 });
      return r.found && r.values.join('\n');
    }, 10000, 'the note on the viewer\u2019s timeline');
    assert.match(marker, /Your note: Please keep the function signature/);
    await screenshot('notes-viewer-note-sent');

    // The chat view is idle (the run was started from the editor), so VS Code hands @massgen the message at once.
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@massgen ${fromChat}` });
    const reply = await playwright(async ({ page }) => {
      const r = page.locator('.interactive-response').filter({ hasText: /as a note/ }).first();
      await r.waitFor({ state: 'attached', timeout: 30000 });
      return r.textContent();
    }, null, 60000);
    log('chat reply:', reply.replace(/\s+/g, ' ').slice(0, 300));
    assert.match(reply, /still working on[\s\S]*went to its 2 agents as a note/);
    await screenshot('notes-chat-note-sent');

    first.release();
    await running;
    assert.deepStrictEqual(run.state.notes.map((n) => [n.text, n.agentIds, n.changesTask]), [
      [fromViewer, ['alpha', 'beta'], false],
      [fromChat, ['alpha', 'beta'], false],
    ]);
    const requests = server.chatRequests();
    for (const model of ['m1', 'm2']) {
      const own = requests.filter((q) => q.body.model === model);
      assert.ok(!text(own[0].body.messages).includes(fromViewer), `${model}'s first request went out before the notes`);
      const later = own.slice(1).map((q) => text(q.body.messages));
      assert.ok(later.some((t) => t.includes(`NOTE FROM THE USER (take it into account from now on):\n- ${fromViewer}`)), `${model} got the viewer's note`);
      assert.ok(later.some((t) => t.includes(fromChat)), `${model} got the chat's note`);
    }
    assert.deepStrictEqual(run.state.notes.map((n) => [...n.deliveredTo].sort()), [['alpha', 'beta'], ['alpha', 'beta']], 'both delivered to both');
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    const listed = await until(async () => {
      const r = await webview('.notes-list .note-text', { timeoutMs: 3000 });
      return r.values.length >= 4 && r.values;
    }, 10000, 'each column to list both notes');
    assert.ok(listed.includes(fromViewer) && listed.includes(fromChat), JSON.stringify(listed));
    await screenshot('notes-columns-after-run');
  });

  it('a note sent while every agent casts its final vote reaches them: they vote again having seen it, and after Done no note reads "not yet delivered"', async () => {
    // Each model's second request is its vote: held until the note is in, so it goes out while both votes are decided.
    const votes = held(script(), (_model, n) => n === 2);
    server = await fakes.startFakeOpenAI(votes.handler);
    await setAgents(team(server.baseUrl));
    await openSample();
    const before = api.runs.latest;
    const running = vscode.commands.executeCommand('massgen.runOnSelection', { instruction: 'Add a docstring' });
    const voting = (model) => server.chatRequests().filter((q) => q.body.model === model).length >= 2;
    await until(() => voting('m1') && voting('m2'), 30000, 'both agents deciding their votes');
    const run = api.runs.latest;
    assert.notStrictEqual(run, before);
    const late = 'Do not change the function body at all.';
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id, preserveFocus: true });
    await typeNoteInViewer(late);
    await until(() => run.state.notes.length === 1, 10000, 'the note to reach the run');
    const sentAt = run.state.notes[0].t;
    votes.release();
    await running;

    assert.strictEqual(run.state.endReason, 'consensus');
    const note = run.state.notes[0];
    assert.deepStrictEqual([...note.deliveredTo].sort(), ['alpha', 'beta'], 'delivered to both agents');
    assert.strictEqual(note.undelivered, undefined);
    const counted = run.state.votes.filter((v) => !v.stale);
    assert.strictEqual(counted.length, 2);
    assert.ok(counted.every((v) => v.t > sentAt), 'the votes that decided were cast after the note');
    assert.ok(run.state.votes.some((v) => v.stale && /note/.test(v.staleReason || '')), 'the votes cast before seeing it were set aside');
    for (const model of ['m1', 'm2']) {
      const own = server.chatRequests().filter((q) => q.body.model === model);
      assert.ok(!text(own[1].body.messages).includes(late), `${model}'s vote request went out before the note`);
      assert.ok(own.slice(2).some((q) => text(q.body.messages).includes(`NOTE FROM THE USER (take it into account from now on):\n- ${late}`)), `${model}'s model saw the note`);
    }
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    const metas = await until(async () => {
      const phase = (await webview('.phase', { property: 'innerText', timeoutMs: 3000 })).values.join('');
      const r = await webview('.notes-list .note-meta', { property: 'innerText', timeoutMs: 3000 });
      return /Done/.test(phase) && r.values.length >= 2 && r.values;
    }, 15000, 'both columns to list the note after Done');
    await screenshot('notes-late-note-delivered');
    assert.ok(metas.every((m) => /^delivered/.test(m) && !/not yet delivered/.test(m)), JSON.stringify(metas));
  });

  it('a note the run ends before (Answer now) says it was not delivered, and "Continue with this note" starts a follow-up with it', async () => {
    const { run, running } = await untilFirstAnswer();
    // alpha waits for beta's answer and beta never replies: neither reaches a boundary before Answer now.
    const late = 'Mention the parameter types too.';
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id, preserveFocus: true });
    await typeNoteInViewer(late);
    await until(() => run.state.notes.length === 1, 10000, 'the note to reach the run');
    assert.strictEqual(await clickInViewer('Answer now', 15000), true);
    await running;
    const note = run.state.notes[0];
    assert.deepStrictEqual(note.deliveredTo, []);
    assert.deepStrictEqual(note.undelivered && [[...note.undelivered.agentIds].sort(), note.undelivered.reason], [['alpha', 'beta'], 'user_stop']);
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    const metas = await until(async () => {
      const r = await webview('.notes-list .note-meta', { property: 'innerText', timeoutMs: 3000 });
      return r.values.length >= 2 && r.values;
    }, 15000, 'both columns to list the note');
    await screenshot('notes-undelivered-continue');
    assert.ok(metas.every((m) => /not delivered: you asked for the answer now first/.test(m)), JSON.stringify(metas));

    const requestsBefore = server.chatRequests().length;
    assert.strictEqual(await clickInViewer('Continue with this note: a follow-up run with it', 15000), true);
    const next = await until(() => api.runs.latest !== run && api.runs.latest, 20000, 'the follow-up run to start');
    assert.strictEqual(api.runs.promptOf(next.id), late);
    const first = await until(() => server.chatRequests().slice(requestsBefore)[0], 20000, 'the follow-up\u2019s first request');
    const sent = text(first.body.messages);
    assert.match(sent, /<PREVIOUS RUN>/, 'it follows up on the run it came from');
    assert.ok(sent.includes(`Follow-up: ${late}`), sent.slice(0, 400));
    await vscode.commands.executeCommand('massgen.cancelRun');
    await next.result.catch(() => undefined);
  });

  it('Answer now in the viewer ends the run at once with the best current answer, and the diff opens', async () => {
    const { run, running } = await untilFirstAnswer();
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id, preserveFocus: true });
    await screenshot('notes-answer-now-offered');
    assert.strictEqual(await clickInViewer('Answer now', 15000), true, 'the viewer offers Answer now once there is an answer');
    await running;
    assert.strictEqual(run.state.endReason, 'user_stop');
    assert.strictEqual(run.state.winner.label, 'agent1.1');
    await until(() => previewTab(), 15000, 'the winner\u2019s diff to open');
    const told = (await notificationTexts()).join('\n');
    assert.match(told, /you asked for the answer now/, told);
    const phase = await until(async () => {
      const p = (await webview('.phase', { property: 'innerText', timeoutMs: 3000 })).values.join('');
      return /Answered now/.test(p) && p;
    }, 10000, 'the viewer to say the run was answered now');
    assert.match(phase, /Done · Answered now/);
    assert.ok(!(await webview('.answer-now:not([hidden])', { timeoutMs: 500 })).found, 'no Answer now once the run ended');
    await screenshot('notes-answered-now-diff');
    const slow = server.chatRequests().filter((q) => q.body.model === 'm2');
    assert.strictEqual(await slow[0].outcome, 'client_closed', 'the slow stream was stopped');
  });

  it('MassGen: Answer Now from the command palette does the same; with no run going it says so', async () => {
    const { run, running } = await untilFirstAnswer();
    const offered = await until(async () => {
      const items = await playwright(async ({ page, sleep }) => {
        await page.keyboard.press('F1');
        await sleep(300);
        await page.keyboard.type('MassGen: Answer Now');
        await sleep(500);
        return page.locator('.quick-input-widget .monaco-list-row').allInnerTexts();
      });
      if (!items.some((t) => /MassGen: Answer Now/.test(t))) {
        await playwright(async ({ page }) => page.keyboard.press('Escape'));
        return false;
      }
      return items;
    }, 15000, 'the palette to offer MassGen: Answer Now while a run is going');
    log('palette:', offered.join(' | ').slice(0, 200));
    await playwright(async ({ page }) => page.keyboard.press('Enter'));
    await running;
    assert.strictEqual(run.state.endReason, 'user_stop');
    await until(() => previewTab(), 15000, 'the winner\u2019s diff to open');

    await clearNotifications();
    await vscode.commands.executeCommand('massgen.answerNow');
    const told = await until(async () => {
      const t = (await notificationTexts()).join('\n');
      return /no run in progress/.test(t) && t;
    }, 10000, 'a word that nothing is going');
    assert.match(told, /MassGen: Answer now: no run in progress\./);
  });
});

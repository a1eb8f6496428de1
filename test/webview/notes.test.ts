// The human in the loop in the vote viewer: what it derives from the run's notes (Node), then in real Chromium the
// note box to every agent and to one (keyboard only), the "this changes the task" choice, a refused note keeping its
// text, hostile text staying text, the notes in the timeline and the columns, Answer now, and screenshots.

import assert from 'node:assert/strict';
import type { RunEvent, RunEventBody } from '../../src/core/engine/events';
import { reduceEvents } from '../../src/core/engine/run-state';
import { reduceView } from '../../src/protocol/state';
import { RunHistory } from '../../src/host/viewer/history';
import { answerNow, canNote, noteArrived, notesFor } from '../../webview/notes-derive';
import { eventually } from '../helpers/eventually';
import { describeInChromium, MemoryFs, replay, useViewerRig } from './harness';
import { midRun, renumber } from './scenarios';
import type { ThemeName } from './themes';

/** `events` then `bodies`, numbered on and timed after the last event. */
function extend(events: RunEvent[], bodies: RunEventBody[]): RunEvent[] {
  const t = events[events.length - 1].t;
  return renumber([...events, ...bodies.map((b, i) => ({ ...b, seq: 0, t: t + 100 * (i + 1) }) as RunEvent)]);
}

describe('vote viewer (webview logic): notes and Answer now', () => {
  let mid: RunEvent[];
  before(async () => {
    mid = (await midRun()).events;
  });

  it('an agent\u2019s notes: those to every agent and those to it alone, each delivered or not', () => {
    const s0 = reduceEvents(mid);
    const [a, b] = s0.agents.filter((x) => x.status !== 'failed').map((x) => x.id);
    const live = s0.agents.filter((x) => x.status !== 'failed').map((x) => x.id);
    const s = reduceEvents(
      extend(mid, [
        { type: 'note_added', noteId: 'note1', text: 'Use metric units.', agentIds: live, changesTask: false },
        { type: 'note_added', noteId: 'note2', text: 'Only b: shorter.', agentIds: [b], changesTask: true },
        { type: 'note_delivered', noteId: 'note1', agentId: a, via: 'next_turn' },
      ]),
    );
    assert.deepEqual(
      notesFor(s, a).map((n) => [n.id, n.toAll, n.delivered, n.changesTask]),
      [['note1', true, true, false]],
    );
    assert.deepEqual(
      notesFor(s, b).map((n) => [n.id, n.toAll, n.delivered, n.changesTask]),
      [
        ['note1', true, false, false],
        ['note2', false, false, true],
      ],
    );
    // The page's sent note arrives: matched as the engine keeps it (trimmed), after the notes it had seen.
    assert.equal(noteArrived(s, 0, '  Use metric units.\n'), true);
    assert.equal(noteArrived(s, 1, 'Use metric units.'), false, 'an earlier note with the same words is not this one');
    assert.equal(noteArrived(s, 0, 'Only b: shorter.', b), true);
    assert.equal(noteArrived(s, 0, 'Use metric units.', b), false, 'a column\u2019s box waits for a note to its agent alone');
  });

  it('a note that can reach an agent no more says why, for that agent only', () => {
    const live = reduceEvents(mid).agents.filter((x) => x.status !== 'failed').map((x) => x.id);
    const [a, b] = live;
    const s = reduceEvents(
      extend(mid, [
        { type: 'note_added', noteId: 'note1', text: 'Never use recursion.', agentIds: live, changesTask: false },
        { type: 'note_delivered', noteId: 'note1', agentId: a, via: 'tool_result' },
        { type: 'note_undelivered', noteId: 'note1', agentIds: live.filter((id) => id !== a), reason: 'cancelled' },
      ]),
    );
    assert.deepEqual(notesFor(s, a).map((n) => [n.delivered, n.missed]), [[true, undefined]]);
    assert.deepEqual(notesFor(s, b).map((n) => [n.delivered, n.missed]), [[false, 'the run was cancelled first']]);
  });

  it('the note box and Answer now: while agents work in a live run; Answer now once there is an answer', () => {
    const s = reduceEvents(mid);
    const failed = s.agents.find((x) => x.status === 'failed')!.id;
    const live = s.agents.find((x) => x.status !== 'failed')!.id;
    assert.equal(canNote(s, false), true);
    assert.equal(canNote(s, true), false, 'a past run is read-only');
    assert.equal(canNote(s, false, live), true);
    assert.equal(canNote(s, false, failed), false, 'not to a failed agent');
    assert.equal(canNote(s, false, 'nobody'), false);
    assert.equal(canNote({ ...s, phase: 'presenting' }, false), false, 'the final answer is being written: nobody would read it');
    assert.equal(canNote({ ...s, phase: 'done' }, false), false);
    assert.equal(canNote({ phase: 'idle', agents: [] }, false), true, 'before the first event: it goes out as the run starts');
    assert.deepEqual(answerNow(s, false).enabled, true);
    const none = answerNow({ phase: 'coordinating', answers: [] }, false);
    assert.deepEqual([none.shown, none.enabled], [true, false]);
    assert.match(none.title, /there is none yet/);
    assert.equal(answerNow({ ...s, phase: 'done' }, false).shown, false);
    assert.equal(answerNow(s, true).shown, false);
  });
});

describeInChromium('vote viewer in Chromium: notes and Answer now', function () {
  this.timeout(90_000);
  const rig = useViewerRig();
  const { harness, open } = rig;
  let mid: RunEvent[];

  before(async () => {
    mid = (await midRun()).events;
  });

  const HOSTILE = 'Use metric units <img src="/leak-note" onerror="window.__pwned=1"> **not bold**';

  it('a note to every agent, by keyboard only: it reaches the run, shows in the timeline and every live column, and stays text', async () => {
    const h = await harness();
    const run = h.source.start('run-notes', 'Notes', mid.slice(0, 1));
    await replay(run, mid.slice(1));
    const p = await open(h, { theme: 'dark', surface: 'panel', width: 1280 });
    const { page } = p;
    const box = page.locator('.run-header .note-box');
    assert.equal(await box.isVisible(), true, 'the header has a note box while agents work');
    const input = box.locator('textarea');
    assert.equal(await input.getAttribute('aria-label'), 'Note to every agent');
    const send = box.locator('vscode-button.note-send');
    assert.equal(await send.getAttribute('disabled'), '', 'nothing to send yet');

    // Keyboard only: Tab into the box, type, Tab to the choice, Space, back to the text, Ctrl+Enter.
    await input.focus();
    await page.keyboard.type(HOSTILE);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'checkbox', 'the choice is next in Tab order');
    await page.keyboard.press('Space');
    assert.equal(await box.locator('[role="checkbox"]').getAttribute('aria-checked'), 'true');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Control+Enter');
    const sent = await p.waitFor((m) => m.type === 'note');
    assert.deepEqual(sent, { v: 1, type: 'note', runId: 'run-notes', text: HOSTILE, changesTask: true });
    assert.deepEqual(run.notes, [{ text: HOSTILE, agentId: undefined, changesTask: true }]);
    await p.settle();
    assert.equal(await input.inputValue(), '', 'the box is cleared once the note came back as an event');
    assert.equal(await box.locator('[role="checkbox"]').getAttribute('aria-checked'), 'false', 'and the choice is reset');
    assert.match(await box.locator('.note-status').innerText(), /Sent: each agent gets it at its next turn or tool result/);

    // The timeline's run lane has it (aria and tooltip carry the text).
    const marker = page.locator('.tl-note');
    assert.equal(await marker.count(), 1);
    assert.match((await marker.getAttribute('aria-label')) ?? '', /Your note \(changes the task\): Use metric units <img/);
    // Every live column lists it; none of it became markup.
    const live = run.state.agents.filter((a) => a.status !== 'failed').map((a) => a.id);
    for (const id of live) {
      const note = page.locator(`article.agent[data-agent="${id}"] .notes-list .note`);
      assert.equal(await note.count(), 1, `${id} lists the note`);
      assert.equal(await note.locator('.note-text').textContent(), HOSTILE);
      assert.match((await note.locator('.note-meta').textContent()) ?? '', /not yet delivered · to every agent.*changes the task/);
    }
    const failed = run.state.agents.find((a) => a.status === 'failed')!.id;
    assert.equal(await page.locator(`article.agent[data-agent="${failed}"] .notes-list .note`).count(), 0, 'a failed agent got none');
    assert.equal(await page.locator(`article.agent[data-agent="${failed}"] .agent-note`).isVisible(), false, 'nor offers a note box');
    assert.equal(await page.locator('.notes-list img, .note b, .note strong').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(rig.server.leaks, []);

    // Delivered to the first agent at its next turn.
    run.emitBody({ type: 'note_delivered', noteId: 'note1', agentId: live[0], via: 'next_turn' });
    await p.settle();
    const first = page.locator(`article.agent[data-agent="${live[0]}"] .notes-list .note`);
    assert.match((await first.locator('.note-meta').textContent()) ?? '', /^delivered · to every agent/);
    assert.equal(await first.getAttribute('class'), 'note delivered');
    for (const theme of ['dark', 'light', 'hc'] as ThemeName[]) {
      const q = await open(h, { theme, surface: 'panel', width: 1280 });
      await q.page.locator('.run-header .note-box textarea').fill('Also: keep the public API unchanged.');
      await q.screenshotOf(`notes-header-${theme}`, '.run-header');
      await q.screenshotOf(`notes-column-${theme}`, `article.agent[data-agent="${live[0]}"]`);
    }
    assert.deepEqual(await p.cspViolations(), []);
    assert.deepEqual(p.pageErrors, []);
  });

  it('a note to one agent from its column; a refused note keeps its text; Answer now; nothing to steer once the run ended', async () => {
    const h = await harness();
    const run = h.source.start('run-one', 'One', mid.slice(0, 1));
    await replay(run, mid.slice(1));
    const p = await open(h, { theme: 'light', width: 380 });
    const { page } = p;
    const agent = run.state.agents.find((a) => a.status !== 'failed')!;
    const column = page.locator(`article.agent[data-agent="${agent.id}"]`);
    const summary = column.locator('.agent-note > summary');
    assert.equal(await summary.innerText(), `Note to ${agent.label}`);
    // Enter on the summary opens it and puts the focus in its box.
    await summary.focus();
    await page.keyboard.press('Enter');
    await p.settle();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Note to ${agent.label}`);
    await page.keyboard.type('Only you: check the empty input.');
    await column.locator('vscode-button.note-send').click();
    const sent = await p.waitFor((m) => m.type === 'note');
    assert.deepEqual(sent, { v: 1, type: 'note', runId: 'run-one', text: 'Only you: check the empty input.', agentId: agent.id, changesTask: false });
    await p.settle();
    const item = column.locator('.notes-list .note');
    assert.match((await item.locator('.note-meta').textContent()) ?? '', new RegExp(`to ${agent.label} only`));
    assert.equal(await page.locator('.notes-list .note').count(), 1, 'the other columns do not list it');
    await p.screenshotOf('notes-one-agent-light', `article.agent[data-agent="${agent.id}"]`);

    // The engine refuses (the agent failed meanwhile): the text stays, the notice says why, Send works again.
    run.noteError = `no live agent '${agent.id}'`;
    const input = column.locator('.agent-note textarea');
    await input.fill('A second thought.');
    await input.press('Control+Enter');
    await p.settle();
    assert.equal(await input.inputValue(), 'A second thought.');
    assert.match(await page.locator('.notice').innerText(), new RegExp(`Your note was not sent: no live agent '${agent.id}'`));
    assert.equal(await column.locator('.note-status').innerText(), '');
    assert.equal(await column.locator('vscode-button.note-send').getAttribute('disabled'), null, 'it can be sent again');
    assert.equal(await page.locator('.run-header .note-status').innerText(), '', 'the box to every agent was not involved');
    run.noteError = null;

    // Answer now, from the header, with the keyboard.
    const answer = page.locator('vscode-button.answer-now');
    assert.equal(await answer.isVisible(), true);
    assert.equal(await answer.getAttribute('disabled'), null, 'the run has answers to take');
    await answer.focus();
    await page.keyboard.press('Enter');
    await p.waitFor((m) => m.type === 'answerNow');
    assert.equal(run.answeredNow, true);
    await p.screenshot('notes-live-view-light');

    // The run ends: no note box, no Answer now (the agents are done).
    run.emitBody({ type: 'run_ended', reason: 'user_stop', winnerId: null, durationMs: run.state.elapsedMs });
    await p.settle();
    assert.equal(await page.locator('.note-box:visible').count(), 0);
    assert.equal(await page.locator('.agent-note:visible').count(), 0);
    assert.equal(await answer.isVisible(), false);
    assert.equal(await item.count(), 1, 'the notes it was given are still listed');
    assert.doesNotMatch((await item.locator('.note-meta').textContent()) ?? '', /not delivered/);

    // A note the run ended before: it says so, and offers a follow-up run with it.
    const noteId = run.state.notes[0].id;
    run.emitBody({ type: 'note_undelivered', noteId, agentIds: [agent.id], reason: 'user_stop' });
    await p.settle();
    assert.match((await item.locator('.note-meta').textContent()) ?? '', /not delivered: you asked for the answer now first/);
    await item.locator('vscode-button.note-continue').click();
    assert.deepEqual(await p.waitFor((m) => m.type === 'continueWithNote'), { v: 1, type: 'continueWithNote', runId: 'run-one', noteId });
    await eventually(() => h.services.continued.length === 1, { what: 'the host to start the follow-up' });
    assert.deepEqual(p.pageErrors, []);
  });

  it('a past run (read-only) lists its notes but offers no box and no Answer now', async () => {
    const fs = new MemoryFs();
    const history = new RunHistory(fs, { warn: () => undefined });
    const h = await harness(history);
    const state = reduceEvents(mid);
    const live = state.agents.filter((a) => a.status !== 'failed').map((a) => a.id);
    const events = extend(mid, [
      { type: 'note_added', noteId: 'note1', text: 'Stored note.', agentIds: live, changesTask: false },
      { type: 'run_ended', reason: 'cancelled', winnerId: null, durationMs: 1000 },
    ]);
    await history.save('run-past', 'Past', 'Past', reduceView(events));
    const p = await open(h, { theme: 'dark', surface: 'panel', state: { runId: 'run-past', follow: false, collapsed: [], closed: [] } });
    await p.settle();
    assert.equal(await p.page.locator('.banner.readonly').isVisible(), true);
    assert.equal(await p.page.locator('.notes-list .note').count(), live.length);
    assert.equal(await p.page.locator('.note-box:visible, .answer-now:visible').count(), 0);
  });
});

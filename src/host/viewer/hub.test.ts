import assert from 'node:assert/strict';
import { FakeServices, FakeSource, MemoryFs } from '../../../test/webview/fakes';
import { fullRun, renumber, workspaceRun } from '../../../test/webview/scenarios';
import type { RunEvent } from '../../core/engine/events';
import { MAX_NOTE_CHARS, MAX_PATCH_CHARS, parseHostMessage, webviewMessage, type HostMessage, type HostMessageOf } from '../../protocol/messages';
import { reduceView, type RunView } from '../../protocol/state';
import { applyDelta, DeltaCursor } from '../../protocol/sync';
import { eventually } from '../../../test/helpers/eventually';
import { RunHistory } from './history';
import { capPatch, DIFF_BURST, DIFF_PER_SECOND, type ViewerConnection } from './connection';
import { ViewerHub } from './hub';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
/** As a webview would see it: messages are JSON on the way (undefined fields vanish). */
const json = <T>(x: T): T => JSON.parse(JSON.stringify(x));

/** A webview stand-in in Node: it applies snapshots and deltas like webview/app.ts and asks for a resync on a gap. */
class NodePage {
  readonly received: HostMessage[] = [];
  view: RunView | null = null;
  readonly cursor = new DeltaCursor();
  private listener: ((raw: unknown) => void) | null = null;
  private visibility: ((visible: boolean) => void) | null = null;
  connection!: ViewerConnection;
  /** Drop host messages for which this returns false (a lost delta). */
  filter: (m: HostMessage) => boolean = () => true;
  accepting = true;

  constructor(hub: ViewerHub, initial?: { runId: string | null; follow: boolean }) {
    this.connection = hub.connect(
      {
        post: (m) => {
          if (!this.accepting) return false;
          if (!this.filter(m)) return true;
          this.received.push(m);
          this.apply(json(m));
          return true;
        },
        onMessage: (l) => {
          this.listener = l;
          return { dispose: () => (this.listener = null) };
        },
        onVisibility: (l) => {
          this.visibility = l;
          return { dispose: () => (this.visibility = null) };
        },
      },
      initial,
    );
  }

  send(body: Parameters<typeof webviewMessage>[0] | unknown): void {
    const msg = body && typeof body === 'object' && 'type' in body ? webviewMessage(body as Parameters<typeof webviewMessage>[0]) : body;
    this.listener?.(msg);
  }

  raw(message: unknown): void {
    this.listener?.(message);
  }

  setVisible(v: boolean): void {
    this.visibility?.(v);
  }

  of<T extends HostMessage['type']>(type: T): HostMessageOf<T>[] {
    return this.received.filter((m): m is HostMessageOf<T> => m.type === type);
  }

  private apply(m: HostMessage): void {
    if (m.type === 'snapshot') {
      this.view = m.run?.view ?? null;
      this.cursor.reset(m.run?.id ?? null, m.run?.view.state.lastSeq ?? 0);
    } else if (m.type === 'head') {
      if (this.cursor.checkHead(m.runId, m.seq) === 'gap') this.send({ type: 'resync', runId: m.runId, lastSeq: this.cursor.lastSeq });
    } else if (m.type === 'delta') {
      const verdict = this.cursor.check(m);
      if (verdict === 'gap') this.send({ type: 'resync', runId: m.runId, lastSeq: this.cursor.lastSeq });
      if (verdict !== 'apply' || !this.view) return;
      applyDelta(this.view, m);
      this.cursor.advance(m);
    }
  }
}

async function setup(options: { history?: boolean } = {}) {
  const source = new FakeSource();
  const services = new FakeServices();
  const fs = new MemoryFs();
  const history = options.history === false ? null : new RunHistory(fs, { warn: (m) => services.log.warn(m) });
  const hub = new ViewerHub(source, history, services, { coalescer: { intervalMs: 5 }, headDelayMs: 30 });
  await tick();
  return { source, services, fs, history, hub };
}

async function play(run: ReturnType<FakeSource['start']>, events: RunEvent[], every = 10): Promise<void> {
  for (let i = 0; i < events.length; i++) {
    run.emit(events[i]);
    if (i % every === every - 1) await tick(1);
  }
  await tick(20);
}

describe('vote viewer: host hub', () => {
  let events: RunEvent[];
  before(async () => {
    events = await fullRun();
  });

  it('sends nothing before ready, then one snapshot, then contiguous deltas that rebuild the host state exactly', async () => {
    const { source, hub } = await setup();
    const page = new NodePage(hub);
    const run = source.start('run-1', 'Refactor', events.slice(0, 1));
    assert.equal(page.received.length, 0, 'nothing before ready');
    page.send({ type: 'ready', runId: null, follow: true });
    await tick();
    const snap = page.of('snapshot');
    assert.equal(snap.length, 1);
    assert.equal(snap[0].run?.id, 'run-1');
    assert.equal(snap[0].run?.view.state.lastSeq, 1);
    await play(run, events.slice(1), 3);
    const deltas = page.of('delta');
    assert.ok(deltas.length > 3, `${deltas.length} deltas`);
    assert.equal(deltas[0].from, 2);
    for (let i = 1; i < deltas.length; i++) assert.equal(deltas[i].from, deltas[i - 1].to + 1);
    assert.equal(deltas[deltas.length - 1].to, events.length);
    assert.deepEqual(json(page.view?.state), json(run.state));
    assert.deepEqual(json(page.view), json(reduceView(events)), 'extras too (the run was followed from its first events)');
    hub.dispose();
  });

  it('keeps a run\'s feed exactly as long as the source keeps the run, however many finished runs there are', async () => {
    const { source, hub } = await setup({ history: false });
    for (let i = 1; i <= 25; i++) source.start(`run-${i}`, `Run ${i}`, events);
    assert.ok(hub.feed('run-1'), 'the hub keeps no count of its own');
    source.drop('run-1');
    assert.equal(hub.feed('run-1'), undefined);
    const run = hub.feed('run-2')!.run as ReturnType<FakeSource['start']>;
    source.drop('run-2');
    assert.equal(run.listenerCount, 0, 'its subscription to the run is gone');
    assert.ok(hub.feed('run-3'));
    hub.dispose();
  });

  it('a run announced before its first event (as the run session does) has round 1 on its timeline', async () => {
    const { source, hub } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    const run = source.start('run-1', 'Refactor', []);
    await play(run, events.slice(0, events.findIndex((e) => e.type === 'turn_started') + 1), 3);
    await tick(60);
    assert.deepEqual(page.view?.extras.timeline.map((e) => [e.kind, e.label]), [['round', 'R1']]);
    hub.dispose();
  });

  it('detects a lost delta (by the next delta, or the head message after the last): resync and converge', async () => {
    for (const lose of [3, 'last'] as const) {
      const { source, hub } = await setup();
      const page = new NodePage(hub);
      let n = 0;
      const total = { deltas: 0 };
      page.filter = (m) => {
        if (m.type !== 'delta') return true;
        n++;
        total.deltas = n;
        return lose === 'last' ? m.to !== events.length || n > 1000 : n !== 3;
      };
      page.send({ type: 'ready', runId: null, follow: true });
      const run = source.start('run-1', 'Refactor', events.slice(0, 1));
      await play(run, events.slice(1), 3);
      await tick(60);
      assert.ok(total.deltas > 4, `${total.deltas} deltas`);
      assert.equal(page.of('snapshot').length, 3, `empty, the run's first, and the resync (lost: ${lose})`);
      assert.deepEqual(json(page.view?.state), json(run.state));
      hub.dispose();
    }
  });

  it('follows new runs unless the user picked one; then it only updates the runs list', async () => {
    const { source, hub } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    const first = source.start('run-1', 'first', events.slice(0, 1));
    await tick();
    assert.equal(page.of('snapshot').at(-1)?.run?.id, 'run-1');
    source.start('run-2', 'second', events.slice(0, 1));
    await tick();
    assert.equal(page.of('snapshot').at(-1)?.run?.id, 'run-2');
    page.send({ type: 'select', runId: 'run-1' });
    await tick();
    assert.equal(page.of('snapshot').at(-1)?.run?.id, 'run-1');
    assert.equal(page.of('snapshot').at(-1)?.follow, false);
    const snapshots = page.of('snapshot').length;
    source.start('run-3', 'third', events.slice(0, 1));
    await tick();
    assert.equal(page.of('snapshot').length, snapshots, 'no switch');
    assert.deepEqual(page.of('history').at(-1)?.runs.map((r) => r.id), ['run-3', 'run-2', 'run-1']);
    // Deltas of run-1 still reach it.
    first.emit({ ...events[1], seq: 2 } as RunEvent);
    await tick(20);
    assert.equal(page.of('delta').at(-1)?.runId, 'run-1');
    hub.dispose();
  });

  it('stores finished runs and reopens them read-only in a new session', async () => {
    const { source, hub, fs, services } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    const run = source.start('run-1', 'Refactor', events.slice(0, 1));
    await play(run, events.slice(1));
    await tick(20);
    assert.ok(fs.files.has('run-run-1.json'));
    hub.dispose();

    // A window reload: a new hub, no live runs, the same storage.
    const source2 = new FakeSource();
    const hub2 = new ViewerHub(source2, new RunHistory(fs, { warn: () => undefined }), services);
    await tick(10);
    const page2 = new NodePage(hub2, { runId: 'run-1', follow: false });
    page2.send({ type: 'ready', runId: 'run-1', follow: false });
    await tick(10);
    const snap = page2.of('snapshot').at(-1)!;
    assert.equal(snap.run?.readOnly, true);
    assert.equal(snap.run?.view.state.winner?.label, 'agent2.2');
    assert.equal(snap.history[0].id, 'run-1');
    assert.equal(snap.history[0].live, false);
    // Preview/Apply are refused for a past run; Copy works from the stored state.
    page2.send({ type: 'action', action: 'apply', runId: 'run-1' });
    page2.send({ type: 'action', action: 'copy', runId: 'run-1' });
    await tick(10);
    assert.deepEqual(services.commands, []);
    assert.equal(services.copied.length, 1);
    assert.match(services.copied[0], /keep JSON errors apart/);
    hub2.dispose();
  });

  it('maps the page’s requests to commands, cancels, the clipboard and https links only', async () => {
    const { source, hub, services } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    const run = source.start('run-1', 'Refactor', events.slice(0, -1));
    await tick();
    page.send({ type: 'action', action: 'preview', runId: 'run-1' });
    page.send({ type: 'action', action: 'apply', runId: 'run-1' });
    page.send({ type: 'action', action: 'undo', runId: 'run-1' });
    page.send({ type: 'action', action: 'discard', runId: 'run-1' });
    page.send({ type: 'action', action: 'openLog', runId: 'run-1' });
    page.send({ type: 'action', action: 'copy', runId: 'run-1' });
    page.send({ type: 'cancelAgent', runId: 'run-1', agentId: 'creative-solver' });
    page.send({ type: 'cancelAgent', runId: 'run-1', agentId: 'nobody' });
    page.send({ type: 'cancelRun', runId: 'run-1' });
    page.send({ type: 'start', how: 'chat' });
    page.send({ type: 'start', how: 'setApiKey', envVar: 'OPENAI_API_KEY' });
    page.send({ type: 'start', how: 'setApiKey', envVar: 'sk-not an env var name' });
    page.send({ type: 'start', how: 'openConfig' });
    page.send({ type: 'openPanel', runId: 'run-1' });
    page.send({ type: 'openLink', href: 'https://zod.dev/api' });
    page.send({ type: 'openLink', href: 'command:workbench.action.files.delete' });
    page.send({ type: 'openLink', href: 'javascript:alert(1)' });
    await tick(10);
    assert.deepEqual(services.commands, [
      ['massgen.previewRun', 'run-1'],
      ['massgen.applyRun', 'run-1'],
      ['massgen.undoRun', 'run-1'],
      ['massgen.discardWinner', 'run-1'],
      ['massgen.showLog'],
      // Pre-filled, not sent: the user types the request.
      ['workbench.action.chat.open', { query: '@massgen ', isPartialQuery: true }],
      ['massgen.setApiKey', 'OPENAI_API_KEY'],
      ['massgen.openConfig'],
    ]);
    assert.equal(services.logs.filter((l) => /dropped a message from the webview: invalid 'start'/.test(l)).length, 1, 'only env var names, never anything else');
    assert.equal(services.copied[0], run.state.finalAnswer?.content);
    assert.deepEqual(run.cancelledAgents, ['creative-solver']);
    assert.equal(run.cancelled, true);
    assert.deepEqual(services.panels, ['run-1']);
    assert.deepEqual(services.opened, ['https://zod.dev/api']);
    assert.equal(services.logs.filter((l) => /refused to open a link/.test(l)).length, 2);
    hub.dispose();
  });

  it('notes and Answer now reach the run going; a note that cannot be sent comes back as a notice, and none reaches a finished run', async () => {
    const { source, hub, services } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    const run = source.start('run-1', 'Refactor', events.slice(0, 20));
    await tick();
    const agent = run.state.agents[1].id;
    const live = run.state.agents.filter((a) => a.status !== 'failed').length;
    page.send({ type: 'note', runId: 'run-1', text: 'Use metric units.', changesTask: false });
    page.send({ type: 'note', runId: 'run-1', text: 'Only you: keep it short.', agentId: agent, changesTask: true });
    page.send({ type: 'note', runId: 'run-1', text: 'To nobody.', agentId: 'nobody', changesTask: false });
    page.send({ type: 'note', runId: 'run-1', text: '', changesTask: false });
    page.send({ type: 'note', runId: 'run-1', text: 'x'.repeat(MAX_NOTE_CHARS + 1), changesTask: false });
    await tick(10);
    assert.deepEqual(run.notes, [
      { text: 'Use metric units.', agentId: undefined, changesTask: false },
      { text: 'Only you: keep it short.', agentId: agent, changesTask: true },
    ]);
    assert.deepEqual(page.of('noteRefused').map((n) => [n.agentId, n.text]), [['nobody', 'Your note was not sent: there is no agent nobody in this run.']]);
    assert.equal(services.logs.filter((l) => /dropped a message from the webview: invalid 'note'/.test(l)).length, 2, 'an empty note and one too long are dropped');
    const added = page.of('delta').flatMap((d) => d.events).filter((e) => e.type === 'note_added');
    assert.deepEqual(added.map((e) => e.type === 'note_added' && [e.text, e.agentIds.length, e.changesTask]), [['Use metric units.', live, false], ['Only you: keep it short.', 1, true]], 'the page sees them as events');

    run.noteError = "no live agent 'beta'";
    page.send({ type: 'note', runId: 'run-1', text: 'Too late for beta.', agentId: agent, changesTask: false });
    await tick(5);
    assert.deepEqual(page.of('noteRefused').pop(), { v: 1, type: 'noteRefused', runId: 'run-1', agentId: agent, text: "Your note was not sent: no live agent 'beta'." });

    page.send({ type: 'answerNow', runId: 'run-1' });
    await tick(5);
    assert.equal(run.answeredNow, false, 'no answer yet: nothing to take (the page offers no button then)');
    const firstAnswer = events.findIndex((e) => e.type === 'answer_added');
    assert.ok(firstAnswer >= 20, 'the run had no answer at event 20');
    await play(run, events.slice(20, firstAnswer + 1));
    page.send({ type: 'answerNow', runId: 'run-1' });
    await tick(5);
    assert.equal(run.answeredNow, true);

    await play(run, events.slice(firstAnswer + 1));
    run.answeredNow = false;
    const before = run.notes.length;
    page.send({ type: 'answerNow', runId: 'run-1' });
    page.send({ type: 'note', runId: 'run-1', text: 'After the end.', changesTask: false });
    page.send({ type: 'note', runId: 'run-unknown', text: 'To a run that is not here.', changesTask: false });
    await tick(5);
    assert.equal(run.answeredNow, false, 'a finished run is not asked again');
    assert.equal(run.notes.length, before, 'nor given notes');
    assert.deepEqual(page.of('noteRefused').slice(-2).map((n) => [n.runId, n.agentId, n.text]), [
      ['run-1', undefined, 'Your note was not sent: the run is no longer going.'],
      ['run-unknown', undefined, 'Your note was not sent: the run is no longer going.'],
    ]);
    assert.equal(page.of('notice').length, 0, 'refusals come as noteRefused only');
    hub.dispose();
  });

  it('a live run\u2019s snapshot carries its stage plan; Escalate now reaches the run, and a stage it cannot call comes back as escalateRefused', async () => {
    const { source, hub } = await setup();
    const run = source.start('run-1', 'Refactor', events.slice(0, 20));
    const [a, ...rest] = run.state.agents.map((x) => x.id);
    run.stages = [[a], rest];
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    const snapshot = await eventually(() => page.of('snapshot')[0], { what: 'the snapshot' });
    assert.deepEqual(snapshot.run?.stages, [[a], rest]);

    page.send({ type: 'escalate', runId: 'run-1' });
    await eventually(() => run.escalations === 1, { what: 'the run to be asked for its next stage' });
    run.escalateError = 'every escalation stage has joined already';
    page.send({ type: 'escalate', runId: 'run-1' });
    const refused = await eventually(() => page.of('escalateRefused')[0], { what: 'the refusal' });
    assert.deepEqual(refused, { v: 1, type: 'escalateRefused', runId: 'run-1', text: 'No stage was called: every escalation stage has joined already.' });

    await play(run, events.slice(20));
    page.send({ type: 'escalate', runId: 'run-1' });
    page.send({ type: 'escalate', runId: 'run-unknown' });
    await eventually(() => page.of('escalateRefused').length === 3, { what: 'both refusals' });
    assert.equal(run.escalations, 2, 'a finished run is not asked');
    assert.deepEqual(page.of('escalateRefused').slice(1).map((m) => [m.runId, m.text]), [
      ['run-1', 'No stage was called: the run is no longer going.'],
      ['run-unknown', 'No stage was called: the run is no longer going.'],
    ]);
    hub.dispose();
  });

  it('"Continue with this note" asks the host for the follow-up run; one that cannot start comes back as a notice', async () => {
    const { source, hub, services } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    source.start('run-1', 'Refactor', events);
    await tick();
    page.send({ type: 'continueWithNote', runId: 'run-1', noteId: 'note1' });
    await tick(5);
    assert.deepEqual(services.continued, [['run-1', 'note1']]);
    services.continueResult = () => Promise.reject(new Error('no agents are configured'));
    page.send({ type: 'continueWithNote', runId: 'run-1', noteId: 'note1' });
    await tick(5);
    assert.deepEqual(page.of('notice').pop(), { v: 1, type: 'notice', level: 'warning', text: 'The follow-up did not start: no agents are configured' });
    hub.dispose();
  });

  it('shows the user\'s words as the task, in the snapshot, the runs list and the stored run', async () => {
    const { source, hub, history } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    source.start('run-1', 'Refactor', events.slice(0, 1), 'Refactor parseConfig');
    await tick();
    const snap = page.received.filter((m) => m.type === 'snapshot').pop();
    assert.ok(snap?.type === 'snapshot' && snap.run);
    assert.equal(snap.run.task, 'Refactor parseConfig');
    assert.notEqual(snap.run.view.state.question, 'Refactor parseConfig', 'the engine\'s task is kept as it is');
    assert.equal(hub.runs()[0].question, 'Refactor parseConfig');
    await play(source.find('run-1')!, events.slice(1));
    await tick(20);
    assert.equal((await history!.read('run-1'))?.task, 'Refactor parseConfig');
    hub.dispose();
  });

  it('home: the start page until a new run starts, which it then follows', async () => {
    const { source, hub } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    source.start('run-1', 'First', events.slice(0, 1));
    await tick();
    page.send({ type: 'home' });
    await tick();
    const home = page.received[page.received.length - 1];
    assert.ok(home.type === 'snapshot' && home.run === null && home.history.length === 1, 'the start page, with the runs still listed');
    source.start('run-2', 'Second', events.slice(0, 1));
    await tick();
    const next = page.received.filter((m) => m.type === 'snapshot').pop();
    assert.ok(next?.type === 'snapshot' && next.run?.id === 'run-2', 'a new run is shown when it starts');
    hub.dispose();
  });

  it('sends the winner\'s apply state in the snapshot and when it changes, to the pages showing that run', async () => {
    const { source, hub, services } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    services.applyStates.set('run-1', { kind: 'selection', status: 'ready', target: 'sample.py' });
    source.start('run-1', 'Refactor', events.slice(0, 1));
    await tick();
    const snap = page.received.filter((m) => m.type === 'snapshot').pop();
    assert.ok(snap?.type === 'snapshot' && snap.run?.apply.status === 'ready');
    services.applyStates.set('run-1', { kind: 'selection', status: 'applied', target: 'sample.py' });
    hub.applyChanged('run-1');
    hub.applyChanged('another-run');
    const applies = page.received.filter((m) => m.type === 'apply');
    assert.deepEqual(applies.map((m) => m.type === 'apply' && [m.runId, m.apply.status]), [['run-1', 'applied']]);
    hub.dispose();
  });

  it('logs and drops invalid messages from the page', async () => {
    const { hub, services } = await setup();
    const page = new NodePage(hub);
    page.raw({ type: 'ready', runId: null, follow: true });
    page.raw({ v: 1, type: 'executeCommand', command: 'workbench.action.files.delete' });
    page.raw('hello');
    await tick();
    assert.equal(page.received.length, 0);
    assert.equal(services.logs.filter((l) => /dropped a message from the webview/.test(l)).length, 3);
    hub.dispose();
  });

  it('stops sending while hidden and sends a fresh snapshot when shown again', async () => {
    const { source, hub } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    const run = source.start('run-1', 'Refactor', events.slice(0, 1));
    await play(run, events.slice(1, 20));
    page.setVisible(false);
    const before = page.received.length;
    await play(run, events.slice(20, 60));
    assert.equal(page.received.length, before, 'nothing while hidden');
    page.setVisible(true);
    await tick();
    assert.equal(page.received.at(-1)?.type, 'snapshot');
    await play(run, events.slice(60));
    assert.deepEqual(json(page.view?.state), json(run.state));
    hub.dispose();
  });

  it('a post that fails (the webview went away) pauses the connection until ready', async () => {
    const { source, hub } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    const run = source.start('run-1', 'Refactor', events.slice(0, 1));
    page.accepting = false;
    await play(run, events.slice(1, 30));
    page.accepting = true;
    const count = page.received.length;
    await play(run, events.slice(30, 40));
    assert.equal(page.received.length, count, 'paused');
    page.send({ type: 'ready', runId: null, follow: true });
    await play(run, events.slice(40));
    assert.deepEqual(json(page.view?.state), json(run.state));
    hub.dispose();
  });

  it('the host choosing a run before the page is ready wins over what the page remembers', async () => {
    const { source, hub } = await setup();
    source.start('run-1', 'one', renumber(events.slice(0, 1)));
    source.start('run-2', 'two', renumber(events.slice(0, 1)));
    const page = new NodePage(hub);
    page.connection.show('run-1');
    page.send({ type: 'ready', runId: 'run-2', follow: false });
    await tick();
    assert.equal(page.of('snapshot').at(-1)?.run?.id, 'run-1');
    hub.dispose();
  });
});

describe('vote viewer: host hub, diffs', () => {
  const ws = workspaceRun();
  let events: RunEvent[];
  before(async () => {
    events = await fullRun();
  });

  async function workspace() {
    const ctx = await setup();
    const page = new NodePage(ctx.hub);
    page.send({ type: 'ready', runId: null, follow: true });
    const run = ctx.source.start('ws', 'Workspace', []);
    for (const [version, patch] of ws.patches) run.patches.set(version, patch);
    await play(run, ws.events);
    return { ...ctx, page, run };
  }

  const diffs = (page: NodePage) => page.of('diff').map((m) => ({ version: m.version, patch: m.patch, truncated: m.truncated, note: m.note }));

  it('answers requestDiff for a live workspace run with the run session’s patch, once per version and snapshot', async () => {
    const { hub, page, run } = await workspace();
    page.send({ type: 'requestDiff', runId: 'ws', version: 'agent1.1' });
    page.send({ type: 'requestDiff', runId: 'ws', version: 'agent1.1' });
    page.send({ type: 'requestDiff', runId: 'ws', version: 'agent3.1' });
    await tick();
    assert.deepEqual(diffs(page), [
      { version: 'agent1.1', patch: ws.patches.get('agent1.1'), truncated: false, note: undefined },
      { version: 'agent3.1', patch: '', truncated: false, note: undefined },
    ]);
    assert.deepEqual(run.patchRequests, ['agent1.1', 'agent3.1'], 'a repeat is dropped before reaching the run');
    for (const m of page.of('diff')) assert.ok(parseHostMessage(json(m)).ok, 'valid on the wire');
    // A snapshot rebuilds the page, which forgets its diffs: it may ask again.
    page.send({ type: 'resync', runId: 'ws', lastSeq: 0 });
    page.send({ type: 'requestDiff', runId: 'ws', version: 'agent1.1' });
    await tick();
    assert.equal(page.of('diff').length, 3);
    hub.dispose();
  });

  it('answers null with a note for an unknown run or version, a run without a workspace, and a stored run', async () => {
    const { hub, page, source, services, fs } = await workspace();
    page.send({ type: 'requestDiff', runId: 'nope', version: 'agent1.1' });
    page.send({ type: 'requestDiff', runId: 'ws', version: 'agent9.9' });
    page.send({ type: 'requestDiff', runId: 'ws', version: '<script>' });
    const plain = source.start('plain', 'No workspace', []);
    await play(plain, renumber(events.slice(0, events.findIndex((e) => e.type === 'answer_added') + 1)));
    page.send({ type: 'requestDiff', runId: 'plain', version: 'agent1.1' });
    await tick();
    assert.deepEqual(diffs(page), [
      { version: 'agent1.1', patch: null, truncated: false, note: 'That run is no longer available.' },
      { version: 'agent9.9', patch: null, truncated: false, note: 'This run has no such answer version.' },
      { version: '<script>', patch: null, truncated: false, note: 'This run has no such answer version.' },
      { version: 'agent1.1', patch: null, truncated: false, note: 'This run did not work on a workspace: its answers have no diffs.' },
    ]);
    hub.dispose();
    // The same run reopened from disk in a new window: its file list is stored, its patches are not.
    assert.ok(fs.files.has('run-ws.json'));
    const hub2 = new ViewerHub(new FakeSource(), new RunHistory(fs, { warn: () => undefined }), services);
    await tick(10);
    const page2 = new NodePage(hub2, { runId: 'ws', follow: false });
    page2.send({ type: 'ready', runId: 'ws', follow: false });
    await tick(10);
    assert.deepEqual(page2.of('snapshot').at(-1)?.run?.view.state.answers.map((a) => a.change?.files.length), [3, 1, 0, 3]);
    page2.send({ type: 'requestDiff', runId: 'ws', version: 'agent2.2' });
    await tick();
    assert.deepEqual(diffs(page2), [{ version: 'agent2.2', patch: null, truncated: false, note: 'This run is from an earlier session: its files changed are listed, but the diffs were not kept.' }]);
    hub2.dispose();
  });

  it('cuts an oversize patch at a line end within MAX_PATCH_CHARS and says so', async () => {
    const big = ws.patches.get('agent2.1')!;
    assert.ok(big.length > MAX_PATCH_CHARS, `${big.length} characters`);
    const { hub, page } = await workspace();
    page.send({ type: 'requestDiff', runId: 'ws', version: 'agent2.1' });
    await tick();
    const [m] = page.of('diff');
    assert.equal(m.truncated, true);
    assert.ok(m.patch!.length <= MAX_PATCH_CHARS && m.patch!.length > MAX_PATCH_CHARS - 200, `${m.patch!.length}`);
    assert.ok(big.startsWith(m.patch!) && m.patch!.endsWith('\n'), 'a prefix of whole lines');
    assert.match(m.note ?? '', /too large to show whole \([\d,]+ K characters\): its first 512 K are shown/);
    assert.ok(parseHostMessage(json(m)).ok);
    // A patch without a line end in reach is cut at the limit; one at the limit is whole.
    assert.equal(capPatch('x'.repeat(MAX_PATCH_CHARS + 5)).patch?.length, MAX_PATCH_CHARS);
    assert.deepEqual(capPatch('y'.repeat(MAX_PATCH_CHARS)), { patch: 'y'.repeat(MAX_PATCH_CHARS), truncated: false });
    hub.dispose();
  });

  it('rate-limits a page that asks for diffs too fast, and logs it once', async () => {
    const { hub, page, services } = await workspace();
    services.clock = 1_000_000;
    for (let i = 0; i < DIFF_BURST + 10; i++) page.send({ type: 'requestDiff', runId: 'ws', version: `agent1.${i + 100}` });
    await tick();
    assert.equal(page.of('diff').length, DIFF_BURST);
    assert.equal(services.logs.filter((l) => /asks for diffs too fast/.test(l)).length, 1);
    services.clock += 1000;
    for (let i = 0; i < 10; i++) page.send({ type: 'requestDiff', runId: 'ws', version: `agent2.${i + 100}` });
    await tick();
    assert.equal(page.of('diff').length, DIFF_BURST + DIFF_PER_SECOND, 'refilled at DIFF_PER_SECOND');
    hub.dispose();
  });

  it('a run waiting for the checks answer: every page shows it at once, takes the answer once, then shows the run', async () => {
    const { source, hub } = await setup();
    const page = new NodePage(hub);
    page.send({ type: 'ready', runId: null, follow: true });
    await tick();
    assert.equal(page.of('snapshot')[0].pending, null);
    const answers: boolean[] = [];
    const card = source.pending.ask({ title: 'Add tests (app)', command: 'npm test', why: 'package.json\'s test script' }, (use) => answers.push(use));
    const [shown] = page.of('pending');
    assert.deepEqual(shown.pending && { ...shown.pending, id: 'x' }, { id: 'x', title: 'Add tests (app)', command: 'npm test', why: 'package.json\'s test script', answered: false });
    // A page that (re)loads now gets it in its snapshot.
    const late = new NodePage(hub);
    late.send({ type: 'ready', runId: null, follow: true });
    await tick();
    assert.equal(late.of('snapshot')[0].pending?.id, shown.pending?.id);
    page.send({ type: 'checksAnswer', id: shown.pending!.id, use: true });
    await tick();
    assert.deepEqual(answers, [true]);
    card.settled();
    assert.equal(page.of('pending').at(-1)?.pending?.answered, true, 'the buttons retire: the run is starting');
    // A second answer (the other page) is too late: the host says so and does nothing.
    late.send({ type: 'checksAnswer', id: shown.pending!.id, use: false });
    await tick();
    assert.deepEqual(answers, [true]);
    assert.match(late.of('notice').at(-1)?.text ?? '', /settled already/);
    source.start('run-1', 'Add tests (app)');
    card.dispose();
    await tick();
    assert.equal(page.of('snapshot').at(-1)?.run?.id, 'run-1');
    assert.equal(page.of('pending').at(-1)?.pending, null, 'the run replaced the card');
    hub.dispose();
  });
});

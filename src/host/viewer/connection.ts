// One webview (the sidebar view or the editor panel) as the hub serves it: one snapshot on (re)connect, then
// numbered, coalesced deltas; a webview that was hidden, reloaded or lost a delta gets a fresh snapshot. Its
// intents (cancel, answer now, escalate now, notes, command approvals, actions, links, start) are carried out here;
// on request, the patch of an answer version of a workspace run (capped, deduplicated and rate-limited per webview).

import type { RunEvent } from '../../core/engine/events';
import { errorMessage } from '../../core/util/errors';
import { safeExternalLink } from '../../protocol/links';
import { hostMessage, MAX_PATCH_CHARS, parseWebviewMessage, type HostMessage, type HostMessageOf, type RunAction, type ShownRun, type WebviewMessage, type WebviewMessageOf } from '../../protocol/messages';
import type { CommandId } from '../ids';
import { answerNowRefusal } from '../run/answer-now';
import { EventCoalescer } from './coalescer';
import type { Disposable, LiveRun, RunFeed, ViewerHub, ViewerPort } from './hub';

/** The commands behind the result actions (implemented elsewhere in the extension). */
export const ACTION_COMMANDS = {
  preview: 'massgen.previewRun',
  apply: 'massgen.applyRun',
  undo: 'massgen.undoRun',
  discard: 'massgen.discardWinner',
  openLog: 'massgen.showLog',
} as const satisfies Record<string, CommandId>;

/** What the start page's buttons open: a command of ours, or VS Code's chat or settings. */
function startCommand(m: WebviewMessageOf<'start'>): [CommandId | 'workbench.action.chat.open' | 'workbench.action.openSettings', ...unknown[]] {
  switch (m.how) {
    case 'chat':
      // A partial query fills the chat input and waits for the user's words instead of sending "@massgen" alone.
      return ['workbench.action.chat.open', { query: '@massgen ', isPartialQuery: true }];
    case 'selection':
      return ['massgen.runOnSelection'];
    case 'settings':
      return ['workbench.action.openSettings', 'massgen.agents'];
    case 'setApiKey':
      return m.envVar ? ['massgen.setApiKey', m.envVar] : ['massgen.setApiKey'];
    case 'openConfig':
      return ['massgen.openConfig'];
  }
}

/** Diff requests a webview may make in a burst, and per second after it (a person expands a few files a second). */
export const DIFF_BURST = 20;
export const DIFF_PER_SECOND = 5;

type DiffReply = Omit<HostMessageOf<'diff'>, 'v' | 'type' | 'runId' | 'version'>;

/** A patch as sent: whole, or cut at the last line end within MAX_PATCH_CHARS. */
export function capPatch(patch: string): DiffReply {
  if (patch.length <= MAX_PATCH_CHARS) return { patch, truncated: false };
  const end = patch.lastIndexOf('\n', MAX_PATCH_CHARS - 1);
  const kept = patch.slice(0, end > 0 ? end + 1 : MAX_PATCH_CHARS);
  const k = (n: number) => `${Math.round(n / 1024).toLocaleString('en-US')} K`;
  return { patch: kept, truncated: true, note: `This patch is too large to show whole (${k(patch.length)} characters): its first ${k(kept.length)} are shown.` };
}

/** The reply to `requestDiff` for a live run (`run`), a stored one, or one this window does not know. */
function diffReply(run: LiveRun | undefined, stored: boolean, version: string): DiffReply {
  const none = (note: string): DiffReply => ({ patch: null, truncated: false, note });
  if (!run) return none(stored ? 'This run is from an earlier session: its files changed are listed, but the diffs were not kept.' : 'That run is no longer available.');
  if (!run.state.workspace) return none('This run did not work on a workspace: its answers have no diffs.');
  if (!run.state.answers.some((a) => a.label === version)) return none('This run has no such answer version.');
  const patch = run.patchOf?.(version);
  return patch === undefined ? none(`The diff of ${version} is not available.`) : capPatch(patch);
}

export class ViewerConnection implements Disposable {
  private runId: string | null;
  private follow: boolean;
  /** The page is loaded and listening (it said `ready`); false while hidden. */
  private ready = false;
  private cursor = 0;
  private feedListener: { feed: RunFeed; listener: (event: RunEvent) => void } | null = null;
  private readonly coalescer: EventCoalescer;
  private readonly subscriptions: Disposable[] = [];
  private loadToken = 0;
  private disposed = false;
  private headTimer: ReturnType<typeof setTimeout> | undefined;
  /** The host picked the run (show) before the page said `ready`: that wins over what the page remembers. */
  private pendingShow = false;
  /** Diffs sent since the last snapshot (`runId\0version`): the page keeps what it got, so repeats are dropped. */
  private readonly diffsSent = new Set<string>();
  /** Token bucket for diff requests (DIFF_BURST, refilled at DIFF_PER_SECOND). */
  private diffTokens = DIFF_BURST;
  private diffRefilledAt = 0;
  private diffThrottled = false;
  /** Messages posted (for tests and the benchmark). */
  posted = 0;

  constructor(
    private readonly hub: ViewerHub,
    private readonly port: ViewerPort,
    initial: { runId: string | null; follow: boolean },
    private readonly onDispose: () => void,
  ) {
    this.runId = initial.runId;
    this.follow = initial.follow || initial.runId === null;
    this.coalescer = new EventCoalescer((batch) => {
      if (!this.ready || this.runId === null) return;
      this.cursor = batch.to;
      const feed = this.hub.feed(this.runId);
      const runId = this.runId;
      this.send(hostMessage({ type: 'delta', runId, from: batch.from, to: batch.to, clock: feed ? this.hub.now() - feed.startedAt : 0, events: batch.events }));
      clearTimeout(this.headTimer);
      this.headTimer = setTimeout(() => {
        if (this.runId === runId) this.send(hostMessage({ type: 'head', runId, seq: this.cursor }));
      }, hub.options.headDelayMs ?? 1000);
    }, hub.options.coalescer);
    this.subscriptions.push(port.onMessage((raw) => this.receive(raw)));
    if (port.onVisibility) {
      this.subscriptions.push(
        port.onVisibility((visible) => {
          if (!visible) this.pause();
          else {
            // The page may have survived (then this snapshot refreshes it) or be reloading (then `ready` follows).
            this.ready = true;
            void this.snapshot();
          }
        }),
      );
    }
  }

  get shownRunId(): string | null {
    return this.runId;
  }

  get following(): boolean {
    return this.follow;
  }

  /** Posts a message if the page is listening. */
  send(message: HostMessage): void {
    if (!this.ready || this.disposed) return;
    this.posted++;
    const result = this.port.post(message);
    if (result === false) this.pause();
    else if (typeof result === 'object' && result && 'then' in result) {
      result.then(
        (ok) => {
          if (!ok) this.pause();
        },
        () => this.pause(),
      );
    }
  }

  /** Shows a run (null = follow the latest); before the page is ready, remembered for its `ready`. */
  show(runId: string | null): void {
    this.follow = runId === null;
    this.runId = runId ?? this.hub.latestRunId();
    if (this.ready) void this.snapshot();
    else this.pendingShow = true;
  }

  runStarted(runId: string): void {
    if (this.follow) {
      this.runId = runId;
      void this.snapshot();
    } else {
      this.send(hostMessage({ type: 'history', runs: this.hub.runs() }));
    }
  }

  private pause(): void {
    this.ready = false;
    this.coalescer.drop();
    clearTimeout(this.headTimer);
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.hub.services.log.warn(`vote viewer: dropped a message from the webview: ${parsed.error}`);
      return;
    }
    void this.handle(parsed.message).catch((err) => this.hub.services.log.error(`vote viewer: ${(err as Error).message}`));
  }

  private async handle(m: WebviewMessage): Promise<void> {
    const { services } = this.hub;
    switch (m.type) {
      case 'ready':
        this.ready = true;
        // A run the host asked to show before the page was ready wins over what the page remembers.
        if (!this.pendingShow) {
          this.follow = m.follow || m.runId === null;
          this.runId = this.follow ? this.hub.latestRunId() : m.runId;
        }
        this.pendingShow = false;
        return this.snapshot();
      case 'resync':
        if (m.runId === this.runId) return this.snapshot();
        return;
      case 'select':
        this.show(m.runId);
        return;
      case 'home':
        // The start page, until a new run starts (following, with nothing shown yet).
        this.follow = true;
        this.runId = null;
        return this.snapshot();
      case 'cancelRun':
        this.hub.feed(m.runId)?.run.cancel();
        return;
      case 'cancelAgent': {
        const run = this.hub.feed(m.runId)?.run;
        if (run?.state.agents.some((a) => a.id === m.agentId)) run.cancelAgent(m.agentId);
        return;
      }
      case 'action':
        return this.action(m.action, m.runId);
      case 'start': {
        const [command, ...args] = startCommand(m);
        await services.executeCommand(command, ...args);
        return;
      }
      case 'openLink': {
        const url = safeExternalLink(m.href);
        if (!url) {
          services.log.warn(`vote viewer: refused to open a link that is not https: ${m.href.slice(0, 200)}`);
          this.send(hostMessage({ type: 'notice', level: 'warning', text: 'Only https links can be opened.' }));
          return;
        }
        await services.openExternal(url);
        return;
      }
      case 'openPanel':
        services.openPanel(m.runId);
        return;
      case 'log':
        services.log[m.level](`vote viewer (webview): ${m.message}`);
        return;
      case 'requestDiff':
        return this.diff(m.runId, m.version);
      case 'note':
        return this.note(m);
      case 'checksAnswer':
        if (!this.hub.answerPending(m.id, m.use)) this.send(hostMessage({ type: 'notice', level: 'info', text: 'That question was settled already.' }));
        return;
      case 'answerNow': {
        const feed = this.hub.feed(m.runId);
        // The page offers it only while it can end the run; a click that raced the run's phase is dropped.
        if (feed?.running && !answerNowRefusal(feed.run.state)) feed.run.answerNow();
        return;
      }
      case 'escalate':
        return this.escalate(m.runId);
      case 'approve':
        this.hub.answerApproval(m.requestId, m.choice);
        return;
      case 'continueWithNote':
        try {
          const runId = await services.continueWithNote(m.runId, m.noteId);
          this.show(runId);
        } catch (err) {
          this.send(hostMessage({ type: 'notice', level: 'warning', text: `The follow-up did not start: ${errorMessage(err)}` }));
        }
        return;
    }
  }

  /** Sends the note, or says why not: the page keeps the text until the note shows up as an event. */
  private note(m: WebviewMessageOf<'note'>): void {
    const feed = this.hub.feed(m.runId);
    const refuse = (why: string) => this.send(hostMessage({ type: 'noteRefused', runId: m.runId, ...(m.agentId !== undefined ? { agentId: m.agentId } : {}), text: `Your note was not sent: ${why}.` }));
    if (!feed?.running) return refuse('the run is no longer going');
    if (m.agentId !== undefined && !feed.run.state.agents.some((a) => a.id === m.agentId)) return refuse(`there is no agent ${m.agentId.slice(0, 60)} in this run`);
    try {
      feed.run.note(m.text, { agentId: m.agentId, changesTask: m.changesTask });
    } catch (err) {
      refuse((err as Error).message);
    }
  }

  /** Calls the next stage, or says why not (the page shows it beside its button, which stops waiting). */
  private escalate(runId: string): void {
    const feed = this.hub.feed(runId);
    const refuse = (why: string) => this.send(hostMessage({ type: 'escalateRefused', runId, text: `No stage was called: ${why}.` }));
    if (!feed?.running) return refuse('the run is no longer going');
    try {
      feed.run.escalate();
    } catch (err) {
      refuse(errorMessage(err));
    }
  }

  private diff(runId: string, version: string): void {
    const key = `${runId}\u0000${version}`;
    if (this.diffsSent.has(key)) return;
    if (!this.takeDiffToken()) {
      if (!this.diffThrottled) this.hub.services.log.warn('vote viewer: the page asks for diffs too fast; dropping some');
      this.diffThrottled = true;
      return;
    }
    this.diffThrottled = false;
    this.diffsSent.add(key);
    const stored = this.hub.history?.list().some((e) => e.id === runId) ?? false;
    this.send(hostMessage({ type: 'diff', runId, version, ...diffReply(this.hub.feed(runId)?.run, stored, version) }));
  }

  private takeDiffToken(): boolean {
    const now = this.hub.now();
    this.diffTokens = Math.min(DIFF_BURST, this.diffTokens + ((now - this.diffRefilledAt) / 1000) * DIFF_PER_SECOND);
    this.diffRefilledAt = now;
    if (this.diffTokens < 1) return false;
    this.diffTokens--;
    return true;
  }

  private async action(action: RunAction, runId: string): Promise<void> {
    const { services } = this.hub;
    if (action === 'openLog') {
      await services.executeCommand(ACTION_COMMANDS.openLog);
      return;
    }
    if (action === 'copy') {
      const state = this.hub.feed(runId)?.run.state ?? (await this.hub.history?.read(runId))?.view.state;
      const text = state?.finalAnswer?.content;
      if (!text) {
        this.send(hostMessage({ type: 'notice', level: 'warning', text: 'This run has no final answer to copy.' }));
        return;
      }
      await services.copy(text);
      this.send(hostMessage({ type: 'notice', level: 'info', text: 'Final answer copied to the clipboard.' }));
      return;
    }
    if (!this.hub.feed(runId)) {
      this.send(hostMessage({ type: 'notice', level: 'warning', text: 'This run is from an earlier session: it can only be viewed.' }));
      return;
    }
    await services.executeCommand(ACTION_COMMANDS[action], runId);
  }

  private unsubscribe(): void {
    if (this.feedListener) this.feedListener.feed.listeners.delete(this.feedListener.listener);
    this.feedListener = null;
    this.coalescer.drop();
    clearTimeout(this.headTimer);
  }

  /** Sends the shown run's whole projection and restarts the deltas after it. */
  async snapshot(): Promise<void> {
    if (this.disposed || !this.ready) return;
    const token = ++this.loadToken;
    this.unsubscribe();
    // A snapshot rebuilds the page, which forgets the diffs it had.
    this.diffsSent.clear();
    const runId = this.runId;
    let run: ShownRun | null = null;
    const feed = runId ? this.hub.feed(runId) : undefined;
    if (feed) {
      const state = structuredClone(feed.run.state);
      run = {
        id: feed.run.id,
        title: feed.run.title,
        task: feed.task,
        readOnly: false,
        running: feed.running,
        clock: this.hub.now() - feed.startedAt,
        view: { state, extras: structuredClone(feed.extras) },
        apply: this.hub.applyState(feed.run.id),
        ...(feed.run.stages ? { stages: feed.run.stages.map((s) => [...s]) } : {}),
      };
      this.cursor = state.lastSeq;
      const listener = (event: RunEvent) => {
        if (this.ready && event.seq > this.cursor) this.coalescer.push(event);
      };
      feed.listeners.add(listener);
      this.feedListener = { feed, listener };
    } else if (runId) {
      const stored = await this.hub.history?.read(runId).catch(() => undefined);
      if (token !== this.loadToken || this.disposed) return;
      if (stored) {
        run = { id: stored.id, title: stored.title, task: stored.task ?? stored.view.state.question, readOnly: true, running: false, clock: stored.view.state.elapsedMs, view: stored.view, apply: this.hub.applyState(stored.id) };
      } else {
        this.send(hostMessage({ type: 'notice', level: 'warning', text: 'That run is no longer available.' }));
        this.runId = null;
        this.follow = true;
      }
    }
    this.port.setTitle?.(run ? `MassGen: ${run.title}` : 'MassGen Vote Viewer');
    this.send(hostMessage({ type: 'snapshot', run, follow: this.follow, history: this.hub.runs(), setup: this.hub.setup, pending: this.hub.pending }));
    // The page rebuilt: the approvals waiting now (their agents' columns show those of this run).
    const approvals = this.hub.approvalsMessage();
    if (approvals) this.send(approvals);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribe();
    this.coalescer.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.onDispose();
  }
}

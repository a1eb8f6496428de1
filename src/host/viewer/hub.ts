// The vote viewer's host side, free of `vscode` so it runs in Node tests and the benchmark: it follows the runs of
// the RunManager (keeping the viewer extras next to each run's RunState, for as long as the RunManager keeps the
// run), and serves any number of webviews (the sidebar view, the editor panel), one ViewerConnection each
// (connection.ts), through ports.

import type { RunEvent } from '../../core/engine/events';
import type { RunState } from '../../core/engine/run-state';
import { hostMessage, type ApplyState, type ApprovalChoice, type HistoryEntry, type HostMessage, type PendingApproval, type PendingRun, type Setup } from '../../protocol/messages';
import { applyExtras, emptyExtras, type ViewerExtras } from '../../protocol/state';
import type { CoalescerOptions } from './coalescer';
import { ViewerConnection } from './connection';
import { summarize, type RunHistory } from './history';

export interface Disposable {
  dispose(): void;
}

/** What the viewer needs of a RunSession (structural, so tests can fake it). */
export interface LiveRun {
  readonly id: string;
  readonly title: string;
  readonly state: RunState;
  subscribe(listener: (event: RunEvent, state: RunState) => void): Disposable;
  cancel(): void;
  cancelAgent(agentId: string): void;
  /** Ends the run now with the best current answer (end reason user_stop). */
  answerNow(): void;
  /** Runs with escalation stages: each stage's agent ids, in calling order (null: no stages). */
  readonly stages: readonly (readonly string[])[] | null;
  /** Calls the next escalation stage now; throws, in words, when none is left, one is on its way or the run ended. */
  escalate(): void;
  /** The user's note to every live agent or one; throws, in words, when it cannot be sent. */
  note(text: string, options: { agentId?: string; changesTask?: boolean }): void;
  /** Workspace runs: the unified patch of an answer version (`agentK.M`), kept by the run session. */
  patchOf?(versionLabel: string): string | undefined;
}

/** The window's command approval queue (src/host/run/approval-queue.ts), as the viewer sees it. */
export interface ApprovalFeed {
  readonly pending: PendingApproval[];
  onDidChange(listener: () => void): Disposable;
  /** False when the request no longer waits (answered in its notification, or its run or agent stopped). */
  answer(id: string, choice: ApprovalChoice): boolean;
}

/** What the viewer needs of the RunManager. */
export interface RunSource {
  onDidStart(listener: (run: LiveRun) => void): Disposable;
  /** A run is no longer kept (the source alone decides which runs are): its feed goes; the history keeps it. */
  onDidDrop(listener: (runId: string) => void): Disposable;
  readonly latest: LiveRun | undefined;
  find(id: string): LiveRun | undefined;
  /** What the user asked, in their words (the engine's task, `state.question`, may wrap it in history and context). */
  promptOf?(id: string): string | undefined;
  /** Commands waiting for the user's approval: shown in their agents' columns, answered from there. */
  readonly approvals?: ApprovalFeed;
  /** The run about to start that waits for the user's answer (run/pending-run.ts). */
  readonly pending?: PendingSource;
}

export interface PendingSource {
  readonly shown: PendingRun | null;
  onDidChange(listener: () => void): Disposable;
  /** False when that question is no longer open. */
  answer(id: string, use: boolean): boolean;
}

/** One webview (view or panel), as the hub sees it. */
export interface ViewerPort {
  /** Resolves (or returns) false when the webview could not take the message (hidden, disposed). */
  post(message: HostMessage): boolean | PromiseLike<boolean>;
  onMessage(listener: (raw: unknown) => void): Disposable;
  /** Hidden webviews (no retainContextWhenHidden) lose their page: stop sending, wait for `ready`. */
  onVisibility?(listener: (visible: boolean) => void): Disposable;
  /** The panel's tab title follows the shown run. */
  setTitle?(title: string): void;
}

export interface ViewerServices {
  executeCommand(command: string, ...args: unknown[]): PromiseLike<unknown>;
  copy(text: string): PromiseLike<void>;
  openExternal(url: string): PromiseLike<boolean>;
  openPanel(runId: string | null): void;
  /** The team the next run would use. */
  setup(): Setup | PromiseLike<Setup>;
  /** What can be done with a live run's winner in the editor (preview, apply, undo). */
  applyState(runId: string): ApplyState;
  /** "Continue with this note": starts the follow-up of a run with a note that reached no agent; the new run's id. */
  continueWithNote(runId: string, noteId: string): PromiseLike<string>;
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
  now?(): number;
}

export interface HubOptions {
  coalescer?: CoalescerOptions;
  /** Quiet time after the last delta before the `head` message (default 1000 ms). */
  headDelayMs?: number;
}

/** Nothing to apply: stored runs, and runs not started from an editor. */
const NO_APPLY: ApplyState = { kind: 'selection', status: 'none', target: null };

export class RunFeed {
  readonly extras: ViewerExtras = emptyExtras();
  readonly listeners = new Set<(event: RunEvent) => void>();
  readonly startedAt: number;
  private readonly subscription: Disposable;

  constructor(readonly run: LiveRun, now: number, onEnded: (feed: RunFeed) => void, private readonly prompt?: string) {
    // Runs are announced before their first event, so the extras fold every event. A run followed late (a viewer
    // opened mid-run) starts its extras from the agents its state lists.
    for (const a of run.state.agents) this.extras.agents[a.id] = { tools: [], toolsDropped: 0, lastFailure: null, lastFailureCause: null, streamedChars: 0 };
    this.startedAt = now - run.state.elapsedMs;
    this.subscription = run.subscribe((event, state) => {
      applyExtras(this.extras, event, state);
      for (const l of this.listeners) l(event);
      if (event.type === 'run_ended') onEnded(this);
    });
  }

  get running(): boolean {
    return this.run.state.phase !== 'done';
  }

  /** The user's words, else the engine's task (known from `run_started` on). */
  get task(): string {
    return this.prompt ?? this.run.state.question;
  }

  dispose(): void {
    this.subscription.dispose();
    this.listeners.clear();
  }
}

export class ViewerHub implements Disposable {
  private readonly feeds = new Map<string, RunFeed>();
  private readonly connections = new Set<ViewerConnection>();
  private readonly subscriptions: Disposable[];
  private disposed = false;
  /** The next run's team, once worked out (snapshots carry it; a `setup` message follows each change). */
  setup: Setup | null = null;
  private setupToken = 0;

  constructor(
    private readonly source: RunSource,
    readonly history: RunHistory | null,
    readonly services: ViewerServices,
    readonly options: HubOptions = {},
  ) {
    this.subscriptions = [source.onDidStart((run) => this.track(run)), source.onDidDrop((id) => this.drop(id))];
    if (source.approvals) this.subscriptions.push(source.approvals.onDidChange(() => this.broadcastApprovals()));
    if (source.pending) this.subscriptions.push(source.pending.onDidChange(() => this.broadcast(hostMessage({ type: 'pending', pending: this.pending }))));
    const latest = source.latest;
    if (latest) this.track(latest);
    void this.setupChanged();
    void history?.load().then(
      () => this.broadcastHistory(),
      (err) => services.log.warn(`vote viewer: could not read past runs: ${(err as Error).message}`),
    );
  }

  now(): number {
    return this.services.now?.() ?? Date.now();
  }

  /** Starts following a run (called for every run the RunManager starts). */
  track(run: LiveRun): void {
    if (this.disposed || this.feeds.has(run.id)) return;
    this.feeds.set(run.id, new RunFeed(run, this.now(), (feed) => void this.persist(feed), this.source.promptOf?.(run.id)));
    for (const c of this.connections) c.runStarted(run.id);
  }

  private drop(runId: string): void {
    this.feeds.get(runId)?.dispose();
    this.feeds.delete(runId);
  }

  feed(id: string): RunFeed | undefined {
    return this.feeds.get(id);
  }

  latestRunId(): string | null {
    const ids = [...this.feeds.keys()];
    return ids.length ? ids[ids.length - 1] : (this.history?.list()[0]?.id ?? null);
  }

  /** Live runs (newest first), then stored ones. */
  runs(): HistoryEntry[] {
    const live = [...this.feeds.values()].reverse().map((f) => summarize(f.run.id, f.run.title, f.task, f.run.state, true));
    const stored = (this.history?.list() ?? []).filter((e) => !this.feeds.has(e.id));
    return [...live, ...stored].slice(0, 60);
  }

  connect(port: ViewerPort, initial: { runId: string | null; follow: boolean } = { runId: null, follow: true }): ViewerConnection {
    const c = new ViewerConnection(this, port, initial, () => this.connections.delete(c));
    this.connections.add(c);
    return c;
  }

  /** The run about to start that waits for the user's answer, if any. */
  get pending(): PendingRun | null {
    return this.source.pending?.shown ?? null;
  }

  /** The viewer's answer to the pending run's question; false when it is no longer open. */
  answerPending(id: string, use: boolean): boolean {
    return this.source.pending?.answer(id, use) ?? false;
  }

  private broadcast(message: HostMessage): void {
    for (const c of this.connections) c.send(message);
  }

  /** Shows a run (or the latest, with `null`) in every connected webview. */
  show(runId: string | null): void {
    for (const c of this.connections) c.show(runId);
  }

  /** Works out the next run's team again and sends it to every webview (the latest call wins). */
  async setupChanged(): Promise<void> {
    const token = ++this.setupToken;
    let setup: Setup;
    try {
      setup = await this.services.setup();
    } catch (err) {
      this.services.log.warn(`vote viewer: could not work out the next run's team: ${(err as Error).message}`);
      return;
    }
    if (token !== this.setupToken || this.disposed) return;
    this.setup = setup;
    this.broadcast(hostMessage({ type: 'setup', setup }));
  }

  /** What a run's winner offers (a stored run: nothing). */
  applyState(runId: string): ApplyState {
    return this.feeds.has(runId) ? this.services.applyState(runId) : NO_APPLY;
  }

  /** A run's apply state changed: the webviews showing it are told. */
  applyChanged(runId: string): void {
    if (!this.feeds.has(runId)) return;
    const apply = this.services.applyState(runId);
    for (const c of this.connections) if (c.shownRunId === runId) c.send(hostMessage({ type: 'apply', runId, apply }));
  }

  /** The approvals message for a webview, or null when this window has no approval queue. */
  approvalsMessage(): HostMessage | null {
    return this.source.approvals ? hostMessage({ type: 'approvals', approvals: this.source.approvals.pending }) : null;
  }

  /** The user answered an approval in a webview; one that no longer waits is ignored. */
  answerApproval(id: string, choice: ApprovalChoice): void {
    this.source.approvals?.answer(id, choice);
  }

  private broadcastApprovals(): void {
    const message = this.approvalsMessage();
    if (message) this.broadcast(message);
  }

  broadcastHistory(): void {
    const runs = this.runs();
    this.broadcast(hostMessage({ type: 'history', runs }));
  }

  private async persist(feed: RunFeed): Promise<void> {
    this.broadcastHistory();
    // The winner is known now: what it offers to apply, too.
    this.applyChanged(feed.run.id);
    if (!this.history) return;
    try {
      await this.history.save(feed.run.id, feed.run.title, feed.task, { state: structuredClone(feed.run.state), extras: structuredClone(feed.extras) });
    } catch (err) {
      this.services.log.warn(`vote viewer: could not store run ${feed.run.id}: ${(err as Error).message}`);
    }
    this.broadcastHistory();
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    for (const c of [...this.connections]) c.dispose();
    for (const f of this.feeds.values()) f.dispose();
    this.feeds.clear();
  }
}

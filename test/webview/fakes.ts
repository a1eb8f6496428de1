// Host-side fakes for the vote viewer tests: runs that replay recorded events (a RunManager stand-in), the
// extension services the viewer calls (commands, clipboard, links), and an in-memory history directory.

import type { RunEvent, RunEventBody } from '../../src/core/engine/events';
import { applyEvent, initialRunState, type RunState } from '../../src/core/engine/run-state';
import { PendingRuns } from '../../src/host/run/pending-run';
import type { HistoryFs } from '../../src/host/viewer/history';
import type { Disposable, LiveRun, RunSource, ViewerServices } from '../../src/host/viewer/hub';
import type { ApplyState, Setup } from '../../src/protocol/messages';

export class FakeRun implements LiveRun {
  readonly state: RunState = initialRunState();
  private readonly listeners = new Set<(event: RunEvent, state: RunState) => void>();
  cancelled = false;
  readonly cancelledAgents: string[] = [];
  /** Workspace runs: each answer version's patch, as the run session keeps them. */
  readonly patches = new Map<string, string>();
  /** patchOf calls, by version (the hub asks once per version and page). */
  readonly patchRequests: string[] = [];
  /** Notes the run was given, as `note()` got them. */
  readonly notes: { text: string; agentId?: string; changesTask?: boolean }[] = [];
  answeredNow = false;
  /** Runs with escalation stages: the plan, as the session derives it from the config. */
  stages: string[][] | null = null;
  /** escalate() calls; when `escalateError` is set it throws that (as the engine does with no stage left). */
  escalations = 0;
  escalateError: string | null = null;
  /** When set, `note()` throws this (as the engine does for an agent that failed meanwhile). */
  noteError: string | null = null;

  constructor(readonly id: string, readonly title: string) {}

  subscribe(listener: (event: RunEvent, state: RunState) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  emit(event: RunEvent): void {
    applyEvent(this.state, event);
    for (const l of this.listeners) l(event, this.state);
  }

  cancel(): void {
    this.cancelled = true;
  }

  cancelAgent(agentId: string): void {
    this.cancelledAgents.push(agentId);
  }

  answerNow(): void {
    this.answeredNow = true;
  }

  escalate(): void {
    this.escalations++;
    if (this.escalateError) throw new Error(this.escalateError);
  }

  /** As the engine does: the note goes to the live agents (or the one) and shows up as a note_added event. */
  note(text: string, options: { agentId?: string; changesTask?: boolean }): void {
    this.notes.push({ text, ...options });
    if (this.noteError) throw new Error(this.noteError);
    const live = this.state.agents.filter((a) => a.status !== 'failed' && (!options.agentId || a.id === options.agentId));
    this.emitBody({ type: 'note_added', noteId: `note${this.notes.length}`, text: text.trim(), agentIds: live.map((a) => a.id), changesTask: Boolean(options.changesTask) });
  }

  /** Emits the next event of the run (seq and time after the last one). */
  emitBody(body: RunEventBody): void {
    this.emit({ ...body, seq: this.state.lastSeq + 1, t: this.state.elapsedMs + 10 } as RunEvent);
  }

  patchOf(versionLabel: string): string | undefined {
    this.patchRequests.push(versionLabel);
    return this.patches.get(versionLabel);
  }
}

export class FakeSource implements RunSource {
  private readonly runs: FakeRun[] = [];
  /** The user's words per run (RunManager.promptOf). */
  readonly prompts = new Map<string, string>();
  private readonly listeners = new Set<(run: LiveRun) => void>();
  private readonly dropListeners = new Set<(runId: string) => void>();
  /** The run waiting for the user's answer, as the RunManager keeps it. */
  readonly pending = new PendingRuns();

  onDidStart(listener: (run: LiveRun) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  onDidDrop(listener: (runId: string) => void): Disposable {
    this.dropListeners.add(listener);
    return { dispose: () => this.dropListeners.delete(listener) };
  }

  /** Stops keeping a run, as the RunManager does past its history size. */
  drop(id: string): void {
    this.runs.splice(this.runs.findIndex((r) => r.id === id), 1);
    for (const l of this.dropListeners) l(id);
  }

  get latest(): FakeRun | undefined {
    return this.runs[this.runs.length - 1];
  }

  find(id: string): FakeRun | undefined {
    return this.runs.find((r) => r.id === id);
  }

  promptOf(id: string): string | undefined {
    return this.prompts.get(id);
  }

  /** Starts a run the way the RunManager does: the first events are folded before listeners hear of the run. */
  start(id: string, title: string, first: RunEvent[] = [], prompt?: string): FakeRun {
    const run = new FakeRun(id, title);
    if (prompt !== undefined) this.prompts.set(id, prompt);
    for (const e of first) run.emit(e);
    this.runs.push(run);
    for (const l of this.listeners) l(run);
    return run;
  }
}

export class FakeServices implements ViewerServices {
  readonly commands: unknown[][] = [];
  readonly copied: string[] = [];
  readonly opened: string[] = [];
  readonly panels: (string | null)[] = [];
  readonly logs: string[] = [];
  setupValue: Setup = { source: 'chat-models', from: 'your VS Code chat models', agents: [], problem: null };
  /** Each run's apply state, as RunPreviews keeps it (default: nothing to apply). */
  readonly applyStates = new Map<string, ApplyState>();
  /** A fixed clock for tests of timing (rate limits); null = the real one. */
  clock: number | null = null;
  readonly log = {
    info: (m: string) => this.logs.push(`info ${m}`),
    warn: (m: string) => this.logs.push(`warn ${m}`),
    error: (m: string) => this.logs.push(`error ${m}`),
  };

  executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
    this.commands.push([command, ...args]);
    return Promise.resolve(undefined);
  }

  copy(text: string): Promise<void> {
    this.copied.push(text);
    return Promise.resolve();
  }

  openExternal(url: string): Promise<boolean> {
    this.opened.push(url);
    return Promise.resolve(true);
  }

  openPanel(runId: string | null): void {
    this.panels.push(runId);
  }

  setup(): Setup {
    return this.setupValue;
  }

  applyState(runId: string): ApplyState {
    return this.applyStates.get(runId) ?? { kind: 'selection', status: 'none', target: null };
  }

  /** "Continue with this note" requests, as [runId, noteId]; answered with `continued` (or its failure). */
  readonly continued: [string, string][] = [];
  continueResult: () => Promise<string> = () => Promise.resolve('run-followup');

  continueWithNote(runId: string, noteId: string): Promise<string> {
    this.continued.push([runId, noteId]);
    return this.continueResult();
  }

  now(): number {
    return this.clock ?? Date.now();
  }
}

export class MemoryFs implements HistoryFs {
  readonly files = new Map<string, string>();
  async read(name: string): Promise<string | undefined> {
    return this.files.get(name);
  }
  async write(name: string, content: string): Promise<void> {
    this.files.set(name, content);
  }
  async remove(name: string): Promise<void> {
    this.files.delete(name);
  }
}


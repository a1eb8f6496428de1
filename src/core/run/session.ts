// One run from config to result, the same for every front end (the CLI, the extension, the MCP server, eval and the
// language-model tool): it builds the agents' providers, opens what they work with (scratch folders or copies of the
// workspace, MCP servers), starts the engine, folds its events into the one RunState, keeps the record on disk when
// asked, hands every event to the listeners, and, however the run ends, takes the winner's change and closes
// everything it opened. Listeners that subscribe before `start()` see every event.
//
// Its lifetime is explicit: `result` settles only once everything is closed (the engine's `run_ended` comes
// before that), the session lets go of the caller's signal and its listeners when the run ends, and `dispose()`
// closes a session however far it got, including one prepared and never started.
//
// The run belongs to the engine: what watches it (the work area, the record, the listeners) can fail without
// failing it. Each is called inside its own guard, and every such problem reaches the front end once, through
// `onWarning`.

import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import type { MassGenConfig } from '../config/types';
import type { RunEvent } from '../engine/events';
import { stagesFor } from '../engine/escalation';
import { Orchestrator } from '../engine/orchestrator';
import type { AgentToolbox, EngineAgent, RunResult } from '../engine/ports';
import type { RetryPolicy } from '../engine/retry';
import { applyEvent, initialRunState, type RunState } from '../engine/run-state';
import { readingTools } from '../harness/reading-tools';
import { combineToolboxes } from '../tools/combine';
import type { ExtraProviderFactory } from '../providers/factory';
import { errorMessage } from '../util/errors';
import { SessionSetupError } from './errors';
import { openCommandTools, wantsCommands, type CommandsOption } from './command-tools';
import { openMcpTools, usesMcp, type McpWiring, type RunMcpTools } from './mcp-tools';
import { openWorkArea } from './open-work-area';
import { openChecks, type ChecksOption } from './checks';
import { continuationTask, type PreviousRun } from './continuation';
import { RunRecorder, type RecordOptions } from './recorder';
import { buildAgents } from './team';
import { openHarnessFolders, type HarnessFolders } from './harness-folders';
import type { FilesOption, WinnerChange, WorkArea } from './work-area';

export interface RunSessionOptions {
  task: string;
  /** The resolved config: agents, orchestrator settings, timeouts (front ends apply their overrides first). */
  config: MassGenConfig;
  /** For logs and views, e.g. "Refactor parse() in util.ts". */
  title?: string;
  runId?: string;
  /** Providers for backends only the host can reach (VS Code's chat models). */
  extraProviders?: ExtraProviderFactory;
  mcp?: McpWiring;
  files?: FilesOption;
  /**
   * Commands in the agents' copies (workspace runs); off unless given here or enabled per agent in the config. Its
   * `network` is also the network of the commands coding agents (claude_code, codex) run themselves, in any run.
   */
  commands?: CommandsOption;
  /** The project's checks (the config's `orchestrator.checks`): how to ask before running them unsandboxed. */
  checks?: ChecksOption;
  /** Keep the log directory and status.json. */
  record?: RecordOptions;
  /** A follow-up: the agents get the earlier run's question, answer and change with `task`; its log folder is recorded. */
  continues?: PreviousRun;
  /** External cancel (Ctrl-C, a chat's cancellation); `cancel()` does the same. */
  signal?: AbortSignal;
  /**
   * Something went wrong beside the run, which goes on: a listener threw, the log folder cannot be written, a note
   * queued before the start could not be sent, the winner's change could not be read. Each distinct problem once.
   */
  onWarning?(message: string): void;
  /** Engine knobs for tests and benchmarks. */
  engine?: { retry?: Partial<RetryPolicy>; now?: () => Date; random?: () => number };
}

export interface SessionResult extends RunResult {
  /** Workspace and scratch runs: the change of the winning version. */
  change?: WinnerChange;
  /** Recorded runs: the log directory, the final answer's file and the winner's patch. */
  logDir?: string;
  answerFile?: string;
  changeFile?: string;
}

export type SessionListener = (event: RunEvent, state: RunState) => void;

export interface Disposable {
  dispose(): void;
}

/** What `prepare` opened, for `start` to run with and close. */
interface Prepared {
  orchestrator: Orchestrator;
  /** The agents' providers: coding agents' programs run until the run closes them. */
  team: EngineAgent[];
  area: WorkArea | undefined;
  harnessFolders: HarnessFolders | undefined;
  mcp: RunMcpTools | undefined;
  recorder: RunRecorder | undefined;
}

export class RunSession {
  readonly id: string;
  readonly title: string;
  readonly state: RunState = initialRunState();
  private readonly listeners = new Set<SessionListener>();
  private readonly abort = new AbortController();
  private prepared: Promise<Prepared> | undefined;
  private engine: Orchestrator | undefined;
  /** The work area, kept after it is disposed: it owns the answers' patches. */
  private area: WorkArea | undefined;
  /** Agents cancelled before the engine existed; it stops them when it starts. */
  private readonly cancelledAgents = new Set<string>();
  private answerAtStart = false;
  /** `escalate()` came before the engine existed (copies still being made): the next stage joins as the run starts. */
  private escalateAtStart = false;
  private engineStarted = false;
  private readonly notesAtStart: { text: string; options: { agentId?: string; changesTask?: boolean } }[] = [];
  private run: Promise<SessionResult> | undefined;
  private finished = false;
  private disposal: Promise<void> | undefined;
  private readonly warned = new Set<string>();
  private readonly onOuterAbort = () => this.abort.abort();
  private settle!: { resolve(result: SessionResult): void; reject(err: unknown): void };
  /**
   * The run's result once it has ended and everything it opened is closed; settles as `start()` does and never
   * starts the run itself. A session disposed before it started rejects it with a `cancelled` SessionSetupError.
   */
  readonly result: Promise<SessionResult>;

  constructor(private readonly options: RunSessionOptions) {
    this.id = options.runId ?? randomUUID();
    this.title = options.title ?? options.task.slice(0, 60);
    this.result = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    // Whoever wants the result awaits it; a session nobody asks must not raise an unhandled rejection.
    this.result.catch(() => undefined);
    const outer = options.signal;
    if (outer?.aborted) this.abort.abort();
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  /** Every event, after it is folded into `state`. Subscribe before `start()` to see the first ones. */
  subscribe(listener: SessionListener): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Builds the providers and opens what the agents work with (copies, scratch folders, MCP), emitting nothing.
   * Rejects with a SessionSetupError, having closed whatever it opened. Idempotent; `start` calls it too.
   */
  prepare(): Promise<void> {
    return this.opened().then(() => undefined);
  }

  /**
   * Runs once (later calls return the same promise), resolving when everything is closed; rejects only as `prepare`
   * does, before any event, or when the session was disposed first.
   */
  start(): Promise<SessionResult> {
    if (this.disposal && !this.run) return Promise.reject(closedBeforeStart());
    if (!this.run) {
      this.run = this.execute().finally(() => this.end());
      this.run.then(this.settle.resolve, this.settle.reject);
    }
    return this.run;
  }

  /**
   * Closes the session however far it got: a run going is cancelled and awaited until it has closed what it opened;
   * what `prepare()` opened is closed when `start()` never ran. Idempotent; never rejects.
   */
  dispose(): Promise<void> {
    if (!this.disposal) {
      this.cancel();
      this.disposal = this.run ? this.run.then(ignore, ignore) : this.closeUnstarted();
    }
    return this.disposal;
  }

  private async closeUnstarted(): Promise<void> {
    // The cancel above stops a `prepare()` in flight from making more copies; what it made is closed here.
    const prepared = await this.prepared?.catch(() => undefined);
    if (prepared) await this.close(prepared);
    this.end();
    this.settle.reject(closedBeforeStart());
  }

  /** Nothing more to hear and nothing to cancel: let go of the listeners and the caller's (possibly long-lived) signal. */
  private end(): void {
    this.finished = true;
    this.listeners.clear();
    this.options.signal?.removeEventListener('abort', this.onOuterAbort);
  }

  get running(): boolean {
    return !this.finished;
  }

  /**
   * Stops the run: requests in flight are aborted; it ends with reason `cancelled` and proposes nothing (no winner,
   * no final answer, no change; the answers stay in the state and the log). `answerNow` takes the best answer.
   */
  cancel(): void {
    this.abort.abort();
  }

  /** Ends the run now with the best current answer (end reason `user_stop`). */
  answerNow(): void {
    if (this.engine) this.engine.answerNow();
    else this.answerAtStart = true;
  }

  /**
   * The user's note to every live agent, or to one (by config id); `changesTask` makes the current votes stale.
   * Throws, in words, when the run is not running or the agent is unknown.
   */
  note(text: string, options: { agentId?: string; changesTask?: boolean } = {}): void {
    // Before the engine runs (copies still being made), the note waits and goes out as the run starts.
    if (this.engine && this.engineStarted) this.engine.note(text, options);
    else if (this.finished) throw new Error('the run has ended');
    else this.notesAtStart.push({ text, options });
  }

  /**
   * The user's "escalate now" in a run with escalation stages: the next stage joins (reason `user_note`). Throws, in
   * words, when the run has no stage left to call or has ended.
   */
  escalate(): void {
    if (this.finished) throw new Error('the run has ended');
    else if (this.engine) this.engine.escalate();
    else if (!this.options.config.orchestrator.escalation) throw new Error('this run has no escalation stages (orchestrator.escalation)');
    else this.escalateAtStart = true;
  }

  /** Runs with escalation stages: each stage's agent ids, in the order the engine calls them; null without stages. */
  get stages(): string[][] | null {
    const { config } = this.options;
    return stagesFor(config.orchestrator.escalation, config.agents.map((a) => a.id))?.stages ?? null;
  }

  /** Stops one agent; the run goes on with the others. */
  cancelAgent(agentId: string): void {
    if (this.engine) this.engine.cancelAgent(agentId);
    else this.cancelledAgents.add(agentId);
  }

  /** The patch of an answer version in a workspace run (kept after the copies are gone, while memory allows). */
  patchOf(versionLabel: string): string | undefined {
    return this.area?.patchOf?.(versionLabel);
  }

  private async setup(): Promise<Prepared> {
    const { options } = this;
    const { config } = options;
    let harnessFolders: HarnessFolders | undefined;
    const reading = new Map<number, AgentToolbox>();
    // A program's folder and reading tools are made below, before its first turn asks for them.
    const agents = buildAgents(config.agents, options.extraProviders, {
      env: process.env,
      home: homedir(),
      folderOf: (i) => harnessFolders!.folderOf(i),
      readingOf: (i) => reading.get(i),
      // The user's own setting, never a config's: nobody approves a program's commands.
      network: Boolean(options.commands?.network),
    });
    const labels = agents.map((_, i) => `agent${i + 1}`);
    let recorder: RunRecorder | undefined;
    let area: WorkArea | undefined;
    let mcp: RunMcpTools | undefined;
    let team: EngineAgent[] = agents;
    try {
      recorder = options.record ? new RunRecorder({ ...options.record, continuedFrom: options.continues }, this.state, (message) => this.warn(message)) : undefined;
      area = options.files ? await openWorkArea(options.files, this.id, labels, this.abort.signal) : undefined;
      harnessFolders = await openHarnessFolders(config.agents, labels, area, this.id);
      const commands = area && wantsCommands(config.agents, options.commands) ? await openCommandTools(config.agents, options.commands, area) : undefined;
      if (usesMcp(config.agents, options.mcp)) mcp = await openMcpTools({ ...options.mcp, log: options.mcp?.log ?? recorder?.mcpLog });
      team = agents.map((agent, i) => {
        // A coding agent's program brings its own tools; its folder is still snapshotted at each answer.
        if (config.agents[i].backend.family === 'harness') {
          const files = area?.toolbox(labels[i]);
          if (files) reading.set(i, readingTools(files));
          return { ...agent, workspace: area?.workspace?.(labels[i]) };
        }
        const toolboxes = [area?.toolbox(labels[i]), commands?.toolboxFor(i, labels[i]), mcp?.toolboxFor(config.agents[i])].filter((t) => t !== undefined);
        const toolbox = toolboxes.length > 1 ? combineToolboxes(...toolboxes) : toolboxes[0];
        return { ...agent, toolbox, workspace: area?.workspace?.(labels[i]) };
      });
      const checks = await openChecks(config, area, options.checks);
      const programsOnline = options.commands?.network && config.agents.some((a) => a.backend.family === 'harness');
      const notes = [
        ...(commands ? [commands.note] : []),
        ...(programsOnline ? ["the coding agents' own commands (Claude Code, Codex) may use the network, as the user's setting allows"] : []),
        ...(checks.note ? [checks.note] : []),
      ];
      const info = area?.info && notes.length ? { ...area.info, notes: [...area.info.notes, ...notes] } : area?.info;
      const orchestrator = new Orchestrator({
        task: options.continues ? continuationTask(options.continues, options.task) : options.task,
        agents: team,
        orchestrator: config.orchestrator,
        timeouts: config.timeouts,
        onEvent: (event) => this.dispatch(event, recorder, area),
        signal: this.abort.signal,
        runId: this.id,
        workspace: info,
        checks: checks.checks,
        ...options.engine,
      });
      this.engine = orchestrator;
      this.area = area;
      for (const id of this.cancelledAgents) orchestrator.cancelAgent(id);
      if (this.escalateAtStart) this.guard('escalation', () => orchestrator.escalate());
      return { orchestrator, team, area, harnessFolders, mcp, recorder };
    } catch (err) {
      await this.close({ team, area, harnessFolders, mcp, recorder });
      if (err instanceof SessionSetupError) throw err;
      if (this.abort.signal.aborted) throw new SessionSetupError('cancelled', 'cancelled before the agents started');
      throw new SessionSetupError('environment', errorMessage(err));
    }
  }

  private async execute(): Promise<SessionResult> {
    const prepared = await this.opened();
    const { orchestrator, area, recorder } = prepared;
    let result: SessionResult;
    let changeFile: string | undefined;
    try {
      const running = orchestrator.run();
      this.engineStarted = true;
      for (const n of this.notesAtStart.splice(0)) this.tryNote(n.text, n.options);
      if (this.answerAtStart) orchestrator.answerNow();
      result = await running;
      if (area && result.winnerLabel) result.change = await this.winnerChange(area, result.winnerLabel);
      if (recorder && result.winnerId && result.change && this.options.files?.kind === 'workspace') changeFile = recorder.writeWinnerChange(result.winnerId, result.change.patch);
    } finally {
      await this.close(prepared);
    }
    if (recorder) {
      result.logDir = recorder.logDir;
      // A log that failed may lack these files: name only what is there.
      if (recorder.intact && result.winnerId) result.answerFile = recorder.finalAnswerPath(result.winnerId);
      if (recorder.intact && changeFile) result.changeFile = changeFile;
    }
    return result;
  }

  /** Reports a problem beside the run, once; a front end's reporter that throws is not allowed to stop it either. */
  private warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    try {
      this.options.onWarning?.(message);
    } catch {
      // Nowhere left to report it.
    }
  }

  /** Runs one sink (the work area, the record, a listener) so that its failure is reported, not thrown into the run. */
  private guard(sink: string, deliver: () => void): void {
    try {
      deliver();
    } catch (err) {
      this.warn(`${sink} failed: ${errorMessage(err)}`);
    }
  }

  /** A queued note: sent now, or reported (an agent that failed meanwhile) without stopping the run. */
  private tryNote(text: string, options: { agentId?: string; changesTask?: boolean }): void {
    try {
      this.engine?.note(text, options);
    } catch (err) {
      this.warn(`a note was not sent: ${errorMessage(err)}`);
    }
  }

  private opened(): Promise<Prepared> {
    if (this.disposal && !this.prepared) return Promise.reject(closedBeforeStart());
    // A session that cannot be set up can never run: it lets go of the caller's signal as a finished one does.
    this.prepared ??= this.setup().catch((err: unknown) => {
      this.end();
      this.settle.reject(err);
      throw err;
    });
    return this.prepared;
  }

  /** The winner's change, or undefined with the reason reported when it cannot be read (the answer still stands). */
  private async winnerChange(area: WorkArea, versionLabel: string): Promise<WinnerChange | undefined> {
    try {
      return await area.winnerChange(versionLabel);
    } catch (err) {
      this.warn(`the winner's change could not be read: ${errorMessage(err)}`);
      return undefined;
    }
  }

  private dispatch(event: RunEvent, recorder: RunRecorder | undefined, area: WorkArea | undefined): void {
    applyEvent(this.state, event);
    if (event.type === 'answer_added' && area) {
      this.guard('the work area', () => {
        const agentLabel = event.label.slice(0, event.label.lastIndexOf('.'));
        area.answerAccepted(agentLabel, event.label, event.change);
        const patch = area.patchOf?.(event.label);
        if (patch !== undefined) recorder?.writeAnswerPatch(event.agentId, event.label, patch);
      });
    }
    if (recorder) this.guard('the run log', () => recorder.onEvent(event));
    for (const listener of this.listeners) this.guard('a listener', () => listener(event, this.state));
  }

  /**
   * Closes what a run opened, in the order nothing depends on: the coding agents' programs (they work in the copies),
   * MCP servers, the copies and folders, then the record. Never throws.
   */
  private async close(opened: Partial<Omit<Prepared, 'orchestrator'>>): Promise<void> {
    await Promise.all((opened.team ?? []).map((agent) => agent.provider.close?.().catch((err) => this.warn(`${agent.id}'s program did not stop cleanly: ${errorMessage(err)}`))));
    await opened.mcp?.close().catch((err) => this.warn(`the MCP servers did not close cleanly: ${errorMessage(err)}`));
    await opened.harnessFolders?.dispose();
    await opened.area?.dispose();
    await opened.recorder?.close();
  }
}

const ignore = () => undefined;

function closedBeforeStart(): SessionSetupError {
  return new SessionSetupError('cancelled', 'the run was closed before it started');
}

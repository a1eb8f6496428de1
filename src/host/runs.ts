// Runs the engine for the commands and the chat participant. Each run folds its events into a RunState (the one
// the views project from), logs a line per meaningful event to the "MassGen" log channel, and can be cancelled
// (the whole run or one agent). Secrets never reach the log: events carry none.

import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { formatIssue } from '../core/config/load';
import { describeEvent } from '../core/engine/describe';
import type { RunEvent } from '../core/engine/events';
import { Orchestrator } from '../core/engine/orchestrator';
import type { RunOptions, RunResult } from '../core/engine/ports';
import { applyEvent, initialRunState, type RunState } from '../core/engine/run-state';
import type { KeyStore } from './keys';
import { resolveRunConfig } from './run-config';
import { readMcpSettings, RunMcp } from './mcp';
import { buildTeam } from './team';
import { createFileToolbox } from '../core/workspace/file-tools';
import { createScratch, type Scratch, type SeedFile } from '../core/workspace/scratch';

export interface RunRequest {
  task: string;
  /** Short description for logs and views, e.g. "Refactor parse() in util.ts". */
  title: string;
  signal?: AbortSignal;
  /** The chat view's selected model, used first when no agents are configured. */
  preferredModel?: vscode.LanguageModelChat;
  /** Files the agents work on with file tools, each in its own scratch folder under `baseDir`. */
  files?: { baseDir: string; seed: SeedFile[] };
}

type Listener = (event: RunEvent, state: RunState) => void;

export class ActiveRun {
  readonly state: RunState = initialRunState();
  readonly startedAt = Date.now();
  private readonly listeners = new Set<Listener>();
  private readonly orchestrator: Orchestrator;
  readonly result: Promise<RunResult>;

  constructor(
    readonly id: string,
    readonly title: string,
    options: Omit<RunOptions, 'onEvent'>,
    /** Called for every event after the state is updated, before the listeners (logging). */
    private readonly observe: Listener,
    /** The agents' scratch folders when the run works on files; removed once the result is used. */
    readonly scratch?: Scratch,
  ) {
    this.orchestrator = new Orchestrator({ ...options, onEvent: (event) => this.dispatch(event) });
    this.result = this.orchestrator.run().finally(() => this.listeners.clear());
  }

  get running(): boolean {
    return this.state.phase !== 'done';
  }

  private dispatch(event: RunEvent): void {
    applyEvent(this.state, event);
    this.observe(event, this.state);
    for (const l of this.listeners) l(event, this.state);
  }

  onEvent(listener: Listener): vscode.Disposable {
    this.listeners.add(listener);
    return new vscode.Disposable(() => this.listeners.delete(listener));
  }

  cancel(): void {
    this.orchestrator.cancel();
  }

  cancelAgent(agentId: string): void {
    this.orchestrator.cancelAgent(agentId);
  }
}

export class RunManager implements vscode.Disposable {
  private readonly runs: ActiveRun[] = [];
  private readonly started = new vscode.EventEmitter<ActiveRun>();
  readonly onDidStart = this.started.event;

  constructor(private readonly keys: KeyStore, private readonly log: vscode.LogOutputChannel) {}

  get active(): ActiveRun[] {
    return this.runs.filter((r) => r.running);
  }

  get latest(): ActiveRun | undefined {
    return this.runs[this.runs.length - 1];
  }

  find(id: string): ActiveRun | undefined {
    return this.runs.find((r) => r.id === id);
  }

  /** Resolves the config and the team (throwing ConfigError / MissingKeyError / no-models errors), then starts. */
  async start(request: RunRequest): Promise<ActiveRun> {
    const runConfig = await resolveRunConfig(this.keys);
    if (runConfig.kind === 'configured') for (const w of runConfig.warnings) this.log.warn(formatIssue(w));
    let agents = await buildTeam(runConfig, request.preferredModel);
    const { config } = runConfig;
    const id = randomUUID();
    let scratch: Scratch | undefined;
    if (request.files) {
      const labelled = agents.map((a, i) => ({ id: a.id, label: `agent${i + 1}` }));
      scratch = await createScratch(request.files.baseDir, id, labelled);
      await scratch.seedAll(request.files.seed);
      const folders = scratch;
      agents = agents.map((a, i) => ({ ...a, toolbox: createFileToolbox(folders, labelled[i].label) }));
    }
    const mcp = new RunMcp(readMcpSettings(), this.log);
    agents = agents.map((a, i) => ({ ...a, toolbox: mcp.toolboxFor(a.id, runConfig.kind === 'configured' ? config.agents[i] : undefined, a.toolbox) }));
    this.log.info(`run "${request.title}": ${agents.length} agent(s) from ${config.source}: ${agents.map((a) => `${a.id} (${a.provider.description})`).join(', ')}`);
    const run = new ActiveRun(
      id,
      request.title,
      { task: request.task, agents, orchestrator: config.orchestrator, timeouts: config.timeouts, signal: request.signal },
      (event, state) => this.logEvent(event, state),
      scratch,
    );
    // Toolboxes close their own servers; the pool holds the shared ones.
    void run.result.finally(() => mcp.pool.close());
    this.runs.push(run);
    // Keep a bounded history for the views; runs are also persisted by the vote viewer.
    for (const old of this.runs.splice(0, Math.max(0, this.runs.length - 20))) void old.scratch?.dispose();
    this.started.fire(run);
    return run;
  }

  private logEvent(event: RunEvent, state: RunState): void {
    const line = describeEvent(event, state);
    if (!line) return;
    if (event.type === 'agent_failed' || (event.type === 'run_ended' && event.error)) this.log.error(line);
    else this.log.info(line);
  }

  cancelAll(): number {
    const active = this.active;
    for (const r of active) r.cancel();
    return active.length;
  }

  dispose(): void {
    this.cancelAll();
    for (const r of this.runs) void r.scratch?.dispose();
    this.started.dispose();
  }
}

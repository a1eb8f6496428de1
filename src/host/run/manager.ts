// Starts runs for the commands and the chat participant: resolves the config and the team, hands the run to a
// RunSession (core), and keeps the recent runs for the views. Listeners (the log channel, the caller's, the vote
// viewer through `onDidStart`) are attached before the session starts, so each sees every event. Secrets never
// reach the log: events carry none. It alone decides which runs are kept; the vote viewer and the previews let a
// run go when it fires `onDidDrop`.

import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { formatIssue } from '../../core/config/load';
import type { AgentConfig, MassGenConfig } from '../../core/config/types';
import type { CommandsOption } from '../../core/run/command-tools';
import { SessionSetupError } from '../../core/run/errors';
import type { PreviousRun } from '../../core/run/continuation';
import { RunSession, type SessionListener } from '../../core/run/session';
import type { FilesOption } from '../../core/run/work-area';
import { describeEvent } from '../../core/status/describe';
import { errorMessage } from '../../core/util/errors';
import { oneLine } from '../../core/util/text';
import type { KeyStore } from '../keys';
import { approvalToast } from '../ask';
import { mcpLogger, notificationApprover, readMcpSettings } from '../mcp';
import { answerNowRefusal } from './answer-now';
import { resolveRunConfig } from './config';
import { ApprovalQueue } from './approval-queue';
import { checksApprover } from './checks-approval';
import { commandApprover } from './command-approval';
import { commandsForRun } from './commands-policy';
import { nextTeam } from './next-team';
import { PendingRuns } from './pending-run';
import { teamFor } from './team';
import type { TeamProblem } from './team-problem';

export interface RunRequest {
  /** What the agents get (the question, attached context; a follow-up's previous run comes as `continues`). */
  task: string;
  /** Short description for logs and views, e.g. "Refactor parse() in util.ts". */
  title: string;
  /** What the user asked, in their words: the views show it as the run's task. Defaults to `task`. */
  prompt?: string;
  signal?: AbortSignal;
  /** The chat view's selected model, used first when no agents are configured. */
  preferredModel?: vscode.LanguageModelChat;
  /** What the agents work on: scratch copies of attached files, or copies of a workspace folder. */
  files?: FilesOption;
  /** The caller's own listener, attached before the first event. */
  onEvent?: SessionListener;
  /** A follow-up: the session gives the agents the earlier run's question, answer and change with `task`. */
  continues?: PreviousRun;
}

/** An agent as it ran: `persona` is the first sentence of its system message, when it has one. */
export interface RanAgent {
  id: string;
  provider: string;
  model: string;
  persona?: string;
}

function ranAgent(a: AgentConfig): RanAgent {
  const persona = a.systemMessage ? oneLine(a.systemMessage.split(/(?<=[.!?])\s/)[0] ?? '', 120) : '';
  return { id: a.id, provider: a.backend.type, model: a.backend.model, ...(persona ? { persona } : {}) };
}

/** Runs kept for the views in this window (the vote viewer also stores every run on disk). */
const KEPT_RUNS = 20;

export class RunManager implements vscode.Disposable {
  private readonly runs: RunSession[] = [];
  /** Sessions between `new` and the end of `prepare()`: not runs yet, but holding copies and MCP servers. */
  private readonly preparing = new Set<RunSession>();
  /** `closeAll` began (the window is closing): nothing more starts. */
  private closing = false;
  /** Each kept run's prompt (RunRequest.prompt) and the agents that ran, for the views. */
  private readonly info = new Map<string, { prompt: string; agents: RanAgent[]; files?: FilesOption }>();
  private readonly started = new vscode.EventEmitter<RunSession>();
  readonly onDidStart = this.started.event;
  private readonly dropped = new vscode.EventEmitter<string>();
  /** A run is no longer kept (its id): the oldest finished ones go past KEPT_RUNS; a run going is never dropped. */
  readonly onDidDrop = this.dropped.event;
  /** The commands agents of every run wait to run until the user answers (the notification, the vote viewer). */
  readonly approvals = new ApprovalQueue(approvalToast());
  /** The run about to start that waits for the user's answer (the checks question); the vote viewer shows it. */
  readonly pending = new PendingRuns();

  constructor(private readonly keys: KeyStore, private readonly log: vscode.LogOutputChannel) {}

  get active(): RunSession[] {
    return this.runs.filter((r) => r.running);
  }

  get latest(): RunSession | undefined {
    return this.runs[this.runs.length - 1];
  }

  find(id: string): RunSession | undefined {
    return this.runs.find((r) => r.id === id);
  }

  /** What the user asked for the run, in their words. */
  promptOf(id: string): string | undefined {
    return this.info.get(id)?.prompt;
  }

  /** The files a kept run's agents worked on (a follow-up works on the same). */
  filesOf(id: string): FilesOption | undefined {
    return this.info.get(id)?.files;
  }

  /** The agents a kept run ran with: models, providers and personas as configured (the run state has no personas). */
  agentsOf(id: string): RanAgent[] | undefined {
    return this.info.get(id)?.agents;
  }

  /** What would stop a run from starting now (checked as a run checks), or null when one can. */
  async problem(): Promise<TeamProblem | null> {
    return (await nextTeam(this.keys)).problem;
  }

  /**
   * Resolves the config and the team and prepares the run (copies, MCP servers), throwing ConfigError /
   * MissingKeyError / SessionSetupError / no-models errors with messages fit for a notification; then starts it.
   */
  async start(request: RunRequest): Promise<RunSession> {
    // A workspace run gets the project's checks, as set for the folder it runs on.
    const folder = request.files?.kind === 'workspace' && request.files.source ? vscode.Uri.file(request.files.source) : undefined;
    const runConfig = await resolveRunConfig(this.keys, folder);
    if (runConfig.kind === 'configured') for (const w of runConfig.warnings) this.log.warn(formatIssue(w));
    const team = await teamFor(runConfig, request.preferredModel);
    // The run's id is known before the session: its command approvals name it.
    const runId = randomUUID();
    const commands = this.commandsFor(request, team.config, runId);
    const session = new RunSession({
      runId,
      task: request.task,
      title: request.title,
      config: team.config,
      extraProviders: team.extraProviders,
      mcp: { approve: notificationApprover(), log: mcpLogger(this.log), processEnv: process.env, shared: readMcpSettings() },
      files: request.files,
      continues: request.continues,
      commands,
      checks: runConfig.checksFrom ? { approveUnsandboxed: checksApprover(), source: runConfig.checksFrom } : undefined,
      signal: request.signal,
      onWarning: (message) => this.log.warn(`run "${request.title}": ${message}`),
    });
    // A session being prepared is not in `runs` yet: closeAll must reach it too, and one prepared after the close
    // began is disposed instead of started.
    this.preparing.add(session);
    try {
      await session.prepare();
    } finally {
      this.preparing.delete(session);
    }
    if (this.closing) {
      await session.dispose();
      throw new SessionSetupError('cancelled', 'VS Code is closing the window');
    }
    this.log.info(`run "${request.title}": ${team.config.agents.length} agent(s) from ${team.config.source}: ${team.config.agents.map((a) => `${a.id} (${a.backend.type} ${a.backend.model})`).join(', ')}`);
    session.subscribe((event, state) => this.logEvent(event, state));
    if (request.onEvent) session.subscribe(request.onEvent);
    this.runs.push(session);
    this.info.set(session.id, { prompt: request.prompt ?? request.task, agents: team.config.agents.map(ranAgent), ...(request.files ? { files: request.files } : {}) });
    this.started.fire(session);
    this.prune();
    void session
      .start()
      .catch((err) => this.log.error(`run "${request.title}": ${errorMessage(err)}`))
      .finally(() => this.prune());
    return session;
  }

  private prune(): void {
    let excess = this.runs.length - KEPT_RUNS;
    for (let i = 0; excess > 0 && i < this.runs.length; ) {
      const run = this.runs[i];
      if (run.running) {
        i++;
        continue;
      }
      this.runs.splice(i, 1);
      this.info.delete(run.id);
      excess--;
      this.dropped.fire(run.id);
    }
  }

  /** See commands-policy.ts: never untrusted, only in workspace runs, MassGen's own always with an approval prompt. */
  private commandsFor(request: RunRequest, config: MassGenConfig, runId: string): CommandsOption | undefined {
    const settings = vscode.workspace.getConfiguration('massgen.commands');
    const { option, note } = commandsForRun(
      { trusted: vscode.workspace.isTrusted, workspaceRun: request.files?.kind === 'workspace', enabled: settings.get<boolean>('enabled', false), network: settings.get<boolean>('network', false) },
      config,
      commandApprover(this.approvals, { runId, folder: request.files?.kind === 'workspace' ? basename(request.files.source ?? request.files.baseDir) : '' }),
    );
    if (note) this.log.warn(note);
    return option;
  }

  private logEvent(...[event, state]: Parameters<SessionListener>): void {
    const line = describeEvent(event, state);
    if (!line) return;
    if (event.type === 'agent_failed' || (event.type === 'run_ended' && event.error)) this.log.error(line);
    else this.log.info(line);
  }

  /** The run a note or Answer now is for: run `id` while it goes (never another), else the latest run going. */
  goingRun(id?: string): RunSession | undefined {
    const active = this.active;
    return id ? active.find((r) => r.id === id) : active[active.length - 1];
  }

  /** Ends that run now with the best current answer (user_stop), or says in words why it cannot. */
  answerNow(id?: string): { run: RunSession } | { refused: string } {
    const run = this.goingRun(id);
    if (!run) return { refused: 'no run in progress' };
    const refused = answerNowRefusal(run.state);
    if (refused) return { refused };
    run.answerNow();
    return { run };
  }

  /** The user's note to that run's agents (all, or `agentId`); throws, in words, when it cannot be sent. */
  note(text: string, options: { runId?: string; agentId?: string; changesTask?: boolean } = {}): RunSession {
    const run = this.goingRun(options.runId);
    if (!run) throw new Error('no MassGen run is going');
    run.note(text, { agentId: options.agentId, changesTask: options.changesTask });
    return run;
  }

  cancelAll(): number {
    const active = this.active;
    for (const r of active) r.cancel();
    return active.length;
  }

  /**
   * Cancels every run going and waits until each has closed its copies, MCP servers and log, for at most `timeoutMs`
   * (window reload and shutdown wait on it through `deactivate`).
   */
  async closeAll(timeoutMs: number): Promise<void> {
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all([...this.runs, ...this.preparing].map((r) => r.dispose())), late]);
    clearTimeout(timer);
  }

  dispose(): void {
    this.cancelAll();
    this.started.dispose();
    this.dropped.dispose();
  }
}

// One run of one system on one item, through the run session every front end uses: the team as configured, or one
// agent alone. "Alone" is a team of one stopped at its first answer, rather than a bare provider call: the agent
// gets exactly the prompt its first turn in the team gets (its system message, the coordination framing, the same
// task text), the same tools and copy of the workspace, the same checks, and its answer is read the same way, so
// the only difference from the team is the peers. Stopping at the first answer (answer now, as the CLI's `/answer`)
// makes it one answer turn, as the issue asks: no vote on its own answer, no revision, no synthesis.

import type { Escalation, MassGenConfig } from '../config/types';
import type { CheckResult, EndReason, EscalationTrigger } from '../engine/events';
import { emptyUsage, type UsageTotals } from '../engine/run-state';
import type { ExtraProviderFactory } from '../providers/factory';
import { SessionSetupError } from '../run/errors';
import { RunSession, type RunSessionOptions } from '../run/session';
import { planWorkspace } from '../run/workspace-plan';
import type { EvalItem } from './dataset';
import { taskText } from './task-text';

export interface RunnerContext {
  config: MassGenConfig;
  /** Relative paths of the config (context paths) resolve here, as for `massgen run`. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** MCP tools and unsandboxed commands or checks that need approval run (else they are refused). */
  approveTools: boolean;
  /** Code tasks: every agent may run commands in its copy (sandboxed). */
  allowCommands: boolean;
  /** Where the agents' copies of a code task's workspace go. */
  workspacesDir: string;
  onWarning(message: string): void;
  /** Tests and benchmarks: in-process providers and engine knobs. */
  extraProviders?: ExtraProviderFactory;
  engine?: RunSessionOptions['engine'];
}

/** Who answers: the whole team (from the start, or in escalation stages), or one agent alone. */
export type Who = { team: true; escalation?: Escalation } | { agent: string };

export interface RunOutcome {
  finalAnswer: string | null;
  reason: EndReason;
  winnerId: string | null;
  votes?: Record<string, number>;
  /** No answer came out: why. */
  error?: string;
  usage: UsageTotals;
  /** Wall time, setup (copies) included: what the user waits. */
  seconds: number;
  /** Code tasks: the checks on the winning version, and its change's content id. */
  winnerChecks?: CheckResult[];
  changeId?: string;
  logDir?: string;
  /** A team run in escalation stages: how many stages it called, and why each after the first was called. */
  escalation?: { stagesCalled: number; reasons: EscalationTrigger[] };
}

export type RunOnce = (item: EvalItem, who: Who, options: { signal: AbortSignal; logDir?: string }) => Promise<RunOutcome | 'cancelled'>;

/**
 * The config a run of this item uses: the item's checks replace the config's, which are the project's, not the
 * dataset's; escalation stages only where `who` asks for them, so `team` is the whole team from the start.
 */
export function configForItem(config: MassGenConfig, item: EvalItem, who: Who): MassGenConfig {
  const orchestrator = {
    ...config.orchestrator,
    checks: undefined as MassGenConfig['orchestrator']['checks'],
    verification: undefined as MassGenConfig['orchestrator']['verification'],
    escalation: 'team' in who ? who.escalation : undefined,
  };
  if (item.kind === 'code') {
    orchestrator.checks = item.checks;
    // The checks decide the score, so they always run: `gate` as configured, else `inform` (never `off`).
    orchestrator.verification = config.orchestrator.verification === 'gate' ? 'gate' : 'inform';
  }
  if ('team' in who) return { ...config, orchestrator };
  const agent = config.agents.find((a) => a.id === who.agent);
  if (!agent) throw new Error(`no agent '${who.agent}' in the config`);
  return { ...config, agents: [agent], orchestrator: { ...orchestrator, finalAnswer: 'as_is' } };
}

export function sessionRunner(ctx: RunnerContext): RunOnce {
  const refused = (message: string) => {
    ctx.onWarning(message);
    return false;
  };
  return async (item, who, { signal, logDir }) => {
    const config = configForItem(ctx.config, item, who);
    const code = item.kind === 'code';
    const planned = planWorkspace(config, { workspace: code ? item.workspace : undefined, cwd: ctx.cwd, commands: code && ctx.allowCommands });
    if (!planned.ok) throw new SessionSetupError('config', planned.error);
    const plan = planned.plan;
    const session = new RunSession({
      task: taskText(item),
      title: `eval ${item.id} (${'team' in who ? (who.escalation ? 'team-escalating' : 'team') : who.agent})`,
      config,
      signal,
      record: logDir ? { logDir } : undefined,
      // Nobody is there to ask during an eval: what needs approval runs only with --approve-tools, and a refusal is
      // said (the CLI says each once), since it can cost a code task its score.
      mcp: { approve: async (request) => ctx.approveTools || refused(`${request.agentId} was denied ${request.toolName}: it needs approval (--approve-tools allows such tools)`), processEnv: ctx.env },
      commands: { everyAgent: code && ctx.allowCommands, network: false, approve: async () => ctx.approveTools || refused('commands were refused: no sandbox is available here (on Linux: apt-get install bubblewrap); --approve-tools runs them unsandboxed') },
      files: plan ? { kind: 'workspace', source: plan.source, baseDir: ctx.workspacesDir, references: plan.references } : undefined,
      checks: { approveUnsandboxed: async () => ctx.approveTools || refused('the checks were not run: no sandbox is available here, so no code task can be scored right; --approve-tools runs them unsandboxed') },
      onWarning: ctx.onWarning,
      extraProviders: ctx.extraProviders,
      engine: ctx.engine,
    });
    if (!('team' in who)) {
      session.subscribe((event) => {
        if (event.type === 'answer_added') session.answerNow();
      });
    }
    const started = Date.now();
    const seconds = () => Math.round((Date.now() - started) / 100) / 10;
    let result;
    try {
      result = await session.start();
    } catch (err) {
      if (!(err instanceof SessionSetupError)) throw err;
      if (err.kind === 'cancelled' || signal.aborted) return 'cancelled';
      // A bad option (config) stops the eval; anything else (a copy that cannot be made) is this run's error.
      if (err.kind === 'config') throw err;
      return { finalAnswer: null, reason: 'all_failed', winnerId: null, error: `could not start: ${err.message}`, usage: emptyUsage(), seconds: seconds(), ...(logDir ? { logDir } : {}) };
    }
    // A run cut short by Ctrl-C is not a result: it is run again on --resume.
    if (result.reason === 'cancelled' || signal.aborted) return 'cancelled';
    const state = session.state;
    const label = result.winnerLabel;
    const checks = label ? state.checks[label]?.results : undefined;
    const changeId = label ? state.answers.find((a) => a.label === label)?.change?.id : undefined;
    return {
      finalAnswer: result.finalAnswer,
      reason: result.reason,
      winnerId: result.winnerId,
      ...(state.winner ? { votes: state.winner.votes } : {}),
      ...(result.finalAnswer === null ? { error: result.error ?? 'no answer' } : {}),
      usage: { ...state.usage },
      seconds: seconds(),
      ...(checks ? { winnerChecks: checks } : {}),
      ...(changeId ? { changeId } : {}),
      ...(result.logDir ? { logDir: result.logDir } : {}),
      ...(state.escalation ? { escalation: { stagesCalled: state.escalation.stages.length, reasons: state.escalation.stages.flatMap((s) => (s.reason === 'start' ? [] : [s.reason])) } } : {}),
    };
  };
}

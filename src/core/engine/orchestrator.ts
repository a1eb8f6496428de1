// The coordination engine. Agents work in rounds: every live agent without a current vote takes a turn, all in
// parallel; a round ends when its turns have ended. Waiting for the round (rather than re-asking an agent the
// moment it finishes) means a vote is not requested while answers that would make it stale are still being
// written, which is where upstream spends most of its wasted calls. The one exception: once every turn still
// running is settled (it can no longer be expected to add an answer, see `AgentRuntime.settled`), the agents due
// start the next round at once rather than idle while those turns cast their votes; should one of them answer
// after all, the votes it makes stale are asked again as usual. Each agent keeps one conversation for the whole
// run: new answers reach it as an update at its next boundary (its next turn, or the result of a tool call inside
// a turn), so it never loses its context.
//
// With escalation stages (orchestrator.escalation) the run starts with stage 1's agents; where it would end, the
// stage rule (escalation.ts) may call the next stage into the same coordination instead.
//
// This file holds the rounds, the stages and the stop; one turn is turn.ts, the end (winner, final answer) finish.ts.

import type { TimerHandle } from '../util/clock';
import { failedRequired } from './check-gate';
import { escalationTrigger, Stages, stagesFor } from './escalation';
import type { AgentInfo, EndReason, EscalationTrigger } from './events';
import { finish } from './finish';
import type { RunOptions, RunResult } from './ports';
import { RunContext, type AgentRuntime } from './run-context';
import { runTurnWithRetries, setAsideWaiting } from './turn';

export class Orchestrator {
  private readonly ctx: RunContext;
  private started = false;
  /** The agents are done: the winner and the final answer are being decided, so a note reaches no one. */
  private finishing = false;
  private readonly cancelAtStart = new Set<AgentRuntime>();
  /** Null without escalation. */
  private readonly stages: Stages | null;
  /** Failed agents of the joined stages when the current stage started, and the rounds run before it. */
  private stageStart = { failed: 0, round: 0 };
  /** The user asked for the next stage (see `escalate`). */
  private escalateRequested = false;

  constructor(options: RunOptions) {
    this.ctx = new RunContext(options);
    const plan = stagesFor(options.orchestrator.escalation, options.agents.map((a) => a.id));
    this.stages = plan ? new Stages(plan) : null;
    const first = this.stages?.first();
    if (first) for (const a of this.ctx.agents) a.joined = first.includes(a.spec.id);
  }

  /**
   * Stops the run: in-flight requests are aborted; the run ends with reason `cancelled` and proposes nothing (no
   * winner, no final answer; the answers stay on the board and in the events). `answerNow` takes the best answer.
   */
  cancel(): void {
    this.ctx.stop('cancelled');
  }

  /** Ends the run now with the best current answer, chosen as at a timeout (end reason `user_stop`). */
  answerNow(): void {
    this.ctx.stop('user_stop');
  }

  /**
   * The user's note to every live agent or one (see RunContext.addNote); returns its id. Only while the run runs;
   * once the agents are done it is recorded as undelivered (`note_undelivered`), so the user can carry it into a
   * follow-up run.
   */
  note(text: string, options: { agentId?: string; changesTask?: boolean } = {}): string {
    if (!this.started || this.ctx.ended || this.ctx.stopCause) throw new Error('the run is not running');
    const trimmed = text.trim();
    if (!trimmed) throw new Error('the note is empty');
    return this.ctx.addNote(trimmed, this.finishing ? { ...options, undeliverable: 'final_answer' } : options);
  }

  /**
   * The user's "escalate now": the next stage joins the run at once (its agents start with the next round), recorded
   * with reason `user_note`. Throws, in words, when there is no stage left to call or the run is over.
   */
  escalate(): void {
    if (this.ctx.ended || this.ctx.stopCause || this.finishing) throw new Error('the run is not running');
    if (!this.stages) throw new Error('this run has no escalation stages (orchestrator.escalation)');
    if (!this.stages.hasNext) throw new Error('every escalation stage has joined already');
    if (this.escalateRequested) throw new Error('the next stage is already on its way');
    if (this.ctx.budget.reached) throw new Error('the budget is spent: no stage can join');
    this.escalateRequested = true;
    this.ctx.wakeCoordinator();
  }

  /** Stops one agent; the run goes on with the others. Before `run()`, the agent is stopped as the run starts. */
  cancelAgent(agentId: string): void {
    const agent = this.ctx.byId(agentId);
    if (!agent || agent.failed || this.ctx.ended) return;
    if (!this.started) {
      this.cancelAtStart.add(agent);
      return;
    }
    this.ctx.markFailed(agent, 'cancelled by the user', 'cancelled');
    agent.turnController?.abort();
  }

  async run(): Promise<RunResult> {
    const { ctx } = this;
    const { options } = ctx;
    const onExternalAbort = () => ctx.stop('cancelled');
    options.signal?.addEventListener('abort', onExternalAbort, { once: true });
    if (options.signal?.aborted) ctx.stop('cancelled');
    const timer = ctx.clock.setTimeout(() => ctx.stop('timeout'), options.timeouts.orchestratorTimeoutSeconds * 1000);
    try {
      ctx.emit({
        type: 'run_started',
        runId: options.runId ?? `run-${ctx.started}`,
        question: options.task,
        agents: this.agentInfos(),
        startedAt: new Date(ctx.started).toISOString(),
        finalAnswerMode: options.orchestrator.finalAnswer,
        budget: options.orchestrator.budget,
        ...(options.workspace ? { workspace: options.workspace } : {}),
      });
      if (this.stages) ctx.emit({ type: 'stage_started', stage: 1, agents: [...this.stages.first()], reason: 'start' });
      this.started = true;
      for (const agent of this.cancelAtStart) this.cancelAgent(agent.spec.id);
      const reason = await this.coordinate();
      this.finishing = true;
      ctx.reportUndelivered(reason);
      await ctx.settleChecks();
      return await finish(ctx, reason);
    } finally {
      await Promise.all(ctx.agents.map((a) => a.spec.toolbox?.close?.().catch(() => undefined)));
      ctx.clock.clearTimeout(timer);
      options.signal?.removeEventListener('abort', onExternalAbort);
      ctx.ended = true;
    }
  }

  private agentInfos(): AgentInfo[] {
    return this.ctx.agents.map((a) => ({
      id: a.spec.id,
      label: a.label,
      model: a.spec.provider.model,
      provider: a.spec.provider.description,
      priced: Boolean(a.spec.pricing),
    }));
  }

  /**
   * A strict majority of live agents hold current votes for one answer, and every turn still out can only vote (its
   * answer cap is reached): even if all those votes went elsewhere the winner would not change, so they are not
   * waited for. Exact, never a guess: a turn that may still answer always keeps the run going.
   */
  private decideEarly(running: AgentRuntime[]): void {
    const { ctx } = this;
    if (!ctx.options.orchestrator.earlyDecision || running.length === 0 || ctx.decided) return;
    // A stage ends the run only when every one of its agents agrees: no majority of it may decide early.
    if (this.stages?.hasNext) return;
    if (!running.every((a) => ctx.capReached(a))) return;
    const live = ctx.live();
    // A note still on its way is awaited: the votes it may change are cast after it.
    if (live.some((a) => a.notes.pending.length > 0)) return;
    const counts = new Map<string, number>();
    for (const a of live) if (a.vote && ctx.hasCurrentVote(a)) counts.set(a.vote.targetId, (counts.get(a.vote.targetId) ?? 0) + 1);
    if (![...counts.values()].some((n) => n * 2 > live.length)) return;
    ctx.decided = true;
    for (const a of running) a.turnController?.abort();
  }

  /**
   * Every other live agent holds a current vote and only agents in a provider's back-off are still running: once
   * each has been unavailable for `unavailableWaitSeconds`, the run goes on (and ends) without them. Returns how long
   * until that is due, or null when there is nothing to wait for.
   */
  private leaveUnavailable(running: AgentRuntime[]): number | null {
    const { ctx } = this;
    if (running.length === 0 || running.some((a) => !a.unavailable)) return null;
    const others = ctx.live().filter((a) => !running.includes(a));
    if (others.length === 0 || !others.every((a) => ctx.hasCurrentVote(a))) return null;
    const waitMs = ctx.options.orchestrator.unavailableWaitSeconds * 1000;
    const now = ctx.clock.now();
    const dueIn = Math.max(...running.map((a) => a.unavailable!.since + waitMs - now));
    if (dueIn > 0) return dueIn;
    for (const a of running) {
      const seconds = Math.round((now - a.unavailable!.since) / 1000);
      ctx.markFailed(a, `unavailable for ${seconds} s (${a.unavailable!.error}); the others agreed without it`, 'unavailable', a.unavailable!.unreachable);
      a.turnController?.abort();
    }
    return null;
  }

  /**
   * Agents waiting after a failed turn for the board to change (`RunContext.awaitsNews`) are set aside once nothing
   * else can change it: every other live agent holds a current vote, can only vote, or has no round left to answer
   * in; or the run is deciding. A turn still running may yet answer, even a settled one (a back-off, a refused vote).
   * A stopped run sets no one aside, nor does a stage with another to come: that stage's answers are news.
   */
  private setAsideWithoutNews(running: ReadonlyMap<AgentRuntime, unknown>, roundsLeft: boolean): void {
    const { ctx } = this;
    if (ctx.stopCause || this.stages?.hasNext) return;
    const live = ctx.live();
    const waiting = live.filter((a) => !running.has(a) && ctx.awaitsNews(a));
    if (waiting.length === 0) return;
    const canStart = roundsLeft && !ctx.decided && !ctx.budget.reached;
    const mayAnswer = (a: AgentRuntime) => !ctx.capReached(a) && (running.has(a) || (canStart && !ctx.hasCurrentVote(a)));
    if (live.some((a) => !waiting.includes(a) && mayAnswer(a))) return;
    for (const a of waiting) setAsideWaiting(ctx, a);
  }

  /** Why the run would end now that no turn is running (a stop aside), or null while it goes on. */
  private ending(live: AgentRuntime[], due: AgentRuntime[], roundsLeft: boolean): EndReason | null {
    const { ctx } = this;
    if (ctx.decided) return 'majority';
    if (ctx.budget.reached) return 'budget';
    if (live.length === 0) return 'all_failed';
    if (due.length === 0) return live.every((a) => ctx.capReached(a)) ? 'answer_cap' : 'consensus';
    return roundsLeft ? null : 'max_rounds';
  }

  /** Null when the run may end here: no stage is left, or the stages so far settle it (see escalation.ts). */
  private stageTrigger(ending: EndReason): EscalationTrigger | null {
    const { ctx, stages } = this;
    if (!stages?.hasNext) return null;
    const checked = (label: string) => ctx.board.history().find((v) => v.label === label)?.checks;
    // An agent waiting for news after a failed turn fumbled the protocol: it counts as failed here (the next stage's
    // answers are the news that gives it another turn).
    const waiting = ctx.live().filter((a) => ctx.awaitsNews(a));
    return escalationTrigger({
      votes: ctx.live().filter((a) => !waiting.includes(a)).map((a) => (a.vote && ctx.hasCurrentVote(a) ? a.vote.targetLabel : null)),
      failedSinceStageStart: this.failedJoined() - this.stageStart.failed + waiting.length,
      capped: ending === 'answer_cap' || ending === 'max_rounds',
      minAgreeing: stages.minAgreeing,
      failsChecks: (label) => Boolean(ctx.options.checks && failedRequired(checked(label))?.length),
    });
  }

  /** Agents of the joined stages that failed; one the user cancelled is not a reason to call the next stage. */
  private failedJoined(): number {
    return this.ctx.agents.filter((a) => a.joined && a.failed && a.failureCause !== 'cancelled').length;
  }

  /** The next stage's agents join: they take turns from the next round on, seeing the board and the notes to all. */
  private joinNextStage(reason: EscalationTrigger, round: number): void {
    const { ctx } = this;
    const ids = this.stages!.advance();
    for (const id of ids) {
      const agent = ctx.byId(id)!;
      agent.joined = true;
      agent.notes.pending.push(...ctx.notesForAll);
    }
    this.stageStart = { failed: this.failedJoined(), round };
    ctx.emit({ type: 'stage_started', stage: this.stages!.stage, agents: [...ids], reason });
  }

  private async coordinate(): Promise<EndReason> {
    const { ctx } = this;
    const maxRounds = ctx.options.orchestrator.maxRounds;
    const running = new Map<AgentRuntime, Promise<void>>();
    let round = 0;
    try {
      for (;;) {
        // Armed before looking, so a turn that settles from here on is not missed.
        const settledOne = new Promise<void>((resolve) => (ctx.wakeCoordinator = resolve));
        if (this.escalateRequested && !ctx.stopCause) {
          this.escalateRequested = false;
          this.joinNextStage('user_note', round);
        }
        // Each stage gets the whole round cap.
        const roundsLeft = round - this.stageStart.round < maxRounds;
        this.setAsideWithoutNews(running, roundsLeft);
        const live = ctx.live();
        const due = live.filter((a) => !ctx.hasCurrentVote(a) && !running.has(a) && !ctx.awaitsNews(a));
        // The run ends only between rounds, as it always did: every turn has ended.
        if (running.size === 0) {
          if (ctx.stopCause) return ctx.stopCause;
          const ending = this.ending(live, due, roundsLeft);
          if (ending) {
            // Where the run would end, the stage rule may call the next stage instead (never past the budget).
            const trigger = ending === 'budget' ? null : this.stageTrigger(ending);
            if (!trigger) return ending;
            this.joinNextStage(trigger, round);
            continue;
          }
        }
        // With no turn running this is the usual next round; with only settled ones it starts early.
        const start = due.length > 0 && roundsLeft && !ctx.stopCause && !ctx.decided && !ctx.budget.reached && [...running.keys()].every((a) => a.settled);
        if (start) {
          round++;
          ctx.emit({ type: 'round_started', round, agentIds: due.map((a) => a.spec.id) });
          for (const a of due) running.set(a, runTurnWithRetries(ctx, a, round).finally(() => running.delete(a)));
        }
        if (due.length === 0) this.decideEarly([...running.keys()]);
        const wakeInMs = due.length === 0 ? this.leaveUnavailable([...running.keys()]) : null;
        let timer: TimerHandle | undefined;
        const waited = wakeInMs === null ? [] : [new Promise<void>((resolve) => (timer = ctx.clock.setTimeout(resolve, wakeInMs)))];
        await Promise.race([settledOne, ...running.values(), ...waited]);
        if (timer !== undefined) ctx.clock.clearTimeout(timer);
      }
    } finally {
      // Only an exception leaves with turns running (returns happen when none is): still never leave one behind.
      await Promise.allSettled(running.values());
    }
  }
}

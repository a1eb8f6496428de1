// The coordination engine. Agents work in rounds: every live agent without a current vote takes a turn, all in
// parallel; a round ends when its turns have ended. Waiting for the round (rather than re-asking an agent the
// moment it finishes) means a vote is not requested while answers that would make it stale are still being
// written, which is where upstream spends most of its wasted calls. The one exception: once every turn still
// running is settled (it can no longer be expected to add an answer, see `AgentRuntime.settled`), the agents due
// start the next round at once rather than idle while those turns cast their votes; should one of them answer
// after all, the votes it makes stale are asked again as usual. Each agent keeps one conversation for the whole
// run: new answers reach it as an update at its next boundary (its next turn, or the result of a tool call inside
// a turn), so it never loses its context.

import { setMaxListeners } from 'node:events';
import { costUsd } from '../usage/cost';
import { BudgetGuard, BudgetStop } from './budget';
import type { ChatMessage, ModelRequest, ModelResponse, ToolCall } from '../providers/types';
import { ProviderError } from '../providers/types';
import { Board, toBoardEntry, type AnswerVersion } from './board';
import { coordinationTools, parseTextToolCalls, validateResponse, NEW_ANSWER, TEXT_TOOL_PROTOCOL, VOTE, type ResponseVerdict } from './coordination-tools';
import type { AgentInfo, EndReason, RunEvent, RunEventBody, VoteRecord } from './events';
import type { EngineAgent, RunOptions, RunResult } from './ports';
import {
  buildCoordinationSystemPrompt,
  buildInitialUserMessage,
  buildSynthesisSystemPrompt,
  buildSynthesisUserMessage,
  buildUpdateMessage,
  ENFORCEMENT_MESSAGE,
  ENFORCEMENT_MESSAGE_VOTE_ONLY,
} from './prompts';
import { asProviderError, DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './retry';
import { sleep } from '../util/sleep';
import { tallyVotes } from './tally';

export const MAX_ENFORCEMENT_ATTEMPTS = 3;
/** Added to a compacted prompt, so the agent knows the answers were revised since it last looked. */
const REVISED_NOTE = 'Some answers were revised since your last turn; the CURRENT ANSWERS above are the latest versions. Any vote you cast before was not counted.';
/** Tool round-trips allowed inside one turn before it counts as a failed turn (runaway tool loops). */
export const MAX_TOOL_STEPS_PER_TURN = 25;

interface AgentRuntime {
  spec: EngineAgent;
  label: string;
  messages: ChatMessage[];
  /** Version of each agent's answer this agent has been shown. */
  seen: Map<string, number>;
  /** Board revision this agent has fully seen. */
  seenRevision: number;
  answerCount: number;
  vote: VoteRecord | null;
  /** The last vote it cast, kept after invalidation for the best-available fallback. */
  lastVote: VoteRecord | null;
  failed: boolean;
  failure?: string;
  consecutiveFailures: number;
  turnController: AbortController | null;
  /** The model's server refused tool definitions: coordination calls go as JSON text instead. */
  textOnly: boolean;
  /** The toolbox's start, run once before the first turn. */
  toolsReady?: Promise<void>;
  /**
   * Its running turn can no longer be expected to add an answer, so the next round need not wait for it: the turn
   * is vote-only (answer cap), or its latest response was refused in a way that leaves a vote as the move left
   * (see `Orchestrator.leavesAVote`). False between turns and while a retried turn waits.
   */
  settled: boolean;
}

/** Servers such as Ollama answer 400 "<model> does not support tools" when a model has no tool calling. */
function refusesTools(err: unknown): boolean {
  return err instanceof ProviderError && err.kind === 'invalid_request' && /does not support tools|tools? (is|are) not supported|tool.{0,40}not supported|unsupported.{0,40}tool/i.test(err.message);
}

class TurnError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
  }
}

type StopCause = 'cancelled' | 'timeout';

export class Orchestrator {
  private readonly agents: AgentRuntime[];
  private readonly board: Board;
  /** Labels whose latest answer was refused as the same as another label's (see ValidationContext.sameAs). */
  private readonly sameAs = new Map<string, string>();
  private readonly retry: RetryPolicy;
  private readonly runController = new AbortController();
  private stopCause: StopCause | null = null;
  /** Wakes `coordinate` when a running turn becomes settled (turn ends wake it through their promises). */
  private wakeCoordinator: () => void = () => undefined;
  private readonly started = Date.now();
  private readonly promptTime: Date;
  private seq = 0;
  private ended = false;
  private readonly budget: BudgetGuard;

  constructor(private readonly options: RunOptions) {
    if (options.agents.length === 0) throw new Error('MassGen needs at least one agent.');
    const ids = new Set<string>();
    for (const a of options.agents) {
      if (ids.has(a.id)) throw new Error(`Duplicate agent id '${a.id}'.`);
      ids.add(a.id);
    }
    this.agents = options.agents.map((spec, i) => ({
      spec,
      label: `agent${i + 1}`,
      messages: [],
      seen: new Map(),
      seenRevision: 0,
      answerCount: 0,
      vote: null,
      lastVote: null,
      failed: false,
      consecutiveFailures: 0,
      turnController: null,
      textOnly: false,
      settled: false,
    }));
    this.board = new Board(this.agents.map((a) => ({ id: a.spec.id, label: a.label })));
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.promptTime = (options.now ?? (() => new Date()))();
    // One abort listener per concurrent turn: many agents are normal, not a leak.
    setMaxListeners(0, this.runController.signal);
    this.budget = new BudgetGuard(options.orchestrator.budget, (reached) => this.emit({ type: 'budget_reached', ...reached }));
  }

  /** Stops the run: in-flight requests are aborted; the run ends with reason `cancelled` and the best answer so far. */
  cancel(): void {
    this.stop('cancelled');
  }

  /** Stops one agent; the run goes on with the others. */
  cancelAgent(agentId: string): void {
    const agent = this.agents.find((a) => a.spec.id === agentId);
    if (!agent || agent.failed || this.ended) return;
    this.markFailed(agent, 'cancelled by the user');
    agent.turnController?.abort();
  }

  async run(): Promise<RunResult> {
    const { options } = this;
    const onExternalAbort = () => this.stop('cancelled');
    options.signal?.addEventListener('abort', onExternalAbort, { once: true });
    if (options.signal?.aborted) this.stop('cancelled');
    const timeoutMs = options.timeouts.orchestratorTimeoutSeconds * 1000;
    const timer = setTimeout(() => this.stop('timeout'), timeoutMs);
    try {
      this.emit({
        type: 'run_started',
        runId: options.runId ?? `run-${this.started}`,
        question: options.task,
        agents: this.agentInfos(),
        startedAt: new Date(this.started).toISOString(),
        finalAnswerMode: options.orchestrator.finalAnswer,
        budget: options.orchestrator.budget,
      });
      const reason = await this.coordinate();
      return await this.finish(reason);
    } finally {
      await this.closeTools();
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onExternalAbort);
      this.ended = true;
    }
  }

  private agentInfos(): AgentInfo[] {
    return this.agents.map((a) => ({
      id: a.spec.id,
      label: a.label,
      model: a.spec.provider.model,
      provider: a.spec.provider.description,
      priced: Boolean(a.spec.pricing),
    }));
  }

  private stop(cause: StopCause): void {
    if (this.stopCause || this.ended) return;
    this.stopCause = cause;
    this.runController.abort();
  }

  /** Every caller passes a fresh object literal, so it is stamped in place: no copy per event (most are deltas). */
  private emit(body: RunEventBody): void {
    const event = body as RunEvent;
    event.seq = ++this.seq;
    event.t = Date.now() - this.started;
    this.options.onEvent(event);
  }

  private live(): AgentRuntime[] {
    return this.agents.filter((a) => !a.failed);
  }

  private hasCurrentVote(a: AgentRuntime): boolean {
    return a.vote !== null && a.vote.seenRevision === this.board.revision;
  }

  private capReached(a: AgentRuntime): boolean {
    const cap = this.options.orchestrator.maxNewAnswersPerAgent;
    return cap !== null && a.answerCount >= cap;
  }

  private async coordinate(): Promise<EndReason> {
    const maxRounds = this.options.orchestrator.maxRounds;
    const running = new Map<AgentRuntime, Promise<void>>();
    let round = 0;
    try {
      for (;;) {
        // Armed before looking, so a turn that settles from here on is not missed.
        const settledOne = new Promise<void>((resolve) => (this.wakeCoordinator = resolve));
        const live = this.live();
        const due = live.filter((a) => !this.hasCurrentVote(a) && !running.has(a));
        // The run ends only between rounds, as it always did: every turn has ended.
        if (running.size === 0) {
          if (this.stopCause) return this.stopCause;
          if (this.budget.reached) return 'budget';
          if (live.length === 0) return 'all_failed';
          if (due.length === 0) return live.every((a) => this.capReached(a)) ? 'answer_cap' : 'consensus';
          if (round >= maxRounds) return 'max_rounds';
        }
        // With no turn running this is the usual next round; with only settled ones it starts early.
        const start = due.length > 0 && round < maxRounds && !this.stopCause && !this.budget.reached && [...running.keys()].every((a) => a.settled);
        if (start) {
          round++;
          this.emit({ type: 'round_started', round, agentIds: due.map((a) => a.spec.id) });
          for (const a of due) running.set(a, this.runTurnWithRetries(a, round).finally(() => running.delete(a)));
        }
        await Promise.race([settledOne, ...running.values()]);
      }
    } finally {
      // Only an exception leaves with turns running (returns happen when none is): still never leave one behind.
      await Promise.allSettled(running.values());
    }
  }

  // ---- one agent turn -------------------------------------------------------------------------------------

  private async runTurnWithRetries(agent: AgentRuntime, round: number): Promise<void> {
    while (!agent.failed && !this.stopCause) {
      const checkpoint = { length: agent.messages.length, seen: new Map(agent.seen), seenRevision: agent.seenRevision };
      try {
        await this.runTurn(agent, round);
        agent.consecutiveFailures = 0;
        return;
      } catch (err) {
        if (this.stopCause || agent.failed) return;
        // A failed or stopped turn leaves no half-finished exchange behind: a retry starts from the same point.
        agent.messages.length = checkpoint.length;
        agent.seen = checkpoint.seen;
        agent.seenRevision = checkpoint.seenRevision;
        if (err instanceof BudgetStop) return;
        // Provider errors arrive here only after the call's own retries with back-off are spent (or were never
        // worth trying); re-running the turn would just repeat them. Turn-level retries are for a model that
        // fumbled the protocol or a turn that ran out of time.
        const retryable = err instanceof TurnError && err.retryable;
        const message = err instanceof Error ? err.message : String(err);
        agent.consecutiveFailures++;
        const willRetry = retryable && agent.consecutiveFailures < this.retry.agentFailureBudget;
        this.emit({ type: 'turn_failed', agentId: agent.spec.id, error: message, willRetry });
        if (!willRetry) {
          this.markFailed(agent, message);
          return;
        }
        const delayMs = retryDelayMs(agent.consecutiveFailures, this.retry, undefined, this.options.random);
        this.emit({ type: 'retry', agentId: agent.spec.id, attempt: agent.consecutiveFailures + 1, delayMs, error: message });
        try {
          await sleep(delayMs, this.runController.signal);
        } catch {
          return;
        }
      }
    }
  }

  private markFailed(agent: AgentRuntime, error: string): void {
    if (agent.failed) return;
    agent.failed = true;
    agent.failure = error;
    agent.vote = null;
    this.emit({ type: 'agent_failed', agentId: agent.spec.id, error });
  }

  private async runTurn(agent: AgentRuntime, round: number): Promise<void> {
    const turn = new AbortController();
    agent.turnController = turn;
    const turnTimeoutMs = this.options.timeouts.agentTurnTimeoutSeconds * 1000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      turn.abort();
    }, turnTimeoutMs);
    const onRunAbort = () => turn.abort();
    this.runController.signal.addEventListener('abort', onRunAbort, { once: true });
    try {
      await this.turnLoop(agent, round, turn.signal);
    } catch (err) {
      if (timedOut) throw new TurnError(`turn timed out after ${this.options.timeouts.agentTurnTimeoutSeconds} s`, true);
      throw err;
    } finally {
      clearTimeout(timer);
      this.runController.signal.removeEventListener('abort', onRunAbort);
      agent.turnController = null;
      agent.settled = false;
    }
  }

  private startTools(agent: AgentRuntime): Promise<void> {
    const toolbox = agent.spec.toolbox;
    agent.toolsReady ??= (async () => {
      if (!toolbox?.start) return;
      try {
        await toolbox.start(this.runController.signal);
        this.emit({ type: 'tools_ready', agentId: agent.spec.id, tools: toolbox.tools.map((t) => t.name) });
      } catch (err) {
        this.emit({ type: 'tools_ready', agentId: agent.spec.id, tools: toolbox.tools.map((t) => t.name), error: asProviderError(err).message });
      }
    })();
    return agent.toolsReady;
  }

  private async closeTools(): Promise<void> {
    await Promise.all(this.agents.map((a) => a.spec.toolbox?.close?.().catch(() => undefined)));
  }

  private async turnLoop(agent: AgentRuntime, round: number, signal: AbortSignal): Promise<void> {
    await this.startTools(agent);
    this.deliverBoard(agent, 'next_turn');
    this.emit({ type: 'turn_started', agentId: agent.spec.id, round, boardRevision: agent.seenRevision, voteOnly: this.capReached(agent) });
    this.setSettled(agent, this.capReached(agent));
    let invalidAttempts = 0;
    for (let step = 0; step < MAX_TOOL_STEPS_PER_TURN; step++) {
      if (step > 0) this.deliverBoard(agent, 'tool_result');
      const voteOnly = this.capReached(agent);
      const toolbox = agent.spec.toolbox;
      const system = buildCoordinationSystemPrompt({
        systemMessage: agent.spec.systemMessage,
        votingSensitivity: this.options.orchestrator.votingSensitivity,
        noveltyRequirement: this.options.orchestrator.answerNoveltyRequirement,
        now: this.promptTime,
        voteOnly,
      });
      const request: ModelRequest = {
        system: agent.textOnly ? `${system}\n\n${TEXT_TOOL_PROTOCOL}` : system,
        messages: agent.messages.slice(),
        tools: agent.textOnly ? [] : [...coordinationTools(this.agents.map((a) => a.label), voteOnly), ...(toolbox?.tools ?? [])],
        toolChoice: 'auto',
        temperature: agent.spec.temperature,
        maxTokens: agent.spec.maxTokens,
      };
      let response: ModelResponse;
      try {
        response = await this.callModel(agent, request, signal, 'coordination');
      } catch (err) {
        if (agent.textOnly || !refusesTools(err)) throw err;
        agent.textOnly = true;
        this.emit({ type: 'retry', agentId: agent.spec.id, attempt: 2, delayMs: 0, error: `${(err as Error).message}; continuing with coordination calls as JSON text` });
        continue;
      }
      // Models without tool calling may write the call as JSON in their text; their results then go back as text.
      const textual = response.toolCalls.length === 0;
      const calls = textual ? parseTextToolCalls(response.text, `text_${agent.label}_${step}_${invalidAttempts}`) : response.toolCalls;
      agent.messages.push({ role: 'assistant', content: response.text, toolCalls: textual ? undefined : calls });
      for (const call of calls) {
        this.emit({ type: 'tool_call', agentId: agent.spec.id, callId: call.id, name: call.name, arguments: call.arguments });
      }
      const seenLabels = this.agents.filter((a) => agent.seen.has(a.spec.id)).map((a) => a.label);
      const verdict = validateResponse(calls, {
        labelsWithAnswers: seenLabels,
        allLabels: this.agents.map((a) => a.label),
        currentAnswers: this.board.current().map((a) => ({ label: a.agentLabel, content: a.content, seen: agent.seen.get(a.agentId) === a.version })),
        capReached: voteOnly,
        maxNewAnswers: this.options.orchestrator.maxNewAnswersPerAgent,
        novelty: this.options.orchestrator.answerNoveltyRequirement,
        otherTools: new Set((toolbox?.tools ?? []).map((t) => t.name)),
        sameAs: this.sameAs,
      });
      switch (verdict.kind) {
        case 'answer':
          this.acceptAnswer(agent, verdict.call, verdict.content, textual);
          return;
        case 'vote':
          this.acceptVote(agent, verdict.call, verdict.targetLabel, verdict.reason, textual, verdict.note);
          return;
        case 'tools':
          this.setSettled(agent, voteOnly);
          for (const call of verdict.calls) {
            const result = await toolbox!.execute(call, signal);
            this.toolResult(agent, call, result.ok, result.content, textual);
          }
          continue;
        case 'invalid':
        case 'none': {
          invalidAttempts++;
          let message = verdict.kind === 'none' ? (voteOnly ? ENFORCEMENT_MESSAGE_VOTE_ONLY : ENFORCEMENT_MESSAGE) : verdict.summary;
          // After a second reply without any call, offer the text form: the model may not be able to call tools.
          if (verdict.kind === 'none' && invalidAttempts >= 2) message = `${message} ${TEXT_TOOL_PROTOCOL}`;
          this.emit({ type: 'correction', agentId: agent.spec.id, attempt: invalidAttempts, message });
          if (verdict.kind === 'invalid') {
            if (verdict.sameAs) this.sameAs.set(agent.label, verdict.sameAs);
            for (const r of verdict.results) this.toolResult(agent, r.call, false, r.content, textual);
          } else {
            agent.messages.push({ role: 'user', content: message });
          }
          if (invalidAttempts >= MAX_ENFORCEMENT_ATTEMPTS) {
            throw new TurnError(`no valid ${VOTE} or ${NEW_ANSWER} call after ${MAX_ENFORCEMENT_ATTEMPTS} attempts (last: ${message})`, true);
          }
          this.setSettled(agent, voteOnly || (verdict.kind === 'invalid' && this.leavesAVote(verdict, seenLabels.length > 0)));
        }
      }
    }
    throw new TurnError(`more than ${MAX_TOOL_STEPS_PER_TURN} tool steps in one turn`, true);
  }

  /**
   * A refusal after which the model is all but certain to vote in the same turn: its `new_answer` repeats or is too
   * close to an answer on the board (it is told to vote for that one instead), or its `vote` had only a fixable flaw
   * (unknown label, bad JSON, two votes) while there are answers to vote for. Anything else (a reply without a call,
   * other tools, an empty or malformed answer) may well still end in an answer, so it keeps the round waiting.
   */
  private leavesAVote(verdict: Extract<ResponseVerdict, { kind: 'invalid' }>, canVote: boolean): boolean {
    if (verdict.sameAs) return true;
    return canVote && verdict.results.every((r) => r.call.name === VOTE);
  }

  private setSettled(agent: AgentRuntime, settled: boolean): void {
    if (settled && !agent.settled) this.wakeCoordinator();
    agent.settled = settled;
  }

  private toolResult(agent: AgentRuntime, call: ToolCall, ok: boolean, content: string, textual = false): void {
    if (textual) this.appendUserText(agent, `[${call.name} result] ${content}`);
    else agent.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
    this.emit({ type: 'tool_result', agentId: agent.spec.id, callId: call.id, name: call.name, ok, summary: content.slice(0, 500) });
  }

  /**
   * Shows the agent what it has not seen: the whole board on its first turn, afterwards only the answers that
   * changed. Appended to the trailing user text when there is one, so the conversation keeps alternating roles.
   */
  private deliverBoard(agent: AgentRuntime, via: 'next_turn' | 'tool_result'): void {
    const current = this.board.current();
    const superseded = current.some((a) => (agent.seen.get(a.agentId) ?? a.version) !== a.version);
    const compact = via === 'next_turn' && superseded && this.options.orchestrator.contextCompaction !== 'never';
    if (agent.messages.length === 0 || compact) {
      // A fresh prompt with the current answers: cheaper than carrying every superseded version along.
      const fresh = buildInitialUserMessage(this.options.task, current.map(toBoardEntry));
      agent.messages = [{ role: 'user', content: agent.messages.length === 0 ? fresh : `${fresh}\n\n${REVISED_NOTE}` }];
      if (compact) this.emit({ type: 'agent_updated', agentId: agent.spec.id, labels: current.filter((a) => agent.seen.get(a.agentId) !== a.version).map((a) => a.label), via });
    } else {
      const changed = current.filter((a) => agent.seen.get(a.agentId) !== a.version);
      if (changed.length === 0 && via === 'tool_result') return;
      if (changed.length === 0) {
        this.appendUserText(agent, this.noNewsMessage(agent));
      } else {
        const unchanged = current.filter((a) => !changed.includes(a));
        this.appendUserText(agent, buildUpdateMessage(changed.map(toBoardEntry), unchanged.map(toBoardEntry), this.capReached(agent)));
        this.emit({ type: 'agent_updated', agentId: agent.spec.id, labels: changed.map((a) => a.label), via });
      }
    }
    for (const a of current) agent.seen.set(a.agentId, a.version);
    agent.seenRevision = this.board.revision;
  }

  private noNewsMessage(agent: AgentRuntime): string {
    return this.capReached(agent)
      ? 'No new answers since your last turn. Call `vote` for the best current answer.'
      : 'No new answers since your last turn; the CURRENT ANSWERS are as you last saw them. ' +
          'Vote for the best current answer with `vote`, or provide a better answer with `new_answer`.';
  }

  private appendUserText(agent: AgentRuntime, text: string): void {
    const last = agent.messages[agent.messages.length - 1];
    if (last?.role === 'user') last.content = `${last.content}\n\n${text}`;
    else agent.messages.push({ role: 'user', content: text });
  }

  private acceptAnswer(agent: AgentRuntime, call: ToolCall, content: string, textual: boolean): void {
    const sawEverything = agent.seenRevision === this.board.revision;
    const answer = this.board.add(agent.spec.id, content);
    this.sameAs.delete(agent.label);
    agent.answerCount++;
    // `seen` is left alone: the agent is shown its own answer on the board next turn, under its anonymous label,
    // which is the only way it learns which label to vote for.
    if (sawEverything) agent.seenRevision = this.board.revision;
    this.toolResult(agent, call, true, 'Your answer was recorded.', textual);
    this.emit({
      type: 'answer_added',
      agentId: agent.spec.id,
      label: answer.label,
      version: answer.version,
      content,
      boardRevision: answer.revision,
    });
    for (const other of this.agents) {
      if (other.vote && other.vote.seenRevision < this.board.revision) {
        this.emit({ type: 'vote_invalidated', voterId: other.spec.id, targetLabel: other.vote.targetLabel, reason: `new answer ${answer.label}` });
        other.vote = null;
      }
    }
  }

  private acceptVote(agent: AgentRuntime, call: ToolCall, targetAgentLabel: string, reason: string, textual: boolean, note?: string): void {
    const target = this.agents.find((a) => a.label === targetAgentLabel)!;
    const version = agent.seen.get(target.spec.id)!;
    const vote: VoteRecord = {
      voterId: agent.spec.id,
      targetId: target.spec.id,
      targetLabel: `${target.label}.${version}`,
      reason,
      seenRevision: agent.seenRevision,
    };
    agent.lastVote = vote;
    this.emit({ type: 'vote_cast', vote });
    const missed = this.board.since(agent.seenRevision);
    if (missed.length === 0) {
      agent.vote = vote;
      this.toolResult(agent, call, true, note ? `Your vote was recorded. ${note}` : 'Your vote was recorded.', textual);
      return;
    }
    agent.vote = null;
    const labels = missed.map((a) => a.label).join(', ');
    this.emit({ type: 'vote_invalidated', voterId: agent.spec.id, targetLabel: vote.targetLabel, reason: `new answer ${labels} arrived before the vote` });
    this.toolResult(agent, call, false, 'Your vote was not counted: new answers arrived while you were deciding. They are shown below.', textual);
  }

  // ---- model calls ------------------------------------------------------------------------------------------

  private async callModel(agent: AgentRuntime, request: ModelRequest, signal: AbortSignal, phase: 'coordination' | 'final'): Promise<ModelResponse> {
    const agentId = agent.spec.id;
    for (let attempt = 1; ; attempt++) {
      const reservation = this.budget.reserve(request, agent.spec.pricing ?? null);
      try {
        const response = await agent.spec.provider.complete(request, {
          signal,
          onDelta: (d) => {
            if (d.type === 'text') this.emit({ type: 'text_delta', agentId, text: d.text });
            else if (d.type === 'reasoning') this.emit({ type: 'reasoning_delta', agentId, text: d.text });
          },
        });
        const cost = response.usage && agent.spec.pricing ? costUsd(response.usage, agent.spec.pricing) : null;
        this.budget.settle(reservation, response.usage, cost);
        if (response.usage) this.emit({ type: 'usage', agentId, usage: response.usage, costUsd: cost, phase });
        return response;
      } catch (err) {
        this.budget.settle(reservation, undefined, null);
        const error = asProviderError(err);
        if (signal.aborted || error.kind === 'aborted') throw error;
        if (!error.retryable || attempt >= this.retry.maxAttemptsPerCall) throw error;
        const delayMs = retryDelayMs(attempt, this.retry, error.retryAfterMs, this.options.random);
        this.emit({ type: 'retry', agentId, attempt: attempt + 1, delayMs, error: error.message });
        await sleep(delayMs, signal);
      }
    }
  }

  // ---- the end ----------------------------------------------------------------------------------------------

  private pickWinner(): { answer: AnswerVersion; votes: Record<string, number>; tieBreak: boolean; basis: 'current_votes' | 'latest_votes' | 'latest_answer'; reasons: string[] } | null {
    const order = this.agents.map((a) => a.spec.id);
    const candidates = new Set(this.board.current().map((a) => a.agentId));
    if (candidates.size === 0) return null;
    const current = this.live().flatMap((a) => (a.vote && this.hasCurrentVote(a) ? [a.vote] : []));
    // Past the limits: a vote still counts if the version it chose is still that agent's latest answer.
    const stillValid = this.agents.flatMap((a) => {
      const v = a.lastVote;
      return v && this.board.latest(v.targetId)?.label === v.targetLabel ? [v] : [];
    });
    for (const [basis, votes] of [['current_votes', current], ['latest_votes', stillValid]] as const) {
      const tally = tallyVotes(order, votes, candidates);
      if (tally.winnerId) {
        const answer = this.board.latest(tally.winnerId)!;
        const reasons = votes.filter((v) => v.targetId === tally.winnerId && v.reason).map((v) => v.reason);
        return { answer, votes: tally.counts, tieBreak: tally.tieBreak, basis, reasons };
      }
    }
    return { answer: this.board.newest()!, votes: {}, tieBreak: false, basis: 'latest_answer', reasons: [] };
  }

  private async finish(reason: EndReason): Promise<RunResult> {
    const winner = this.pickWinner();
    const failures = this.agents.filter((a) => a.failed).map((a) => `${a.spec.id}: ${a.failure}`);
    let error: string | undefined;
    if (reason === 'all_failed') error = `Every agent failed.\n  ${failures.join('\n  ')}`;
    else if (!winner) error = reason === 'cancelled' ? 'Cancelled before any agent answered.' : 'No agent produced an answer.';
    if (!winner) {
      this.emit({ type: 'run_ended', reason, winnerId: null, durationMs: Date.now() - this.started, error });
      return { reason, winnerId: null, winnerLabel: null, finalAnswer: null, error, durationMs: Date.now() - this.started };
    }
    const { answer } = winner;
    this.emit({
      type: 'winner_selected',
      agentId: answer.agentId,
      label: answer.label,
      votes: winner.votes,
      tieBreak: winner.tieBreak,
      basis: winner.basis,
    });
    const finalAnswer = await this.finalAnswer(answer, winner.reasons, winner.tieBreak);
    const durationMs = Date.now() - this.started;
    this.emit({ type: 'run_ended', reason, winnerId: answer.agentId, durationMs, error });
    return { reason, winnerId: answer.agentId, winnerLabel: answer.label, finalAnswer, error, durationMs };
  }

  private async finalAnswer(answer: AnswerVersion, reasons: string[], tieBreak: boolean): Promise<string> {
    const mode = this.options.orchestrator.finalAnswer;
    const agent = this.agents.find((a) => a.spec.id === answer.agentId)!;
    this.emit({ type: 'final_started', agentId: answer.agentId, mode });
    const asIs = (fallback?: string) => {
      this.emit({ type: 'final_answer', agentId: answer.agentId, label: answer.label, content: answer.content, mode: 'as_is', fallback });
      return answer.content;
    };
    if (mode === 'as_is') return asIs();
    if (this.stopCause) return asIs(`synthesis skipped: run ${this.stopCause === 'timeout' ? 'timed out' : 'cancelled'}`);
    if (this.budget.reached) return asIs('synthesis skipped: budget reached');
    if (agent.failed) return asIs('synthesis skipped: the winning agent failed');
    const request: ModelRequest = {
      system: buildSynthesisSystemPrompt(agent.spec.systemMessage),
      messages: [
        {
          role: 'user',
          content: buildSynthesisUserMessage({
            task: this.options.task,
            winnerLabel: agent.label,
            answers: this.board.current().map(toBoardEntry),
            reasons,
            tieBreak,
          }),
        },
      ],
      tools: [],
      temperature: agent.spec.temperature,
      maxTokens: agent.spec.maxTokens,
    };
    try {
      const response = await this.callModel(agent, request, this.runController.signal, 'final');
      const content = response.text.trim();
      if (!content) return asIs('synthesis returned no text');
      this.emit({ type: 'final_answer', agentId: answer.agentId, label: answer.label, content, mode: 'synthesize' });
      return content;
    } catch (err) {
      return asIs(`synthesis failed: ${asProviderError(err).message}`);
    }
  }
}

export function runMassGen(options: RunOptions): { orchestrator: Orchestrator; result: Promise<RunResult> } {
  const orchestrator = new Orchestrator(options);
  return { orchestrator, result: orchestrator.run() };
}

// What the parts of the engine share during one run: the agents' runtime state, the board, the budget, the stop
// signal and the event stamp. The orchestrator (rounds and stop), the turn (one agent's turn) and the finish
// (winner, final answer) each read and change it; nothing outside src/core/engine sees it.

import { setMaxListeners } from 'node:events';
import { realClock, type Clock } from '../util/clock';
import { Board } from './board';
import { Conversation } from './conversation-state';
import { SharedPrefixGate } from './prefix-gate';
import { BudgetGuard } from './budget';
import type { EndReason, FailureCause, NoteUndeliveredReason, RunEvent, RunEventBody, VoteRecord } from './events';
import type { UnreachableServer } from '../providers/types';
import type { EngineAgent, RunOptions } from './ports';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';

export interface AgentRuntime {
  spec: EngineAgent;
  label: string;
  /** Its messages and what it has been shown: one owner, so a failed turn is undone whole (see runTurnWithRetries). */
  readonly conversation: Conversation;
  answerCount: number;
  vote: VoteRecord | null;
  /** The last vote it cast, kept after invalidation for the best-available fallback. */
  lastVote: VoteRecord | null;
  failed: boolean;
  failure?: string;
  failureCause?: FailureCause;
  consecutiveFailures: number;
  /**
   * Turns that ended without the model calling any tool at all. After one, the agent gets a single last call, once the
   * board shows it something new (`waitsForNews`); if nothing has changed by the time nobody else can change the
   * board, it is set aside without that call, so a model that cannot call tools costs 3 calls, not 9.
   */
  silentTurns: number;
  /**
   * Set when a turn failed on the protocol (every attempt refused, or no call at all): the retried turn starts over
   * from before it, so with the same board it would send the same prompt again (at temperature 0, to the same reply).
   * It waits for a board revision after `since`; the orchestrator sets it aside with `reason` once nothing else can
   * change the board (`setAsideWithoutNews`). Null once a turn succeeds.
   */
  waitsForNews: { since: number; reason: string } | null;
  /** The estimated size of its last prompt, for what a read_answer piece may still take. */
  promptTokens: number;
  /**
   * Its last prompt as the provider's cache holds it: the tokens held, the size of its tools and system prompt, and
   * whether it was vote-only (which changes both). Read when deciding whether rebuilding the conversation pays.
   */
  lastPrompt: { tokens: number; stable: number; voteOnly: boolean } | null;
  /**
   * The user's notes for it: `pending` until its next boundary, `delivered` in the running turn (put back if the
   * turn fails), `kept` once a turn that showed them ended (a fresh prompt carries them again).
   */
  notes: { pending: Note[]; delivered: Note[]; kept: Note[] };
  /** Waiting out a long provider back-off since this time (ms), with that provider's error; null when reachable. */
  unavailable: { since: number; error: string; unreachable?: UnreachableServer } | null;
  turnController: AbortController | null;
  /** The model's server refused tool definitions: coordination calls go as JSON text instead. */
  textOnly: boolean;
  /** The toolbox's start, run once before the first turn. */
  toolsReady?: Promise<void>;
  /** Its escalation stage has joined the run (always, in a run without stages): until then it takes no turn. */
  joined: boolean;
  /**
   * Its running turn can no longer be expected to add an answer, so the next round need not wait for it: the turn
   * is vote-only (answer cap), or its latest response was refused in a way that leaves a vote as the move left
   * (see `leavesAVote` in turn.ts). False between turns and while a retried turn waits.
   */
  settled: boolean;
}

export interface Note {
  id: string;
  text: string;
}

export type StopCause = 'cancelled' | 'timeout' | 'user_stop';

export class RunContext {
  readonly agents: AgentRuntime[];
  readonly board: Board;
  /** Labels whose latest answer was refused as the same as another label's (see ValidationContext.sameAs). */
  readonly sameAs = new Map<string, string>();
  readonly retry: RetryPolicy;
  readonly runController = new AbortController();
  /** Ends the checks still running when the agents are done (a cancelled agent's outlive its turn). */
  private readonly checksController = new AbortController();
  /** What checks run on: the run stopping or the agents being done stops them. */
  readonly checksSignal = AbortSignal.any([this.runController.signal, this.checksController.signal]);
  private readonly pendingChecks = new Set<Promise<unknown>>();
  readonly budget: BudgetGuard;
  readonly clock: Clock;
  readonly started: number;
  /** The prompt's CURRENT TIME, fixed for the run so the prompt prefix stays cacheable. */
  readonly promptTime: Date;
  stopCause: StopCause | null = null;
  /** A majority decided while vote-only turns were still out (see the orchestrator's `decideEarly`). */
  decided = false;
  /** Notes the user said change the task. */
  readonly notesChangingTask = new Set<string>();
  /** Notes to every agent: an escalation stage that joins later gets them at its first turn. */
  readonly notesForAll: Note[] = [];
  private noteCount = 0;
  ended = false;
  /** `run_ended` was emitted: every later event is dropped. */
  private closed = false;
  /** Wakes the coordinator when a running turn becomes settled (turn ends wake it through their promises). */
  wakeCoordinator: () => void = () => undefined;
  private seq = 0;
  /** Sent with every request of the run (OpenAI's prompt_cache_key): one cache route for the prompts agents share. */
  readonly cacheKey: string;
  readonly prefixGate: SharedPrefixGate;

  constructor(readonly options: RunOptions) {
    if (options.agents.length === 0) throw new Error('MassGen needs at least one agent.');
    const ids = new Set<string>();
    for (const a of options.agents) {
      if (ids.has(a.id)) throw new Error(`Duplicate agent id '${a.id}'.`);
      ids.add(a.id);
    }
    this.agents = options.agents.map((spec, i) => ({
      spec,
      label: `agent${i + 1}`,
      conversation: new Conversation(),
      answerCount: 0,
      vote: null,
      lastVote: null,
      failed: false,
      consecutiveFailures: 0,
      silentTurns: 0,
      waitsForNews: null,
      unavailable: null,
      promptTokens: 0,
      lastPrompt: null,
      notes: { pending: [], delivered: [], kept: [] },
      turnController: null,
      textOnly: false,
      settled: false,
      joined: true,
    }));
    this.board = new Board(this.agents.map((a) => ({ id: a.spec.id, label: a.label })));
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.clock = options.clock ?? realClock;
    this.started = this.clock.now();
    this.promptTime = options.now ? options.now() : new Date(this.started);
    this.cacheKey = `massgen-${options.runId ?? this.started}`;
    this.prefixGate = new SharedPrefixGate(options.orchestrator.promptCacheWaitSeconds * 1000, this.clock);
    // One abort listener per concurrent turn: many agents are normal, not a leak.
    setMaxListeners(0, this.runController.signal, this.checksSignal);
    this.budget = new BudgetGuard(options.orchestrator.budget, (reached) => this.emit({ type: 'budget_reached', ...reached }));
  }

  /**
   * Every caller passes a fresh object literal, so it is stamped in place: no copy per event (most are deltas).
   * Nothing follows `run_ended`: an adapter left running after a cancel (raced, not awaited) cannot add to a run
   * that is over.
   */
  emit(body: RunEventBody): void {
    if (this.closed) return;
    if (body.type === 'run_ended') this.closed = true;
    const event = body as RunEvent;
    event.seq = ++this.seq;
    event.t = this.clock.now() - this.started;
    this.options.onEvent(event);
  }

  get signal(): AbortSignal {
    return this.runController.signal;
  }

  /** The agents in the run: not failed, and their escalation stage has joined. */
  live(): AgentRuntime[] {
    return this.agents.filter((a) => !a.failed && a.joined);
  }

  byId(agentId: string): AgentRuntime | undefined {
    return this.agents.find((a) => a.spec.id === agentId);
  }

  hasCurrentVote(a: AgentRuntime): boolean {
    return a.vote !== null && a.vote.seenRevision === this.board.revision;
  }

  /** After a turn that failed on the protocol, the agent waits for the board to change (see `waitsForNews`). */
  awaitsNews(a: AgentRuntime): boolean {
    // A note for it is news too: its next turn shows it.
    return !a.failed && a.waitsForNews !== null && this.board.revision <= a.waitsForNews.since && a.notes.pending.length === 0;
  }

  capReached(a: AgentRuntime): boolean {
    const cap = this.options.orchestrator.maxNewAnswersPerAgent;
    return cap !== null && a.answerCount >= cap;
  }

  /**
   * Other agents in a turn now that are shown what this one is (same backend, same vote-only state, so the same tools
   * and system prompt): a fresh prompt from the board would start like theirs, and their cache could serve it.
   */
  cachePeers(agent: AgentRuntime): number {
    const backend = agent.spec.provider.description;
    const voteOnly = this.capReached(agent);
    return this.agents.filter((a) => a !== agent && !a.failed && a.turnController !== null && a.spec.provider.description === backend && this.capReached(a) === voteOnly && a.spec.systemMessage === agent.spec.systemMessage).length;
  }

  markFailed(agent: AgentRuntime, error: string, cause: FailureCause, unreachable?: UnreachableServer): void {
    if (agent.failed) return;
    agent.failed = true;
    agent.failure = error;
    agent.failureCause = cause;
    agent.vote = null;
    this.emit({ type: 'agent_failed', agentId: agent.spec.id, error, cause, ...(unreachable ? { unreachable } : {}) });
  }

  setSettled(agent: AgentRuntime, settled: boolean): void {
    if (settled && !agent.settled) this.wakeCoordinator();
    agent.settled = settled;
  }

  /**
   * The user's note, for every live agent or one: queued for each at its next boundary. A vote counts only when cast
   * after seeing every note to its agent, so an addressed agent holding a vote is asked again (it gets the note at
   * its new turn, once); a note that changes the task makes every current vote stale. `undeliverable`: the agents
   * are done (the final answer is being written), so the note is recorded as reaching no one.
   */
  addNote(text: string, options: { agentId?: string; changesTask?: boolean; undeliverable?: NoteUndeliveredReason } = {}): string {
    const to = options.agentId ? this.live().filter((a) => a.spec.id === options.agentId) : this.live();
    if (to.length === 0 && options.agentId && this.byId(options.agentId)?.joined === false) throw new Error(`'${options.agentId}' has not joined the run: its escalation stage was not called`);
    if (to.length === 0) throw new Error(options.agentId ? `no live agent '${options.agentId}'` : 'no live agent to write to');
    const id = `note${++this.noteCount}`;
    const changesTask = Boolean(options.changesTask) && !options.undeliverable;
    this.emit({ type: 'note_added', noteId: id, text, agentIds: to.map((a) => a.spec.id), changesTask });
    if (options.undeliverable) {
      this.emit({ type: 'note_undelivered', noteId: id, agentIds: to.map((a) => a.spec.id), reason: options.undeliverable });
      return id;
    }
    if (changesTask) this.notesChangingTask.add(id);
    if (!options.agentId) this.notesForAll.push({ id, text });
    for (const a of to) a.notes.pending.push({ id, text });
    for (const a of changesTask ? this.live() : to) {
      if (!a.vote) continue;
      const reason = changesTask ? "the user's note changed the task" : "the user's note came after this vote: asked again with it";
      this.emit({ type: 'vote_invalidated', voterId: a.spec.id, targetLabel: a.vote.targetLabel, reason });
      a.vote = null;
    }
    this.wakeCoordinator();
    return id;
  }

  /**
   * The notes still waiting for an agent when the agents are done reach it no more: each says so once, naming the
   * agents it missed and why (`reason`, the run's end, or `agent_failed` when all of those failed).
   */
  reportUndelivered(reason: EndReason): void {
    const missed = new Map<string, AgentRuntime[]>();
    for (const a of this.agents) for (const n of a.notes.pending) missed.set(n.id, [...(missed.get(n.id) ?? []), a]);
    for (const [noteId, agents] of missed) {
      this.emit({ type: 'note_undelivered', noteId, agentIds: agents.map((a) => a.spec.id), reason: agents.every((a) => a.failed) ? 'agent_failed' : reason });
    }
  }

  stop(cause: StopCause): void {
    if (this.stopCause || this.ended) return;
    this.stopCause = cause;
    this.runController.abort();
  }

  /** Checks of an answer version in progress, until they settle. */
  trackChecks(pending: Promise<unknown>): void {
    this.pendingChecks.add(pending);
    pending.then(() => this.pendingChecks.delete(pending), () => this.pendingChecks.delete(pending));
  }

  /**
   * Stops the checks still running and waits for them, so none outlives the run (its checkout is removed after) or
   * reports after `run_ended`. Called once the agents are done: no answer still waiting for its checks can join.
   */
  async settleChecks(): Promise<void> {
    if (this.pendingChecks.size === 0) return;
    this.checksController.abort();
    await Promise.allSettled([...this.pendingChecks]);
  }
}

// The one reducer from RunEvents to RunState. Every view (CLI progress, status.json, the vote viewer, chat) reads
// this state, so they cannot disagree about what happened.

import type { UnreachableServer, Usage } from '../providers/types';
import type { Budget, FinalAnswerMode } from '../config/types';
import { assertNever } from '../util/errors';
import { COORDINATION_TOOLS } from './tool-names';
import type { AgentInfo, AnswerChange, CheckResult, EndReason, EventOf, FailureCause, NoteUndeliveredReason, RunEvent, StageReason, VoteRecord, WinnerVerification, WorkspaceInfo } from './events';

/** Whether the agent took part: every agent does, except those of escalation stages the run never called. */
export function wasCalled(state: RunState, agentId: string): boolean {
  return !state.escalation || state.escalation.stages.some((s) => s.agents.includes(agentId));
}

export type AgentStatus = 'waiting' | 'streaming' | 'answered' | 'voted' | 'restarting' | 'failed' | 'completed';
export type RunPhase = 'idle' | 'coordinating' | 'presenting' | 'done';

/** Keep only the tail of a live stream in state: enough for a view, bounded for long runs. */
export const STREAM_TAIL_CHARS = 4000;

export interface UsageTotals {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  calls: number;
  /** Some figures were estimated by the provider adapter, not reported by a server. */
  estimated: boolean;
  /** USD of the priced calls. */
  costUsd: number;
  /** Calls whose model has no known price: when > 0, `costUsd` is a lower bound. */
  unpricedCalls: number;
}

export interface AnswerState {
  agentId: string;
  label: string;
  version: number;
  content: string;
  t: number;
  /** In a workspace run: the change this version carries. */
  change?: AnswerChange;
}

export interface VoteState extends VoteRecord {
  t: number;
  stale: boolean;
  staleReason?: string;
}

/** A note the user wrote to the agents, and whom it has reached so far. */
export interface NoteState {
  id: string;
  text: string;
  agentIds: string[];
  changesTask: boolean;
  t: number;
  deliveredTo: string[];
  /** It can reach these agents no more, and why (see the `note_undelivered` event). */
  undelivered?: { agentIds: string[]; reason: NoteUndeliveredReason };
}

/** The checks of one answer version: those still running are the `names` without a result. */
export interface VersionChecks {
  agentId: string;
  names: string[];
  results: CheckResult[];
}

/** An escalation stage that has joined the run. */
export interface StageState {
  /** 1-based. */
  stage: number;
  /** Its agents' ids. */
  agents: string[];
  reason: StageReason;
  /** When it joined (ms since the run started) and how many rounds had run before. */
  t: number;
  afterRound: number;
}

export interface AgentState extends AgentInfo {
  status: AgentStatus;
  answerCount: number;
  latestAnswerLabel: string | null;
  /** The agent's vote while it counts; null once invalidated. */
  currentVote: VoteRecord | null;
  turns: number;
  round: number;
  lastActivity: number;
  error: string | null;
  /** Why it failed, with `error`. */
  failureCause: FailureCause | null;
  /** The server it failed to reach, when that is why it failed. */
  unreachable: UnreachableServer | null;
  retry: { attempt: number; delayMs: number; at: number; error: string } | null;
  streamTail: string;
  reasoningTail: string;
  usage: UsageTotals;
  /** Names of the non-coordination tools the agent has (after they started). */
  tools: string[];
  /** Calls of each non-coordination tool (file tools, commands, MCP), and how many failed. */
  toolUse: Record<string, { calls: number; failed: number }>;
}

export interface RunState {
  runId: string;
  question: string;
  startedAt: string;
  phase: RunPhase;
  round: number;
  agents: AgentState[];
  answers: AnswerState[];
  votes: VoteState[];
  winner: {
    agentId: string;
    label: string;
    votes: Record<string, number>;
    tieBreak: boolean;
    basis: EventOf<'winner_selected'>['basis'];
    verification?: WinnerVerification;
  } | null;
  finalAnswer: { agentId: string; label: string; content: string; mode: FinalAnswerMode; fallback?: string } | null;
  /** In a workspace run: the folder the agents work on. */
  workspace: WorkspaceInfo | null;
  /** The user's notes to the agents, in order. */
  notes: NoteState[];
  /** Runs with checks: per answer version (agentK.M), the checks started on it and their results so far. */
  checks: Record<string, VersionChecks>;
  /** Runs with escalation: the stages called so far, in order (the last is the current one); null without. */
  escalation: { stages: StageState[] } | null;
  endReason: EndReason | null;
  error: string | null;
  budget: Budget | null;
  budgetReached: EventOf<'budget_reached'> | null;
  elapsedMs: number;
  lastSeq: number;
  usage: UsageTotals;
}

export function emptyUsage(): UsageTotals {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0, estimated: false, costUsd: 0, unpricedCalls: 0 };
}

export function addUsage(total: UsageTotals, usage: Usage, costUsd: number | null): void {
  total.inputTokens += usage.inputTokens;
  total.cachedInputTokens += usage.cachedInputTokens;
  total.outputTokens += usage.outputTokens;
  total.calls += 1;
  total.estimated ||= Boolean(usage.estimated);
  if (costUsd === null) total.unpricedCalls += 1;
  else total.costUsd += costUsd;
}

export function initialRunState(): RunState {
  return {
    runId: '',
    question: '',
    startedAt: '',
    phase: 'idle',
    round: 0,
    agents: [],
    answers: [],
    votes: [],
    winner: null,
    finalAnswer: null,
    endReason: null,
    error: null,
    budget: null,
    budgetReached: null,
    workspace: null,
    notes: [],
    checks: {},
    escalation: null,
    elapsedMs: 0,
    lastSeq: 0,
    usage: emptyUsage(),
  };
}

function tail(text: string): string {
  return text.length > STREAM_TAIL_CHARS ? text.slice(text.length - STREAM_TAIL_CHARS) : text;
}

/** Each `agents` array's agents by id: most events name an agent, and a scan of a large team per delta adds up. */
const agentIndex = new WeakMap<AgentState[], Map<string, AgentState>>();

/** The agent with this id. The index is keyed by the array itself, so a state whose `agents` is replaced gets a new one. */
export function findAgent(state: RunState, id: string): AgentState | undefined {
  let index = agentIndex.get(state.agents);
  if (!index) {
    index = new Map(state.agents.map((a) => [a.id, a]));
    agentIndex.set(state.agents, index);
  }
  return index.get(id);
}

/** Applies one event to the state in place (views fold thousands of deltas; copying per delta would be waste). */
export function applyEvent(state: RunState, event: RunEvent): void {
  state.lastSeq = event.seq;
  state.elapsedMs = event.t;
  const agent = 'agentId' in event ? findAgent(state, event.agentId) : undefined;
  if (agent) agent.lastActivity = event.t;
  switch (event.type) {
    case 'run_started':
      Object.assign(state, initialRunState(), {
        runId: event.runId,
        question: event.question,
        startedAt: event.startedAt,
        phase: 'coordinating',
        budget: event.budget ?? null,
        workspace: event.workspace ?? null,
      });
      state.lastSeq = event.seq;
      state.agents = event.agents.map((info) => ({
        ...info,
        status: 'waiting',
        answerCount: 0,
        latestAnswerLabel: null,
        currentVote: null,
        turns: 0,
        round: 0,
        lastActivity: event.t,
        error: null,
        failureCause: null,
        unreachable: null,
        retry: null,
        streamTail: '',
        reasoningTail: '',
        usage: emptyUsage(),
        tools: [],
        toolUse: {},
      }));
      break;
    case 'round_started':
      state.round = event.round;
      break;
    case 'stage_started':
      state.escalation ??= { stages: [] };
      state.escalation.stages.push({ stage: event.stage, agents: event.agents, reason: event.reason, t: event.t, afterRound: state.round });
      break;
    case 'turn_started':
      if (!agent) break;
      agent.status = 'streaming';
      agent.turns++;
      agent.round = event.round;
      agent.streamTail = '';
      agent.reasoningTail = '';
      agent.retry = null;
      break;
    case 'text_delta':
      if (agent) {
        agent.streamTail = tail(agent.streamTail + event.text);
        agent.retry = null;
      }
      break;
    case 'reasoning_delta':
      if (agent) agent.reasoningTail = tail(agent.reasoningTail + event.text);
      break;
    case 'retry':
      if (agent) {
        agent.retry = { attempt: event.attempt, delayMs: event.delayMs, at: event.t, error: event.error };
        agent.streamTail = '';
      }
      break;
    case 'turn_failed':
      if (agent && event.willRetry) agent.status = 'restarting';
      break;
    case 'usage':
      if (agent) addUsage(agent.usage, event.usage, event.costUsd);
      addUsage(state.usage, event.usage, event.costUsd);
      break;
    case 'answer_added':
      state.answers.push({ agentId: event.agentId, label: event.label, version: event.version, content: event.content, t: event.t, ...(event.change ? { change: event.change } : {}) });
      if (agent) {
        agent.status = 'answered';
        agent.answerCount = event.version;
        agent.latestAnswerLabel = event.label;
      }
      break;
    case 'vote_cast': {
      state.votes.push({ ...event.vote, t: event.t, stale: false });
      const voter = findAgent(state, event.vote.voterId);
      if (voter) {
        voter.status = 'voted';
        voter.currentVote = event.vote;
        voter.lastActivity = event.t;
      }
      break;
    }
    case 'vote_invalidated': {
      // The voter's live vote is its latest one: search from the end, without copying the run's whole vote list.
      for (let i = state.votes.length - 1; i >= 0; i--) {
        const vote = state.votes[i];
        if (vote.voterId === event.voterId && !vote.stale) {
          vote.stale = true;
          vote.staleReason = event.reason;
          break;
        }
      }
      const voter = findAgent(state, event.voterId);
      if (voter) {
        voter.currentVote = null;
        if (voter.status === 'voted') voter.status = 'restarting';
      }
      break;
    }
    case 'agent_failed':
      // A failed agent is out of the quorum: its vote no longer counts.
      for (const v of state.votes) {
        if (v.voterId === event.agentId && !v.stale) Object.assign(v, { stale: true, staleReason: 'voter failed' });
      }
      if (agent) {
        agent.status = 'failed';
        agent.error = event.error;
        agent.failureCause = event.cause;
        agent.unreachable = event.unreachable ?? null;
        agent.currentVote = null;
        agent.retry = null;
      }
      break;
    case 'winner_selected':
      state.winner = {
        agentId: event.agentId,
        label: event.label,
        votes: event.votes,
        tieBreak: event.tieBreak,
        basis: event.basis,
        ...(event.verification ? { verification: event.verification } : {}),
      };
      break;
    case 'checks_started':
      state.checks[event.label] = { agentId: event.agentId, names: event.names, results: [] };
      break;
    case 'check_finished':
      state.checks[event.label]?.results.push(event.result);
      break;
    case 'final_started':
      state.phase = 'presenting';
      if (agent && event.mode === 'synthesize') agent.streamTail = '';
      break;
    case 'final_answer':
      state.finalAnswer = { agentId: event.agentId, label: event.label, content: event.content, mode: event.mode, fallback: event.fallback };
      break;
    case 'run_ended':
      state.phase = 'done';
      state.endReason = event.reason;
      state.error = event.error ?? null;
      for (const a of state.agents) {
        // An agent of a stage never called did not take part: it stays waiting, and status.json says it was not called.
        if (a.status !== 'failed' && wasCalled(state, a.id)) a.status = 'completed';
        a.retry = null;
      }
      break;
    case 'tools_ready':
      if (agent) agent.tools = event.tools;
      break;
    case 'budget_reached':
      state.budgetReached = event;
      break;
    case 'tool_result':
      if (agent && !COORDINATION_TOOLS.has(event.name)) {
        const use = (agent.toolUse[event.name] ??= { calls: 0, failed: 0 });
        use.calls++;
        if (!event.ok) use.failed++;
      }
      break;
    case 'note_added':
      state.notes.push({ id: event.noteId, text: event.text, agentIds: event.agentIds, changesTask: event.changesTask, t: event.t, deliveredTo: [] });
      break;
    case 'note_delivered': {
      const note = state.notes.find((n) => n.id === event.noteId);
      if (note && !note.deliveredTo.includes(event.agentId)) note.deliveredTo.push(event.agentId);
      // A note to every agent also reaches the agents of an escalation stage that joins later: they are its readers too.
      if (note && !note.agentIds.includes(event.agentId)) note.agentIds = [...note.agentIds, event.agentId];
      break;
    }
    case 'note_undelivered': {
      const note = state.notes.find((n) => n.id === event.noteId);
      if (note) note.undelivered = { agentIds: event.agentIds, reason: event.reason };
      break;
    }
    case 'agent_updated':
    case 'tool_call':
    case 'correction':
      break;
    default:
      assertNever(event, 'event');
  }
}

export function reduceEvents(events: Iterable<RunEvent>): RunState {
  const state = initialRunState();
  for (const e of events) applyEvent(state, e);
  return state;
}

/** Votes that count right now, as the engine counts them. */
export function currentVotes(state: RunState): VoteRecord[] {
  return state.agents.flatMap((a) => (a.currentVote && a.status !== 'failed' ? [a.currentVote] : []));
}

/** Why an escalation stage was called, in words (the log, the viewer). */
export function stageWhy(reason: StageReason): string {
  switch (reason) {
    case 'start':
      return 'the run starts with it';
    case 'disagreement':
      return 'the agents so far voted for different answers';
    case 'failing_check':
      return 'the answer they agreed on failed a required check';
    case 'agent_failed':
      return 'an agent failed';
    case 'vote_cap':
      return 'a cap was reached without agreement';
    case 'user_note':
      return 'you asked for it';
    case 'min_agreeing':
      return 'too few agents agreed (min_agreeing)';
    default:
      return assertNever(reason, 'stage reason');
  }
}

/** Why a note reached some of its agents no more, in words (the log, the viewer). */
export function noteMissedWhy(reason: NoteUndeliveredReason): string {
  switch (reason) {
    case 'final_answer':
      return 'it came after the agents were done, while the final answer was written';
    case 'agent_failed':
      return 'its agents had stopped';
    case 'cancelled':
      return 'the run was cancelled first';
    case 'user_stop':
      return 'you asked for the answer now first';
    case 'timeout':
      return 'the run timed out first';
    case 'budget':
      return 'the budget ran out first';
    case 'max_rounds':
      return 'the run reached its round limit first';
    default:
      return `the run ended first (${reason})`;
  }
}

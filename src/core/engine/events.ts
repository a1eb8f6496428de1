// The one stream every consumer projects from (CLI, status.json, logs, vote viewer, chat). Events are plain JSON:
// they go to events.jsonl as they are, so they must never carry secrets.

import type { Budget } from '../config/types';
import type { UnreachableServer, Usage } from '../providers/types';

export type EndReason =
  | 'consensus'
  | 'answer_cap'
  /** A strict majority of live agents voted for one answer and the turns still out could only vote: decided early. */
  | 'majority'
  | 'max_rounds'
  | 'timeout'
  | 'budget'
  | 'cancelled'
  /** The user asked for the answer now: the best current answer, chosen as at a timeout. */
  | 'user_stop'
  | 'all_failed';

/**
 * Why an escalation stage started (orchestrator.escalation): `start` for stage 1; else what the agents before it left
 * unsettled: their votes on two or more answers, the agreed answer failing a required check, an agent failure, a cap
 * reached without agreement, the user asking for it, or fewer agreeing agents than `min_agreeing`.
 */
export type StageReason = 'start' | EscalationTrigger;
export type EscalationTrigger = 'disagreement' | 'failing_check' | 'agent_failed' | 'vote_cap' | 'user_note' | 'min_agreeing';

/** Why a note reached some of its agents no more (see the `note_undelivered` event). */
export type NoteUndeliveredReason = 'final_answer' | 'agent_failed' | EndReason;

export interface AgentInfo {
  id: string;
  /** Anonymous label used in prompts: agentK, K = position in config order (1-based). */
  label: string;
  model: string;
  provider: string;
  /** Whether this agent's calls can be priced (config or price table); unpriced calls cost "unknown", not 0. */
  priced: boolean;
}

/**
 * Why a turn or an agent failed: `cancelled` by the user, the turn `timeout`, the model kept breaking the
 * `protocol` (no valid coordination call, runaway tool loops), the `provider` kept failing (after its retries), the
 * agent's `workspace` copy could not be used, it was `unavailable` (in a provider's back-off) when the others had
 * agreed and the run ended without it, or its prompt cannot fit its model's `context` window.
 */
export type FailureCause = 'cancelled' | 'timeout' | 'protocol' | 'provider' | 'workspace' | 'unavailable' | 'context';

/** The folder a workspace run works on, as the run record shows it. */
export interface WorkspaceInfo {
  /** The user's folder (absolute). */
  source: string;
  /** `git`: a git repository (copies start at HEAD plus uncommitted and untracked files); `folder`: a plain folder. */
  kind: 'git' | 'folder';
  /** What the user should know about the copies (submodules left out, LFS pointers…). */
  notes: string[];
}

export type BudgetLimit = 'max_cost_usd' | 'max_total_tokens' | 'max_calls';

export interface VoteRecord {
  voterId: string;
  targetId: string;
  /** The answer version voted for, `agentK.M`. */
  targetLabel: string;
  reason: string;
  /** Board revision the voter had seen when it voted; the vote is current while no answer is newer. */
  seenRevision: number;
}

/** One file an answer changed, against the state the run started from. */
export interface ChangedFile {
  /** POSIX path relative to the workspace folder. */
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** Lines added and removed; null for binary files. */
  added: number | null;
  removed: number | null;
}

/** The change an answer carries in a workspace run (its snapshot of the agent's copy). */
export interface AnswerChange {
  /** Content id of the resulting tree: two answers with the same id made the same change. */
  id: string;
  files: ChangedFile[];
  /** Bytes the snapshot added to the object store (∝ the change, not the repository). */
  bytesWritten: number;
}

/** How one check ended on one answer version. */
export type CheckStatus = 'passed' | 'failed' | 'timeout' | 'error' | 'cancelled';

/** A project check's result on one answer version, bound to it like a vote. */
export interface CheckResult {
  name: string;
  required: boolean;
  status: CheckStatus;
  /** The command's exit code; null when it did not exit by itself. */
  exitCode: number | null;
  durationMs: number;
  /** The end of its output (where test runners put failures), capped; why it could not run, for 'error'. */
  output: string;
  /** Reused from an identical change checked earlier in the run. */
  cached: boolean;
}

/** How the winner stands against the checks (runs with checks only). */
export interface WinnerVerification {
  /** passed: every required check passed; failed: one failed (under gate: no answer passed); unchecked: no results. */
  status: 'passed' | 'failed' | 'unchecked';
  /** Under gate: the answer the votes chose, passed over for the winner because it failed these required checks. */
  overruled?: { label: string; failed: string[] };
}

interface Base {
  /** Sequence number, from 1, gap-free within a run. */
  seq: number;
  /** Milliseconds since the run started. */
  t: number;
}

export type RunEventBody =
  | { type: 'run_started'; runId: string; question: string; agents: AgentInfo[]; startedAt: string; finalAnswerMode: 'as_is' | 'synthesize'; budget?: Budget; workspace?: WorkspaceInfo }
  | { type: 'round_started'; round: number; agentIds: string[] }
  /** An escalation stage's agents join the run (stage 1 as it starts); `agents`: their ids. */
  | { type: 'stage_started'; stage: number; agents: string[]; reason: StageReason }
  | { type: 'turn_started'; agentId: string; round: number; boardRevision: number; voteOnly: boolean }
  /** An agent's tools (file tools, MCP servers) are ready; `error` when some failed to start (the rest are usable). */
  | { type: 'tools_ready'; agentId: string; tools: string[]; error?: string }
  | { type: 'agent_updated'; agentId: string; labels: string[]; via: 'next_turn' | 'tool_result' }
  /** The user wrote to the agents (`agentIds`: who it is for); `changesTask`: it made the current votes stale. */
  | { type: 'note_added'; noteId: string; text: string; agentIds: string[]; changesTask: boolean }
  /** A note reached an agent at its boundary, as peer updates do. */
  | { type: 'note_delivered'; noteId: string; agentId: string; via: 'next_turn' | 'tool_result' }
  /**
   * A note that can reach these agents no more: it came while the final answer was written (`final_answer`), its
   * agents failed first (`agent_failed`), or the run ended for this reason before their next boundary.
   */
  | { type: 'note_undelivered'; noteId: string; agentIds: string[]; reason: NoteUndeliveredReason }
  | { type: 'text_delta'; agentId: string; text: string }
  | { type: 'reasoning_delta'; agentId: string; text: string }
  | { type: 'tool_call'; agentId: string; callId: string; name: string; arguments: string }
  | { type: 'tool_result'; agentId: string; callId: string; name: string; ok: boolean; summary: string }
  | { type: 'correction'; agentId: string; attempt: number; message: string }
  | { type: 'retry'; agentId: string; attempt: number; delayMs: number; error: string }
  /** One model call's usage as the server reported it; `costUsd` null when the agent's model has no known price. */
  | { type: 'usage'; agentId: string; usage: Usage; costUsd: number | null; phase: 'coordination' | 'final' }
  /** The next call would cross a budget: no new call starts; the run ends with reason `budget`. */
  | { type: 'budget_reached'; limit: BudgetLimit; limitValue: number; spent: { costUsd: number; totalTokens: number; calls: number } }
  /** `change`: in a workspace run, the snapshot of the agent's copy bound to this version. */
  | { type: 'answer_added'; agentId: string; label: string; version: number; content: string; boardRevision: number; change?: AnswerChange }
  /** The engine started the project's checks on an answer version, before the answer joins the board. */
  | { type: 'checks_started'; agentId: string; label: string; names: string[] }
  | { type: 'check_finished'; agentId: string; label: string; result: CheckResult }
  | { type: 'vote_cast'; vote: VoteRecord }
  | { type: 'vote_invalidated'; voterId: string; targetLabel: string; reason: string }
  /**
   * `willRetry`: the agent may start the turn again: after a back-off, or, when it failed on the protocol, once the
   * board shows it something new (if nothing can change the board any more, it is set aside: `agent_failed`).
   */
  | { type: 'turn_failed'; agentId: string; error: string; cause: FailureCause; willRetry: boolean }
  /** `unreachable`: the agent failed because its server could not be reached (typed, so views need not parse `error`). */
  | { type: 'agent_failed'; agentId: string; error: string; cause: FailureCause; unreachable?: UnreachableServer }
  | { type: 'winner_selected'; agentId: string; label: string; votes: Record<string, number>; tieBreak: boolean; basis: 'current_votes' | 'latest_votes' | 'most_informed'; verification?: WinnerVerification }
  | { type: 'final_started'; agentId: string; mode: 'as_is' | 'synthesize' }
  | { type: 'final_answer'; agentId: string; label: string; content: string; mode: 'as_is' | 'synthesize'; fallback?: string }
  | { type: 'run_ended'; reason: EndReason; winnerId: string | null; durationMs: number; error?: string };

export type RunEvent = RunEventBody & Base;
export type RunEventType = RunEvent['type'];
export type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

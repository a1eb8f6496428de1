// Runtime schemas (zod/mini: tree-shakable, ~25 KB in the webview bundle instead of ~450 KB for classic zod) for
// everything that crosses the host↔webview boundary or comes back from disk: the engine's RunEvent and RunState,
// and the viewer's extras. The compile-time checks at the bottom fail the typecheck when src/core changes a type
// without this file following.

// `zod/v4-mini`, the path the MCP SDK imports: through `zod/mini` the runtime bundle initialised zod lazily on one
// path and not on the other, and crashed at load (test/integration/bundles.test.ts).
import * as z from 'zod/v4-mini';
import type { Budget } from '../core/config/types';
import type { RunEvent } from '../core/engine/events';
import type { RunState } from '../core/engine/run-state';
import type { ViewerExtras } from './state';

// No `new Function` fast path: the webview's CSP has no 'unsafe-eval' (zod's probe alone would be reported as a
// violation), and the host gains nothing measurable from it for messages this size.
z.config({ jitless: true });

const str = z.string();
const num = z.number();
const bool = z.boolean();

export const EndReasonSchema = z.enum(['consensus', 'answer_cap', 'majority', 'max_rounds', 'timeout', 'budget', 'cancelled', 'user_stop', 'all_failed']);
const StageReasonSchema = z.enum(['start', 'disagreement', 'failing_check', 'agent_failed', 'vote_cap', 'user_note', 'min_agreeing']);
const NoteUndeliveredReasonSchema = z.enum(['final_answer', 'agent_failed', ...EndReasonSchema.options]);
export const AgentInfoSchema = z.object({ id: str, label: str, model: str, provider: str, priced: bool });
export const BudgetSchema = z.object({ maxCostUsd: z.optional(num), maxTotalTokens: z.optional(num), maxCalls: z.optional(num) });
export const VoteRecordSchema = z.object({ voterId: str, targetId: str, targetLabel: str, reason: str, seenRevision: num });
export const UsageSchema = z.object({ inputTokens: num, cachedInputTokens: num, outputTokens: num, estimated: z.optional(bool) });
const Spent = z.object({ costUsd: num, totalTokens: num, calls: num });
const BudgetLimit = z.enum(['max_cost_usd', 'max_total_tokens', 'max_calls']);
const Mode = z.enum(['as_is', 'synthesize']);
const base = { seq: num, t: num };
const FailureCause = z.enum(['cancelled', 'timeout', 'protocol', 'provider', 'workspace', 'unavailable', 'context']);
const WinnerBasis = z.enum(['current_votes', 'latest_votes', 'most_informed']);
/** Runs stored before the fallback was the most informed answer said `latest_answer`. */
const StoredWinnerBasis = z.pipe(
  z.enum(['current_votes', 'latest_votes', 'most_informed', 'latest_answer']),
  z.transform((b): z.infer<typeof WinnerBasis> => (b === 'latest_answer' ? 'most_informed' : b)),
);
export const WorkspaceInfoSchema = z.object({ source: str, kind: z.enum(['git', 'folder']), notes: z.array(str) });
export const AnswerChangeSchema = z.object({
  id: str,
  files: z.array(z.object({ path: str, status: z.enum(['added', 'modified', 'deleted']), added: z.nullable(num), removed: z.nullable(num) })),
  bytesWritten: num,
});

export const CheckResultSchema = z.object({
  name: str,
  required: bool,
  status: z.enum(['passed', 'failed', 'timeout', 'error', 'cancelled']),
  exitCode: z.nullable(num),
  durationMs: num,
  output: str,
  cached: bool,
});
const WinnerVerificationSchema = z.object({ status: z.enum(['passed', 'failed', 'unchecked']), overruled: z.optional(z.object({ label: str, failed: z.array(str) })) });

const ev = <T extends string, S extends Record<string, z.core.SomeType>>(type: T, shape: S) => z.object({ type: z.literal(type), ...base, ...shape });

export const BudgetReachedSchema = ev('budget_reached', { limit: BudgetLimit, limitValue: num, spent: Spent });

export const RunEventSchema = z.discriminatedUnion('type', [
  ev('run_started', { runId: str, question: str, agents: z.array(AgentInfoSchema), startedAt: str, finalAnswerMode: Mode, budget: z.optional(BudgetSchema), workspace: z.optional(WorkspaceInfoSchema) }),
  ev('round_started', { round: num, agentIds: z.array(str) }),
  ev('stage_started', { stage: num, agents: z.array(str), reason: StageReasonSchema }),
  ev('turn_started', { agentId: str, round: num, boardRevision: num, voteOnly: bool }),
  ev('tools_ready', { agentId: str, tools: z.array(str), error: z.optional(str) }),
  ev('agent_updated', { agentId: str, labels: z.array(str), via: z.enum(['next_turn', 'tool_result']) }),
  ev('note_added', { noteId: str, text: str, agentIds: z.array(str), changesTask: bool }),
  ev('note_delivered', { noteId: str, agentId: str, via: z.enum(['next_turn', 'tool_result']) }),
  ev('note_undelivered', { noteId: str, agentIds: z.array(str), reason: NoteUndeliveredReasonSchema }),
  ev('checks_started', { agentId: str, label: str, names: z.array(str) }),
  ev('check_finished', { agentId: str, label: str, result: CheckResultSchema }),
  ev('text_delta', { agentId: str, text: str }),
  ev('reasoning_delta', { agentId: str, text: str }),
  ev('tool_call', { agentId: str, callId: str, name: str, arguments: str }),
  ev('tool_result', { agentId: str, callId: str, name: str, ok: bool, summary: str }),
  ev('correction', { agentId: str, attempt: num, message: str }),
  ev('retry', { agentId: str, attempt: num, delayMs: num, error: str }),
  ev('usage', { agentId: str, usage: UsageSchema, costUsd: z.nullable(num), phase: z.enum(['coordination', 'final']) }),
  BudgetReachedSchema,
  ev('answer_added', { agentId: str, label: str, version: num, content: str, boardRevision: num, change: z.optional(AnswerChangeSchema) }),
  ev('vote_cast', { vote: VoteRecordSchema }),
  ev('vote_invalidated', { voterId: str, targetLabel: str, reason: str }),
  ev('turn_failed', { agentId: str, error: str, cause: FailureCause, willRetry: bool }),
  ev('agent_failed', { agentId: str, error: str, cause: FailureCause, unreachable: z.optional(z.object({ url: str, reason: str })) }),
  ev('winner_selected', { agentId: str, label: str, votes: z.record(str, num), tieBreak: bool, basis: WinnerBasis, verification: z.optional(WinnerVerificationSchema) }),
  ev('final_started', { agentId: str, mode: Mode }),
  ev('final_answer', { agentId: str, label: str, content: str, mode: Mode, fallback: z.optional(str) }),
  ev('run_ended', { reason: EndReasonSchema, winnerId: z.nullable(str), durationMs: num, error: z.optional(str) }),
]);

export const UsageTotalsSchema = z.object({
  inputTokens: num,
  cachedInputTokens: num,
  outputTokens: num,
  calls: num,
  estimated: bool,
  costUsd: num,
  unpricedCalls: num,
});

export const AgentStateSchema = z.object({
  ...AgentInfoSchema.shape,
  status: z.enum(['waiting', 'streaming', 'answered', 'voted', 'restarting', 'failed', 'completed']),
  answerCount: num,
  latestAnswerLabel: z.nullable(str),
  currentVote: z.nullable(VoteRecordSchema),
  turns: num,
  round: num,
  lastActivity: num,
  error: z.nullable(str),
  // Runs stored before the field existed read as null.
  failureCause: z._default(z.nullable(FailureCause), null),
  unreachable: z._default(z.nullable(z.object({ url: str, reason: str })), null),
  retry: z.nullable(z.object({ attempt: num, delayMs: num, at: num, error: str })),
  streamTail: str,
  reasoningTail: str,
  usage: UsageTotalsSchema,
  tools: z.array(str),
  toolUse: z._default(z.record(str, z.object({ calls: num, failed: num })), {}),
});

export const RunStateSchema = z.object({
  runId: str,
  question: str,
  startedAt: str,
  phase: z.enum(['idle', 'coordinating', 'presenting', 'done']),
  round: num,
  agents: z.array(AgentStateSchema),
  answers: z.array(z.object({ agentId: str, label: str, version: num, content: str, t: num, change: z.optional(AnswerChangeSchema) })),
  votes: z.array(z.object({ ...VoteRecordSchema.shape, t: num, stale: bool, staleReason: z.optional(str) })),
  winner: z.nullable(z.object({ agentId: str, label: str, votes: z.record(str, num), tieBreak: bool, basis: StoredWinnerBasis, verification: z.optional(WinnerVerificationSchema) })),
  finalAnswer: z.nullable(z.object({ agentId: str, label: str, content: str, mode: Mode, fallback: z.optional(str) })),
  workspace: z._default(z.nullable(WorkspaceInfoSchema), null),
  notes: z._default(z.array(z.object({ id: str, text: str, agentIds: z.array(str), changesTask: bool, t: num, deliveredTo: z.array(str), undelivered: z.optional(z.object({ agentIds: z.array(str), reason: NoteUndeliveredReasonSchema })) })), []),
  checks: z._default(z.record(str, z.object({ agentId: str, names: z.array(str), results: z.array(CheckResultSchema) })), {}),
  // Runs stored before escalation existed had none.
  escalation: z._default(z.nullable(z.object({ stages: z.array(z.object({ stage: num, agents: z.array(str), reason: StageReasonSchema, t: num, afterRound: num })) })), null),
  endReason: z.nullable(EndReasonSchema),
  error: z.nullable(str),
  budget: z.nullable(BudgetSchema),
  budgetReached: z.nullable(BudgetReachedSchema),
  elapsedMs: num,
  lastSeq: num,
  usage: UsageTotalsSchema,
});

export const ViewerExtrasSchema = z.object({
  agents: z.record(
    str,
    z.object({
      tools: z.array(z.object({ callId: str, name: str, args: str, status: z.enum(['running', 'ok', 'error']), result: str, t: num })),
      toolsDropped: num,
      lastFailure: z.nullable(str),
      lastFailureCause: z._default(z.nullable(FailureCause), null),
      // Runs stored before the field existed read as 0.
      streamedChars: z._default(num, 0),
    }),
  ),
  timeline: z.array(
    z.object({
      seq: num,
      t: num,
      agentId: z.nullable(str),
      kind: z.enum(['round', 'stage', 'answer', 'vote', 'stale', 'update', 'note', 'check', 'correction', 'restart', 'retry', 'tools', 'failed', 'winner', 'budget', 'end']),
      label: str,
      detail: str,
    }),
  ),
  timelineDropped: num,
});

export const RunViewSchema = z.object({ state: RunStateSchema, extras: ViewerExtrasSchema });

// ---- compile-time drift checks: each schema's type and the engine's type must be assignable both ways ----------
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const check = <T extends true>(_: T) => undefined;
check<Same<z.infer<typeof RunEventSchema>, RunEvent>>(true);
check<Same<z.infer<typeof RunStateSchema>, RunState>>(true);
check<Same<z.infer<typeof ViewerExtrasSchema>, ViewerExtras>>(true);
check<Same<z.infer<typeof BudgetSchema>, Budget>>(true);

// status.json in upstream's schema (meta, coordination, agents, results) so existing automation keeps working,
// but derived from the one RunState, so its fields mean what they say: current votes only, real statuses, a
// completion figure that is the share of agents holding a current vote. Plus our `usage` per agent and total.

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunState, UsageTotals } from '../engine/run-state';
import { currentVotes, wasCalled } from '../engine/run-state';
import { countByLabel } from '../engine/tally';

export const STATUS_SCHEMA_VERSION = 1;

export interface StatusUsage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  calls: number;
  estimated: boolean;
  /** null when nothing could be priced; a lower bound when `cost_partial`. */
  cost_usd: number | null;
  cost_partial: boolean;
}

function usageJson(u: UsageTotals): StatusUsage {
  const cost = u.calls > 0 && u.unpricedCalls === u.calls ? null : Math.round(u.costUsd * 1e6) / 1e6;
  return {
    input_tokens: u.inputTokens,
    cached_input_tokens: u.cachedInputTokens,
    output_tokens: u.outputTokens,
    calls: u.calls,
    estimated: u.estimated,
    cost_usd: cost,
    cost_partial: cost !== null && u.unpricedCalls > 0,
  };
}

const seconds = (ms: number) => Math.round(ms) / 1000;

export function buildStatus(state: RunState, logDir: string, nowMs: number = Date.now()) {
  const startMs = state.startedAt ? Date.parse(state.startedAt) : nowMs;
  const live = state.agents.filter((a) => a.status !== 'failed' && wasCalled(state, a.id));
  const votes = currentVotes(state);
  const done = state.phase === 'done';
  const phase =
    state.phase === 'presenting' || done ? 'presentation' : state.answers.length === 0 || state.round <= 1 ? 'initial_answer' : 'enforcement';
  const completion = done ? 100 : live.length === 0 ? 0 : Math.floor((votes.length / live.length) * 100);
  const active = state.agents.find((a) => a.status === 'streaming');
  return {
    schema_version: STATUS_SCHEMA_VERSION,
    meta: {
      last_updated: nowMs / 1000,
      session_id: state.runId,
      log_dir: logDir,
      question: state.question,
      start_time: startMs / 1000,
      elapsed_seconds: seconds(state.elapsedMs),
    },
    coordination: {
      phase,
      active_agent: active?.id ?? null,
      completion_percentage: completion,
      is_final_presentation: state.phase === 'presenting' || done,
      round: state.round,
      end_reason: state.endReason,
    },
    agents: Object.fromEntries(
      state.agents.map((a) => [
        a.id,
        {
          status: a.status,
          label: a.label,
          model: a.model,
          answer_count: a.answerCount,
          latest_answer_label: a.latestAnswerLabel,
          vote_cast: a.currentVote
            ? {
                voted_for_agent: a.currentVote.targetId,
                voted_for_label: a.currentVote.targetLabel,
                reason_preview: a.currentVote.reason.slice(0, 100),
              }
            : null,
          times_restarted: Math.max(0, a.turns - 1),
          last_activity: (startMs + a.lastActivity) / 1000,
          error: a.error ? { type: a.failureCause === 'timeout' ? 'timeout' : 'error', message: a.error, timestamp: (startMs + a.lastActivity) / 1000 } : null,
          retry: a.retry ? { attempt: a.retry.attempt, delay_seconds: seconds(a.retry.delayMs), error: a.retry.error } : null,
          // Ours: calls of each tool (file tools, execute_command, MCP) and how many failed.
          tools: a.toolUse,
          usage: usageJson(a.usage),
        },
      ]),
    ),
    results: {
      votes: countByLabel(votes),
      winner: state.winner?.agentId ?? null,
      winner_label: state.winner?.label ?? null,
      final_answer_preview: state.finalAnswer ? state.finalAnswer.content.slice(0, 200) : null,
      end_reason: state.endReason,
      error: state.error,
      // Ours, in runs with checks: how the winner stands against them (passed / failed / unchecked, and whom it overruled).
      verification: state.winner?.verification ?? null,
    },
    usage: usageJson(state.usage),
    // Ours: the user's notes to the agents, and whom each has reached.
    notes: state.notes.map((n) => ({
      text: n.text,
      to: n.agentIds,
      changes_task: n.changesTask,
      at_seconds: seconds(n.t),
      delivered_to: n.deliveredTo,
      // Whom it can reach no more, and why (the run ended first): null while it may still.
      undelivered: n.undelivered ? { to: n.undelivered.agentIds, reason: n.undelivered.reason } : null,
    })),
    // Ours: the project's checks per answer version; `running` lists those not finished yet.
    checks: Object.fromEntries(
      Object.entries(state.checks).map(([label, c]) => [
        label,
        {
          running: c.names.filter((n) => !c.results.some((r) => r.name === n)),
          results: c.results.map((r) => ({ name: r.name, status: r.status, required: r.required, exit_code: r.exitCode, duration_seconds: seconds(r.durationMs), cached: r.cached })),
        },
      ]),
    ),
    // Ours: in a workspace run, the folder and each answer version's changed files.
    workspace: state.workspace
      ? {
          source: state.workspace.source,
          kind: state.workspace.kind,
          notes: state.workspace.notes,
          answers: Object.fromEntries(state.answers.filter((a) => a.change).map((a) => [a.label, a.change!.files])),
        }
      : null,
    // Ours, in runs with escalation stages: the stages called so far (the last is the current one), who joined, why
    // and when (`after_round`: rounds run before it), and the agents not called yet.
    escalation: state.escalation
      ? {
          current_stage: state.escalation.stages.at(-1)?.stage ?? null,
          stages: state.escalation.stages.map((s) => ({ stage: s.stage, agents: s.agents, reason: s.reason, after_round: s.afterRound, at_seconds: seconds(s.t) })),
          not_called: state.agents.filter((a) => !wasCalled(state, a.id)).map((a) => a.id),
        }
      : null,
    budget: state.budget
      ? {
          max_cost_usd: state.budget.maxCostUsd ?? null,
          max_total_tokens: state.budget.maxTotalTokens ?? null,
          max_calls: state.budget.maxCalls ?? null,
          reached: state.budgetReached?.limit ?? null,
        }
      : null,
  };
}

export type StatusJson = ReturnType<typeof buildStatus>;

/** Writes via a temp file and rename, so a reader never sees half a file. */
export function writeJsonAtomic(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2));
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Keeps status files current without writing on every streamed token: at most one write per `intervalMs`,
 * and a trailing write so the last change is never lost. `flush()` writes at once (run end, Ctrl-C). A path that
 * cannot be written is reported once through `onError` and never stops the run or the other paths.
 */
export class StatusWriter {
  private timer: NodeJS.Timeout | null = null;
  private lastWrite = 0;
  private dirty = false;

  constructor(
    private readonly paths: string[],
    private readonly snapshot: () => unknown,
    private readonly intervalMs = 250,
    private readonly onError: (path: string, err: Error) => void = () => {},
  ) {}

  private readonly failed = new Set<string>();

  changed(): void {
    this.dirty = true;
    const wait = this.lastWrite + this.intervalMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty && this.lastWrite !== 0) return;
    this.dirty = false;
    this.lastWrite = Date.now();
    const value = this.snapshot();
    for (const p of this.paths) {
      try {
        writeJsonAtomic(p, value);
        this.failed.delete(p);
      } catch (err) {
        if (!this.failed.has(p)) this.onError(p, err as Error);
        this.failed.add(p);
      }
    }
  }
}

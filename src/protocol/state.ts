// What the vote viewer shows: the engine's RunState, folded by the engine's own reducer, plus a few things the
// RunState does not keep (tool-call rows, the timeline, each agent's last failure), folded here from the same
// events. Shared by the host (which keeps these extras next to each live run) and the webview (which folds the
// deltas it receives), so both sides compute exactly the same view.
//
// This module (with stage-words.ts, which reads the same reducer) is the webview's only door to src/core: it
// re-exports the pure reducer from src/core/engine/run-state.ts (whose own imports are type-only) instead of
// copying it, so the viewer can never disagree with the CLI, status.json or the chat about what happened.
// test/webview/bundle.test.ts checks that nothing else from src/core reaches the webview bundle.

import type { RunEvent } from '../core/engine/events';
import { applyEvent, currentVotes, initialRunState, noteMissedWhy, STREAM_TAIL_CHARS, type RunState } from '../core/engine/run-state';
import { stageEntryText } from './stage-words';
import type { FailureCause } from '../core/engine/events';
import { COORDINATION_TOOLS } from '../core/engine/tool-names';
import { assertNever } from '../core/util/errors';
import { oneLine } from '../core/util/text';

export { applyEvent, currentVotes, initialRunState, noteMissedWhy, STREAM_TAIL_CHARS };
export type { AgentState, AgentStatus, AnswerState, RunPhase, RunState, UsageTotals, VoteState } from '../core/engine/run-state';
export type { AgentInfo, AnswerChange, ChangedFile, EndReason, FailureCause, RunEvent, RunEventType, VoteRecord, WorkspaceInfo } from '../core/engine/events';

/** Tool-call rows kept per agent (the newest); older rows are counted, not kept. */
export const MAX_TOOL_ROWS = 30;
/** Timeline entries kept per run: the first TIMELINE_HEAD (how the run began stays reachable) and the newest. */
export const MAX_TIMELINE = 600;
export const TIMELINE_HEAD = 100;
export const TOOL_ARGS_CHARS = 160;
export const TOOL_RESULT_CHARS = 240;
export const TIMELINE_DETAIL_CHARS = 300;

/** The coordination tools: shown as answers and votes, so a successful call needs no tool row. */
export { COORDINATION_TOOLS } from '../core/engine/tool-names';

export type ToolStatus = 'running' | 'ok' | 'error';

export interface ToolRow {
  callId: string;
  name: string;
  /** One-line summary of the arguments. */
  args: string;
  status: ToolStatus;
  /** One-line summary of the result (the error when status is 'error'). */
  result: string;
  t: number;
}

export type TimelineKind =
  | 'round'
  | 'stage'
  | 'answer'
  | 'vote'
  | 'stale'
  | 'update'
  | 'note'
  | 'check'
  | 'correction'
  | 'restart'
  | 'retry'
  | 'tools'
  | 'failed'
  | 'winner'
  | 'budget'
  | 'end';

export interface TimelineEntry {
  seq: number;
  t: number;
  /** null for run-level entries (rounds, budget, end). */
  agentId: string | null;
  kind: TimelineKind;
  /** Short text for the marker, e.g. `agent2.1` or `→ agent1.1`. */
  label: string;
  /** Longer text for the tooltip and screen readers. */
  detail: string;
}

export interface AgentExtras {
  tools: ToolRow[];
  /** Tool rows dropped to keep the list bounded. */
  toolsDropped: number;
  /** The last failed turn's error (cleared when a turn starts), e.g. "turn timed out after 600 s", and why. */
  lastFailure: string | null;
  lastFailureCause: FailureCause | null;
  /**
   * Characters streamed (text and reasoning) since the agent's last counted call: usage arrives when a call ends,
   * so while one streams the views estimate its tokens from these.
   */
  streamedChars: number;
}

export interface ViewerExtras {
  agents: Record<string, AgentExtras>;
  timeline: TimelineEntry[];
  timelineDropped: number;
}

/** The whole projection: what a snapshot carries and what deltas update. */
export interface RunView {
  state: RunState;
  extras: ViewerExtras;
}

export function emptyExtras(): ViewerExtras {
  return { agents: {}, timeline: [], timelineDropped: 0 };
}

export function emptyView(): RunView {
  return { state: initialRunState(), extras: emptyExtras() };
}

/** A short, readable summary of a tool call's JSON arguments: `path: "src/a.ts", line: 3`. */
export function summarizeArgs(raw: string, max = TOOL_ARGS_CHARS): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return oneLine(raw, max);
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const parts = Object.entries(parsed as Record<string, unknown>).map(([k, v]) => `${k}: ${typeof v === 'string' ? JSON.stringify(oneLine(v, 60)) : oneLine(JSON.stringify(v) ?? String(v), 60)}`);
    return oneLine(parts.join(', '), max);
  }
  return oneLine(JSON.stringify(parsed) ?? '', max);
}

function agentExtras(extras: ViewerExtras, agentId: string): AgentExtras {
  let a = extras.agents[agentId];
  if (!a) {
    a = { tools: [], toolsDropped: 0, lastFailure: null, lastFailureCause: null, streamedChars: 0 };
    extras.agents[agentId] = a;
  }
  return a;
}

function push(extras: ViewerExtras, entry: TimelineEntry): void {
  extras.timeline.push({ ...entry, detail: oneLine(entry.detail, TIMELINE_DETAIL_CHARS) });
  if (extras.timeline.length > MAX_TIMELINE) {
    // From the middle: the dropped entries were between entry TIMELINE_HEAD - 1 and entry TIMELINE_HEAD.
    const drop = extras.timeline.length - MAX_TIMELINE;
    extras.timeline.splice(TIMELINE_HEAD, drop);
    extras.timelineDropped += drop;
  }
}

/**
 * Folds one event into the extras. Call it after `applyEvent` folded the same event into `state` (it reads the
 * state, e.g. agent labels). In place, like the reducer: views fold thousands of deltas.
 */
export function applyExtras(extras: ViewerExtras, event: RunEvent, state: RunState): void {
  const base = { seq: event.seq, t: event.t };
  const labelOf = (id: string) => state.agents.find((a) => a.id === id)?.label ?? id;
  switch (event.type) {
    case 'run_started':
      extras.agents = {};
      extras.timeline = [];
      extras.timelineDropped = 0;
      for (const a of event.agents) agentExtras(extras, a.id);
      break;
    case 'round_started':
      push(extras, { ...base, agentId: null, kind: 'round', label: `R${event.round}`, detail: `Round ${event.round}: ${event.agentIds.map(labelOf).join(', ')}` });
      break;
    case 'stage_started':
      push(extras, { ...base, agentId: null, kind: 'stage', label: `S${event.stage}`, detail: stageEntryText(event.stage, event.agents.map(labelOf), event.reason) });
      break;
    case 'turn_started':
      Object.assign(agentExtras(extras, event.agentId), { lastFailure: null, lastFailureCause: null, streamedChars: 0 });
      break;
    case 'tools_ready':
      if (event.error) push(extras, { ...base, agentId: event.agentId, kind: 'tools', label: '!', detail: `${labelOf(event.agentId)}'s tools: ${event.error} (continuing with ${event.tools.join(', ') || 'no tools'})` });
      break;
    case 'agent_updated':
      push(extras, { ...base, agentId: event.agentId, kind: 'update', label: '↻', detail: `${labelOf(event.agentId)} was shown new answers ${event.labels.join(', ')}` });
      break;
    case 'tool_call': {
      const a = agentExtras(extras, event.agentId);
      a.tools.push({ callId: event.callId, name: oneLine(event.name, 80), args: summarizeArgs(event.arguments), status: 'running', result: '', t: event.t });
      if (a.tools.length > MAX_TOOL_ROWS) {
        const drop = a.tools.length - MAX_TOOL_ROWS;
        a.tools.splice(0, drop);
        a.toolsDropped += drop;
      }
      break;
    }
    case 'tool_result': {
      const a = agentExtras(extras, event.agentId);
      const i = a.tools.findIndex((r) => r.callId === event.callId);
      if (i < 0) break;
      if (event.ok && COORDINATION_TOOLS.has(event.name)) {
        a.tools.splice(i, 1);
        break;
      }
      a.tools[i].status = event.ok ? 'ok' : 'error';
      a.tools[i].result = oneLine(event.summary, TOOL_RESULT_CHARS);
      break;
    }
    case 'correction':
      push(extras, { ...base, agentId: event.agentId, kind: 'correction', label: '!', detail: `${labelOf(event.agentId)} was corrected (attempt ${event.attempt}): ${event.message}` });
      break;
    case 'retry':
      push(extras, { ...base, agentId: event.agentId, kind: 'retry', label: '⟳', detail: `${labelOf(event.agentId)} retrying (attempt ${event.attempt}) in ${(event.delayMs / 1000).toFixed(1)} s: ${event.error}` });
      break;
    case 'turn_failed':
      Object.assign(agentExtras(extras, event.agentId), { lastFailure: event.error, lastFailureCause: event.cause });
      if (event.willRetry) push(extras, { ...base, agentId: event.agentId, kind: 'restart', label: '↺', detail: `${labelOf(event.agentId)} turn failed, restarting: ${event.error}` });
      break;
    case 'answer_added':
      push(extras, { ...base, agentId: event.agentId, kind: 'answer', label: event.label, detail: `${labelOf(event.agentId)} answered ${event.label}` });
      break;
    case 'vote_cast':
      push(extras, {
        ...base,
        agentId: event.vote.voterId,
        kind: 'vote',
        label: `→${event.vote.targetLabel.replace(/^agent/, '')}`,
        detail: `${labelOf(event.vote.voterId)} voted for ${event.vote.targetLabel}: ${event.vote.reason}`,
      });
      break;
    case 'vote_invalidated':
      push(extras, { ...base, agentId: event.voterId, kind: 'stale', label: '✗', detail: `${labelOf(event.voterId)}'s vote for ${event.targetLabel} no longer counts: ${event.reason}` });
      break;
    case 'agent_failed':
      Object.assign(agentExtras(extras, event.agentId), { lastFailure: event.error, lastFailureCause: event.cause });
      push(extras, { ...base, agentId: event.agentId, kind: 'failed', label: '✕', detail: `${labelOf(event.agentId)} failed: ${event.error}` });
      break;
    case 'winner_selected':
      push(extras, {
        ...base,
        agentId: event.agentId,
        kind: 'winner',
        label: '★',
        detail: `Winner: ${event.label}${event.tieBreak ? ' (tie broken by agent order)' : ''}${event.verification?.overruled ? ` (checks passed; the votes chose ${event.verification.overruled.label}, which failed ${event.verification.overruled.failed.join(', ')})` : event.verification?.status === 'failed' ? ' (unverified: a required check failed)' : ''}`,
      });
      break;
    case 'budget_reached':
      push(extras, { ...base, agentId: null, kind: 'budget', label: '$', detail: `Budget reached (${event.limit} ${event.limitValue})` });
      break;
    case 'run_ended':
      push(extras, { ...base, agentId: null, kind: 'end', label: '■', detail: `Run ended: ${event.reason}${event.error ? ` (${oneLine(event.error, 120)})` : ''}` });
      break;
    case 'note_added':
      push(extras, { ...base, agentId: event.agentIds.length === 1 ? event.agentIds[0] : null, kind: 'note', label: '✎', detail: `Your note${event.agentIds.length === 1 ? ` to ${labelOf(event.agentIds[0])}` : ''}${event.changesTask ? ' (changes the task)' : ''}: ${event.text}` });
      break;
    case 'check_finished': {
      const r = event.result;
      const passed = r.status === 'passed';
      push(extras, { ...base, agentId: event.agentId, kind: 'check', label: passed ? '✓' : '✗', detail: `${event.label} ${r.name}: ${passed ? 'passed' : r.status === 'failed' ? `failed${r.exitCode !== null ? ` (exit ${r.exitCode})` : ''}` : r.status}${r.cached ? ' (same change as before)' : ''}` });
      break;
    }
    case 'text_delta':
    case 'reasoning_delta':
      agentExtras(extras, event.agentId).streamedChars += event.text.length;
      break;
    case 'usage':
      // The call is counted now: what it streamed is in its usage.
      agentExtras(extras, event.agentId).streamedChars = 0;
      break;
    case 'note_undelivered':
      push(extras, { ...base, agentId: event.agentIds.length === 1 ? event.agentIds[0] : null, kind: 'note', label: '✎', detail: `Your note did not reach ${event.agentIds.map(labelOf).join(', ')}: ${noteMissedWhy(event.reason)}` });
      break;
    case 'checks_started':
    case 'note_delivered':
    case 'final_started':
    case 'final_answer':
      break;
    default:
      assertNever(event, 'event');
  }
}

/** Folds one event into the whole view: the engine's reducer, then the viewer's extras. */
export function applyViewEvent(view: RunView, event: RunEvent): void {
  applyEvent(view.state, event);
  applyExtras(view.extras, event, view.state);
}

/** A view built from a whole event stream (tests, replays, restoring a run from its events). */
export function reduceView(events: Iterable<RunEvent>): RunView {
  const view = emptyView();
  for (const e of events) applyViewEvent(view, e);
  return view;
}

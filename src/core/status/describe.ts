// One line of text per engine event that matters to a person (answers, votes, invalidations, retries, failures,
// commands and their results, budget, the winner, the end). Shared by the CLI's stderr progress and the
// extension's log channel.

import type { CheckResult, RunEvent, WinnerVerification } from '../engine/events';
import { noteMissedWhy, stageWhy, type RunState, type UsageTotals } from '../engine/run-state';
import { assertNever } from '../util/errors';
import { EXECUTE_COMMAND } from '../sandbox/command-specs';
import { oneLine } from '../util/text';

export const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

function who(state: RunState, agentId: string): string {
  const a = state.agents.find((x) => x.id === agentId);
  return a ? `${a.label} (${a.id})` : agentId;
}

/** Prompt tokens split as they are billed: the uncached ones at the input price, the cached ones at the cache's. */
export function inputTokensText(inputTokens: number, cachedInputTokens: number): string {
  // Clamped like the cost: a server reporting more cached than total input must not show a negative part.
  const cached = Math.min(cachedInputTokens, inputTokens);
  // Nothing served from a cache (local servers, short prompts): no split to show.
  if (cached === 0) return `${inputTokens} input tokens`;
  return `${inputTokens} input tokens (${inputTokens - cached} uncached, ${cached} cached)`;
}

/** Cost as we know it: exact, a lower bound when some calls had no known price, or unknown. */
export function costText(u: UsageTotals): string {
  if (u.calls === 0) return 'cost $0';
  if (u.unpricedCalls === u.calls) return 'cost unknown (no known price for these models)';
  return `cost $${u.costUsd.toFixed(4)}${u.unpricedCalls ? ` + unknown (${u.unpricedCalls} call(s) without a known price)` : ''}${u.estimated ? ' (some tokens estimated)' : ''}`;
}

/** The command of an execute_command call, or its raw arguments when they do not parse. */
function commandOf(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { command?: unknown }).command === 'string') return (parsed as { command: string }).command;
  } catch {
    // shown raw below
  }
  return args;
}

/** The progress line for an event, or undefined for events that only feed the footer. */
export function describeEvent(event: RunEvent, state: RunState): string | undefined {
  const at = `[${secs(event.t).padStart(6)}]`;
  switch (event.type) {
    case 'run_started':
      return `MassGen: ${event.agents.length} agent(s): ${event.agents.map((a) => `${a.label} ${a.id} (${a.model})`).join(', ')}${(event.workspace?.notes ?? []).map((n) => `\nnote: ${n}`).join('')}`;
    case 'round_started':
      return `${at} round ${event.round}: ${event.agentIds.map((id) => who(state, id)).join(', ')}`;
    case 'stage_started':
      return `${at} stage ${event.stage}: ${event.agents.map((id) => who(state, id)).join(', ')} ${event.reason === 'start' ? 'start' : 'join'} (${stageWhy(event.reason)})`;
    case 'answer_added':
      return `${at} ${who(state, event.agentId)} answered ${event.label}: ${oneLine(event.content, 80)}`;
    case 'vote_cast':
      return `${at} ${who(state, event.vote.voterId)} voted for ${event.vote.targetLabel}: ${oneLine(event.vote.reason, 80)}`;
    case 'vote_invalidated':
      return `${at} ${who(state, event.voterId)} vote for ${event.targetLabel} no longer counts (${event.reason})`;
    case 'correction':
      return `${at} ${who(state, event.agentId)} corrected (attempt ${event.attempt}): ${oneLine(event.message, 100)}`;
    case 'retry':
      return `${at} ${who(state, event.agentId)} retrying in ${secs(event.delayMs)}: ${oneLine(event.error, 120)}`;
    case 'turn_failed':
      return event.willRetry ? undefined : `${at} ${who(state, event.agentId)} turn failed: ${oneLine(event.error, 160)}`;
    case 'tools_ready':
      return event.error ? `${at} ${who(state, event.agentId)} tools: ${oneLine(event.error, 200)} (continuing with: ${event.tools.join(', ') || 'no tools'})` : undefined;
    case 'agent_failed':
      return `${at} ${who(state, event.agentId)} FAILED: ${oneLine(event.error, 200)}`;
    case 'winner_selected': {
      const votes = Object.entries(event.votes).map(([id, n]) => `${id} ${n}`).join(', ') || 'no current votes';
      const how = event.basis === 'current_votes' ? '' : event.basis === 'latest_votes' ? ' (from the latest valid votes)' : ' (no votes: the most informed answer, ties by agent order)';
      return `${at} winner: ${who(state, event.agentId)} with ${event.label}; votes: ${votes}${event.tieBreak ? ' (tie broken by config order)' : ''}${how}${verificationText(event.verification)}`;
    }
    case 'checks_started':
      return `${at} checking ${event.label}: ${event.names.join(', ')}`;
    case 'check_finished': {
      const r = event.result;
      const exit = r.status === 'failed' && r.exitCode !== null ? ` (exit ${r.exitCode})` : '';
      const last = r.status === 'passed' ? '' : lastLine(r.output);
      return `${at} ${event.label} ${r.name}: ${CHECK_TEXT[r.status]}${exit} in ${secs(r.durationMs)}${r.cached ? ' (same change as checked before)' : ''}${last ? ` — ${oneLine(last, 120)}` : ''}`;
    }
    case 'final_answer':
      return event.fallback ? `${at} final answer: ${event.fallback}; using the voted answer` : undefined;
    case 'budget_reached': {
      const s = event.spent;
      return `${at} budget reached (${event.limit} ${event.limitValue}): no new model calls; spent ${s.calls} call(s), ${s.totalTokens} tokens, $${s.costUsd.toFixed(4)}`;
    }
    case 'run_ended': {
      const u = state.usage;
      const usage = `${u.calls} model call(s), ${inputTokensText(u.inputTokens, u.cachedInputTokens)}, ${u.outputTokens} output tokens`;
      return `${at} done: ${event.reason} in ${secs(event.durationMs)}; ${usage}; ${costText(u)}${event.error ? `\n${event.error}` : ''}`;
    }
    case 'tool_call':
      return event.name === EXECUTE_COMMAND ? `${at} ${who(state, event.agentId)} runs: ${oneLine(commandOf(event.arguments), 120)}` : undefined;
    case 'tool_result':
      return event.name === EXECUTE_COMMAND ? `${at} ${who(state, event.agentId)} ${event.ok ? '→' : '✗'} ${oneLine(event.summary, 140)}` : undefined;
    case 'note_added':
      return `${at} note${event.agentIds.length === 1 ? ` to ${who(state, event.agentIds[0])}` : ''}${event.changesTask ? ' (changes the task)' : ''}: ${oneLine(event.text, 160)}`;
    case 'note_delivered':
      return `${at} ${who(state, event.agentId)} got the note`;
    case 'note_undelivered':
      return `${at} the note did not reach ${event.agentIds.map((id) => who(state, id)).join(', ')}: ${noteMissedWhy(event.reason)}`;
    case 'turn_started':
    case 'agent_updated':
    case 'text_delta':
    case 'reasoning_delta':
    case 'usage':
    case 'final_started':
      return undefined;
    default:
      return assertNever(event, 'event');
  }
}

const CHECK_TEXT: Record<CheckResult['status'], string> = { passed: 'passed', failed: 'FAILED', timeout: 'timed out', error: 'could not run', cancelled: 'cancelled' };

function verificationText(v: WinnerVerification | undefined): string {
  if (!v) return '';
  if (v.overruled) return `; checks passed (the votes chose ${v.overruled.label}, which failed ${v.overruled.failed.join(', ')})`;
  return { passed: '; checks passed', failed: '; UNVERIFIED: a required check failed on it', unchecked: '; not checked' }[v.status];
}

/** The last non-empty line of a check's output: usually the runner's summary ("2 failing"). */
function lastLine(output: string): string {
  return output.trimEnd().split('\n').pop() ?? '';
}

// Number, money, time and label formatting for the vote viewer. Pure (unit-tested in Node).

import type { AnswerChange, ChangedFile, EndReason, RunPhase, RunState, UsageTotals } from '../src/protocol/state';
export { agentName } from '../src/protocol/agent-name';

export function tokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 2 : 1)}M`;
}

export function usd(n: number): string {
  if (n === 0) return '$0';
  if (n < 0.01) return `$${n.toFixed(4)}`;
  if (n < 10) return `$${n.toFixed(3)}`;
  return `$${n.toFixed(2)}`;
}

export function totalTokens(u: UsageTotals): number {
  return u.inputTokens + u.outputTokens;
}

/** "1 file", "3 files": a count with its noun in the right number. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** No known price for any of the calls (or none has finished yet): the one wording for it everywhere in the viewer. */
export const COST_UNKNOWN = 'cost unknown';

/**
 * Cost in one wording everywhere in the viewer: `$0.012`, `≥ $0.012` (some calls have no known price) or
 * `cost unknown` (none has, or no call has finished yet: a price is known only per finished call, so a run of unpriced
 * models never shows "$0" first and "cost unknown" later). `calls` null: not known (a stored run's summary), then no
 * priced cost means unknown.
 */
export function costOf(costUsd: number, unpricedCalls: number, calls: number | null): string {
  if (calls === 0 || (calls === null ? costUsd === 0 : unpricedCalls >= calls)) return COST_UNKNOWN;
  return unpricedCalls > 0 ? `≥ ${usd(costUsd)}` : usd(costUsd);
}

/** Cost as far as it is known: exact, a lower bound (some calls unpriced), or unknown. */
export function cost(u: UsageTotals): { text: string; title: string } {
  const text = costOf(u.costUsd, u.unpricedCalls, u.calls);
  if (u.calls === 0) return { text, title: 'No model call has finished yet: its price is known when it has' };
  if (u.unpricedCalls === u.calls) return { text, title: 'No known price for these models (VS Code chat models and self-hosted servers are not billed per token)' };
  if (u.unpricedCalls > 0) return { text, title: `${usd(u.costUsd)} for priced calls; ${count(u.unpricedCalls, 'call has', 'calls have')} no known price` };
  return { text, title: `${usd(u.costUsd)}${u.estimated ? ' (some token counts estimated)' : ''}` };
}

export function usageLine(u: UsageTotals): string {
  return `${tokens(totalTokens(u))} tokens · ${cost(u).text}`;
}

const integer = new Intl.NumberFormat('en-US');

/** Split as billed (uncached at the input price, cached at the cache's; clamped like the cost), when anything was cached. */
function inputTokensTitle(inputTokens: number, cachedInputTokens: number): string {
  const cached = Math.min(cachedInputTokens, inputTokens);
  if (cached === 0) return `${integer.format(inputTokens)} input tokens`;
  return `${integer.format(inputTokens)} input tokens (${integer.format(inputTokens - cached)} uncached, ${integer.format(cached)} cached)`;
}

export function usageTitle(u: UsageTotals): string {
  return [
    inputTokensTitle(u.inputTokens, u.cachedInputTokens),
    `${integer.format(u.outputTokens)} output tokens`,
    count(u.calls, 'call'),
    cost(u).title,
    ...(u.estimated ? ['Some token counts are estimates'] : []),
  ].join('\n');
}

/** 4.2 s, 1:05, 1:02:03 */
export function duration(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const total = Math.floor(s);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export const END_REASONS: Record<EndReason, string> = {
  consensus: 'Consensus',
  answer_cap: 'Answer cap reached',
  majority: 'Majority',
  max_rounds: 'Rounds cap reached',
  timeout: 'Timed out',
  budget: 'Budget reached',
  cancelled: 'Cancelled',
  user_stop: 'Answered now',
  all_failed: 'All agents failed',
};

export const END_REASON_DETAILS: Record<EndReason, string> = {
  consensus: 'Every remaining agent voted for a current answer.',
  answer_cap: 'Every agent reached its answer limit; the votes decided.',
  majority: 'A majority voted for one answer, and the agents still deciding could only vote: their votes could not change the winner.',
  max_rounds: 'The rounds limit was reached; the best answer so far won.',
  timeout: 'The run hit its time limit; the best answer so far won.',
  budget: 'A budget limit stopped new model calls; the best answer so far won.',
  cancelled: 'You cancelled the run.',
  user_stop: 'You asked for the answer now: the best current answer won, chosen as at a timeout.',
  all_failed: 'Every agent failed.',
};

export function endReason(reason: string | null): string {
  return reason && reason in END_REASONS ? END_REASONS[reason as EndReason] : (reason ?? '');
}

/** The run's end as its label says it: a tie, or the one agent left, is not called a consensus. */
export function endLabel(state: RunState): string {
  if (state.endReason === 'consensus' && state.winner) {
    if (state.winner.tieBreak) return 'Tie broken by agent order';
    const left = state.agents.filter((a) => a.status !== 'failed').length;
    if (left === 1 && state.agents.length > 1) return 'Agreed by the 1 agent left';
  }
  return endReason(state.endReason);
}

/** What happened, in a sentence, for the result: named for this run (a cancel with or without an answer, a tie…). */
export function endDetail(state: RunState): string {
  const winner = state.winner?.label;
  const failed = state.agents.filter((a) => a.status === 'failed').length;
  switch (state.endReason) {
    case null:
      return '';
    case 'cancelled':
      // Since cancel proposes nothing, a winner here is from a run recorded before.
      if (winner) return `You cancelled the run; the best answer so far, ${winner}, won.`;
      return state.answers.length ? 'You cancelled the run, so no answer was chosen. The answers so far stay below to read and copy.' : 'You cancelled the run before any agent answered.';
    case 'consensus':
      if (!winner) return END_REASON_DETAILS.consensus;
      // The gate passed over the voted answer: saying the agents voted for the winner would be false.
      if (state.winner?.verification?.overruled) return `The agents' votes agreed on ${state.winner.verification.overruled.label}; the checks then decided for ${winner}.`;
      if (state.winner?.tieBreak) return `Every remaining agent voted, but the votes tied: ${winner} won because its agent comes first in the team.`;
      if (failed && state.agents.length - failed === 1) return `${failed} of ${state.agents.length} agents failed; the one left voted for ${winner}.`;
      return failed ? `The ${state.agents.length - failed} agents still running all voted for ${winner} (${failed} failed).` : END_REASON_DETAILS.consensus;
    default:
      return END_REASON_DETAILS[state.endReason];
  }
}

/** How a run ended, as the header and the runs list show it (each with its own icon and colour). */
export type Outcome = 'running' | 'cancelled' | 'failed' | 'done' | 'unfinished';

/**
 * A run's outcome: cancelled by the user, failed (it ended without a winner: every agent failed, or a limit struck
 * before any answer), done (a winner), or unfinished (a stored run that never recorded its end).
 */
export function outcomeOf(run: { running: boolean; endReason: string | null; hasWinner: boolean }): Outcome {
  if (run.running) return 'running';
  if (run.endReason === null) return 'unfinished';
  if (run.endReason === 'cancelled') return 'cancelled';
  return run.endReason === 'all_failed' || !run.hasWinner ? 'failed' : 'done';
}

export const OUTCOME_ICON: Record<Outcome, string> = {
  running: 'play-circle',
  cancelled: 'circle-slash',
  failed: 'error',
  done: 'pass',
  unfinished: 'history',
};

/** "Cancelled", "Failed (all agents failed)", "Done · Consensus"; `label`: the end as endLabel says it. */
export function outcomeText(outcome: Exclude<Outcome, 'running'>, label: string): string {
  switch (outcome) {
    case 'cancelled':
      return 'Cancelled';
    case 'failed':
      return label ? `Failed (${label.charAt(0).toLowerCase()}${label.slice(1)})` : 'Failed';
    case 'done':
      return label ? `Done · ${label}` : 'Done';
    case 'unfinished':
      return 'Unfinished';
  }
}

export function phase(p: RunPhase, round: number): string {
  switch (p) {
    case 'idle':
      return 'Starting';
    case 'coordinating':
      return round > 0 ? `Round ${round}` : 'Starting';
    case 'presenting':
      return 'Final answer';
    case 'done':
      return 'Done';
  }
}

export function dateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/** What an answer label means, for its tooltip: "agent2.1 = agent2's first answer". */
export function labelTitle(label: string): string {
  const m = /^(agent\d+)\.(\d+)$/.exec(label);
  if (!m) return label;
  const n = Number(m[2]);
  return `${label} = ${m[1]}'s ${ORDINALS[n - 1] ?? `${n}th`} answer`;
}

export function firstLine(text: string, max = 120): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "3 files changed, +12 −4" (a binary file counts as a file, not as lines). */
export function changeStat(change: AnswerChange): string {
  const n = change.files.length;
  if (n === 0) return 'No file changes';
  let added = 0;
  let removed = 0;
  for (const f of change.files) {
    added += f.added ?? 0;
    removed += f.removed ?? 0;
  }
  return `${n} file${n === 1 ? '' : 's'} changed, +${integer.format(added)} \u2212${integer.format(removed)}`;
}

/** "+12 −4" for a text file, "binary" for one without line counts. */
export function fileStat(file: ChangedFile): string {
  return file.added === null || file.removed === null ? 'binary' : `+${integer.format(file.added)} \u2212${integer.format(file.removed)}`;
}

export const FILE_STATUS = { added: 'A', modified: 'M', deleted: 'D' } as const;

/** Control, zero-width and bidi-override characters, which can hide or reorder what a file name or line shows. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** Model-made text with its invisible characters written out (`\u202E`), tabs kept. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

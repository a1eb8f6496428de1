// Number, money, time and label formatting for the vote viewer. Pure (unit-tested in Node).

import type { AnswerChange, ChangedFile, EndReason, RunPhase, UsageTotals } from '../src/protocol/state';

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

/** Cost as far as it is known: exact, a lower bound (some calls unpriced), or unknown. */
export function cost(u: UsageTotals): { text: string; title: string } {
  if (u.calls === 0) return { text: '$0', title: 'No model calls yet' };
  if (u.unpricedCalls === u.calls) return { text: 'cost unknown', title: 'No known price for these models' };
  if (u.unpricedCalls > 0) {
    return { text: `≥ ${usd(u.costUsd)}`, title: `${usd(u.costUsd)} for priced calls; ${u.unpricedCalls} call(s) have no known price` };
  }
  return { text: usd(u.costUsd), title: `${usd(u.costUsd)}${u.estimated ? ' (some token counts estimated)' : ''}` };
}

export function usageLine(u: UsageTotals): string {
  return `${tokens(totalTokens(u))} tokens · ${cost(u).text}`;
}

const integer = new Intl.NumberFormat('en-US');

export function usageTitle(u: UsageTotals): string {
  return [
    `${integer.format(u.inputTokens)} input tokens (${integer.format(u.cachedInputTokens)} cached)`,
    `${integer.format(u.outputTokens)} output tokens`,
    `${u.calls} call(s)`,
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
  cancelled: 'The run was cancelled; the best answer so far is shown.',
  user_stop: 'You asked for the answer now: the best current answer won, chosen as at a timeout.',
  all_failed: 'Every agent failed.',
};

export function endReason(reason: string | null): string {
  return reason && reason in END_REASONS ? END_REASONS[reason as EndReason] : (reason ?? '');
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

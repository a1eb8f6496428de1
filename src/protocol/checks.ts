// The project's checks in words, shared by the vote viewer (a badge per answer version, the winner's verification),
// the chat's end-of-run line and `massgen mcp`'s result, so all say the same thing. Pure: reads the RunState the
// engine's reducer folds (type-only imports from src/core, so the webview bundle takes nothing more).

import type { CheckResult, WinnerVerification } from '../core/engine/events';
import type { RunState, VersionChecks } from '../core/engine/run-state';

export type { CheckResult, CheckStatus, WinnerVerification } from '../core/engine/events';
export type { VersionChecks } from '../core/engine/run-state';

export type ChecksKind = 'passed' | 'failed' | 'running' | 'not-run';

export interface VersionChecksView {
  kind: ChecksKind;
  /** The badge's text, short for a narrow column: "Check passed", "2/2 passed", "1/2 failed", "Checking 1/2…", "Checks not run". */
  text: string;
  /** One line per check, for the tooltip and screen readers: "npm test: failed (exit 1) in 2.1 s". */
  lines: string[];
  /** The results that did not pass (their output is what the user wants to read). */
  failing: CheckResult[];
  results: CheckResult[];
}

export const CHECK_STATUS_WORDS: Record<CheckResult['status'], string> = { passed: 'passed', failed: 'failed', timeout: 'timed out', error: 'could not run', cancelled: 'cancelled' };

/** Whether the run checks answers at all: a version got checks, or the winner was judged by them. */
export function runHasChecks(state: Pick<RunState, 'checks' | 'winner'>): boolean {
  return Object.keys(state.checks).length > 0 || Boolean(state.winner?.verification);
}

export function checkLine(r: CheckResult): string {
  const exit = r.status === 'failed' && r.exitCode !== null ? ` (exit ${r.exitCode})` : '';
  return `${r.name}: ${CHECK_STATUS_WORDS[r.status]}${exit} in ${(r.durationMs / 1000).toFixed(1)} s${r.required ? '' : ' (optional)'}${r.cached ? ' (same change as checked before)' : ''}`;
}

/**
 * One answer version's checks; null in a run without checks. `done`: the run ended, so checks without a result
 * will not get one (they read as not run, never as running).
 */
export function versionChecks(state: Pick<RunState, 'checks' | 'winner'>, label: string, done: boolean): VersionChecksView | null {
  if (!runHasChecks(state)) return null;
  const vc: VersionChecks | undefined = state.checks[label];
  if (!vc) return { kind: 'not-run', text: 'Checks not run', lines: ['No check ran on this version (it changed no file, or the run stopped first).'], failing: [], results: [] };
  const results = vc.results;
  const failing = results.filter((r) => r.status !== 'passed' && r.status !== 'cancelled');
  const missing = vc.names.filter((n) => !results.some((r) => r.name === n));
  const lines = [...results.map(checkLine), ...missing.map((n) => `${n}: ${done ? 'not run' : 'running'}`)];
  const total = vc.names.length;
  if (failing.length) {
    const optional = failing.every((r) => !r.required);
    return { kind: 'failed', text: `${total > 1 ? `${failing.length}/${total}` : 'Check'} failed${optional ? ' (optional)' : ''}`, lines, failing, results };
  }
  if (missing.length && !done) return { kind: 'running', text: `Checking${total > 1 ? ` ${results.length}/${total}` : ''}…`, lines, failing, results };
  if (missing.length || results.some((r) => r.status === 'cancelled')) return { kind: 'not-run', text: 'Checks not run', lines, failing, results };
  return { kind: 'passed', text: total > 1 ? `${total}/${total} passed` : 'Check passed', lines, failing, results };
}

export type VerificationKind = 'verified' | 'unverified' | 'overruled' | 'unchecked';

/** The winner against the checks: what the result area and the chat say. Null in a run without checks. */
export function verificationInWords(verification: WinnerVerification | undefined, winnerLabel: string): { kind: VerificationKind; text: string } | null {
  if (!verification) return null;
  if (verification.overruled) {
    const o = verification.overruled;
    return { kind: 'overruled', text: `Checks overruled the votes: they chose ${o.label}, which failed ${o.failed.join(', ')}; ${winnerLabel} passed and wins.` };
  }
  switch (verification.status) {
    case 'passed':
      return { kind: 'verified', text: `Verified: ${winnerLabel} passed every required check.` };
    case 'failed':
      return { kind: 'unverified', text: `Unverified: ${winnerLabel} failed a required check; review its change before applying it.` };
    case 'unchecked':
      return { kind: 'unchecked', text: `Not verified: no check finished on ${winnerLabel}.` };
  }
}

/**
 * The chat's one line about a finished run's checks: each checked version's outcome, then the winner's
 * verification. Undefined in a run without checks.
 */
export function checksSummaryLine(state: Pick<RunState, 'checks' | 'winner'>): string | undefined {
  if (!runHasChecks(state)) return undefined;
  const names = [...new Set(Object.values(state.checks).flatMap((c) => c.names))];
  // In label order (agent1.1, agent1.2, agent2.1…), not the order the checks happened to start in.
  const labels = Object.keys(state.checks).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const versions = labels.map((label) => `${label}: ${versionChecks(state, label, true)?.text.toLowerCase()}`);
  const winner = state.winner ? verificationInWords(state.winner.verification, state.winner.label) : null;
  const head = names.length ? `Checks (${names.join(', ')}) — ${versions.join('; ')}.` : 'Checks:';
  return winner ? `${head} ${winner.text}` : head;
}

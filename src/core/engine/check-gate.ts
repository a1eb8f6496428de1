// Which answer wins once the checks count. Pure. Under `gate`, an answer failing a required check cannot win while
// another passes them all: the best-ranked passing answer wins instead, and the one the votes chose is named as
// overruled. When none passes, the voted answer wins, flagged as failed (unverified). Under `inform` the ranking
// stands and the winner's standing is only reported.

import type { CheckResult, WinnerVerification } from './events';

export interface GateCandidate {
  label: string;
  /** Absent: no results (the checks were cancelled, or the answer was never checked). */
  checks?: readonly CheckResult[];
}

/**
 * Names of the required checks the answer did not pass (one that could not run, timed out or was cancelled did not
 * pass); null when it has no results to judge by.
 */
export function failedRequired(checks: readonly CheckResult[] | undefined): string[] | null {
  if (!checks || checks.length === 0) return null;
  return checks.filter((c) => c.required && c.status !== 'passed').map((c) => c.name);
}

/**
 * `ranked`: the candidates best first, as the votes (then the no-vote fallback) order them; the first is the voted
 * winner. Returns the index of the winner in `ranked` and its verification.
 */
export function gateWinner<T extends GateCandidate>(ranked: readonly T[], mode: 'inform' | 'gate'): { index: number; verification: WinnerVerification } {
  const failed = ranked.map((c) => failedRequired(c.checks));
  const statusOf = (i: number): WinnerVerification['status'] => (failed[i] === null ? 'unchecked' : failed[i]!.length === 0 ? 'passed' : 'failed');
  if (mode === 'gate' && failed[0] !== null && failed[0].length > 0) {
    const passing = failed.findIndex((f) => f !== null && f.length === 0);
    if (passing > 0) return { index: passing, verification: { status: 'passed', overruled: { label: ranked[0].label, failed: failed[0] } } };
  }
  return { index: 0, verification: { status: statusOf(0) } };
}

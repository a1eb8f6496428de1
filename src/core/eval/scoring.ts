// Is a system's final answer right? Short answers by normalised exact match against any accepted spelling, multiple
// choice by the letter the reply chose, code tasks by the project's checks on the winning version: right when every
// required check passed on it (check-gate's `failedRequired`), wrong when one failed, and wrong too when none ran
// (an answer nobody could verify is not a solved task). Each score also gives the answer's `key`, the identity two
// answers share when they say the same thing, for agreement and the self-consistency majority.

import { failedRequired } from '../engine/check-gate';
import type { CheckResult } from '../engine/events';
import type { EvalItem } from './dataset';
import { answerCandidates, extractChoice } from './extract';
import { normalizeAnswer } from './normalize';

/** What a run produced that scoring needs. */
export interface ScoredRun {
  finalAnswer: string | null;
  /** Code tasks: the results of the checks on the winning version (absent when none ran). */
  winnerChecks?: readonly CheckResult[];
  /** Code tasks: the content id of the winning version's change (same id = same change). */
  changeId?: string;
}

export interface Score {
  correct: boolean;
  /** The short answer read from the reply (the letter, for multiple choice); null when there was none. */
  extracted: string | null;
  /** Same key = same answer: the normalised answer, the letter, or the change id. */
  key: string | null;
  /** Code tasks: the required checks the winner failed; null when none ran on it. */
  failedChecks?: string[] | null;
}

export function scoreRun(item: EvalItem, run: ScoredRun): Score {
  const text = run.finalAnswer ?? '';
  switch (item.kind) {
    case 'qa': {
      const candidates = answerCandidates(text);
      const golds = new Set(item.answers.map(normalizeAnswer));
      const matched = candidates.map(normalizeAnswer).find((c) => golds.has(c));
      const extracted = candidates.length ? candidates[candidates.length - 1] : null;
      // A right answer's key is the spelling it matched, so two right answers always agree.
      const key = matched ?? (extracted !== null ? normalizeAnswer(extracted) || null : null);
      return { correct: matched !== undefined, extracted, key };
    }
    case 'choice': {
      const letter = run.finalAnswer === null ? null : extractChoice(text, item.choices);
      return { correct: letter === item.answer, extracted: letter, key: letter };
    }
    case 'code': {
      const failed = failedRequired(run.winnerChecks);
      return { correct: failed !== null && failed.length === 0, extracted: null, key: run.finalAnswer === null ? null : run.changeId ?? null, failedChecks: failed };
    }
  }
}

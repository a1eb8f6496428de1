// A follow-up run (`massgen run --continue LOG_DIR "follow-up"`, a chat follow-up): the agents get the previous run's
// question, final answer and (for a workspace run) the change it proposed, here read back from its log directory.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatNotes, formatPreviousRun } from '../engine/prompts';
import { safeName } from '../status/run-log';
import { errorMessage } from '../util/errors';
import { SessionSetupError } from './errors';

export interface PreviousRun {
  /** Where it was recorded (a chat follow-up may carry only the question and answer). */
  logDir?: string;
  question: string;
  winner?: string;
  answer: string;
  /** The winner's change in a workspace run (final/<winner>/changes.patch), when it had one. */
  patch?: string;
}

/** The run recorded in `logDir`; a SessionSetupError in words when it cannot be continued. */
export function readPreviousRun(logDir: string): PreviousRun {
  let status: { meta?: { question?: unknown }; results?: { winner?: unknown } };
  try {
    status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
  } catch (err) {
    throw new SessionSetupError('config', `cannot continue ${logDir}: its status.json cannot be read (${errorMessage(err)}); give the log directory of a finished run`);
  }
  const question = status.meta?.question;
  const winner = status.results?.winner;
  if (typeof question !== 'string' || typeof winner !== 'string') {
    throw new SessionSetupError('config', `cannot continue ${logDir}: that run has no winner (it ended without an answer)`);
  }
  const final = join(logDir, 'final', safeName(winner));
  let answer: string;
  try {
    answer = readFileSync(join(final, 'answer.txt'), 'utf8');
  } catch (err) {
    throw new SessionSetupError('config', `cannot continue ${logDir}: its final answer cannot be read (${errorMessage(err)})`);
  }
  let patch: string | undefined;
  try {
    patch = readFileSync(join(final, 'changes.patch'), 'utf8') || undefined;
  } catch {
    patch = undefined; // not a workspace run
  }
  return { logDir, question, winner, answer, ...(patch ? { patch } : {}) };
}

export function continuationTask(previous: PreviousRun, followUp: string): string {
  return formatPreviousRun(previous, followUp);
}

/**
 * A follow-up run carrying a note that reached no agent ("Continue with this note"): after a run with a final
 * answer, the note is the follow-up to it (its change included); after one without (a cancel, no answer), the
 * question is asked again with the note.
 */
export function noteFollowUp(run: { question: string; answer: string | null; patch?: string }, note: string): { task: string; continues?: PreviousRun } {
  if (run.answer === null) return { task: `${run.question}\n\n${formatNotes([{ text: note }], false)}` };
  return { task: note, continues: { question: run.question, answer: run.answer, ...(run.patch ? { patch: run.patch } : {}) } };
}

// "Continue with this note" (the vote viewer): a note that reached no agent (it came while the final answer was
// written, or the run ended first) starts a follow-up run with it, through the session's continuation: after a final
// answer the note follows up on it (its change included), else the whole task is asked again with the note. The
// follow-up works on the same files (copies of the same folder, or the same attached files) and its winner goes where
// the first run's would have (the same selection or files), offered for review as usual.

import * as vscode from 'vscode';
import { noteFollowUp } from '../../core/run/continuation';
import type { RunSession } from '../../core/run/session';
import { OncePerKey } from '../../core/util/once-per-key';
import { oneLine } from '../../core/util/text';
import { copyInstructions } from './copy-instructions';
import type { RunManager } from './manager';
import type { RunPreviews } from './previews';

export interface ContinueDeps {
  runs: RunManager;
  previews: RunPreviews;
}

/** Follow-ups by run and note: a second click shows the follow-up the first started, while the window keeps it. */
const followUps = new WeakMap<RunSession, OncePerKey<string>>();

/** Starts the follow-up of run `runId` with its note `noteId` (once); returns the new run's id. Throws in words. */
export function continueWithNote(deps: ContinueDeps, runId: string, noteId: string): Promise<string> {
  const run = deps.runs.find(runId);
  if (!run) return Promise.reject(new Error(vscode.l10n.t('that run is no longer in this window')));
  let once = followUps.get(run);
  if (!once) followUps.set(run, (once = new OncePerKey<string>((id) => deps.runs.find(id) !== undefined)));
  return once.run(noteId, () => startFollowUp(deps, run, noteId));
}

async function startFollowUp(deps: ContinueDeps, run: RunSession, noteId: string): Promise<string> {
  const note = run.state.notes.find((n) => n.id === noteId);
  if (!note) throw new Error(vscode.l10n.t('that note is not in this run'));
  // A note that came while the final answer was written is offered before the run has quite ended.
  const result = await run.result.catch(() => undefined);
  const answer = result?.finalAnswer ?? null;
  const files = deps.runs.filesOf(run.id);
  // Without an answer the whole task is asked again (the selected code, attachments and copy instructions in it);
  // after one, the user's words name the previous run, the answer carries the rest, and the copy is explained again.
  const question = answer === null ? run.state.question : (deps.runs.promptOf(run.id) ?? run.state.question);
  const follow = noteFollowUp({ question, answer, patch: result?.change?.patch }, note.text);
  const next = await deps.runs.start({
    task: answer === null ? follow.task : [follow.task, copyInstructions(files)].filter(Boolean).join('\n\n'),
    title: oneLine(note.text, 60),
    prompt: note.text,
    ...(follow.continues ? { continues: follow.continues } : {}),
    ...(files ? { files } : {}),
  });
  deps.previews.registerLike(next.id, run.id);
  return next.id;
}

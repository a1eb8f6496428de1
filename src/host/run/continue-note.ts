// "Continue with this note" (the vote viewer): a note that reached no agent (it came while the final answer was
// written, or the run ended first) starts a follow-up run with it, through the session's continuation: after a final
// answer the note follows up on it (its change included), else the question is asked again with the note. A
// workspace run's follow-up works on copies of the same folder; its winner goes where the first run's would have
// (the same selection or files), offered for review as usual.

import { basename } from 'node:path';
import * as vscode from 'vscode';
import { noteFollowUp } from '../../core/run/continuation';
import type { RunSession } from '../../core/run/session';
import { oneLine } from '../../core/util/text';
import type { RunManager } from './manager';
import { workspaceInstructions } from './on-workspace';
import type { RunPreviews } from './previews';

export interface ContinueDeps {
  runs: RunManager;
  previews: RunPreviews;
  copiesDir: string;
}

/** Follow-ups started, by run and note: a second click joins the first instead of paying for a second run. */
const started = new WeakMap<RunSession, Map<string, Promise<string>>>();

/** Starts the follow-up of run `runId` with its note `noteId` (once); returns the new run's id. Throws in words. */
export function continueWithNote(deps: ContinueDeps, runId: string, noteId: string): Promise<string> {
  const run = deps.runs.find(runId);
  if (!run) return Promise.reject(new Error(vscode.l10n.t('that run is no longer in this window')));
  const byNote = started.get(run) ?? new Map<string, Promise<string>>();
  started.set(run, byNote);
  let next = byNote.get(noteId);
  if (!next) {
    next = startFollowUp(deps, run, noteId);
    byNote.set(noteId, next);
    // A follow-up that did not start may be tried again.
    next.catch(() => byNote.delete(noteId));
  }
  return next;
}

async function startFollowUp(deps: ContinueDeps, run: RunSession, noteId: string): Promise<string> {
  const note = run.state.notes.find((n) => n.id === noteId);
  if (!note) throw new Error(vscode.l10n.t('that note is not in this run'));
  // A note that came while the final answer was written is offered before the run has quite ended.
  const result = await run.result.catch(() => undefined);
  const answer = result?.finalAnswer ?? null;
  // Without an answer the whole task is asked again (the selected code, attachments and copy instructions in it);
  // after one, the user's words name the previous run and the answer carries the rest.
  const question = answer === null ? run.state.question : (deps.runs.promptOf(run.id) ?? run.state.question);
  const follow = noteFollowUp({ question, answer, patch: result?.change?.patch }, note.text);
  const folder = run.state.workspace?.source;
  const next = await deps.runs.start({
    task: folder && answer !== null ? `${follow.task}\n\n${workspaceInstructions(basename(folder))}` : follow.task,
    title: oneLine(note.text, 60),
    prompt: note.text,
    ...(follow.continues ? { continues: follow.continues } : {}),
    ...(folder ? { files: { kind: 'workspace' as const, source: folder, baseDir: deps.copiesDir } } : {}),
  });
  deps.previews.registerLike(next.id, run.id);
  return next.id;
}

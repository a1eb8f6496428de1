// "Continue with this note" (the vote viewer): a note that reached no agent (it came while the final answer was
// written, or the run ended first) starts a follow-up run with it, through the session's continuation: after a final
// answer the note follows up on it (its change included), else the question is asked again with the note. A
// workspace run's follow-up works on copies of the same folder, and its winner is offered for review as usual.

import { basename } from 'node:path';
import * as vscode from 'vscode';
import { noteFollowUp } from '../../core/run/continuation';
import { oneLine } from '../../core/util/text';
import type { RunManager } from './manager';
import { workspaceInstructions } from './on-workspace';
import type { RunPreviews } from './previews';

export interface ContinueDeps {
  runs: RunManager;
  previews: RunPreviews;
  copiesDir: string;
}

/** Starts the follow-up of run `runId` with its note `noteId`; returns the new run's id. Throws in words. */
export async function continueWithNote(deps: ContinueDeps, runId: string, noteId: string): Promise<string> {
  const run = deps.runs.find(runId);
  if (!run) throw new Error(vscode.l10n.t('that run is no longer in this window'));
  const note = run.state.notes.find((n) => n.id === noteId);
  if (!note) throw new Error(vscode.l10n.t('that note is not in this run'));
  // A note that came while the final answer was written is offered before the run has quite ended.
  const result = await run.result.catch(() => undefined);
  const question = deps.runs.promptOf(runId) ?? run.state.question;
  const follow = noteFollowUp({ question, answer: result?.finalAnswer ?? null, patch: result?.change?.patch }, note.text);
  const folder = run.state.workspace?.source;
  const next = await deps.runs.start({
    task: folder ? `${follow.task}\n\n${workspaceInstructions(basename(folder))}` : follow.task,
    title: oneLine(note.text, 60),
    prompt: note.text,
    ...(follow.continues ? { continues: follow.continues } : {}),
    ...(folder ? { files: { kind: 'workspace' as const, source: folder, baseDir: deps.copiesDir } } : {}),
  });
  if (folder) deps.previews.registerFiles(next.id, (path) => vscode.Uri.joinPath(vscode.Uri.file(folder), ...path.split('/')));
  return next.id;
}

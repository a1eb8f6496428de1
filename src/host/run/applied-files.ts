// What applying a files run's winner really wrote. VS Code's refactor preview lets the user untick files and single
// edits, and tells the extension only "something was applied" or not, so after Apply each target file is read back:
// the winner's text (applied), the text before (not applied), or anything else (partly: some hunks ticked). The
// record keeps the text each file was left with, so Undo puts back exactly those files whose text is still that.
// Pure: the host reads the files and writes the edits.

import { toLf } from '../../core/util/text';
import type { FileChange } from '../../core/workspace/changes';

export type FileOutcome = 'applied' | 'partly' | 'notApplied';

/** One file the apply changed, and the text it left (undefined: the file was deleted). */
export interface AppliedFile {
  relativePath: string;
  kind: FileChange['kind'];
  outcome: 'applied' | 'partly';
  /** The file's text before the winner (undefined: it did not exist). */
  before: string | undefined;
  /** The text the apply left, as read right after it (undefined: no file). */
  left: string | undefined;
}

export interface AppliedRecord {
  /** How many text files the winner proposed. */
  proposed: number;
  files: AppliedFile[];
}

/** How far a file's change was applied, from its text now (undefined: the file does not exist). */
export function outcomeOf(change: FileChange, now: string | undefined): FileOutcome {
  if (change.kind === 'added') return now === undefined ? 'notApplied' : toLf(now) === toLf(change.after ?? '') ? 'applied' : 'partly';
  if (change.kind === 'deleted') return now === undefined ? 'applied' : 'notApplied';
  if (now === undefined) return 'partly';
  if (toLf(now) === toLf(change.after ?? '')) return 'applied';
  return toLf(now) === toLf(change.before ?? '') ? 'notApplied' : 'partly';
}

/** The record of an apply, from each proposed file's text read right after it. */
export function recordApplied(changes: readonly FileChange[], textNow: ReadonlyMap<string, string | undefined>): AppliedRecord {
  const files: AppliedFile[] = [];
  for (const c of changes) {
    const left = textNow.get(c.relativePath);
    const outcome = outcomeOf(c, left);
    if (outcome === 'notApplied') continue;
    files.push({ relativePath: c.relativePath, kind: c.kind, outcome, before: c.kind === 'added' ? undefined : c.before, left });
  }
  return { proposed: changes.length, files };
}

/** What Undo does to one file: write `text` (creating the file if needed), or delete it. */
export type UndoStep = { relativePath: string; action: 'write'; text: string; create: boolean } | { relativePath: string; action: 'delete' };

/**
 * Undo of a record, from each applied file's text now: a file is put back only while its text is still what the
 * apply left; the others are named in `changedSince`.
 */
export function undoSteps(record: AppliedRecord, textNow: ReadonlyMap<string, string | undefined>): { steps: UndoStep[]; changedSince: string[] } {
  const steps: UndoStep[] = [];
  const changedSince: string[] = [];
  for (const f of record.files) {
    const now = textNow.get(f.relativePath);
    const unchanged = now === undefined || f.left === undefined ? now === f.left : toLf(now) === toLf(f.left);
    if (!unchanged) changedSince.push(f.relativePath);
    else if (f.before === undefined) steps.push({ relativePath: f.relativePath, action: 'delete' });
    else steps.push({ relativePath: f.relativePath, action: 'write', text: f.before, create: now === undefined });
  }
  return { steps, changedSince };
}

/** The applied files that got only some of their changes. */
export function partlyApplied(record: AppliedRecord): string[] {
  return record.files.filter((f) => f.outcome === 'partly').map((f) => f.relativePath);
}

// A files run's winner (an /edit on attached files, Run on Workspace) into the workspace: one WorkspaceEdit that VS
// Code's refactor preview shows first, with every change of the winner ticked (the user unticks what to reject);
// then what was really applied, read back from the files (applied-files.ts), and, for the vote viewer's Undo,
// exactly those files put back.

import * as vscode from 'vscode';
import { lineEdits } from '../../core/edit/text-edits';
import { toLf } from '../../core/util/text';
import type { WinnerChange } from '../../core/run/work-area';
import { partlyApplied, recordApplied, undoSteps, type AppliedRecord } from './applied-files';
import { afterApplyInWords } from './auto-save';

/** Where each changed path of a run goes in the workspace. */
export type FileTarget = (relativePath: string) => vscode.Uri | undefined;

async function exists(uri: vscode.Uri): Promise<boolean> {
  return vscode.workspace.fs.stat(uri).then(() => true, () => false);
}

/** A file's text as the editor has it (unsaved edits included), undefined when there is no such file. */
async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  return (await exists(uri)) ? (await vscode.workspace.openTextDocument(uri)).getText() : undefined;
}

/** The untitled editor the refactor preview's optional entry writes the winner's answer into. */
function answerNoteUri(version: string): vscode.Uri {
  return vscode.Uri.from({ scheme: 'untitled', path: `MassGen ${version} answer.md` });
}

/**
 * Applies the winner's change to the workspace as ONE WorkspaceEdit reviewed in VS Code's refactor preview, and
 * returns what was really applied; undefined when nothing was (having said why). Refused when a file changed since
 * the run started.
 */
export async function applyFileChanges(change: WinnerChange | undefined, target: FileTarget, answer: string): Promise<AppliedRecord | undefined> {
  if (!change) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: this run has no file changes to apply.'));
    return undefined;
  }
  const text = change.fileChanges.filter((c) => !c.binary && target(c.relativePath));
  if (text.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: the winner ({0}) changed no text files.', change.version));
    return undefined;
  }
  const edit = new vscode.WorkspaceEdit();
  const stale: string[] = [];
  const unsaved: string[] = [];
  const label = vscode.l10n.t('MassGen winner {0}', change.version);
  for (const c of text) {
    const uri = target(c.relativePath)!;
    const meta = { needsConfirmation: false, label, description: `${c.kind}: ${c.relativePath}` };
    if (c.kind === 'added') {
      edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(c.after ?? '') }, meta);
    } else if (c.kind === 'deleted') {
      edit.deleteFile(uri, { ignoreIfNotExists: true }, meta);
    } else {
      const doc = await vscode.workspace.openTextDocument(uri);
      // A change read from git has LF line ends where a CRLF checkout (core.autocrlf) shows CRLF: compare and write
      // in the document's own line ends.
      if (toLf(doc.getText()) !== toLf(c.before ?? '')) (doc.isDirty ? unsaved : stale).push(c.relativePath);
      const after = inEol(doc, c.after ?? '');
      // Line edits rather than one whole-file replacement: the preview then shows only what changed.
      for (const e of lineEdits(doc.getText(), after)) edit.replace(uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text, meta);
    }
  }
  if (unsaved.length) {
    void vscode.window.showWarningMessage(
      unsaved.length === 1
        ? vscode.l10n.t('MassGen: not applied: {0} has unsaved changes the agents did not see. Save or revert it, then apply again (or run again on the saved file).', unsaved[0])
        : vscode.l10n.t('MassGen: not applied: {0} have unsaved changes the agents did not see. Save or revert them, then apply again (or run again on the saved files).', unsaved.join(', ')),
    );
    return undefined;
  }
  if (stale.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: not applied: {0} changed since the run started. Run again on the current files.', stale.join(', ')));
    return undefined;
  }
  // VS Code shows its refactor preview only when some entry of the edit needs confirmation, and such entries start
  // unticked (an extension cannot ask for the preview otherwise). The winner's own changes start ticked; the one
  // entry needing confirmation is a real option the user may want: the winner's answer (what it did and why, e.g.
  // for a commit message) in a new untitled editor. Ticked or not, it writes no file.
  const note = answerNoteUri(change.version);
  const noteMeta = { needsConfirmation: true, label: vscode.l10n.t('Optional: the winner\u2019s answer in a new untitled editor'), description: vscode.l10n.t('for a commit message or notes; writes no file') };
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === note.toString());
  if (open) edit.replace(note, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), answer, noteMeta);
  else edit.insert(note, new vscode.Position(0, 0), answer, noteMeta);

  const skipped = change.fileChanges.filter((c) => c.binary).length;
  if (skipped) void vscode.window.showInformationMessage(skipped === 1 ? vscode.l10n.t('MassGen: 1 binary file change left out.') : vscode.l10n.t('MassGen: {0} binary file changes left out.', skipped));
  const written = await vscode.workspace.applyEdit(edit);
  const now = new Map<string, string | undefined>();
  for (const c of text) now.set(c.relativePath, await textOf(target(c.relativePath)!));
  const record = recordApplied(text, now);
  if (written && vscode.workspace.textDocuments.some((d) => d.uri.toString() === note.toString() && d.getText() === answer)) {
    await vscode.window.showTextDocument(note, { preview: false, preserveFocus: record.files.length > 0 });
  }
  if (record.files.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: nothing was applied (every change of the winner was unticked, or the preview was discarded). The winner is still there: Review and apply in the vote viewer opens the preview again.'));
    return undefined;
  }
  const first = target(record.files[0].relativePath)!;
  void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: {0}: {1}.', appliedInWords(record), afterApplyInWords(first, record.files.length > 1)));
  return record;
}

/** "Applied 2 files", "Applied 1 of 2 files (1 partly: src/util.js)". */
function appliedInWords(record: AppliedRecord): string {
  return vscode.l10n.t('Applied {0}', appliedTarget(record)) + partlyInWords(record);
}

/** What the vote viewer's "Applied to …" names: "2 files", "1 of 2 files" (at least one is applied). */
export function appliedTarget(record: AppliedRecord): string {
  const applied = record.files.length;
  const proposed = record.proposed;
  if (applied === proposed) return proposed === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', proposed);
  return vscode.l10n.t('{0} of {1} files', applied, proposed);
}

/** " (1 partly: src/util.js)", or nothing when every applied file got all its changes. */
function partlyInWords(record: AppliedRecord): string {
  const partly = partlyApplied(record);
  return partly.length ? vscode.l10n.t(' ({0} partly: {1})', partly.length, partly.join(', ')) : '';
}

/** A document's text in its own line ends, from LF text. */
function inEol(doc: vscode.TextDocument, text: string): string {
  return doc.eol === vscode.EndOfLine.CRLF ? toLf(text).replace(/\n/g, '\r\n') : text;
}

/**
 * Puts back the files an apply changed, as they were before it, in one edit: each file whose text is still what
 * the apply left (partly applied ones too); files changed since are left alone and named. False when nothing could
 * be put back.
 */
export async function revertFileChanges(record: AppliedRecord, target: FileTarget): Promise<boolean> {
  const now = new Map<string, string | undefined>();
  for (const f of record.files) {
    const uri = target(f.relativePath);
    if (uri) now.set(f.relativePath, await textOf(uri));
  }
  const { steps, changedSince } = undoSteps(record, now);
  if (steps.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: nothing to undo: {0} changed since the winner was applied.', changedSince.join(', ')));
    return false;
  }
  const edit = new vscode.WorkspaceEdit();
  for (const s of steps) {
    const uri = target(s.relativePath)!;
    if (s.action === 'delete') edit.deleteFile(uri, { ignoreIfNotExists: true });
    else if (s.create) edit.createFile(uri, { contents: new TextEncoder().encode(s.text) });
    else {
      const doc = await vscode.workspace.openTextDocument(uri);
      for (const e of lineEdits(doc.getText(), inEol(doc, s.text))) edit.replace(uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
    }
  }
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: VS Code refused to undo the change (is a file read-only?).'));
    return false;
  }
  if (changedSince.length) void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: undone, except {0}, which changed since the winner was applied.', changedSince.join(', ')));
  return true;
}

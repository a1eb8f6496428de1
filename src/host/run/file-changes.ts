// A files run's winner (an /edit on attached files, Run on Workspace) into the workspace: one WorkspaceEdit that VS
// Code's refactor preview shows first, and, for the vote viewer's Undo, the same files put back as they were.

import * as vscode from 'vscode';
import { lineEdits } from '../../core/edit/text-edits';
import type { WinnerChange } from '../../core/run/work-area';

/** Where each changed path of a run goes in the workspace. */
export type FileTarget = (relativePath: string) => vscode.Uri | undefined;

const lf = (text: string) => text.replace(/\r\n/g, '\n');

/**
 * Applies the winner's change to the workspace as ONE WorkspaceEdit, every change marked as needing confirmation so
 * VS Code shows its refactor preview first (per-file accept or reject). Refused when a file changed since the run
 * started.
 */
export async function applyFileChanges(change: WinnerChange | undefined, target: FileTarget): Promise<boolean> {
  if (!change) {
    void vscode.window.showInformationMessage('MassGen: this run has no file changes to apply.');
    return false;
  }
  const text = change.fileChanges.filter((c) => !c.binary);
  if (text.length === 0) {
    void vscode.window.showInformationMessage(`MassGen: the winner (${change.version}) changed no text files.`);
    return false;
  }
  const edit = new vscode.WorkspaceEdit();
  const stale: string[] = [];
  const unsaved: string[] = [];
  for (const c of text) {
    const uri = target(c.relativePath);
    if (!uri) continue;
    const meta = { needsConfirmation: true, label: `${c.kind}: ${c.relativePath}`, description: `MassGen winner ${change.version}` };
    if (c.kind === 'added') {
      edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(c.after ?? '') }, meta);
    } else if (c.kind === 'deleted') {
      edit.deleteFile(uri, { ignoreIfNotExists: true }, meta);
    } else {
      const doc = await vscode.workspace.openTextDocument(uri);
      // A change read from git has LF line ends where a CRLF checkout (core.autocrlf) shows CRLF: compare and write
      // in the document's own line ends.
      if (lf(doc.getText()) !== lf(c.before ?? '')) (doc.isDirty ? unsaved : stale).push(c.relativePath);
      const after = inEol(doc, c.after ?? '');
      // Line edits rather than one whole-file replacement: the preview then shows only what changed.
      for (const e of lineEdits(doc.getText(), after)) edit.replace(uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text, meta);
    }
  }
  if (unsaved.length) {
    void vscode.window.showWarningMessage(`MassGen: not applied: ${unsaved.join(', ')} ${unsaved.length === 1 ? 'has' : 'have'} unsaved changes the agents did not see. Save or revert ${unsaved.length === 1 ? 'it' : 'them'}, then apply again (or run again on the saved files).`);
    return false;
  }
  if (stale.length) {
    void vscode.window.showWarningMessage(`MassGen: not applied: ${stale.join(', ')} changed since the run started. Run again on the current files.`);
    return false;
  }
  const skipped = change.fileChanges.length - text.length;
  if (skipped) void vscode.window.showInformationMessage(`MassGen: ${skipped} binary file change(s) left out.`);
  return vscode.workspace.applyEdit(edit);
}

/** A document's text in its own line ends, from LF text. */
function inEol(doc: vscode.TextDocument, text: string): string {
  return doc.eol === vscode.EndOfLine.CRLF ? lf(text).replace(/\n/g, '\r\n') : text;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  return vscode.workspace.fs.stat(uri).then(() => true, () => false);
}

/**
 * Puts back the files an applied change touched, as they were before it, in one edit; files changed since (or whose
 * change was not accepted in the preview) are left alone and named. False when nothing could be put back.
 */
export async function revertFileChanges(change: WinnerChange, target: FileTarget): Promise<boolean> {
  const edit = new vscode.WorkspaceEdit();
  const left: string[] = [];
  let reverted = 0;
  for (const c of change.fileChanges.filter((f) => !f.binary)) {
    const uri = target(c.relativePath);
    if (!uri) continue;
    if (c.kind === 'added') {
      const doc = (await exists(uri)) ? await vscode.workspace.openTextDocument(uri) : undefined;
      if (doc && lf(doc.getText()) === lf(c.after ?? '')) {
        edit.deleteFile(uri);
        reverted++;
      } else if (doc) left.push(c.relativePath);
    } else if (c.kind === 'deleted') {
      if (await exists(uri)) left.push(c.relativePath);
      else {
        edit.createFile(uri, { contents: new TextEncoder().encode(c.before ?? '') });
        reverted++;
      }
    } else {
      const doc = await vscode.workspace.openTextDocument(uri);
      if (lf(doc.getText()) !== lf(c.after ?? '')) {
        if (lf(doc.getText()) !== lf(c.before ?? '')) left.push(c.relativePath);
        continue;
      }
      for (const e of lineEdits(doc.getText(), inEol(doc, c.before ?? ''))) edit.replace(uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
      reverted++;
    }
  }
  if (reverted === 0) {
    void vscode.window.showWarningMessage(`MassGen: nothing to undo: ${left.length ? `${left.join(', ')} changed since the winner was applied` : 'no file has the winner\'s change any more'}.`);
    return false;
  }
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage('MassGen: VS Code refused to undo the change (is a file read-only?).');
    return false;
  }
  if (left.length) void vscode.window.showWarningMessage(`MassGen: undone, except ${left.join(', ')}, which changed since the winner was applied.`);
  return true;
}

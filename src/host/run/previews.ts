// Connects a run's winning answer to the place it should go: the selection "Run on selection" started from, or
// the selection/file attached in chat. Shared by the command, the chat buttons and the vote viewer's actions.

import * as vscode from 'vscode';
import { extractCode } from '../../core/edit/extract-code';
import type { PreviewManager } from './selection-diff';
import { lineEdits } from '../../core/edit/text-edits';
import type { WinnerChange } from '../../core/run/work-area';
import type { RunManager } from './manager';

/** A document region captured when a run started. */
export interface ApplyTarget {
  uri: vscode.Uri;
  version: number;
  text: string;
  start: number;
  end: number;
  languageId: string;
}

export function captureTarget(doc: vscode.TextDocument, range: vscode.Range): ApplyTarget {
  return { uri: doc.uri, version: doc.version, text: doc.getText(), start: doc.offsetAt(range.start), end: doc.offsetAt(range.end), languageId: doc.languageId };
}

export class RunPreviews {
  private readonly targets = new Map<string, ApplyTarget>();
  /** Runs on files: where each changed path goes in the workspace. */
  private readonly files = new Map<string, (relativePath: string) => vscode.Uri | undefined>();

  constructor(private readonly runs: RunManager, private readonly preview: PreviewManager) {}

  register(runId: string, target: ApplyTarget): void {
    this.targets.set(runId, target);
  }

  /** For runs on files: the workspace file each relative path of the change stands for. */
  registerFiles(runId: string, target: (relativePath: string) => vscode.Uri | undefined): void {
    this.files.set(runId, target);
  }

  /** Opens the winner's diff for the run. Returns a note about the code extraction, or undefined if nothing shown. */
  async show(runId: string): Promise<{ note?: string } | undefined> {
    if (this.files.has(runId)) return (await this.apply(runId)) ? {} : undefined;
    const run = this.runs.find(runId);
    const target = this.targets.get(runId);
    const final = run?.state.finalAnswer;
    if (!run || !final) {
      void vscode.window.showInformationMessage('MassGen: this run has no final answer to preview.');
      return undefined;
    }
    if (!target) {
      void vscode.window.showInformationMessage('MassGen: this run was not started from an editor selection, so there is nothing to apply it to. Copy the answer instead.');
      return undefined;
    }
    const original = target.text.slice(target.start, target.end);
    const extracted = extractCode(final.content, { languageId: target.languageId, originalText: original });
    const winner = run.state.agents.find((a) => a.id === final.agentId);
    await this.preview.show({
      id: run.id,
      uri: target.uri,
      version: target.version,
      originalDoc: target.text,
      start: target.start,
      end: target.end,
      replacement: extracted.code,
      winner: `${final.label}${winner ? ` (${winner.model})` : ''}`,
    });
    return { note: extracted.note };
  }

  async apply(runId: string): Promise<boolean> {
    const files = this.files.get(runId);
    const run = this.runs.find(runId);
    if (files && run) {
      const result = await run.result;
      return applyFileChanges(result.change, files);
    }
    if (this.preview.pending?.id !== runId && !(await this.show(runId))) return false;
    return this.preview.apply();
  }
}

const lf = (text: string) => text.replace(/\r\n/g, '\n');

/**
 * Applies the winner's change to the workspace as ONE WorkspaceEdit, every change marked as needing confirmation so
 * VS Code shows its refactor preview first (per-file accept or reject). Refused when a file changed since the run
 * started.
 */
export async function applyFileChanges(change: WinnerChange | undefined, target: (relativePath: string) => vscode.Uri | undefined): Promise<boolean> {
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
      const after = doc.eol === vscode.EndOfLine.CRLF ? lf(c.after ?? '').replace(/\n/g, '\r\n') : (c.after ?? '');
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

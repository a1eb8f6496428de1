// The winner as a reviewed diff. Both sides are virtual documents (the file as captured when the run started,
// and the same text with the winner in place), so the real file is untouched until Apply. Apply writes one
// WorkspaceEdit (one undo step; the file is left dirty for review) after checking the document did not change;
// if it did, the selection is re-anchored by diffing, and refused when the selected text itself was edited.

import * as vscode from 'vscode';
import { applyToText, lineDiffStats, reanchorSelection } from '../../core/edit/reanchor';

export const PREVIEW_SCHEME = 'massgen-preview';
const CONTEXT_KEY = 'massgen.previewOpen';

export interface Proposal {
  id: string;
  uri: vscode.Uri;
  /** Document version and full text captured when the run started. */
  version: number;
  originalDoc: string;
  start: number;
  end: number;
  replacement: string;
  /** e.g. "agent2.1 (gpt-4o)" */
  winner: string;
}

class PreviewDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.docs.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    this.docs.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }
}

function sideUri(p: Proposal, side: 'original' | 'winner'): vscode.Uri {
  // Same path as the real file, so the diff editor picks the right language.
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: p.uri.path, query: `run=${p.id}&side=${side}` });
}

export class PreviewManager implements vscode.Disposable {
  private readonly docs = new PreviewDocuments();
  private readonly registration: vscode.Disposable;
  private current: Proposal | undefined;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, this.docs);
  }

  get pending(): Proposal | undefined {
    return this.current;
  }

  async show(p: Proposal): Promise<void> {
    if (this.current) await this.closeTabs(this.current);
    this.current = p;
    const left = sideUri(p, 'original');
    const right = sideUri(p, 'winner');
    this.docs.set(left, p.originalDoc);
    this.docs.set(right, applyToText(p.originalDoc, p.start, p.end, p.replacement));
    const { added, removed } = lineDiffStats(p.originalDoc.slice(p.start, p.end), p.replacement);
    const name = p.uri.path.split('/').pop();
    await vscode.commands.executeCommand('vscode.diff', left, right, `MassGen: ${name} (winner ${p.winner}) +${added} −${removed}`, { preview: false });
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, true);
  }

  /** Writes the pending proposal into its document. Returns false when nothing was applied (and says why). */
  async apply(): Promise<boolean> {
    const p = this.current;
    if (!p) {
      void vscode.window.showInformationMessage('MassGen: there is no winner to apply. Run "MassGen: Run on selection" first.');
      return false;
    }
    const doc = await vscode.workspace.openTextDocument(p.uri);
    let { start, end } = p;
    if (doc.version !== p.version) {
      const anchored = reanchorSelection({ originalDoc: p.originalDoc, currentDoc: doc.getText(), start, end });
      if (!anchored.ok) {
        const copy = 'Copy winner to clipboard';
        // Not awaited: the command answers "not applied" at once; the offer stays in the notification.
        void vscode.window.showWarningMessage(`MassGen: not applied. ${anchored.reason}`, copy).then((choice) => {
          if (choice === copy) void vscode.env.clipboard.writeText(p.replacement);
        });
        return false;
      }
      ({ start, end } = anchored);
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(p.uri, new vscode.Range(doc.positionAt(start), doc.positionAt(end)), p.replacement);
    if (!(await vscode.workspace.applyEdit(edit))) {
      void vscode.window.showErrorMessage('MassGen: VS Code refused the edit (is the file read-only?).');
      return false;
    }
    await this.finish(p);
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    editor.selection = new vscode.Selection(doc.positionAt(start), doc.positionAt(start + p.replacement.length));
    return true;
  }

  async discard(): Promise<void> {
    if (this.current) await this.finish(this.current);
  }

  private async finish(p: Proposal): Promise<void> {
    await this.closeTabs(p);
    this.docs.delete(sideUri(p, 'original'));
    this.docs.delete(sideUri(p, 'winner'));
    if (this.current === p) this.current = undefined;
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
  }

  private async closeTabs(p: Proposal): Promise<void> {
    const right = sideUri(p, 'winner').toString();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === right);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  dispose(): void {
    this.registration.dispose();
  }
}

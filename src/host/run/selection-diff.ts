// The winner as a reviewed diff. Both sides are virtual documents (the file as captured when the run started,
// and the same text with the winner in place), so the real file is untouched until Apply. Apply writes one
// WorkspaceEdit (one undo step; Apply never saves, though the user's files.autoSave may, see auto-save.ts) after
// checking the document did not change; if it did, the selection is re-anchored by diffing, and refused when the
// selected text itself was edited.
// `revert` puts the replaced code back (re-anchored the same way), for the vote viewer's Undo.

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

/** A proposal as written into its document: enough to put the replaced code back. */
export interface AppliedProposal {
  id: string;
  uri: vscode.Uri;
  winner: string;
  /** The document right after the edit, its version, and where the winner's code is in it. */
  docAfter: string;
  versionAfter: number;
  start: number;
  end: number;
  /** The code the winner replaced. */
  replaced: string;
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
  private readonly changed = new vscode.EventEmitter<string>();
  /** A proposal's diff opened or closed (its run id). */
  readonly onDidChange = this.changed.event;

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
    this.changed.fire(p.id);
  }

  /** Writes the pending proposal into its document. Undefined when nothing was applied (having said why). */
  async apply(): Promise<AppliedProposal | undefined> {
    const p = this.current;
    if (!p) {
      void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: no winner\'s diff is open, so there is nothing to apply. Run "MassGen: Run on Selection" first.'));
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(p.uri);
    let { start, end } = p;
    if (doc.version !== p.version) {
      const anchored = reanchorSelection({ originalDoc: p.originalDoc, currentDoc: doc.getText(), start, end });
      if (!anchored.ok) {
        const copy = vscode.l10n.t('Copy winner to clipboard');
        // Not awaited: the command answers "not applied" at once; the offer stays in the notification.
        void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: not applied. {0}', anchored.reason), copy).then((choice) => {
          if (choice === copy) void vscode.env.clipboard.writeText(p.replacement);
        });
        return undefined;
      }
      ({ start, end } = anchored);
    }
    const replaced = doc.getText(new vscode.Range(doc.positionAt(start), doc.positionAt(end)));
    if (!(await replaceRange(doc, start, end, p.replacement))) return undefined;
    await this.finish(p);
    const applied = { id: p.id, uri: p.uri, winner: p.winner, docAfter: doc.getText(), versionAfter: doc.version, start, end: start + p.replacement.length, replaced };
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    editor.selection = new vscode.Selection(doc.positionAt(applied.start), doc.positionAt(applied.end));
    return applied;
  }

  /** Puts back the code an applied proposal replaced; false (having said why) when its code was edited since. */
  async revert(a: AppliedProposal): Promise<boolean> {
    const doc = await vscode.workspace.openTextDocument(a.uri);
    let { start, end } = a;
    if (doc.version !== a.versionAfter) {
      const anchored = reanchorSelection({ originalDoc: a.docAfter, currentDoc: doc.getText(), start, end });
      if (!anchored.ok) {
        void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: not undone: the code applied from {0} was edited since. Use Undo in the editor (Ctrl+Z) to step back instead.', a.winner));
        return false;
      }
      ({ start, end } = anchored);
    }
    if (!(await replaceRange(doc, start, end, a.replaced))) return false;
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    editor.selection = new vscode.Selection(doc.positionAt(start), doc.positionAt(start + a.replaced.length));
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
    this.changed.fire(p.id);
  }

  private async closeTabs(p: Proposal): Promise<void> {
    const right = sideUri(p, 'winner').toString();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === right);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}

/** One edit of `doc`; false (having said why) when VS Code refused it. */
async function replaceRange(doc: vscode.TextDocument, start: number, end: number, text: string): Promise<boolean> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(start), doc.positionAt(end)), text);
  if (await vscode.workspace.applyEdit(edit)) return true;
  void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: VS Code refused the edit of {0} (is the file read-only?).', vscode.workspace.asRelativePath(doc.uri)));

  return false;
}

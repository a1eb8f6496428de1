// Connects a run's winning answer to the place it should go: the selection "Run on selection" started from, the
// selection/file attached in chat, or (files runs) the workspace files. Shared by the command, the chat buttons and
// the vote viewer's actions, and the one place that knows each run's apply state (none, no code, ready, previewing,
// applied), which the viewer shows and Apply and Undo follow: only code written for the file is ever applied, never
// before its diff was shown, and at most once. For files runs the applied state is what the refactor preview really
// wrote (applied-files.ts): "Applied to 1 of 2 files", and Undo puts back exactly those.

import * as vscode from 'vscode';
import { codeForFile, type CodeForFile } from '../../core/edit/extract-code';
import type { ApplyState } from '../../protocol/messages';
import { partlyApplied, type AppliedRecord } from './applied-files';
import { afterApplyInWords } from './auto-save';
import { appliedTarget, applyFileChanges, revertFileChanges, type FileTarget } from './file-changes';
import type { RunManager } from './manager';
import type { AppliedProposal, PreviewManager } from './selection-diff';

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

/** The code of an answer that may replace the target's region, or why there is none. */
export function codeForTarget(answer: string, target: ApplyTarget): CodeForFile {
  return codeForFile(answer, { languageId: target.languageId, originalText: target.text.slice(target.start, target.end) });
}

type Applied = { kind: 'selection'; proposal: AppliedProposal } | { kind: 'files'; record: AppliedRecord; version: string; target: FileTarget };

export class RunPreviews implements vscode.Disposable {
  private readonly targets = new Map<string, ApplyTarget>();
  /** Runs on files: where each changed path goes in the workspace. */
  private readonly files = new Map<string, FileTarget>();
  private readonly applied = new Map<string, Applied>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** A run's apply state changed (its id). */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly runs: RunManager, private readonly preview: PreviewManager) {
    this.subscriptions = [preview.onDidChange((runId) => this.changed.fire(runId)), runs.onDidDrop((runId) => this.drop(runId))];
  }

  /** The RunManager no longer keeps the run: neither are its document text and applied change kept here. */
  private drop(runId: string): void {
    this.targets.delete(runId);
    this.files.delete(runId);
    this.applied.delete(runId);
  }

  register(runId: string, target: ApplyTarget): void {
    this.targets.set(runId, target);
    this.changed.fire(runId);
  }

  /**
   * A follow-up's winner goes where run `fromRunId`'s went: the same files, or the same selection, which is the
   * applied winner's code once that run's winner was applied (re-anchored on Apply as usual).
   */
  registerLike(runId: string, fromRunId: string): void {
    const target = this.targets.get(fromRunId);
    const applied = this.applied.get(fromRunId);
    if (target && applied?.kind === 'selection') {
      const { uri, versionAfter: version, docAfter: text, start, end } = applied.proposal;
      this.register(runId, { uri, version, text, start, end, languageId: target.languageId });
    } else if (target) this.register(runId, target);
    const files = this.files.get(fromRunId);
    if (files) this.registerFiles(runId, files);
  }

  /** For runs on files: the workspace file each relative path of the change stands for. */
  registerFiles(runId: string, target: FileTarget): void {
    this.files.set(runId, target);
    this.changed.fire(runId);
  }

  /** What can be done with the run's winner now (the vote viewer's actions follow it). */
  state(runId: string): ApplyState {
    const run = this.runs.find(runId);
    const final = run?.state.finalAnswer;
    const applied = this.applied.get(runId);
    if (this.files.has(runId)) {
      if (applied?.kind === 'files') {
        const partly = partlyApplied(applied.record);
        const note = partly.length ? vscode.l10n.t('Partly applied: {0} (some of the changes were unticked).', partly.join(', ')) : undefined;
        return { kind: 'files', status: 'applied', target: appliedTarget(applied.record), ...(note ? { note } : {}) };
      }
      const n = run?.state.answers.find((a) => a.label === run.state.winner?.label)?.change?.files.length ?? 0;
      const target = n === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', n);
      return { kind: 'files', status: final && n > 0 ? 'ready' : 'none', target };
    }
    const target = this.targets.get(runId);
    if (!target) return { kind: 'selection', status: 'none', target: null };
    const where = vscode.workspace.asRelativePath(target.uri, false);
    if (applied) return { kind: 'selection', status: 'applied', target: where, note: capitalised(afterApplyInWords(target.uri)) + '.' };
    if (this.preview.pending?.id === runId) return { kind: 'selection', status: 'previewing', target: where };
    if (!final) return { kind: 'selection', status: 'none', target: where };
    const code = codeForTarget(final.content, target);
    return code.code === null ? { kind: 'selection', status: 'noCode', target: where, note: `Nothing to apply to ${where}: ${code.reason}.` } : { kind: 'selection', status: 'ready', target: where };
  }

  /** Opens the winner's diff (files runs: the refactor preview). Returns a note about the code extraction, or
   * undefined when nothing was shown (having said why). */
  async show(runId: string): Promise<{ note?: string } | undefined> {
    if (this.files.has(runId)) return (await this.apply(runId)) ? {} : undefined;
    if (this.sayIfApplied(runId)) return undefined;
    const run = this.runs.find(runId);
    const target = this.targets.get(runId);
    const final = run?.state.finalAnswer;
    if (!run || !final) {
      void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: this run has no final answer to preview.'));
      return undefined;
    }
    if (!target) {
      void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: this run was not started from an editor selection, so there is nothing to apply it to. Copy the answer instead.'));
      return undefined;
    }
    const code = codeForTarget(final.content, target);
    const where = vscode.workspace.asRelativePath(target.uri, false);
    if (code.code === null) {
      void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: nothing to apply to {0}: {1}. The answer is in the vote viewer, to read or copy.', where, code.reason));
      return undefined;
    }
    const winner = run.state.agents.find((a) => a.id === final.agentId);
    await this.preview.show({
      id: run.id,
      uri: target.uri,
      version: target.version,
      originalDoc: target.text,
      start: target.start,
      end: target.end,
      replacement: code.code,
      winner: `${final.label}${winner ? ` (${winner.model})` : ''}`,
    });
    return { note: code.note };
  }

  /**
   * Applies the run's winner: files runs through VS Code's refactor preview (the review), selection runs only from
   * their open diff (otherwise the diff opens, and nothing is written). False when nothing was applied.
   */
  async apply(runId: string): Promise<boolean> {
    if (this.sayIfApplied(runId)) return false;
    const files = this.files.get(runId);
    const run = this.runs.find(runId);
    if (files && run) {
      const result = await run.result;
      const record = await applyFileChanges(result.change, files, result.finalAnswer ?? '');
      if (!record || !result.change) return false;
      this.record(runId, { kind: 'files', record, version: result.change.version, target: files });
      return true;
    }
    if (this.preview.pending?.id !== runId) {
      if (await this.show(runId)) {
        void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: review the diff first, then apply it with ✓ in the editor title (Ctrl+Alt+Enter) or Apply in the vote viewer.'));
      }
      return false;
    }
    return this.applyPending();
  }

  /** Applies the open diff (✓ in its editor title, Ctrl+Alt+Enter). */
  async applyPending(): Promise<boolean> {
    const proposal = await this.preview.apply();
    if (!proposal) return false;
    this.record(proposal.id, { kind: 'selection', proposal });
    const where = vscode.workspace.asRelativePath(proposal.uri, false);
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: applied {0} to {1}: {2}.', proposal.winner, where, afterApplyInWords(proposal.uri)));
    return true;
  }

  /** Puts back what applying the run's winner changed. */
  async undo(runId: string): Promise<boolean> {
    const applied = this.applied.get(runId);
    if (!applied) {
      void vscode.window.showInformationMessage(vscode.l10n.t("MassGen: this run's winner is not applied, so there is nothing to undo."));

      return false;
    }
    const ok = applied.kind === 'files' ? await revertFileChanges(applied.record, applied.target) : await this.preview.revert(applied.proposal);
    if (ok) {
      this.applied.delete(runId);
      this.changed.fire(runId);
    }
    return ok;
  }

  private record(runId: string, applied: Applied): void {
    this.applied.set(runId, applied);
    this.changed.fire(runId);
  }

  /** An applied winner is not applied again (its diff would be out of date): say so, and how to take it back. */
  private sayIfApplied(runId: string): boolean {
    const applied = this.applied.get(runId);
    if (!applied) return false;
    const what =
      applied.kind === 'files'
        ? vscode.l10n.t('{0} is already applied to the workspace ({1})', applied.version, appliedTarget(applied.record))
        : vscode.l10n.t('{0} is already applied to {1}', applied.proposal.winner, vscode.workspace.asRelativePath(applied.proposal.uri, false));
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: {0}. To take it back, use Undo in the vote viewer.', what));
    return true;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

// The result: why the run ended, the winner (and, in a workspace run, the change it carries), the final answer, and
// the actions (Preview diff, Apply, Copy, Open log) which the host runs as commands.

import type { RunState } from '../../src/protocol/state';
import type { DiffStore } from '../diff-store';
import { button, h, icon, setHidden, setIcon, setText } from '../dom';
import * as fmt from '../format';
import type { Host } from '../bridge';
import { renderInto } from '../markdown';
import { ChangesView } from './changes';

export class ResultView {
  readonly el: HTMLElement;
  private readonly reasonIcon = icon('pass');
  private readonly reason = h('span', { class: 'end-reason' });
  private readonly winner = h('span', { class: 'result-winner' });
  private readonly detail = h('p', { class: 'end-detail muted' });
  private readonly fallback = h('p', { class: 'result-note' });
  private readonly error = h('p', { class: 'result-error', attrs: { role: 'alert' } });
  private readonly answer = h('div', { class: 'final-answer md', attrs: { tabindex: 0, 'aria-label': 'Final answer' } });
  private readonly actions: HTMLElement;
  private readonly previewBtn: HTMLElement;
  private readonly applyBtn: HTMLElement;
  private readonly copyBtn: HTMLElement;
  private readonly changesSlot = h('div', { class: 'result-changes' });
  private changes: { label: string; view: ChangesView } | null = null;
  private renderedAnswer: string | null = null;
  private cancelRender: (() => void) | null = null;

  constructor(private readonly host: Host, private readonly runId: string, readOnly: boolean, private readonly diffs: DiffStore) {
    const act = (action: 'preview' | 'apply' | 'copy' | 'openLog') => () => this.host.post({ type: 'action', action, runId: this.runId });
    const pastNote = readOnly ? ' (not available for a past run)' : '';
    this.previewBtn = button('Preview diff', { icon: 'diff', label: 'Preview the winner as a diff', title: `Open the diff of the winning answer${pastNote}`, onClick: act('preview') });
    this.applyBtn = button('Apply', { icon: 'check', label: 'Apply the winner', title: `Apply the winning answer to the editor${pastNote}`, onClick: act('apply') });
    this.copyBtn = button('Copy', { icon: 'copy', secondary: true, label: 'Copy the final answer', onClick: act('copy') });
    const log = button('Open log', { icon: 'output', secondary: true, label: 'Open the MassGen log', onClick: act('openLog') });
    if (readOnly) {
      this.previewBtn.setAttribute('disabled', '');
      this.applyBtn.setAttribute('disabled', '');
    }
    this.actions = h('div', { class: 'actions', attrs: { role: 'toolbar', 'aria-label': 'Result actions' } }, this.previewBtn, this.applyBtn, this.copyBtn, log);
    this.el = h(
      'div',
      { class: 'result' },
      h('div', { class: 'result-head' }, this.reasonIcon, this.reason, this.winner),
      this.detail,
      this.fallback,
      this.error,
      this.changesSlot,
      this.actions,
      this.answer,
    );
    setHidden(this.changesSlot, true);
  }

  update(state: RunState): void {
    const done = state.phase === 'done';
    const fa = state.finalAnswer;
    const failed = done && !fa;
    setIcon(this.reasonIcon, !done ? 'loading~spin' : failed ? 'error' : state.endReason === 'consensus' ? 'pass-filled' : 'info');
    setText(this.reason, done ? fmt.endReason(state.endReason) : 'Writing the final answer…');
    const w = state.winner;
    const agent = w && state.agents.find((a) => a.id === w.agentId);
    setText(this.winner, w ? `Winner ${w.label}${agent ? ` (${agent.id})` : ''}${fa?.mode === 'synthesize' ? ' · synthesized' : ''}` : '');
    setHidden(this.winner, !w);
    this.updateChanges(state);
    setText(this.detail, done && state.endReason ? fmt.END_REASON_DETAILS[state.endReason] : '');
    setHidden(this.detail, !done);
    setText(this.fallback, fa?.fallback ? `Note: ${fa.fallback}; the voted answer is shown.` : '');
    setHidden(this.fallback, !fa?.fallback);
    setText(this.error, state.error ?? '');
    setHidden(this.error, !state.error);
    setHidden(this.actions, !fa);
    // A workspace run's winner that changed no file has nothing to preview or apply.
    const winnerChange = state.workspace ? state.answers.find((a) => a.label === w?.label)?.change : undefined;
    const nothingToApply = Boolean(state.workspace) && (winnerChange?.files.length ?? 0) === 0;
    setHidden(this.previewBtn, nothingToApply);
    setHidden(this.applyBtn, nothingToApply);
    const content = fa?.content ?? null;
    if (content !== this.renderedAnswer) {
      this.renderedAnswer = content;
      this.cancelRender?.();
      this.cancelRender = content ? renderInto(this.answer, content) : null;
      if (!content) this.answer.replaceChildren();
    }
    setHidden(this.answer, !content);
  }

  /** The winner's change, expandable like the answer's own in its column (the same patch, asked once). */
  private updateChanges(state: RunState): void {
    const label = state.winner?.label ?? null;
    if (label === (this.changes?.label ?? null)) return;
    this.changes?.view.dispose();
    const change = state.answers.find((a) => a.label === label)?.change;
    this.changes = label && change ? { label, view: new ChangesView(this.diffs, label, change) } : null;
    this.changesSlot.replaceChildren(...(this.changes ? [this.changes.view.el] : []));
    setHidden(this.changesSlot, !this.changes);
  }

  dispose(): void {
    this.cancelRender?.();
    this.changes?.view.dispose();
  }
}

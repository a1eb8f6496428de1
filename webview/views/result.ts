// The result: why the run ended, the winner (and, in a workspace run, the change it carries), the final answer, and
// the actions, which the host runs as commands. What can be applied follows the host's apply state: Review the diff
// (or, for files, the refactor preview), then Apply or Discard, then "Applied" with Undo; nothing when the winner
// has no code for the file (the note says why).

import { runErrorInWords } from '../../src/protocol/failure-words';
import type { ApplyState, RunAction } from '../../src/protocol/messages';
import type { RunState } from '../../src/protocol/state';
import type { DiffStore } from '../diff-store';
import { button, h, icon, setClass, setHidden, setIcon, setText } from '../dom';
import * as fmt from '../format';
import type { Host } from '../bridge';
import { renderInto } from '../markdown';
import { ChangesView } from './changes';
import { VerificationView } from './checks';

export class ResultView {
  readonly el: HTMLElement;
  private readonly reasonIcon = icon('pass');
  private readonly reason = h('span', { class: 'end-reason' });
  private readonly winner = h('span', { class: 'result-winner' });
  private readonly detail = h('p', { class: 'end-detail muted' });
  private readonly verification = new VerificationView();
  private readonly fallback = h('p', { class: 'result-note' });
  private readonly error = h('p', { class: 'result-error', attrs: { role: 'alert' } });
  private readonly answer = h('div', { class: 'final-answer md', attrs: { tabindex: 0, 'aria-label': 'Final answer' } });
  private readonly actions: HTMLElement;
  private readonly applyActions = h('span', { class: 'apply-actions' });
  private readonly applyNote = h('p', { class: 'apply-note muted' });
  private applyKey = '';
  private readonly changesSlot = h('div', { class: 'result-changes' });
  private changes: { label: string; view: ChangesView } | null = null;
  private renderedAnswer: string | null = null;
  private cancelRender: (() => void) | null = null;

  constructor(private readonly host: Host, private readonly runId: string, private readonly diffs: DiffStore) {
    const copy = button('Copy', { icon: 'copy', secondary: true, label: 'Copy the final answer', onClick: this.act('copy') });
    const log = button('Open log', { icon: 'output', secondary: true, label: 'Open the MassGen log', onClick: this.act('openLog') });
    this.actions = h('div', { class: 'actions', attrs: { role: 'toolbar', 'aria-label': 'Result actions' } }, this.applyActions, copy, log);
    this.el = h(
      'div',
      { class: 'result' },
      h('div', { class: 'result-head' }, this.reasonIcon, this.reason, this.winner),
      this.detail,
      this.verification.el,
      this.fallback,
      this.error,
      this.changesSlot,
      this.actions,
      this.applyNote,
      this.answer,
    );
    setHidden(this.changesSlot, true);
    setHidden(this.applyNote, true);
  }

  private act(action: RunAction): () => void {
    return () => this.host.post({ type: 'action', action, runId: this.runId });
  }

  /** The apply buttons for the host's apply state (rebuilt only when it changes). */
  private updateApply(apply: ApplyState): void {
    const key = JSON.stringify(apply);
    if (key === this.applyKey) return;
    this.applyKey = key;
    const where = apply.target ?? 'the editor';
    const files = apply.kind === 'files';
    const buttons: HTMLElement[] = [];
    switch (apply.status) {
      case 'ready':
        buttons.push(
          files
            ? button('Review and apply…', { icon: 'diff', label: 'Review and apply the winner\u2019s changes', title: `Open the ${where} the winner changed in VS Code's refactor preview, where you accept each change`, onClick: this.act('apply') })
            : button('Review diff', { icon: 'diff', label: 'Review the winner\u2019s diff', title: `Open the winner's change to ${where} as a diff; apply it from there`, onClick: this.act('preview') }),
        );
        break;
      case 'previewing':
        buttons.push(
          button('Apply', { icon: 'check', label: 'Apply the winner', title: `Write the diff shown into ${where} (one undo step)`, onClick: this.act('apply') }),
          button('Discard', { icon: 'discard', secondary: true, label: 'Discard the winner', title: 'Close the diff without applying it', onClick: this.act('discard') }),
        );
        break;
      case 'applied':
        buttons.push(
          h('span', { class: 'applied', attrs: { role: 'status' } }, icon('check'), h('span', { text: `Applied to ${where}` })),
          button('Undo', { icon: 'discard', secondary: true, label: 'Undo the apply', title: `Put back what ${where} had before`, onClick: this.act('undo') }),
        );
        break;
      case 'noCode':
      case 'none':
        break;
    }
    this.applyActions.replaceChildren(...buttons);
    setHidden(this.applyActions, buttons.length === 0);
    setText(this.applyNote, apply.note ?? '');
    setHidden(this.applyNote, !apply.note);
  }

  update(state: RunState, apply: ApplyState): void {
    const done = state.phase === 'done';
    const fa = state.finalAnswer;
    const failed = done && !fa;
    const cancelled = state.endReason === 'cancelled';
    // The box's accent follows the outcome: a cancel is neither a success nor a failure.
    setClass(this.el, 'cancelled', done && cancelled);
    setClass(this.el, 'failed', failed && !cancelled);
    setIcon(this.reasonIcon, !done ? 'loading~spin' : cancelled ? 'circle-slash' : failed ? 'error' : state.endReason === 'consensus' ? 'pass-filled' : 'info');
    setText(this.reason, done ? fmt.endLabel(state) : 'Writing the final answer…');
    const w = state.winner;
    const agent = w && state.agents.find((a) => a.id === w.agentId);
    setText(this.winner, w ? `Winner ${w.label}${agent ? ` (${agent.id})` : ''}${fa?.mode === 'synthesize' ? ' · synthesized' : ''}` : '');
    setHidden(this.winner, !w);
    this.updateChanges(state);
    this.verification.update(state);
    setText(this.detail, done ? fmt.endDetail(state) : '');
    setHidden(this.detail, !done);
    setText(this.fallback, fa?.fallback ? `Note: ${fa.fallback}; the voted answer is shown.` : '');
    setHidden(this.fallback, !fa?.fallback);
    // A cancel is not an error: the detail line already says what happened.
    setText(this.error, cancelled || !state.error ? '' : runErrorInWords(state.error));
    setHidden(this.error, cancelled || !state.error);
    setHidden(this.actions, !fa);
    this.updateApply(fa ? apply : { ...apply, status: 'none', note: undefined });
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

// The header's stage bar, in runs with escalation stages: "Stage 1 of 2", who is not called yet, and Escalate now
// (the next stage joins at once). A click waits for the stage to show up as a `stage_started` event; a stage the host
// could not call comes back as `escalateRefused`, whose text shows here. What it shows is derived by
// src/protocol/stage-words.ts. Agent ids are the user's config text: they only ever become text nodes.

import type { ShownRun } from '../../src/protocol/messages';
import { escalateNow, escalationOf, stageOfText } from '../../src/protocol/stage-words';
import type { RunState } from '../../src/protocol/state';
import type { Host } from '../bridge';
import { button, h, icon, setAttr, setHidden, setText, setTitle } from '../dom';

export class StageBar {
  readonly el: HTMLElement;
  private readonly stageText = h('span', { class: 'stage-text' });
  private readonly waiting = h('span', { class: 'stage-waiting' });
  private readonly escalate: HTMLElement;
  private readonly status = h('span', { class: 'stage-status', attrs: { role: 'status', 'aria-live': 'polite' } });
  /** The stage current when the user asked for the next one, until it joins or the host refuses. */
  private asked: number | null = null;
  private current = 0;

  constructor(host: Host, runId: string) {
    this.escalate = button('Escalate now', {
      icon: 'layers',
      secondary: true,
      label: 'Escalate now',
      title: '',
      onClick: () => {
        this.asked = this.current;
        setText(this.status, '');
        setAttr(this.escalate, 'disabled', true);
        host.post({ type: 'escalate', runId });
      },
    });
    this.escalate.classList.add('escalate-now');
    this.el = h('div', { class: 'stage-bar', attrs: { role: 'group', 'aria-label': 'Escalation stages' } }, icon('layers'), this.stageText, this.waiting, this.escalate, this.status);
  }

  update(shown: Omit<ShownRun, 'view'>, state: RunState): void {
    const view = escalationOf(state, shown.stages);
    setHidden(this.el, !view);
    if (!view) return;
    this.current = view.current;
    if (this.asked !== null && view.current > this.asked) {
      this.asked = null;
      setText(this.status, '');
    }
    setText(this.stageText, stageOfText(view));
    setTitle(this.stageText, view.stages.map((s) => `Stage ${s.stage}: ${s.agents.join(', ')}`).join('\n'));
    const ended = state.phase === 'done';
    const waiting = view.notCalled.map((n) => n.agentId);
    setText(this.waiting, waiting.length ? `· ${ended ? 'not called' : 'not called yet'}: ${waiting.join(', ')}` : '');
    setHidden(this.waiting, waiting.length === 0);
    const offer = escalateNow(view, state, shown.readOnly, this.asked !== null);
    setHidden(this.escalate, !offer.shown);
    setAttr(this.escalate, 'disabled', !offer.enabled);
    setAttr(this.escalate, 'aria-label', offer.label);
    setTitle(this.escalate, offer.title);
  }

  /** The host called no stage: why, and the button works again. */
  refused(text: string): void {
    this.asked = null;
    setText(this.status, text);
    setAttr(this.escalate, 'disabled', false);
  }
}

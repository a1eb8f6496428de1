// The human in the loop: a note box (to every agent in the header, to one in its column) with the explicit "this
// changes the task" choice, the notes an agent was given with whether they reached it, and the Answer now button.
// The note's text stays in its box until it comes back as a `note_added` event (a note the host could not send
// comes back as `noteRefused` instead, and the text is still there to fix or resend). A note that can reach its agent
// no more says why and offers "Continue with this note" (a follow-up run with it). User text only ever becomes text
// nodes.

import { MAX_NOTE_CHARS } from '../../src/protocol/messages';
import type { RunState } from '../../src/protocol/state';
import type { Host } from '../bridge';
import { button, h, icon, setAttr, setHidden, setText, setTitle } from '../dom';
import { answerNow, canNote, noteArrived, notesFor } from '../notes-derive';

export interface NoteAgent {
  id: string;
  /** `agentK`, the name the agents and the viewer use. */
  label: string;
}

export class NoteBox {
  readonly el: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  /** The "this changes the task" choice: a button with the checkbox role (no <input>: nothing in the page is one). */
  private readonly changes: HTMLButtonElement;
  private changesTask = false;
  private readonly send: HTMLElement;
  private readonly status = h('div', { class: 'note-status', attrs: { role: 'status', 'aria-live': 'polite' } });
  private pending: { text: string; since: number } | null = null;
  /** Notes in the state at the last update: a sent note is looked for after these. */
  private seen = 0;
  private readonly to: string;

  constructor(private readonly host: Host, private readonly runId: string, private readonly agent?: NoteAgent) {
    this.to = agent ? agent.label : 'every agent';
    this.input = h('textarea', {
      class: 'note-input',
      attrs: { rows: 2, maxlength: MAX_NOTE_CHARS, 'aria-label': `Note to ${this.to}`, placeholder: agent ? `A note to ${agent.label} only…` : 'A note to every agent, e.g. "use metric units"…' },
    });
    this.input.addEventListener('input', () => this.refreshSend());
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.submit();
      }
    });
    this.changes = h(
      'button',
      {
        class: 'note-changes',
        title: 'Their votes so far stop counting: every agent judges the answers again with your note in mind',
        attrs: { type: 'button', role: 'checkbox', 'aria-checked': 'false' },
        on: { click: () => this.setChangesTask(!this.changesTask) },
      },
      h('span', { class: 'note-check' }, icon('check')),
      h('span', { text: 'This changes the task' }),
    );
    this.send = button('Send note', { icon: 'send', label: `Send the note to ${this.to}`, title: 'Ctrl+Enter. Each agent gets it at its next turn or tool result', onClick: () => this.submit() });
    this.send.classList.add('note-send');
    this.el = h('div', { class: `note-box${agent ? ' note-box-agent' : ''}`, attrs: { role: 'group', 'aria-label': `Note to ${this.to}` } }, this.input, h('div', { class: 'note-row' }, this.changes, this.send), this.status);
    this.refreshSend();
  }

  update(state: RunState, readOnly: boolean): void {
    setHidden(this.el, !canNote(state, readOnly, this.agent?.id));
    const p = this.pending;
    if (p && noteArrived(state, p.since, p.text, this.agent?.id)) {
      this.pending = null;
      // What the user typed after sending stays.
      if (this.input.value.trim() === p.text) this.input.value = '';
      this.setChangesTask(false);
      setText(this.status, `Sent: ${this.agent ? `${this.agent.label} gets it` : 'each agent gets it'} at its next turn or tool result.`);
      this.refreshSend();
    }
    this.seen = state.notes.length;
  }

  /** The host said a note was not sent (its notice says why): the text is still in the box. */
  failed(): void {
    if (!this.pending) return;
    this.pending = null;
    setText(this.status, '');
    this.refreshSend();
  }

  private submit(): void {
    const text = this.input.value.trim();
    if (!text || this.pending) return;
    this.pending = { text, since: this.seen };
    setText(this.status, 'Sending…');
    this.refreshSend();
    this.host.post({ type: 'note', runId: this.runId, text, changesTask: this.changesTask, ...(this.agent ? { agentId: this.agent.id } : {}) });
  }

  private setChangesTask(on: boolean): void {
    this.changesTask = on;
    setAttr(this.changes, 'aria-checked', String(on));
  }

  private refreshSend(): void {
    setAttr(this.send, 'disabled', !this.input.value.trim() || this.pending !== null);
  }
}

/** In an agent's column: the notes it was given and, folded, a note box to it alone. */
export class AgentNotesView {
  readonly el: HTMLElement;
  private readonly list = h('ul', { class: 'notes-list' });
  private readonly listWrap: HTMLElement;
  private readonly box: NoteBox;
  private readonly boxWrap: HTMLDetailsElement;
  private key = '';

  constructor(private readonly host: Host, private readonly runId: string, private readonly agent: NoteAgent) {
    this.box = new NoteBox(host, runId, agent);
    this.listWrap = h('div', { class: 'notes-wrap' }, h('div', { class: 'sub-label', text: 'Your notes' }), this.list);
    setAttr(this.list, 'aria-label', `Your notes to ${agent.label}`);
    this.boxWrap = h('details', { class: 'agent-note' }, h('summary', { class: 'agent-note-summary' }, icon('note'), h('span', { text: `Note to ${agent.label}` })), this.box.el) as HTMLDetailsElement;
    this.boxWrap.addEventListener('toggle', () => {
      if (this.boxWrap.open) this.box.el.querySelector('textarea')?.focus();
    });
    this.el = h('div', { class: 'agent-notes' }, this.listWrap, this.boxWrap);
    setHidden(this.listWrap, true);
  }

  update(state: RunState, readOnly: boolean): void {
    this.box.update(state, readOnly);
    setHidden(this.boxWrap, this.box.el.hidden);
    const notes = notesFor(state, this.agent.id);
    const key = `${readOnly}|${notes.map((n) => `${n.id}:${n.delivered ? 1 : n.missed ? 2 : 0}`).join(',')}`;
    if (key === this.key) return;
    this.key = key;
    setHidden(this.listWrap, notes.length === 0);
    this.list.replaceChildren(
      ...notes.map((n) => {
        const where = n.toAll ? 'to every agent' : `to ${this.agent.label} only`;
        const when = n.delivered ? 'it has it' : n.missed ? `not delivered: ${n.missed}` : 'at its next turn or tool result';
        const status = n.delivered ? 'delivered' : n.missed ? `not delivered: ${n.missed}` : 'not yet delivered';
        return h(
          'li',
          { class: `note${n.delivered ? ' delivered' : n.missed ? ' missed' : ''}`, attrs: { 'aria-label': `Your note ${where}${n.changesTask ? ', changing the task' : ''} (${when}): ${n.text}` } },
          h('span', { class: 'note-text', text: n.text }),
          h(
            'span',
            { class: 'note-meta' },
            icon(n.delivered ? 'check' : n.missed ? 'warning' : 'clock'),
            h('span', { text: `${status} · ${where}` }),
            n.changesTask ? h('span', { class: 'note-flag', text: 'changes the task' }) : null,
          ),
          n.missed && !readOnly ? this.continueButton(n.id) : null,
        );
      }),
    );
  }

  failed(): void {
    this.box.failed();
  }

  private continueButton(noteId: string): HTMLElement {
    const b = button('Continue with this note', {
      icon: 'debug-continue',
      label: 'Continue with this note: a follow-up run with it',
      title: 'Start a follow-up run that carries this note (after this run\u2019s answer, if it has one)',
      // The host starts one follow-up per note: a second click shows the same run.
      onClick: () => this.host.post({ type: 'continueWithNote', runId: this.runId, noteId }),
    });
    b.classList.add('note-continue');
    return b;
  }
}

/** The header's Answer now button: shown while agents work, usable once there is an answer to take. */
export class AnswerNowButton {
  readonly el: HTMLElement;

  constructor(host: Host, runId: string) {
    this.el = button('Answer now', { icon: 'pass-filled', label: 'Answer now', title: '', onClick: () => host.post({ type: 'answerNow', runId }) });
    this.el.classList.add('answer-now');
  }

  update(state: RunState, readOnly: boolean): void {
    const a = answerNow(state, readOnly);
    setHidden(this.el, !a.shown);
    setAttr(this.el, 'disabled', !a.enabled);
    setTitle(this.el, a.title);
  }
}

// The project's checks in the vote viewer: a badge per answer version (passed / failed / running / not run) that
// opens, in place, each check's result and the end of its output; the versions still being checked before they join
// the board (the engine checks a version first); the winner's verification in the result. Check output is the
// agents' code talking: it only ever becomes text nodes.

import { checkLine, CHECK_STATUS_WORDS, verificationInWords, versionChecks, type ChecksKind, type VersionChecksView } from '../../src/protocol/checks';
import type { RunState } from '../../src/protocol/state';
import { h, icon, setAttr, setClass, setHidden, setIcon, setText, setTitle } from '../dom';

const KIND_ICON: Record<ChecksKind, string> = { passed: 'pass', failed: 'error', running: 'loading~spin', 'not-run': 'circle-slash' };

let panels = 0;

/** An answer version's badge (in its summary) and the results it opens (`panel`, placed under the summary). */
export class AnswerChecksView {
  readonly badge: HTMLButtonElement;
  readonly panel: HTMLElement;
  private readonly badgeIcon = icon('pass');
  private readonly badgeText = h('span', { class: 'checks-badge-text' });
  private key = '';

  /** `reveal`: opens the answer version around the panel (a folded version's badge is still clickable). */
  constructor(private readonly label: string, reveal: () => void) {
    const id = `checks-panel-${++panels}`;
    this.panel = h('div', { class: 'checks-panel', attrs: { id, role: 'region', 'aria-label': `Checks on ${label}` } });
    this.badge = h('button', { class: 'checks-badge', attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': id } }, this.badgeIcon, this.badgeText);
    // In a <summary>, a click would also fold the version: the badge toggles its results only.
    this.badge.addEventListener('click', (e) => {
      e.preventDefault();
      e.stopPropagation();
      const open = this.panel.hidden;
      if (open) reveal();
      this.setExpanded(open);
    });
    this.badge.addEventListener('keydown', (e) => {
      // Space on a button in a summary toggles the details in some engines: handle it here.
      if (e.key === ' ') e.stopPropagation();
    });
    setHidden(this.badge, true);
    setHidden(this.panel, true);
  }

  private setExpanded(open: boolean): void {
    setHidden(this.panel, !open);
    setAttr(this.badge, 'aria-expanded', String(open));
  }

  update(state: RunState): void {
    const v = versionChecks(state, this.label, state.phase === 'done');
    const key = v ? `${v.kind}:${v.lines.join('|')}` : '';
    if (key === this.key) return;
    this.key = key;
    setHidden(this.badge, !v);
    if (!v) {
      this.setExpanded(false);
      return;
    }
    this.badge.className = `checks-badge checks-${v.kind}`;
    setIcon(this.badgeIcon, KIND_ICON[v.kind]);
    setText(this.badgeText, v.text);
    setTitle(this.badge, `${v.lines.join('\n')}\n(click for the output)`);
    setAttr(this.badge, 'aria-label', `${this.label}: ${v.text}. Show the check results`);
    renderResults(this.panel, v);
  }
}

function renderResults(panel: HTMLElement, v: VersionChecksView): void {
  const pending = v.lines.slice(v.results.length);
  panel.replaceChildren(
    ...v.results.map((r) => {
      const failed = r.status !== 'passed' && r.status !== 'cancelled';
      return h(
        'div',
        { class: `check-result check-${r.status}` },
        h('div', { class: 'check-head' }, icon(r.status === 'passed' ? 'pass' : failed ? 'error' : 'circle-slash'), h('span', { class: 'check-line', text: checkLine(r) })),
        // A passing check's output is noise next to a failing one's; it is still there, folded.
        r.output.trim()
          ? failed
            ? h('pre', { class: 'check-output', attrs: { tabindex: 0, 'aria-label': `Output of ${r.name} (its end)` }, text: r.output })
            : h('details', { class: 'check-output-fold' }, h('summary', { text: `Output of ${r.name}` }), h('pre', { class: 'check-output', text: r.output }))
          : null,
      );
    }),
    ...pending.map((line) => h('div', { class: 'check-result check-pending' }, h('div', { class: 'check-head' }, icon(v.kind === 'running' ? 'loading~spin' : 'circle-slash'), h('span', { class: 'check-line', text: line })))),
  );
}

/** In an agent's column: its versions whose checks are running before they join the board. */
export class PendingChecksView {
  readonly el = h('ul', { class: 'checks-pending', attrs: { 'aria-label': 'Versions being checked' } });
  private key = '';

  constructor(private readonly agentId: string) {
    setHidden(this.el, true);
  }

  update(state: RunState): void {
    const running = state.phase !== 'done';
    const rows = running ? Object.entries(state.checks).filter(([label, c]) => c.agentId === this.agentId && !state.answers.some((a) => a.label === label)) : [];
    const key = rows.map(([label, c]) => `${label}:${c.results.map((r) => r.status).join(',')}`).join('|');
    if (key === this.key) return;
    this.key = key;
    setHidden(this.el, rows.length === 0);
    this.el.replaceChildren(
      ...rows.map(([label, c]) => {
        const done = c.results.map((r) => `${r.name} ${CHECK_STATUS_WORDS[r.status]}`);
        const left = c.names.filter((n) => !c.results.some((r) => r.name === n));
        const text = `${label}: checking ${left.join(', ') || 'done'}${done.length ? ` (${done.join(', ')})` : ''}…`;
        return h('li', { class: 'checks-pending-row', attrs: { role: 'status' } }, icon('loading~spin'), h('span', { text }));
      }),
    );
  }
}

/** The result area's line: verified, unverified, the gate overruling the votes, or not checked. */
export class VerificationView {
  readonly el = h('p', { class: 'verification' });
  private readonly icon = icon('pass');
  private readonly text = h('span', { class: 'verification-text' });
  private key = '';

  constructor() {
    this.el.append(this.icon, this.text);
    setHidden(this.el, true);
  }

  update(state: RunState): void {
    const w = state.winner;
    const v = w ? verificationInWords(w.verification, w.label) : null;
    const key = v ? `${v.kind}:${v.text}` : '';
    if (key === this.key) return;
    this.key = key;
    setHidden(this.el, !v);
    if (!v) return;
    this.el.className = `verification verification-${v.kind}`;
    setIcon(this.icon, v.kind === 'verified' ? 'verified-filled' : v.kind === 'overruled' ? 'shield' : v.kind === 'unverified' ? 'warning' : 'circle-slash');
    setText(this.text, v.text);
    setClass(this.el, 'attention', v.kind !== 'verified');
  }
}

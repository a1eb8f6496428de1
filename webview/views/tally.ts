// The vote tally: a bar per answer (each agent's latest) with its voters; the winner highlighted; how the winner
// was decided, and the tie-break when one was used.

import type { RunState } from '../../src/protocol/state';
import { tally } from '../derive';
import { h, icon } from '../dom';
import { changeStat, labelTitle } from '../format';

export class TallyView {
  readonly el = h('div', { class: 'tally' });
  private key = '';

  update(state: RunState): void {
    const t = tally(state);
    // Workspace runs: what each answer changed, beside its votes.
    const stats = t.rows.map((r) => {
      const change = state.answers.find((a) => a.label === r.label)?.change;
      return change ? changeStat(change) : null;
    });
    const key = JSON.stringify([t.rows, t.basis, t.tieBreak, t.winnerLabel, t.scale, stats]);
    if (key === this.key) return;
    this.key = key;
    if (t.rows.length === 0) {
      this.el.replaceChildren(h('p', { class: 'muted', text: 'No answers yet.' }));
      return;
    }
    const rows = t.rows.map((r, i) => {
      const fill = h('div', { class: 'tally-fill' });
      // CSSOM (allowed by the CSP), not a style attribute.
      fill.style.width = `${((r.count / t.scale) * 100).toFixed(1)}%`;
      const voters = r.voters.length ? r.voters.map((v) => v.label).join(', ') : 'no votes';
      return h(
        'li',
        { class: `tally-row${r.winner ? ' winner' : ''}`, attrs: { 'aria-label': `${r.label}: ${r.count} vote${r.count === 1 ? '' : 's'}${r.winner ? ', winner' : ''}. Voters: ${voters}` } },
        h('div', { class: 'tally-head' }, r.winner ? icon('star-full', 'winner-star') : null, h('span', { class: 'tally-label', text: r.label, title: labelTitle(r.label) }), h('span', { class: 'tally-agent', text: r.agentId }), h('span', { class: 'tally-count', text: String(r.count) })),
        h('div', { class: 'tally-bar', attrs: { 'aria-hidden': 'true' } }, fill),
        h('div', { class: 'tally-voters', title: r.voters.map((v) => `${v.label}: ${v.reason}`).join('\n'), text: r.voters.length ? `from ${voters}` : 'no votes' }),
        stats[i] ? h('div', { class: 'tally-change' }, icon('diff'), h('span', { text: stats[i] })) : null,
      );
    });
    const notes: HTMLElement[] = [h('p', { class: 'tally-basis muted', text: t.basisText })];
    if (t.tieBreak) {
      const top = Math.max(...t.rows.map((r) => r.count));
      const tied = t.rows.filter((r) => r.count === top).map((r) => r.label);
      notes.push(
        h(
          'p',
          { class: 'tie-break', attrs: { role: 'note' } },
          icon('law'),
          h('span', { text: `Tie between ${tied.join(' and ')} (${top} vote${top === 1 ? '' : 's'} each): broken by agent order, so ${t.winnerLabel} wins.` }),
        ),
      );
    }
    this.el.replaceChildren(h('ul', { class: 'tally-rows', attrs: { 'aria-label': 'Votes per answer' } }, ...rows), ...notes);
  }
}

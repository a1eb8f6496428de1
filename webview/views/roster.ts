// Every agent at a glance when the sidebar is narrow: the agent cards then stack (main.css), and this roster above
// them keeps one compact row per agent (its status, its latest answer and the votes that answer has, or its vote);
// a row brings that agent's card into view. CSS hides it when the columns fit side by side.

import { currentVotes, type AgentExtras, type RunState } from '../../src/protocol/state';
import { agentBadge } from '../derive';
import { APPROVAL_BADGE } from './approval';
import { h, icon, setIcon, setText, setTitle } from '../dom';
import * as fmt from '../format';
import { agentNameParts } from './agent-name';
import { agentStage, notCalledText, type EscalationView } from '../../src/protocol/stage-words';

interface Row {
  el: HTMLButtonElement;
  icon: HTMLElement;
  status: HTMLElement;
  answer: HTMLElement;
  key: string;
}

export class RosterView {
  readonly el: HTMLElement;
  private readonly rows = new Map<string, Row>();

  constructor(state: RunState, onPick: (agentId: string) => void) {
    this.el = h('ul', { class: 'roster', attrs: { 'aria-label': 'Agents at a glance' } });
    for (const a of state.agents) {
      const row: Row = {
        el: h('button', { class: 'roster-row', attrs: { type: 'button' }, on: { click: () => onPick(a.id) } }),
        icon: icon('circle-large-outline'),
        status: h('span', { class: 'roster-status' }),
        answer: h('span', { class: 'roster-answer' }),
        key: '',
      };
      row.el.append(row.icon, ...agentNameParts(a), row.status, row.answer);
      this.rows.set(a.id, row);
      this.el.append(h('li', {}, row.el));
    }
  }

  /**
   * Refreshes the rows of `ids` (all of them after structural events: votes land on other agents' answers);
   * `approving`: the agents a command of which waits for the user's approval.
   */
  update(state: RunState, extras: Record<string, AgentExtras>, clock: number, ids: readonly string[] | 'all', approving: ReadonlySet<string> = new Set(), stages: EscalationView | null = null): void {
    const votes = currentVotes(state);
    for (const a of state.agents) {
      if (ids !== 'all' && !ids.includes(a.id)) continue;
      const row = this.rows.get(a.id);
      if (!row) continue;
      const stage = stages && agentStage(stages, a.id);
      const notCalled = stage && !stage.called ? notCalledText(stage.stage, state.phase === 'done') : undefined;
      const badge = approving.has(a.id) && state.phase !== 'done' ? APPROVAL_BADGE : agentBadge(a, extras[a.id], clock, state.endReason, notCalled);
      const got = a.latestAnswerLabel ? votes.filter((v) => v.targetLabel === a.latestAnswerLabel).length : 0;
      const answer = a.currentVote ? `→ ${a.currentVote.targetLabel}` : a.latestAnswerLabel ? `${a.latestAnswerLabel}${got ? ` · ${got} vote${got === 1 ? '' : 's'}` : ''}` : '';
      const key = `${badge.kind}|${badge.text}|${answer}`;
      if (key === row.key) continue;
      row.key = key;
      setIcon(row.icon, badge.icon);
      row.el.dataset.status = badge.kind;
      setText(row.status, badge.text);
      setText(row.answer, answer);
      setTitle(row.answer, a.currentVote ? `Voted for ${fmt.labelTitle(a.currentVote.targetLabel)}` : a.latestAnswerLabel ? fmt.labelTitle(a.latestAnswerLabel) : '');
      setTitle(row.el, `Show ${fmt.agentName(a)}: ${badge.title}`);
      row.el.setAttribute('aria-label', `${fmt.agentName(a)}, ${badge.text}${answer ? `, ${a.currentVote ? `voted for ${a.currentVote.targetLabel}` : answer}` : ''}. Show its card.`);
    }
  }
}

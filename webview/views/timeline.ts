// The timeline: a compact lane per agent (plus one for the run: rounds and escalation stages) of answers, votes,
// stale votes, updates, restarts, retries and failures, in the order they happened (one grid column per entry, so
// order reads across lanes). Entries are appended as they arrive; the grid is rebuilt only when entries were dropped
// (a long run keeps its first entries and the newest: a marker between them says how many are not kept).

import { TIMELINE_HEAD, type RunState, type TimelineEntry, type TimelineKind, type ViewerExtras } from '../../src/protocol/state';
import { h, icon } from '../dom';
import * as fmt from '../format';

const KIND_ICON: Record<TimelineKind, string> = {
  round: 'debug-step-over',
  stage: 'layers',
  answer: 'comment',
  vote: 'thumbsup',
  stale: 'circle-slash',
  update: 'arrow-swap',
  note: 'note',
  check: 'beaker',
  correction: 'warning',
  restart: 'debug-restart',
  retry: 'sync',
  tools: 'tools',
  failed: 'error',
  winner: 'star-full',
  budget: 'credit-card',
  end: 'debug-stop',
};

const KIND_TEXT: Record<TimelineKind, string> = {
  round: 'round',
  stage: 'stage',
  answer: 'answer',
  vote: 'vote',
  stale: 'stale vote',
  update: 'update',
  note: 'your note',
  check: 'check',
  correction: 'correction',
  restart: 'restart',
  retry: 'retry',
  tools: 'tools problem',
  failed: 'failure',
  winner: 'winner',
  budget: 'budget',
  end: 'end',
};

export class TimelineView {
  readonly el: HTMLElement;
  private readonly grid = h('div', { class: 'timeline-grid', attrs: { role: 'list', 'aria-label': 'Timeline, in order' } });
  private readonly legend: HTMLElement;
  private rows = new Map<string, number>();
  private firstSeq = -1;
  private dropped = 0;
  private count = 0;
  private lanes = 0;
  private readonly scroller: HTMLElement;
  /** Follow the newest entries unless the user scrolled back. */
  private stickToEnd = true;

  constructor() {
    const shown: TimelineKind[] = ['answer', 'vote', 'stale', 'update', 'restart', 'retry', 'failed', 'winner'];
    this.legend = h('div', { class: 'timeline-legend', attrs: { 'aria-hidden': 'true' } }, ...shown.map((k) => h('span', { class: `legend tl-${k}` }, icon(KIND_ICON[k]), h('span', { text: KIND_TEXT[k] }))));
    this.scroller = h('div', { class: 'timeline-scroll', attrs: { tabindex: 0, 'aria-label': 'Timeline (scroll sideways)' } }, this.grid);
    this.scroller.addEventListener('scroll', () => {
      this.stickToEnd = this.scroller.scrollLeft + this.scroller.clientWidth >= this.scroller.scrollWidth - 24;
    });
    this.el = h('div', { class: 'timeline' }, this.scroller, this.legend);
  }

  update(state: RunState, extras: ViewerExtras): void {
    const entries = extras.timeline;
    const first = entries[0]?.seq ?? -1;
    if (first !== this.firstSeq || extras.timelineDropped !== this.dropped || entries.length < this.count || this.lanes !== state.agents.length) this.rebuild(state, extras.timelineDropped);
    this.firstSeq = first;
    this.dropped = extras.timelineDropped;
    const added = entries.length > this.count;
    // One column for the lane heads, one for the marker of the dropped entries (after the first TIMELINE_HEAD).
    for (let i = this.count; i < entries.length; i++) this.add(entries[i], i + 2 + (this.dropped && i >= TIMELINE_HEAD ? 1 : 0), state);
    this.count = entries.length;
    if (added && this.stickToEnd) requestAnimationFrame(() => (this.scroller.scrollLeft = this.scroller.scrollWidth));
  }

  private rebuild(state: RunState, dropped: number): void {
    this.grid.replaceChildren();
    this.rows = new Map([['', 1]]);
    this.count = 0;
    this.lanes = state.agents.length;
    const laneHead = (text: string, title: string, row: number) => {
      const el = h('div', { class: 'lane-head', title, text, attrs: { 'aria-hidden': 'true' } });
      el.style.gridRow = String(row);
      this.grid.append(el);
    };
    laneHead('run', 'Rounds and the run', 1);
    state.agents.forEach((a, i) => {
      this.rows.set(a.id, i + 2);
      laneHead(a.id, fmt.agentName(a), i + 2);
    });
    if (dropped) {
      const text = `${fmt.count(dropped, 'event')} not kept`;
      const gap = h('div', { class: 'tl-gap', title: `${text}: the run's first events and its newest are kept`, attrs: { role: 'listitem', 'aria-label': text } }, h('span', { text: `… ${dropped} …` }));
      gap.style.gridRow = `1 / span ${state.agents.length + 1}`;
      gap.style.gridColumn = String(TIMELINE_HEAD + 2);
      this.grid.append(gap);
    }
  }

  private add(e: TimelineEntry, column: number, state: RunState): void {
    const row = this.rows.get(e.agentId ?? '') ?? 1;
    const label = e.kind === 'answer' ? e.label.replace(/^agent/, '') : e.kind === 'round' || e.kind === 'stage' || e.kind === 'vote' ? e.label : '';
    const marker = h(
      'div',
      { class: `tl tl-${e.kind}`, title: `${fmt.duration(e.t)} · ${e.detail}`, attrs: { role: 'listitem', 'aria-label': `${fmt.duration(e.t)}: ${e.detail}` } },
      e.kind === 'round' ? null : icon(KIND_ICON[e.kind]),
      label ? h('span', { class: 'tl-text', text: label }) : null,
    );
    marker.style.gridRow = String(row);
    marker.style.gridColumn = String(column);
    if (e.kind === 'winner' && state.winner) marker.classList.add('tl-win');
    this.grid.append(marker);
  }
}

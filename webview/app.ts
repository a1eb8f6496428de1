// The vote viewer page: a projection of the host's RunState. It takes one snapshot, then applies numbered deltas
// with the engine's own reducer (asking for a snapshot when it finds a gap), and repaints (when and how much per
// frame: scheduler.ts) only the parts the events touched: the header, the columns of the agents concerned, and (on
// structural events: answers, votes, failures, the winner) the critiques, tally, timeline and result. The patches
// of a workspace run's answer versions come on request (diff-store.ts).

import { parseHostMessage, type HistoryEntry, type HostMessageOf, type PendingApproval, type PendingRun, type Setup, type ShownRun } from '../src/protocol/messages';
import { currentVotes, type RunEvent, type RunView } from '../src/protocol/state';
import { applyDelta, DeltaCursor } from '../src/protocol/sync';
import { runClock } from './derive';
import { DiffStore } from './diff-store';
import { h, section, setHidden, setText } from './dom';
import type { Host } from './bridge';
import { FrameScheduler, type Frame } from './scheduler';
import { AgentsView } from './views/agents';
import { HeaderView } from './views/header';
import { pendingCard } from './views/pending';
import { ResultView } from './views/result';
import { emptyState, runsList } from './views/runs';
import { TallyView } from './views/tally';
import { TimelineView } from './views/timeline';

/** Events after which answers, critiques, the tally, the timeline or the result may change. */
const STRUCTURAL = new Set<RunEvent['type']>([
  'round_started',
  'agent_updated',
  'correction',
  'retry',
  'turn_failed',
  'answer_added',
  'checks_started',
  'check_finished',
  'vote_cast',
  'vote_invalidated',
  'agent_failed',
  'winner_selected',
  'final_started',
  'final_answer',
  'budget_reached',
  'run_ended',
  // The user's notes show in the timeline and the agents' columns.
  'note_added',
  'note_delivered',
]);

function agentOf(event: RunEvent): string | null {
  if ('agentId' in event) return event.agentId;
  if (event.type === 'vote_cast') return event.vote.voterId;
  if (event.type === 'vote_invalidated') return event.voterId;
  return null;
}

interface Page {
  header: HeaderView;
  agents: AgentsView;
  tally: TallyView;
  timeline: TimelineView;
  result: ResultView;
  resultSection: HTMLElement;
  agentsBadge: HTMLElement;
  tallyBadge: HTMLElement;
}

export class App {
  private shown: Omit<ShownRun, 'view'> | null = null;
  private view: RunView | null = null;
  private history: HistoryEntry[] = [];
  private setup: Setup | null = null;
  /** Every command approval waiting in the window (the host's list); the shown run's show in their columns. */
  private approvals: PendingApproval[] = [];
  private follow = true;
  private readonly cursor = new DeltaCursor();
  private clockBase = { clock: 0, receivedAt: 0 };
  private page: Page | null = null;
  private readonly content = h('div', { class: 'content' });
  /** The run about to start that waits for the user's answer (layoutPending says where), until it has started. */
  private readonly pendingEl = h('div', { class: 'pending' });
  private pending: PendingRun | null = null;
  private readonly runsBody = h('div');
  private readonly runsSection: HTMLDetailsElement;
  private readonly runsBadge: HTMLElement;
  private runsKey = '';
  private readonly notice = h('div', { class: 'notice', attrs: { role: 'status', 'aria-live': 'polite' } });
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  /** The shown run's patches; a new snapshot starts afresh (the host forgets what it sent, too). */
  private diffs: DiffStore | null = null;
  /** Counters for tests: snapshots and deltas applied, resyncs asked for. */
  readonly stats = { snapshots: 0, deltas: 0, resyncs: 0, dropped: 0, renders: 0, lastSnapshotMs: 0, maxRenderMs: 0, maxDeltaMs: 0 };
  private readonly frames = new FrameScheduler((frame) => this.render(frame), this.stats);

  constructor(private readonly host: Host, private readonly root: HTMLElement) {
    const runs = section('runs-section', 'Runs', !host.ui.closed.includes('runs'), (open) => this.sectionToggled('runs', open), this.runsBody);
    this.runsSection = runs.el;
    this.runsBadge = runs.badge;
    root.replaceChildren(this.pendingEl, this.content, this.runsSection, this.notice);
    setHidden(this.notice, true);
    this.showPending(null);
    root.addEventListener('click', (e) => this.onClick(e));
    root.addEventListener('auxclick', (e) => {
      if ((e.target as Element | null)?.closest?.('a')) e.preventDefault();
    });
    setInterval(() => this.tick(), 1000);
  }

  receive(raw: unknown): void {
    const parsed = parseHostMessage(raw);
    if (!parsed.ok) {
      this.stats.dropped++;
      this.host.post({ type: 'log', level: 'warn', message: `dropped a message from the host: ${parsed.error}`.slice(0, 3900) });
      return;
    }
    const m = parsed.message;
    switch (m.type) {
      case 'snapshot':
        return this.snapshot(m);
      case 'delta':
        return this.delta(m);
      case 'head':
        if (this.cursor.checkHead(m.runId, m.seq) === 'gap') {
          this.stats.resyncs++;
          this.host.post({ type: 'resync', runId: m.runId, lastSeq: this.cursor.lastSeq });
        }
        return;
      case 'history':
        this.history = m.runs;
        this.renderRuns();
        if (this.page) this.frames.schedule();
        else this.renderEmpty();
        return;
      case 'pending':
        return this.showPending(m.pending);
      case 'setup':
        this.setup = m.setup;
        if (!this.view) this.renderEmpty();
        return;
      case 'apply':
        if (!this.shown || this.shown.id !== m.runId) return;
        this.shown = { ...this.shown, apply: m.apply };
        this.frames.mark(null, true);
        this.frames.schedule();
        return;
      case 'notice':
        return this.showNotice(m.text, m.level);
      case 'noteRefused':
        if (this.shown?.id === m.runId && this.page) {
          if (m.agentId === undefined) this.page.header.noteFailed();
          else this.page.agents.noteFailed(m.agentId);
        }
        return this.showNotice(m.text, 'warning');
      case 'escalateRefused':
        if (this.shown?.id === m.runId) this.page?.header.escalateRefused(m.text);
        return;
      case 'diff':
        this.diffs?.receive(m);
        return;
      case 'approvals':
        this.approvals = m.approvals;
        this.layoutPending();
        return this.showApprovals();
    }
  }

  private showPending(pending: PendingRun | null): void {
    this.pending = pending;
    this.pendingEl.replaceChildren(...(pending ? [pendingCard(this.host, pending)] : []));
    setHidden(this.pendingEl, !pending);
    this.layoutPending();
  }

  /**
   * The coming run's card takes the page's place only when the page follows the latest run and that run is over
   * with nothing waiting on the user; otherwise it sits above a live run, its approvals and its buttons.
   */
  private layoutPending(): void {
    const shownId = this.shown?.id;
    const busy = (this.view !== null && this.view.state.phase !== 'done') || this.approvals.some((a) => a.runId === shownId);
    setHidden(this.content, Boolean(this.pending) && this.follow && !busy);
  }

  private sectionToggled(key: string, open: boolean): void {
    const closed = new Set(this.host.ui.closed);
    if (open) closed.delete(key);
    else closed.add(key);
    this.host.saveUi({ closed: [...closed] });
  }

  private onClick(e: MouseEvent): void {
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a) return;
    // Never navigate the webview; https links open through the host (which checks again).
    e.preventDefault();
    const href = a.getAttribute('href');
    if (href) this.host.post({ type: 'openLink', href });
  }

  private showNotice(text: string, level: 'info' | 'warning' | 'error'): void {
    setText(this.notice, text);
    this.notice.className = `notice notice-${level}`;
    setHidden(this.notice, false);
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => setHidden(this.notice, true), 5000);
  }

  private snapshot(m: HostMessageOf<'snapshot'>): void {
    const started = performance.now();
    this.stats.snapshots++;
    this.history = m.history;
    this.setup = m.setup;
    this.follow = m.follow;
    this.host.saveUi({ runId: m.run?.id ?? null, follow: m.follow });
    this.disposePage();
    if (m.run) {
      const { view, ...shown } = m.run;
      this.view = view;
      this.shown = shown;
      this.cursor.reset(shown.id, view.state.lastSeq);
      this.clockBase = { clock: Math.max(shown.clock, view.state.elapsedMs), receivedAt: performance.now() };
      this.diffs = new DiffStore(this.host, shown.id);
      this.buildPage();
    } else {
      this.view = null;
      this.shown = null;
      this.diffs = null;
      this.cursor.reset(null, 0);
      this.renderEmpty();
    }
    this.showPending(m.pending);
    this.renderRuns();
    this.root.setAttribute('aria-busy', 'false');
    this.stats.lastSnapshotMs = performance.now() - started;
  }

  private delta(m: HostMessageOf<'delta'>): void {
    const verdict = this.cursor.check(m);
    if (verdict === 'gap') {
      this.stats.resyncs++;
      this.host.post({ type: 'resync', runId: m.runId, lastSeq: this.cursor.lastSeq });
      return;
    }
    if (verdict !== 'apply' || !this.view || !this.page) return;
    const started = performance.now();
    this.stats.deltas++;
    const page = this.page;
    const state = this.view.state;
    let rebuild = false;
    let ended = false;
    applyDelta(this.view, m, (event) => {
      if (event.type === 'run_started') rebuild = true;
      if (event.type === 'run_ended') ended = true;
      page.agents.streamEvent(event, state);
      this.frames.mark(agentOf(event), STRUCTURAL.has(event.type));
    });
    this.cursor.advance(m);
    // A run that ends under the checks card gives the card its place.
    if (ended && this.pending) this.layoutPending();
    // The host's clock, or the newest event's time if that is later (the two share a time base in practice).
    this.clockBase = { clock: Math.max(m.clock, this.view.state.elapsedMs), receivedAt: performance.now() };
    if (rebuild) {
      this.disposePage();
      this.buildPage();
      return;
    }
    this.frames.schedule();
    this.stats.maxDeltaMs = Math.max(this.stats.maxDeltaMs, performance.now() - started);
  }

  private clock(): number {
    return this.view ? runClock(this.view.state, this.clockBase, performance.now()) : 0;
  }

  /** One frame's repaint (false: no page to paint). */
  private render(frame: Frame): boolean {
    const page = this.page;
    const view = this.view;
    if (!page || !view || !this.shown) return false;
    const { state, extras } = view;
    const clock = this.clock();
    page.header.update(this.shown, state, clock, this.history, this.follow);
    if (frame.structural) {
      page.agents.updateStructure(state, extras.agents, clock);
      page.tally.update(state);
      page.timeline.update(state, extras);
      const showResult = Boolean(state.finalAnswer) || state.phase === 'done' || state.phase === 'presenting';
      setHidden(page.resultSection, !showResult);
      if (showResult) page.result.update(state, this.shown.apply);
      const live = state.agents.filter((a) => a.status !== 'failed').length;
      setText(page.agentsBadge, live === state.agents.length ? String(live) : `${live}/${state.agents.length}`);
      page.agentsBadge.hidden = false;
      const votes = currentVotes(state).length;
      setText(page.tallyBadge, String(votes));
      page.tallyBadge.hidden = votes === 0;
      this.renderRuns();
    }
    frame.columns(
      state.agents.map((a) => a.id),
      (id) => page.agents.update(state, extras.agents, clock, [id]),
    );
    return true;
  }

  private tick(): void {
    if (!this.page || !this.view || !this.shown || this.view.state.phase === 'done') return;
    const clock = this.clock();
    this.page.header.updateClock(this.view.state, clock);
    // Badges with a live countdown ("retrying in 3 s").
    if (this.view.state.agents.some((a) => a.retry)) this.page.agents.update(this.view.state, this.view.extras.agents, clock, 'all');
  }

  private buildPage(): void {
    const view = this.view!;
    const shown = this.shown!;
    const diffs = this.diffs!;
    const ctx = { host: this.host, runId: shown.id, readOnly: shown.readOnly, diffs, stages: shown.stages };
    const header = new HeaderView(this.host, shown.id, shown.title, shown.task);
    const agents = new AgentsView(ctx, view.state);
    const tally = new TallyView();
    const timeline = new TimelineView();
    const result = new ResultView(this.host, shown.id, diffs);
    const open = (key: string) => !this.host.ui.closed.includes(key);
    const toggle = (key: string) => (o: boolean) => this.sectionToggled(key, o);
    const resultSection = section('result-section', 'Result', open('result'), toggle('result'), result.el);
    const agentsSection = section('agents-section', 'Agents', open('agents'), toggle('agents'), agents.el);
    const tallySection = section('tally-section', 'Votes', open('votes'), toggle('votes'), tally.el);
    const timelineSection = section('timeline-section', 'Timeline', open('timeline'), toggle('timeline'), timeline.el);
    this.content.replaceChildren(header.el, resultSection.el, agentsSection.el, tallySection.el, timelineSection.el);
    this.page = { header, agents, tally, timeline, result, resultSection: resultSection.el, agentsBadge: agentsSection.badge, tallyBadge: tallySection.badge };
    this.showApprovals();
    this.frames.paintAll();
  }

  private showApprovals(): void {
    if (!this.page || !this.shown || !this.view) return;
    const runId = this.shown.id;
    this.page.agents.setApprovals(this.approvals.filter((a) => a.runId === runId));
    // The columns' badges read "waiting for approval" while one waits.
    for (const a of this.view.state.agents) this.frames.mark(a.id, false);
    this.frames.schedule();
  }

  private disposePage(): void {
    if (!this.page) return;
    this.page.agents.dispose();
    this.page.result.dispose();
    this.page = null;
  }

  private renderEmpty(): void {
    this.content.replaceChildren(emptyState(this.host, this.setup, this.history.length > 0));
  }

  private renderRuns(): void {
    // The shown run's entry follows its live state (the host sends the list only when a run starts or ends).
    const view = this.view;
    const shownId = this.shown?.id ?? null;
    const runs = this.history.map((e) => {
      if (!view || e.id !== shownId) return e;
      const u = view.state.usage;
      return { ...e, costUsd: u.costUsd, unpricedCalls: u.unpricedCalls, totalTokens: u.inputTokens + u.outputTokens, endReason: view.state.endReason, winnerLabel: view.state.winner?.label ?? null, running: e.running && view.state.phase !== 'done' };
    });
    const key = `${shownId}\u0000${JSON.stringify(runs)}`;
    if (key === this.runsKey) return;
    this.runsKey = key;
    this.runsBody.replaceChildren(runsList(this.host, runs, shownId));
    setText(this.runsBadge, String(this.history.length));
    this.runsBadge.hidden = this.history.length === 0;
  }
}

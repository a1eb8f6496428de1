// The run header: phase, elapsed time, tokens and cost, Answer now, Cancel, New run, the escalation stages with
// Escalate now (stages.ts), the task in the user's words
// (collapsed; what the agents were given, when it says more, inside), the note box to every agent (notes.ts), the
// budget bars, and the banners for a read-only past run or a newer run in progress.

import type { HistoryEntry, ShownRun } from '../../src/protocol/messages';
import type { RunState } from '../../src/protocol/state';
import { button, h, icon, iconButton, setAttr, setHidden, setIcon, setText, setTitle } from '../dom';
import * as fmt from '../format';
import type { Host } from '../bridge';
import { plainText } from '../markdown';
import { AnswerNowButton, NoteBox } from './notes';
import { StageBar } from './stages';

interface Meter {
  row: HTMLElement;
  bar: HTMLElement;
  fill: HTMLElement;
  text: HTMLElement;
}

/** The newest run started after `shownId` (the runs list is newest first), if any. */
function newerRun(history: HistoryEntry[], shownId: string): HistoryEntry | undefined {
  const shown = history.find((e) => e.id === shownId);
  if (!shown) return undefined;
  return history.find((e) => e.id !== shownId && e.startedAt > shown.startedAt);
}

export class HeaderView {
  readonly el: HTMLElement;
  private readonly phaseIcon = icon('circle-large-outline');
  private readonly phaseText = h('span');
  private readonly elapsed = h('span', { class: 'elapsed', attrs: { 'aria-label': 'Elapsed time' } });
  private readonly usage = h('span', { class: 'usage' });
  private readonly cancel: HTMLElement;
  private readonly taskTitle = h('span', { class: 'task-title' });
  private readonly taskText = h('div', { class: 'task-text' });
  private readonly promptText = h('div', { class: 'task-text' });
  private readonly prompt: HTMLDetailsElement;
  private readonly budget = h('div', { class: 'budget', attrs: { role: 'group', 'aria-label': 'Budget' } });
  private readonly meters = new Map<string, Meter>();
  private readonly budgetNote = h('div', { class: 'budget-note', attrs: { role: 'status' } });
  private readonly readOnly: HTMLElement;
  private readonly newer: HTMLElement;
  private readonly newerText = h('span');
  /** Which run this is: when it started, and whether the viewer follows the latest. */
  private readonly when = h('div', { class: 'run-when' });
  private questionShown: string | null = null;
  private usageKey = '';
  private budgetReachedShown: RunState['budgetReached'] | undefined = undefined;
  private readonly phaseChip: HTMLElement;
  private readonly note: NoteBox;
  private readonly answerNow: AnswerNowButton;
  private readonly stages: StageBar;

  /** `task`: what the user asked, in their words (the engine's task, `state.question`, may wrap it). */
  constructor(private readonly host: Host, private readonly runId: string, title: string, private readonly task: string) {
    this.cancel = button('Cancel', {
      icon: 'debug-stop',
      secondary: true,
      label: 'Cancel the run',
      title: 'Stop every agent; no answer is chosen (Answer now takes the best so far)',
      onClick: () => this.host.post({ type: 'cancelRun', runId: this.runId }),
    });
    this.cancel.classList.add('cancel-run');
    this.answerNow = new AnswerNowButton(host, runId);
    this.note = new NoteBox(host, runId);
    this.stages = new StageBar(host, runId);
    this.phaseChip = h('span', { class: 'phase', attrs: { role: 'status', 'aria-label': 'Phase' } }, this.phaseIcon, this.phaseText);
    const home = iconButton('add', 'New run', () => this.host.post({ type: 'home' }));
    home.title = 'New run: how to start one, and the team that will run';
    const tools = h(
      'span',
      { class: 'header-tools' },
      home,
      host.surface === 'view' ? iconButton('link-external', 'Open in an editor tab', () => this.host.post({ type: 'openPanel', runId: this.runId })) : null,
      this.answerNow.el,
      this.cancel,
    );
    this.prompt = h('details', { class: 'task-prompt' }, h('summary', { class: 'sub-label', text: 'What the agents were given' }), this.promptText) as HTMLDetailsElement;
    if (task) this.taskText.replaceChildren(plainText(task));
    this.readOnly = h(
      'div',
      { class: 'banner readonly', attrs: { role: 'note' } },
      icon('history'),
      h('span', { text: 'A past run, read-only.' }),
      h('button', { class: 'link-btn', text: 'Show the latest run', attrs: { type: 'button' }, on: { click: () => this.host.post({ type: 'select', runId: null }) } }),
    );
    this.newer = h(
      'div',
      { class: 'banner newer', attrs: { role: 'status' } },
      icon('play-circle'),
      this.newerText,
      h('button', { class: 'link-btn', text: 'Show the latest run', attrs: { type: 'button' }, on: { click: () => this.host.post({ type: 'select', runId: null }) } }),
    );
    this.el = h(
      'header',
      { class: 'run-header' },
      h('div', { class: 'run-title', title }, h('span', { class: 'run-title-text', text: title })),
      this.when,
      h('div', { class: 'header-bar' }, this.phaseChip, h('span', { class: 'metric' }, icon('watch'), this.elapsed), h('span', { class: 'metric' }, icon('pulse'), this.usage), tools),
      this.stages.el,
      h('details', { class: 'task' }, h('summary', { class: 'task-summary' }, h('span', { class: 'task-label', text: 'Task' }), this.taskTitle), this.taskText, this.prompt),
      this.note.el,
      this.budget,
      this.readOnly,
      this.newer,
    );
  }

  update(shown: Omit<ShownRun, 'view'>, state: RunState, clockMs: number, history: HistoryEntry[], follow: boolean): void {
    const running = state.phase !== 'done';
    const outcome = running ? 'running' : fmt.outcomeOf({ running, endReason: state.endReason, hasWinner: state.finalAnswer !== null || state.winner !== null });
    setIcon(this.phaseIcon, outcome === 'running' ? 'loading~spin' : fmt.OUTCOME_ICON[outcome]);
    setText(this.phaseText, outcome === 'running' ? fmt.phase(state.phase, state.round) : fmt.outcomeText(outcome, fmt.endLabel(state)));
    this.phaseChip.dataset.phase = state.phase;
    this.phaseChip.dataset.outcome = outcome;
    this.updateClock(state, clockMs);
    const u = state.usage;
    const usageKey = `${u.calls}:${u.inputTokens}:${u.outputTokens}:${u.costUsd}:${u.unpricedCalls}`;
    if (usageKey !== this.usageKey) {
      this.usageKey = usageKey;
      setText(this.usage, fmt.usageLine(u));
      setTitle(this.usage, fmt.usageTitle(u));
      this.updateBudget(state);
    }
    setHidden(this.cancel, !running || shown.readOnly);
    this.answerNow.update(state, shown.readOnly);
    this.stages.update(shown, state);
    this.note.update(state, shown.readOnly);
    // Without the user's words (a run from an older session), the engine's task is all there is.
    const task = this.task || state.question;
    setText(this.taskTitle, fmt.firstLine(task, 200));
    if (this.questionShown !== state.question) {
      this.questionShown = state.question;
      if (!this.task) this.taskText.replaceChildren(plainText(state.question));
      this.promptText.replaceChildren(plainText(state.question));
      setHidden(this.prompt, state.question.trim() === task.trim());
    }
    if (state.budgetReached !== this.budgetReachedShown) {
      this.budgetReachedShown = state.budgetReached;
      this.updateBudget(state);
    }
    setHidden(this.readOnly, !shown.readOnly);
    // Not following the latest (a run picked in the list, or the editor tab opened on one): a newer run is offered.
    const newer = follow || shown.readOnly ? undefined : newerRun(history, shown.id);
    setHidden(this.newer, !newer);
    if (newer) setText(this.newerText, `${newer.running ? 'A newer run is in progress' : 'A newer run finished'}: ${fmt.firstLine(newer.title, 60)}.`);
    const entry = history.find((e) => e.id === shown.id);
    setText(this.when, entry ? `Started ${fmt.dateTime(entry.startedAt)}${follow ? ' · the latest run' : ''}` : '');
  }

  /** No stage was called (the host says why). */
  escalateRefused(text: string): void {
    this.stages.refused(text);
  }

  /** The note to every agent was not sent (the host says why). */
  noteFailed(): void {
    this.note.failed();
  }

  updateClock(state: RunState, clockMs: number): void {
    setText(this.elapsed, fmt.duration(clockMs));
    setTitle(this.elapsed, state.phase === 'done' ? `Took ${fmt.duration(state.elapsedMs)}` : 'Elapsed');
  }

  private meter(key: string, label: string): Meter {
    let m = this.meters.get(key);
    if (!m) {
      const fill = h('div', { class: 'meter-fill' });
      const bar = h('div', { class: 'meter', attrs: { role: 'progressbar', 'aria-label': `${label} budget`, 'aria-valuemin': 0, 'aria-valuemax': 100 } }, fill);
      const text = h('span', { class: 'meter-text' });
      const row = h('div', { class: 'meter-row' }, h('span', { class: 'meter-label', text: label }), bar, text);
      m = { row, bar, fill, text };
      this.meters.set(key, m);
      this.budget.append(row);
    }
    return m;
  }

  private updateBudget(state: RunState): void {
    const b = state.budget;
    const u = state.usage;
    setHidden(this.budget, !b || (b.maxCostUsd === undefined && b.maxTotalTokens === undefined && b.maxCalls === undefined));
    if (!b) return;
    const reached = state.budgetReached;
    const set = (key: 'max_cost_usd' | 'max_total_tokens' | 'max_calls', label: string, used: number, max: number | undefined, text: (used: number, max: number) => string) => {
      if (max === undefined) return;
      const m = this.meter(key, label);
      const pct = max > 0 ? Math.min(100, (used / max) * 100) : 100;
      // CSSOM, not a style attribute: allowed by the CSP.
      m.fill.style.width = `${pct.toFixed(1)}%`;
      setAttr(m.bar, 'aria-valuenow', Math.round(pct));
      setAttr(m.bar, 'aria-valuetext', text(used, max));
      const hit = reached?.limit === key;
      m.row.classList.toggle('reached', hit);
      m.row.classList.toggle('high', !hit && pct >= 80);
      setText(m.text, text(used, max));
    };
    set('max_cost_usd', 'Cost', u.costUsd, b.maxCostUsd, (x, m) => `${fmt.costOf(x, u.unpricedCalls, u.calls)} / ${fmt.usd(m)}`);
    set('max_total_tokens', 'Tokens', u.inputTokens + u.outputTokens, b.maxTotalTokens, (x, m) => `${fmt.tokens(x)} / ${fmt.tokens(m)}`);
    set('max_calls', 'Calls', u.calls, b.maxCalls, (x, m) => `${x} / ${m}`);
    const notes: string[] = [];
    if (reached) notes.push(`Budget reached (${reached.limit.replace(/_/g, ' ')}): no new model calls were started.`);
    if (b.maxCostUsd !== undefined && u.unpricedCalls) notes.push(`${fmt.count(u.unpricedCalls, 'call has', 'calls have')} no known price and ${u.unpricedCalls === 1 ? 'is' : 'are'} not in the cost.`);
    setText(this.budgetNote, notes.join(' '));
    setHidden(this.budgetNote, notes.length === 0);
    if (!this.budgetNote.parentElement) this.budget.append(this.budgetNote);
  }
}

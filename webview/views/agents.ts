// One column per agent: name, model, status badge, tokens and cost, Cancel; the live stream tail (markdown, reasoning
// muted and collapsible), tool calls as compact rows, and its answer versions with the critiques (vote reasons)
// each received, the latest expanded. Columns scroll horizontally and collapse to a narrow strip; in a narrow
// sidebar they stack, under a roster of every agent (roster.ts).

import type { RunEvent } from '../../src/protocol/state';
import { STREAM_TAIL_CHARS, type AgentExtras, type AgentState, type AnswerState, type RunState, type VoteState } from '../../src/protocol/state';
import { agentBadge, critiquesOf } from '../derive';
import type { DiffStore } from '../diff-store';
import { h, icon, iconButton, setAttr, setClass, setHidden, setIcon, setText, setTitle } from '../dom';
import * as fmt from '../format';
import type { Host } from '../bridge';
import { plainText, renderInto } from '../markdown';
import { StreamView } from '../stream';
import { ChangesView } from './changes';
import { AnswerChecksView, PendingChecksView } from './checks';
import { agentNameParts } from './agent-name';
import { AgentNotesView } from './notes';
import { RosterView } from './roster';
import { failureInWords } from '../../src/protocol/failure-words';
import type { PendingApproval } from '../../src/protocol/messages';
import { APPROVAL_BADGE, ApprovalView } from './approval';
import { agentStage, escalationOf, joinedText, notCalledText } from '../../src/protocol/stage-words';

export interface ColumnContext {
  host: Host;
  runId: string;
  readOnly: boolean;
  /** The shown run's patches (workspace runs), shared by every view of its answer versions. */
  diffs: DiffStore;
  /** Runs with escalation stages: the plan (ShownRun.stages). */
  stages?: string[][];
}

/** Where an agent stands in the run's stages (null: a run without stages). */
type StageInfo = ReturnType<typeof agentStage>;

function who(state: RunState, agentId: string): string {
  const a = state.agents.find((x) => x.id === agentId);
  return a ? fmt.agentName(a) : agentId;
}

class AnswerView {
  readonly el: HTMLDetailsElement;
  private readonly body = h('div', { class: 'answer-body md' });
  private readonly votes = h('vscode-badge', { class: 'answer-votes' });
  private readonly staleCount = h('span', { class: 'answer-stale' });
  private readonly star = icon('star-full', 'winner-star');
  private readonly critiques = h('ul', { class: 'critiques', attrs: { 'aria-label': 'Critiques' } });
  private readonly critiquesWrap: HTMLElement;
  private readonly changes: ChangesView | null;
  private readonly checks: AnswerChecksView;
  private rendered = false;
  private cancelRender: (() => void) | null = null;
  /** The user opened or closed it: new answers no longer fold it. */
  touched = false;
  private critiqueKey = '';

  constructor(readonly answer: AnswerState, open: boolean, diffs: DiffStore) {
    this.critiquesWrap = h('div', { class: 'critiques-wrap' }, h('div', { class: 'sub-label', text: 'Critiques' }), this.critiques);
    setHidden(this.critiquesWrap, true);
    setHidden(this.star, true);
    const change = answer.change;
    this.changes = change ? new ChangesView(diffs, answer.label, change) : null;
    // Folded, a version still says how many files it changed.
    const n = change?.files.length ?? 0;
    const files = change && n ? h('span', { class: 'answer-files', title: fmt.changeStat(change) }, icon('diff'), h('span', { text: `${n} file${n === 1 ? '' : 's'}` })) : null;
    this.checks = new AnswerChecksView(answer.label, () => this.setOpen(true));
    this.el = h(
      'details',
      { class: 'answer' },
      h('summary', { class: 'answer-summary' }, h('span', { class: 'answer-label', text: answer.label, title: fmt.labelTitle(answer.label) }), this.star, files, this.checks.badge, h('span', { class: 'answer-time', text: fmt.duration(answer.t) }), this.staleCount, this.votes),
      this.checks.panel,
      this.changes?.el,
      this.body,
      this.critiquesWrap,
    ) as HTMLDetailsElement;
    this.el.dataset.label = answer.label;
    this.el.addEventListener('toggle', () => {
      if (this.el.open) this.renderBody();
    });
    this.el.querySelector('summary')!.addEventListener('click', () => (this.touched = true));
    this.setOpen(open);
  }

  setOpen(open: boolean): void {
    if (this.el.open !== open) this.el.open = open;
    if (open) this.renderBody();
  }

  private renderBody(): void {
    if (this.rendered) return;
    this.rendered = true;
    this.cancelRender = renderInto(this.body, this.answer.content);
  }

  update(state: RunState, critiques: VoteState[]): void {
    const current = critiques.filter((v) => !v.stale).length;
    setText(this.votes, current ? `${current} vote${current === 1 ? '' : 's'}` : '');
    setHidden(this.votes, current === 0);
    const stale = critiques.length - current;
    setText(this.staleCount, stale ? `${stale} stale` : '');
    setHidden(this.staleCount, stale === 0);
    this.staleCount.title = stale ? `${fmt.count(stale, 'vote no longer counts', 'votes no longer count')}: newer answers arrived after ${stale === 1 ? 'it was' : 'they were'} cast` : '';
    const winner = state.winner?.label === this.answer.label;
    setHidden(this.star, !winner);
    setClass(this.el, 'winner', winner);
    this.checks.update(state);
    const key = critiques.map((v) => `${v.voterId}:${v.t}:${v.stale ? 1 : 0}`).join('|');
    if (key === this.critiqueKey) return;
    this.critiqueKey = key;
    setHidden(this.critiquesWrap, critiques.length === 0);
    this.critiques.replaceChildren(
      ...critiques.map((v) =>
        h(
          'li',
          { class: `critique${v.stale ? ' stale' : ''}`, attrs: { 'aria-label': `${who(state, v.voterId)} voted${v.stale ? ' (no longer counts)' : ''}: ${v.reason}` } },
          h('span', { class: 'critique-head' }, icon(v.stale ? 'circle-slash' : 'thumbsup'), h('span', { class: 'critique-voter', text: who(state, v.voterId) })),
          h(v.stale ? 's' : 'span', { class: 'critique-reason' }, plainText(v.reason || '(no reason given)')),
          v.stale ? h('span', { class: 'stale-why', text: `No longer counts: ${v.staleReason ?? 'newer answers arrived'}` }) : null,
        ),
      ),
    );
  }

  dispose(): void {
    this.cancelRender?.();
    this.changes?.dispose();
  }
}

class AgentColumn {
  readonly el: HTMLElement;
  private readonly badge: HTMLElement;
  private readonly badgeIcon = icon('circle-large-outline');
  private readonly badgeText = h('span', { class: 'badge-text' });
  private readonly usage = h('div', { class: 'agent-usage' });
  private readonly model: HTMLElement;
  private toolsShown = '';
  private readonly error = h('div', { class: 'agent-error', attrs: { role: 'alert' } });
  /** Why its escalation stage called it ("joined in stage 2: …"). */
  private readonly stageNote = h('div', { class: 'agent-stage' });
  private readonly ownVote = h('div', { class: 'own-vote' });
  private readonly cancel: HTMLButtonElement;
  private readonly collapse: HTMLButtonElement;
  private readonly text = new StreamView('stream md');
  private readonly reasoning = new StreamView('stream md reasoning-text');
  private readonly reasoningWrap: HTMLDetailsElement;
  private readonly reasoningSize = h('span', { class: 'sub-meta' });
  private readonly reasoningPreview = h('div', { class: 'reasoning-preview', attrs: { 'aria-hidden': 'true' } });
  private readonly outputWrap: HTMLElement;
  private readonly outputLabel = h('span', { text: 'Live output' });
  private readonly tools = h('ul', { class: 'tools', attrs: { 'aria-label': 'Tool calls' } });
  private readonly toolsWrap: HTMLElement;
  private toolsKey = '';
  private readonly answersEl = h('div', { class: 'answers' });
  private readonly answers = new Map<string, AnswerView>();
  private readonly pendingChecks: PendingChecksView;
  private readonly notes: AgentNotesView;
  readonly approval: ApprovalView;
  private lastStatus = '';
  private errorShown = '';
  private usageKey = '';

  constructor(private readonly ctx: ColumnContext, readonly agent: AgentState, collapsed: boolean, onCollapse: (agentId: string, collapsed: boolean) => void) {
    const name = fmt.agentName(agent);
    this.badge = h('span', { class: 'badge' }, this.badgeIcon, this.badgeText);
    this.model = h('div', { class: 'agent-model', title: `${agent.provider} · ${agent.model}`, text: `${agent.model} · ${agent.provider}` });
    this.cancel = iconButton('debug-stop', `Cancel ${name}`, () => this.ctx.host.post({ type: 'cancelAgent', runId: this.ctx.runId, agentId: agent.id }), 'agent-cancel');
    this.cancel.title = `Stop ${name}; the run goes on with the others`;
    this.collapse = iconButton('chevron-down', `Collapse ${name}`, () => {
      const now = !this.el.classList.contains('collapsed');
      this.setCollapsed(now);
      onCollapse(agent.id, now);
    }, 'agent-collapse');
    this.reasoningWrap = h(
      'details',
      { class: 'reasoning' },
      h('summary', { class: 'sub-label' }, h('span', { text: 'Reasoning' }), this.reasoningSize),
      h('div', { class: 'stream-scroll' }, this.reasoning.el),
    ) as HTMLDetailsElement;
    this.reasoningWrap.addEventListener('toggle', () => {
      if (this.reasoningWrap.open) setHidden(this.reasoningPreview, true);
    });
    this.outputWrap = h('div', { class: 'output' }, h('div', { class: 'sub-label' }, this.outputLabel), h('div', { class: 'stream-scroll', attrs: { tabindex: 0, 'aria-label': `${name} output` } }, this.text.el));
    this.pendingChecks = new PendingChecksView(agent.id);
    this.toolsWrap = h('div', { class: 'tools-wrap' }, h('div', { class: 'sub-label', text: 'Tool calls' }), this.tools);
    this.notes = new AgentNotesView(ctx.host, ctx.runId, agent);
    this.approval = new ApprovalView(ctx.host);
    this.el = h(
      'article',
      // tabindex -1: the roster moves the focus here when it brings the card into view.
      { class: 'agent', attrs: { 'aria-label': name, role: 'listitem', tabindex: -1 } },
      h(
        'header',
        { class: 'agent-head' },
        this.collapse,
        h('div', { class: 'agent-name', title: name }, ...agentNameParts(agent)),
        this.badge,
        this.cancel,
      ),
      h(
        'div',
        { class: 'agent-body' },
        this.approval.el,
        this.stageNote,
        this.model,
        this.usage,
        this.error,
        this.ownVote,
        this.notes.el,
        this.reasoningWrap,
        this.reasoningPreview,
        this.outputWrap,
        this.toolsWrap,
        this.answersEl,
        this.pendingChecks.el,
      ),
    );
    this.el.dataset.agent = agent.id;
    this.text.reset(agent.streamTail);
    this.reasoning.reset(agent.reasoningTail);
    this.setCollapsed(collapsed);
  }

  get collapsed(): boolean {
    return this.el.classList.contains('collapsed');
  }

  setCollapsed(collapsed: boolean): void {
    setClass(this.el, 'collapsed', collapsed);
    const name = fmt.agentName(this.agent);
    setAttr(this.collapse, 'aria-expanded', String(!collapsed));
    setAttr(this.collapse, 'aria-label', `${collapsed ? 'Expand' : 'Collapse'} ${name}`);
    this.collapse.title = `${collapsed ? 'Expand' : 'Collapse'} ${name}`;
    setIcon(this.collapse.firstElementChild as HTMLElement, collapsed ? 'chevron-right' : 'chevron-down');
  }

  stream(kind: 'text' | 'reasoning', text: string | null, reset: boolean): void {
    const view = kind === 'text' ? this.text : this.reasoning;
    if (reset) view.reset(text ?? '');
    else if (text) view.append(text);
  }

  update(agent: AgentState, extras: AgentExtras | undefined, clock: number, running: boolean, endReason: RunState['endReason'], stage: StageInfo): void {
    const notCalled = stage && !stage.called ? notCalledText(stage.stage, !running) : undefined;
    const b = this.approval.waiting && running ? APPROVAL_BADGE : agentBadge(agent, extras, clock, endReason, notCalled);
    setClass(this.el, 'not-called', b.kind === 'notcalled');
    // Stage 1's agents start the run: only those who joined later say why.
    const joined = stage?.called && stage.reason !== 'start' ? joinedText(stage.stage, stage.reason) : '';
    setText(this.stageNote, joined);
    setHidden(this.stageNote, !joined);
    setIcon(this.badgeIcon, b.icon);
    setText(this.badgeText, b.text);
    setTitle(this.badge, b.title);
    if (this.lastStatus !== b.kind) {
      this.badge.className = `badge kind-${b.kind}`;
      this.el.dataset.status = b.kind;
      this.lastStatus = b.kind;
    }
    const tools = (agent.tools ?? []).join(', ');
    if (tools !== this.toolsShown) {
      this.toolsShown = tools;
      const n = agent.tools?.length ?? 0;
      setText(this.model, `${agent.model} · ${agent.provider}${n ? ` · ${n} tool${n === 1 ? '' : 's'}` : ''}`);
      setTitle(this.model, `${agent.provider} · ${agent.model}${n ? `\nTools: ${tools}` : ''}`);
    }
    const u = agent.usage;
    // Usage arrives when a call ends; until then its tokens are estimated from what streamed (~4 characters each).
    const live = agent.status === 'streaming' ? Math.round((extras?.streamedChars ?? 0) / 4) : 0;
    const usageKey = `${u.calls}:${u.inputTokens}:${u.outputTokens}:${u.costUsd}:${u.unpricedCalls}:${fmt.tokens(live)}`;
    if (usageKey !== this.usageKey) {
      this.usageKey = usageKey;
      setText(this.usage, `${fmt.usageLine(u)} · ${u.calls} call${u.calls === 1 ? '' : 's'}${live ? ` · ~${fmt.tokens(live)} streaming` : ''}`);
      setTitle(this.usage, `${fmt.usageTitle(u)}${live ? `\nAbout ${live} more tokens streaming (estimated until the call ends)` : ''}`);
    }
    setHidden(this.cancel, this.ctx.readOnly || !running || agent.status === 'failed');
    const error = agent.status === 'failed' ? failureInWords(agent.error ?? 'Failed') : '';
    if (this.errorShown !== error) {
      this.errorShown = error;
      this.error.replaceChildren(plainText(error));
    }
    setHidden(this.error, agent.status !== 'failed');
    const streaming = agent.status === 'streaming';
    setText(this.outputLabel, streaming ? 'Live output' : 'Last output');
    setClass(this.outputWrap, 'live', streaming);
    this.text.render();
    this.reasoning.render();
    setHidden(this.outputWrap, this.text.size === 0);
    setHidden(this.reasoningWrap, this.reasoning.size === 0);
    setText(this.reasoningSize, this.reasoning.size ? `${fmt.tokens(this.reasoning.size)} chars` : '');
    // While folded and still thinking, a line or two of the latest reasoning shows under it.
    const preview = !this.reasoningWrap.open && agent.status === 'streaming' && agent.streamTail === '' && agent.reasoningTail ? agent.reasoningTail.slice(-110).replace(/\s+/g, ' ').replace(/^\S*\s/, '') : '';
    setText(this.reasoningPreview, preview ? `…${preview}` : '');
    setHidden(this.reasoningPreview, !preview);
    this.updateTools(extras);
  }

  private updateTools(extras: AgentExtras | undefined): void {
    const rows = extras?.tools ?? [];
    const key = `${extras?.toolsDropped ?? 0}:${rows.map((r) => `${r.callId}${r.status}`).join(',')}`;
    if (key === this.toolsKey) return;
    this.toolsKey = key;
    setHidden(this.toolsWrap, rows.length === 0);
    const statusIcon = { running: 'ellipsis', ok: 'pass', error: 'error' } as const;
    this.tools.replaceChildren(
      ...(extras?.toolsDropped ? [h('li', { class: 'tool dropped', text: `${fmt.count(extras.toolsDropped, 'earlier call')} not shown` })] : []),
      ...rows.map((r) =>
        h(
          'li',
          { class: `tool tool-${r.status}`, title: `${r.name}(${r.args})${r.result ? `\n→ ${r.result}` : ''}`, attrs: { 'aria-label': `${r.name}, ${r.status}: ${r.args}` } },
          icon(statusIcon[r.status]),
          h('span', { class: 'tool-name', text: r.name }),
          h('span', { class: 'tool-args', text: r.args }),
          r.result ? h('span', { class: 'tool-result', text: r.result }) : null,
        ),
      ),
    );
  }

  updateAnswers(state: RunState): void {
    this.notes.update(state, this.ctx.readOnly);
    const mine = state.answers.filter((a) => a.agentId === this.agent.id);
    const latest = mine[mine.length - 1];
    for (const a of mine) {
      let view = this.answers.get(a.label);
      if (!view) {
        for (const v of this.answers.values()) if (!v.touched) v.setOpen(false);
        view = new AnswerView(a, a === latest, this.ctx.diffs);
        this.answers.set(a.label, view);
        this.answersEl.append(view.el);
      }
      view.update(state, critiquesOf(state, a.label));
    }
    this.pendingChecks.update(state);
    const agent = state.agents.find((x) => x.id === this.agent.id);
    const vote = agent?.currentVote ?? [...state.votes].reverse().find((v) => v.voterId === this.agent.id);
    setHidden(this.ownVote, !vote);
    if (vote) {
      const stale = 'stale' in vote && vote.stale;
      setText(this.ownVote, `Voted for ${vote.targetLabel}${stale ? ' (no longer counts)' : ''}`);
      setClass(this.ownVote, 'stale', Boolean(stale));
      setTitle(this.ownVote, vote.reason);
    }
  }

  noteFailed(): void {
    this.notes.failed();
  }

  dispose(): void {
    for (const a of this.answers.values()) a.dispose();
  }
}

export class AgentsView {
  readonly el: HTMLElement;
  private readonly columns = new Map<string, AgentColumn>();
  private readonly list: HTMLElement;
  private readonly roster: RosterView;

  private readonly stages: string[][] | undefined;

  constructor(ctx: ColumnContext, state: RunState) {
    this.stages = ctx.stages;
    this.list = h('div', { class: 'columns', attrs: { role: 'list', tabindex: 0, 'aria-label': 'Agents' } });
    const collapsed = new Set(ctx.host.ui.collapsed);
    const onCollapse = (id: string, on: boolean) => {
      const set = new Set(ctx.host.ui.collapsed);
      if (on) set.add(id);
      else set.delete(id);
      ctx.host.saveUi({ collapsed: [...set] });
    };
    for (const a of state.agents) {
      const col = new AgentColumn(ctx, a, collapsed.has(a.id), onCollapse);
      this.columns.set(a.id, col);
      this.list.append(col.el);
    }
    this.roster = new RosterView(state, (id) => {
      const col = this.columns.get(id);
      if (!col) return;
      if (col.collapsed) {
        col.setCollapsed(false);
        onCollapse(id, false);
      }
      col.el.scrollIntoView({ block: 'start', inline: 'nearest' });
      col.el.focus({ preventScroll: true });
    });
    this.el = h('div', { class: 'agents' }, this.roster.el, this.list);
  }

  /** Routes one applied event to the stream views (the reducer already updated the state). */
  streamEvent(event: RunEvent, state: RunState): void {
    if (!('agentId' in event)) return;
    const col = this.columns.get(event.agentId);
    if (!col) return;
    const agent = state.agents.find((a) => a.id === event.agentId);
    switch (event.type) {
      case 'text_delta':
        // A delta as long as the whole tail replaced it (clipped on the host): start again from the state.
        if (event.text.length >= STREAM_TAIL_CHARS) col.stream('text', agent?.streamTail ?? '', true);
        else col.stream('text', event.text, false);
        break;
      case 'reasoning_delta':
        if (event.text.length >= STREAM_TAIL_CHARS) col.stream('reasoning', agent?.reasoningTail ?? '', true);
        else col.stream('reasoning', event.text, false);
        break;
      case 'turn_started':
        col.stream('text', '', true);
        col.stream('reasoning', '', true);
        break;
      case 'retry':
        col.stream('text', '', true);
        break;
      case 'final_started':
        if (event.mode === 'synthesize') col.stream('text', '', true);
        break;
      default:
        break;
    }
  }

  update(state: RunState, extras: Record<string, AgentExtras>, clock: number, ids: readonly string[] | 'all'): void {
    const running = state.phase !== 'done';
    const stages = escalationOf(state, this.stages);
    for (const a of state.agents) {
      if (ids === 'all' || ids.includes(a.id)) this.columns.get(a.id)?.update(a, extras[a.id], clock, running, state.endReason, stages && agentStage(stages, a.id));
    }
    this.roster.update(state, extras, clock, ids, this.approving(), stages);
  }

  /** The shown run's commands waiting for approval: each in its agent's column (repainted with the next frame). */
  setApprovals(approvals: readonly PendingApproval[]): void {
    for (const [id, col] of this.columns) col.approval.update(approvals.filter((a) => a.agentId === id));
  }

  private approving(): Set<string> {
    return new Set([...this.columns].filter(([, col]) => col.approval.waiting).map(([id]) => id));
  }

  /** A note to one agent was not sent (the host says why): its box stops waiting. */
  noteFailed(agentId: string): void {
    this.columns.get(agentId)?.noteFailed();
  }

  updateStructure(state: RunState, extras: Record<string, AgentExtras>, clock: number): void {
    for (const col of this.columns.values()) col.updateAnswers(state);
    this.roster.update(state, extras, clock, 'all', this.approving(), escalationOf(state, this.stages));
  }

  dispose(): void {
    for (const c of this.columns.values()) c.dispose();
  }
}

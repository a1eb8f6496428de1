// The runs of this workspace (live ones first, then past runs stored on disk), and the empty state: what MassGen
// is, how to start a run, which agents are configured.

import type { HistoryEntry, Setup } from '../../src/protocol/messages';
import { button, h, icon } from '../dom';
import * as fmt from '../format';
import type { Host } from '../bridge';

export function runsList(host: Host, runs: HistoryEntry[], shownId: string | null): HTMLElement {
  if (runs.length === 0) return h('p', { class: 'muted', text: 'No runs yet in this workspace.' });
  return h(
    'ul',
    { class: 'runs', attrs: { 'aria-label': 'Runs of this workspace' } },
    ...runs.map((r) => {
      const outcome = fmt.outcomeOf({ running: r.running, endReason: r.endReason, hasWinner: r.winnerLabel !== null });
      const status = outcome === 'running' ? 'running' : fmt.outcomeText(outcome, fmt.endReason(r.endReason));
      const meta = [fmt.dateTime(r.startedAt), status, r.winnerLabel ? `winner ${r.winnerLabel}` : '', fmt.count(r.agents, 'agent'), `${fmt.tokens(r.totalTokens)} tokens`, fmt.costOf(r.costUsd, r.unpricedCalls, null)]
        .filter(Boolean)
        .join(' · ');
      const current = r.id === shownId;
      return h(
        'li',
        {},
        h(
          'button',
          {
            class: `run-item run-${outcome}${current ? ' current' : ''}`,
            title: r.question,
            attrs: { type: 'button', 'aria-current': current ? 'true' : null, 'aria-label': `${r.title}. ${meta}${r.live ? '' : '. Past run, read-only'}` },
            on: { click: () => host.post({ type: 'select', runId: r.id }) },
          },
          icon(fmt.OUTCOME_ICON[outcome]),
          h('span', { class: 'run-item-text' }, h('span', { class: 'run-item-title', text: r.title }), h('span', { class: 'run-item-meta', text: meta })),
        ),
      );
    }),
  );
}

/** What fixes a setup problem: the button for it. */
const FIXES: Record<NonNullable<Setup['problem']>['fix'], { text: string; how: 'setApiKey' | 'settings' | 'openConfig' }> = {
  setApiKey: { text: 'Set API Key…', how: 'setApiKey' },
  settings: { text: 'Configure agents…', how: 'settings' },
  openConfig: { text: 'Open Config', how: 'openConfig' },
};

/** The next run's team: where it is set, its agents, and what would stop a run, with the fix (unless `fixAbove`:
 * the start page's first button is that fix already). */
function teamInfo(host: Host, setup: Setup | null, fixAbove: boolean): HTMLElement[] {
  if (!setup) return [h('p', { class: 'muted', text: 'Checking the team…' })];
  const parts: HTMLElement[] = [h('p', { class: 'setup-source' }, 'From ', h('strong', { text: setup.from }), setup.agents.length ? ':' : '.')];
  if (setup.agents.length) {
    parts.push(
      h(
        'ul',
        { class: 'setup-agents', attrs: { 'aria-label': 'The agents of the next run' } },
        ...setup.agents.map((a) => h('li', {}, icon('account'), h('span', { class: 'agent-label', text: a.id }), h('span', { class: 'muted', text: ` ${a.model} · ${a.provider}` }))),
      ),
    );
  }
  if (setup.source === 'chat-models' && setup.agents.length) parts.push(h('p', { class: 'muted', text: 'No agents are configured, so your VS Code chat models run (several models if available, otherwise one model with three personas).' }));
  const problem = setup.problem;
  if (problem) {
    parts.push(h('p', { class: 'setup-problem', attrs: { role: 'alert' } }, icon('warning'), h('span', { text: problem.text })));
    if (!fixAbove) parts.push(h('div', { class: 'actions' }, fixButton(host, problem)));
  }
  if (problem?.fix !== 'settings') parts.push(h('button', { class: 'link-btn', text: 'Configure agents…', attrs: { type: 'button' }, on: { click: () => host.post({ type: 'start', how: 'settings' }) } }));
  return parts;
}

function fixButton(host: Host, problem: NonNullable<Setup['problem']>): HTMLElement {
  const fix = FIXES[problem.fix];
  return button(fix.text, { icon: 'tools', onClick: () => host.post({ type: 'start', how: fix.how, ...(problem.envVar ? { envVar: problem.envVar } : {}) }) });
}

/**
 * How to start a run: asking @massgen in the chat first when a chat model is there for it; without one (no Copilot)
 * the chat could only answer "Language model unavailable", so what works comes first: fixing the team when something
 * stops a run, else Run on Selection.
 */
function startActions(host: Host, setup: Setup | null): { how: HTMLElement; actions: HTMLElement; fixAbove: boolean } {
  const selection = (secondary: boolean) => button('Run on Selection', { icon: 'play', secondary, label: 'Run on the current selection', onClick: () => host.post({ type: 'start', how: 'selection' }) });
  const onSelection = h('li', {}, 'Select code in an editor, then ', h('strong', { text: 'MassGen: Run on Selection' }), ' (editor context menu or Command Palette).');
  if (setup?.chatModel === false) {
    const problem = setup.problem;
    return {
      how: h('ul', { class: 'how' }, onSelection, h('li', { class: 'muted' }, h('strong', { text: '@massgen' }), ' in the Chat view needs a VS Code chat model (such as GitHub Copilot); none is available now.')),
      actions: h('div', { class: 'actions' }, problem ? fixButton(host, problem) : selection(false), problem ? selection(true) : null),
      fixAbove: problem !== null,
    };
  }
  return {
    how: h('ul', { class: 'how' }, onSelection, h('li', {}, 'Or ask ', h('strong', { text: '@massgen' }), ' in the Chat view.')),
    actions: h(
      'div',
      { class: 'actions' },
      button('Ask @massgen in Chat', { icon: 'comment-discussion', onClick: () => host.post({ type: 'start', how: 'chat' }) }),
      selection(true),
    ),
    fixAbove: false,
  };
}

/** The start page: what MassGen is, how to start a run, the team that will run (and a way back to the runs). */
export function emptyState(host: Host, setup: Setup | null, hasRuns: boolean): HTMLElement {
  const start = startActions(host, setup);
  return h(
    'div',
    { class: 'empty' },
    h('div', { class: 'empty-title' }, icon('organization'), h('h2', { text: 'MassGen' })),
    hasRuns ? h('button', { class: 'link-btn back-to-runs', text: 'Back to the latest run', attrs: { type: 'button' }, on: { click: () => host.post({ type: 'select', runId: null }) } }) : null,
    h(
      'p',
      {},
      'Several AI agents work on your task in parallel. Each sees the others’ answers anonymously, improves on them or votes for the best; the winning answer is applied as a diff you review first.',
    ),
    h('h3', { text: 'Start a run' }),
    start.how,
    start.actions,
    h('h3', { text: 'The team' }),
    ...teamInfo(host, setup, start.fixAbove),
  );
}

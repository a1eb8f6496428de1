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
      const status = r.running ? 'running' : r.endReason ? fmt.endReason(r.endReason) : 'unfinished';
      const meta = [fmt.dateTime(r.startedAt), status, r.winnerLabel ? `winner ${r.winnerLabel}` : '', `${r.agents} agent${r.agents === 1 ? '' : 's'}`, `${fmt.tokens(r.totalTokens)} tokens`, r.unpricedCalls ? `≥ ${fmt.usd(r.costUsd)}` : fmt.usd(r.costUsd)]
        .filter(Boolean)
        .join(' · ');
      const current = r.id === shownId;
      return h(
        'li',
        {},
        h(
          'button',
          {
            class: `run-item${current ? ' current' : ''}`,
            title: r.question,
            attrs: { type: 'button', 'aria-current': current ? 'true' : null, 'aria-label': `${r.title}. ${meta}${r.live ? '' : '. Past run, read-only'}` },
            on: { click: () => host.post({ type: 'select', runId: r.id }) },
          },
          icon(r.running ? 'play-circle' : r.live ? 'pass' : 'history'),
          h('span', { class: 'run-item-text' }, h('span', { class: 'run-item-title', text: r.title }), h('span', { class: 'run-item-meta', text: meta })),
        ),
      );
    }),
  );
}

export function emptyState(host: Host, setup: Setup | null): HTMLElement {
  const agents = setup?.agents ?? [];
  const agentsInfo = setup?.configFile
    ? h('p', {}, 'The team comes from ', h('code', { text: setup.configFile }), ' (the massgen.configFile setting).')
    : agents.length
      ? h(
          'ul',
          { class: 'setup-agents', attrs: { 'aria-label': 'Configured agents' } },
          ...agents.map((a, i) => h('li', {}, icon('account'), h('span', { class: 'agent-label', text: a.id ?? `agent${i + 1}` }), h('span', { class: 'muted', text: ` ${a.model} · ${a.provider}` }))),
        )
      : h('p', {}, 'No agents configured: your VS Code chat models will be used (several models if available, otherwise one model with three personas).');
  return h(
    'div',
    { class: 'empty' },
    h('div', { class: 'empty-title' }, icon('organization'), h('h2', { text: 'MassGen' })),
    h(
      'p',
      {},
      'Several AI agents work on your task in parallel. Each sees the others’ answers anonymously, improves on them or votes for the best; the winning answer is applied as a diff you review first.',
    ),
    h('h3', { text: 'Start a run' }),
    h(
      'ul',
      { class: 'how' },
      h('li', {}, 'Select code in an editor, then ', h('strong', { text: 'MassGen: Run on Selection' }), ' (editor context menu or Command Palette).'),
      h('li', {}, 'Or ask ', h('strong', { text: '@massgen' }), ' in the Chat view.'),
    ),
    h(
      'div',
      { class: 'actions' },
      button('Ask @massgen in Chat', { icon: 'comment-discussion', onClick: () => host.post({ type: 'start', how: 'chat' }) }),
      button('Run on Selection', { icon: 'play', secondary: true, label: 'Run on the current selection', onClick: () => host.post({ type: 'start', how: 'selection' }) }),
    ),
    h('h3', { text: 'Agents' }),
    agentsInfo,
    h('button', { class: 'link-btn', text: 'Configure agents…', attrs: { type: 'button' }, on: { click: () => host.post({ type: 'start', how: 'settings' }) } }),
  );
}

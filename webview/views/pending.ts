// A run about to start that waits for the user's answer: shown at once (in place of a finished run), with the
// question (use the project's test command as a check?) and its two answers; once the question is settled (here, in
// the notification, or by the wait running out) it says the run is starting, and the run replaces it when it has.

import type { PendingRun } from '../../src/protocol/messages';
import { button, h, icon } from '../dom';
import type { Host } from '../bridge';

export function pendingCard(host: Host, p: PendingRun): HTMLElement {
  const answer = (use: boolean) => host.post({ type: 'checksAnswer', id: p.id, use });
  return h(
    'section',
    { class: 'pending-run', attrs: { 'aria-label': 'The next run' } },
    h('div', { class: 'run-title', title: p.title }, h('span', { class: 'run-title-text', text: p.title })),
    p.answered
      ? h('p', { class: 'pending-status', attrs: { role: 'status' } }, icon('loading~spin'), h('span', { text: 'Starting the run…' }))
      : h(
          'div',
          { class: 'pending-question', attrs: { role: 'group', 'aria-label': 'Waiting for your answer about checks' } },
          h('p', { class: 'pending-status', attrs: { role: 'status' } }, icon('question'), h('span', { text: 'Waiting for your answer about checks' })),
          h('p', {}, 'Use ', h('code', { text: p.command }), ` as a check? Found ${p.why}: MassGen would run it on every answer's change and show the results next to the votes (saved as massgen.checks in the workspace settings, for the next runs too).`),
          h(
            'div',
            { class: 'actions' },
            button(`Use ${p.command} as a check`, { icon: 'beaker', onClick: () => answer(true) }),
            button('Not now', { secondary: true, label: 'Not now: run without checks', onClick: () => answer(false) }),
          ),
        ),
  );
}

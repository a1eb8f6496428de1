// An agent's name as the viewer shows it: the id the user gave it first, the anonymous label the agents see
// ("agent2") as a small tag after it, left out when the two are the same.

import { h } from '../dom';

export function agentNameParts(a: { id: string; label: string }): HTMLElement[] {
  const name = h('span', { class: 'agent-label', text: a.id });
  return a.id === a.label ? [name] : [name, h('span', { class: 'agent-tag', text: a.label, title: `${a.label}: how the other agents see it (anonymous)` })];
}

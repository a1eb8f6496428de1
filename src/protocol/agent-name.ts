// An agent's name as the user reads it (viewer, notifications): the id the user gave it first, the anonymous label
// the agents see ("agent2") after it, left out when the two are the same.

export function agentName(a: { id: string; label: string }): string {
  return a.id === a.label ? a.id : `${a.id} (${a.label})`;
}

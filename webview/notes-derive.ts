// What the vote viewer shows of the user's notes and Answer now, derived from the RunState. Pure (unit-tested in
// Node); webview/views/notes.ts renders it.

import { noteMissedWhy, type RunState } from '../src/protocol/state';

export interface AgentNote {
  id: string;
  text: string;
  changesTask: boolean;
  /** Written to every live agent, not to this one alone. */
  toAll: boolean;
  /** It reached the agent (at its next turn or tool result). */
  delivered: boolean;
  /** It can reach the agent no more: why, in words (the run ended first); the user may continue with it. */
  missed?: string;
  t: number;
}

/** The notes an agent was given (to every agent or to it alone), oldest first. */
export function notesFor(state: Pick<RunState, 'notes'>, agentId: string): AgentNote[] {
  return state.notes
    .filter((n) => n.agentIds.includes(agentId))
    .map((n) => {
      const delivered = n.deliveredTo.includes(agentId);
      const missed = !delivered && n.undelivered?.agentIds.includes(agentId) ? noteMissedWhy(n.undelivered.reason) : undefined;
      return { id: n.id, text: n.text, changesTask: n.changesTask, toAll: n.agentIds.length !== 1, delivered, ...(missed ? { missed } : {}), t: n.t };
    });
}

/**
 * Whether the note box shows: while agents still work (coordinating, or before the first event), in a live run, and
 * in an agent's column only while that agent is live. Once the final answer is being written, a note could reach
 * nobody.
 */
export function canNote(state: Pick<RunState, 'phase' | 'agents'>, readOnly: boolean, agentId?: string): boolean {
  if (readOnly || (state.phase !== 'coordinating' && state.phase !== 'idle')) return false;
  if (agentId === undefined) return state.agents.length === 0 || state.agents.some((a) => a.status !== 'failed');
  return state.agents.some((a) => a.id === agentId && a.status !== 'failed');
}

/**
 * Whether the note the page sent (`text`, once there were `since` notes) has arrived as an event: then its box is
 * cleared. Compared as the engine keeps it (trimmed); a box in a column only counts notes to that agent alone.
 */
export function noteArrived(state: Pick<RunState, 'notes'>, since: number, text: string, agentId?: string): boolean {
  const want = text.trim();
  return state.notes.slice(since).some((n) => n.text === want && (agentId === undefined || (n.agentIds.length === 1 && n.agentIds[0] === agentId)));
}

/** Answer now: shown while agents still work; usable once there is an answer to take (else it would end with none). */
export function answerNow(state: Pick<RunState, 'phase' | 'answers'>, readOnly: boolean): { shown: boolean; enabled: boolean; title: string } {
  const shown = !readOnly && (state.phase === 'coordinating' || state.phase === 'idle');
  const enabled = shown && state.answers.length > 0;
  return {
    shown,
    enabled,
    title: enabled ? 'End the run now: the best current answer wins, chosen as at a timeout' : 'Answer now ends the run with the best current answer: there is none yet',
  };
}

// What the vote viewer derives from the RunState for display: an agent's badge, the vote tally (counted the way
// the engine counts), critiques per answer. Pure (unit-tested in Node).

import { failureInWords } from '../src/protocol/failure-words';
import { currentVotes, type AgentState, type AgentExtras, type RunState, type VoteRecord, type VoteState } from '../src/protocol/state';

export type BadgeKind = 'notcalled' | 'waiting' | 'thinking' | 'streaming' | 'answered' | 'voted' | 'restarting' | 'retrying' | 'failed' | 'timedout' | 'cancelled' | 'done';

export interface Badge {
  kind: BadgeKind;
  text: string;
  /** Codicon name. Static on purpose: one spinner per page (the phase) is enough, and each costs repaints. */
  icon: string;
  title: string;
}

/**
 * The badge for an agent; `nowMs` is the run clock (ms since the run started), for the retry countdown; `endReason`
 * the run's, so an agent stopped by the user's Cancel or Answer now reads "cancelled" or "stopped", not "done";
 * `notCalled`: the words for an agent of an escalation stage not called (stage-words.ts), which it then reads.
 */
export function agentBadge(agent: AgentState, extras: AgentExtras | undefined, nowMs: number, endReason: RunState['endReason'] = null, notCalled?: string): Badge {
  const error = agent.error ?? '';
  if (agent.status === 'failed') {
    if (agent.failureCause === 'cancelled') return { kind: 'cancelled', text: 'cancelled', icon: 'circle-slash', title: 'Cancelled by you' };
    if (agent.failureCause === 'timeout') return { kind: 'timedout', text: 'timed out', icon: 'watch', title: error };
    return { kind: 'failed', text: 'failed', icon: 'error', title: error ? failureInWords(error) : 'Failed' };
  }
  // Never called, it never left 'waiting' (the reducer leaves it so when the run ends, too).
  if (notCalled !== undefined && agent.status === 'waiting') return { kind: 'notcalled', text: notCalled, icon: 'debug-pause', title: 'Its escalation stage was not called: a stage joins when the agents before it do not settle the run, or when you escalate' };
  if (agent.retry) {
    const left = Math.ceil((agent.retry.at + agent.retry.delayMs - nowMs) / 1000);
    const title = `Attempt ${agent.retry.attempt} after: ${agent.retry.error}`;
    return left > 0 ? { kind: 'retrying', text: `retrying in ${left} s`, icon: 'sync', title } : { kind: 'retrying', text: 'retrying…', icon: 'sync', title };
  }
  switch (agent.status) {
    case 'waiting':
      return { kind: 'waiting', text: 'waiting', icon: 'circle-large-outline', title: 'Waiting for its turn' };
    case 'streaming':
      return agent.streamTail === ''
        ? { kind: 'thinking', text: 'thinking', icon: 'lightbulb', title: agent.reasoningTail ? 'Reasoning' : 'Waiting for the first tokens' }
        : { kind: 'streaming', text: 'streaming', icon: 'pencil', title: 'Writing' };
    case 'answered':
      return { kind: 'answered', text: 'answered', icon: 'pass', title: `Answered ${agent.latestAnswerLabel ?? ''}`.trim() };
    case 'voted':
      return { kind: 'voted', text: 'voted', icon: 'check-all', title: agent.currentVote ? `Voted for ${agent.currentVote.targetLabel}` : 'Voted' };
    case 'restarting': {
      const why = extras?.lastFailure ?? '';
      if (extras?.lastFailureCause === 'timeout') return { kind: 'timedout', text: 'timed out, restarting', icon: 'watch', title: why };
      return { kind: 'restarting', text: 'restarting', icon: 'debug-restart', title: why || 'Its vote no longer counts: new answers arrived' };
    }
    case 'completed':
      if (agent.currentVote) return { kind: 'voted', text: 'voted', icon: 'check-all', title: `Voted for ${agent.currentVote.targetLabel}` };
      if (agent.answerCount > 0) return { kind: 'answered', text: 'answered', icon: 'pass', title: `Answered ${agent.latestAnswerLabel ?? ''}`.trim() };
      if (endReason === 'cancelled') return { kind: 'cancelled', text: 'cancelled', icon: 'circle-slash', title: 'Stopped when you cancelled the run, before it answered or voted' };
      if (endReason === 'user_stop') return { kind: 'cancelled', text: 'stopped', icon: 'circle-slash', title: 'Stopped when you chose Answer now, before it answered or voted' };
      return { kind: 'done', text: 'done', icon: 'circle-large-outline', title: 'Finished without an answer or vote' };
  }
}

export interface TallyRow {
  /** The answer version, `agentK.M`. */
  label: string;
  agentId: string;
  agentLabel: string;
  count: number;
  voters: { id: string; label: string; reason: string }[];
  winner: boolean;
}

export interface Tally {
  rows: TallyRow[];
  /** Agents that could vote (the bar's scale). */
  scale: number;
  /** How the votes shown were chosen. */
  basis: 'current_votes' | 'latest_votes' | 'most_informed';
  basisText: string;
  tieBreak: boolean;
  winnerLabel: string | null;
}

/**
 * One row per agent's latest answer (config order), with the votes that count: the current votes while the run
 * goes on (and when the winner was chosen by them); when the winner was chosen past the limits from each agent's
 * latest still-valid vote, those votes (as the engine counts them).
 */
export function tally(state: RunState): Tally {
  const basis = (state.winner?.basis as Tally['basis'] | undefined) ?? 'current_votes';
  let votes: VoteRecord[];
  if (basis === 'latest_votes') {
    votes = state.agents.flatMap((a) => {
      const last = [...state.votes].reverse().find((v) => v.voterId === a.id);
      const target = last && state.agents.find((t) => t.id === last.targetId);
      return last && target && target.latestAnswerLabel === last.targetLabel ? [last] : [];
    });
  } else if (basis === 'most_informed') {
    votes = [];
  } else {
    votes = currentVotes(state);
  }
  const labelOf = (id: string) => state.agents.find((a) => a.id === id)?.label ?? id;
  const rows: TallyRow[] = state.agents
    .filter((a) => a.latestAnswerLabel)
    .map((a) => {
      const label = a.latestAnswerLabel!;
      const voters = votes.filter((v) => v.targetLabel === label).map((v) => ({ id: v.voterId, label: labelOf(v.voterId), reason: v.reason }));
      return { label, agentId: a.id, agentLabel: a.label, count: voters.length, voters, winner: state.winner?.label === label };
    });
  const basisText =
    basis === 'latest_votes'
      ? 'No consensus on the current answers: decided by each agent’s latest vote that still points at a current answer.'
      : basis === 'most_informed'
        ? 'No usable votes: the answer written after seeing the most of the others was taken (ties by agent order).'
        : state.winner
          ? 'Decided by the current votes.'
          : 'Current votes (a vote stops counting when a newer answer arrives).';
  return {
    rows,
    scale: Math.max(1, state.agents.filter((a) => a.status !== 'failed').length, ...rows.map((r) => r.count)),
    basis,
    basisText,
    tieBreak: state.winner?.tieBreak ?? false,
    winnerLabel: state.winner?.label ?? null,
  };
}

/** Votes (current and stale) on one answer version, in the order they were cast. */
export function critiquesOf(state: RunState, answerLabel: string): VoteState[] {
  return state.votes.filter((v) => v.targetLabel === answerLabel);
}

/** The run clock now: the host's clock at the last message plus the time since it arrived, frozen once done. */
export function runClock(state: RunState, base: { clock: number; receivedAt: number }, now: number): number {
  if (state.phase === 'done') return state.elapsedMs;
  return Math.max(state.elapsedMs, base.clock + (now - base.receivedAt));
}

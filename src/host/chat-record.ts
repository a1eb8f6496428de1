// Answers about a finished run from its record (the run's state and the agents it ran with), for the chat's
// follow-ups "Explain the vote" and "Which agents ran?": what happened, not a new run that could cost calls and
// disagree with what the user saw. Pure markdown builders (unit-tested in Node).

import type { RunState } from '../core/engine/run-state';
import { oneLine } from '../core/util/text';
import { failureInWords } from '../protocol/failure-words';
import type { RanAgent } from './run/manager';

const who = (state: RunState, id: string) => {
  const a = state.agents.find((x) => x.id === id);
  return a ? `${a.label} (${a.id})` : id;
};

/** How the winner was decided, in a sentence. */
function decided(state: RunState): string {
  const w = state.winner;
  if (!w) return state.endReason === 'cancelled' ? 'You cancelled the run, so nothing won.' : 'No answer won.';
  const count = w.votes[w.agentId] ?? 0;
  const by =
    w.basis === 'most_informed'
      ? 'no vote could decide, so the answer written after seeing the most of the others was taken'
      : w.tieBreak
        ? `the votes tied (${count} each), so agent order decided`
        : `${count} vote${count === 1 ? '' : 's'}${w.basis === 'latest_votes' ? ', counting each agent\u2019s latest vote that still pointed at a current answer' : ''}`;
  const cancelled = state.endReason === 'cancelled' ? ' You cancelled the run, so this was the best answer so far.' : '';
  return `**${w.label}** (${w.agentId}'s answer) won: ${by}.${cancelled}`;
}

/** "Explain the vote": the winner, then every vote in order with its reason (the stale ones struck out), then who failed. */
export function explainVote(state: RunState): string {
  const votes = state.votes.map((v) => {
    const line = `${who(state, v.voterId)} → **${v.targetLabel}**: ${oneLine(v.reason || '(no reason given)', 300)}`;
    return v.stale ? `- ~~${line}~~ (no longer counted: ${v.staleReason ?? 'newer answers arrived'})` : `- ${line}`;
  });
  const failed = state.agents.filter((a) => a.status === 'failed').map((a) => `- ${a.label} (${a.id}) failed: ${failureInWords(a.error ?? 'failed')}`);
  return [
    decided(state),
    '',
    votes.length ? `The votes, in the order they were cast (agentK.M is agentK's M-th answer):\n\n${votes.join('\n')}` : 'No agent voted.',
    ...(failed.length ? ['', failed.join('\n')] : []),
  ].join('\n');
}

/** "Which agents ran?": each agent's label, id, model, provider and persona as it ran. */
export function agentsThatRan(state: RunState, agents: readonly RanAgent[] | undefined): string {
  const rows = state.agents.map((a) => {
    const ran = agents?.find((x) => x.id === a.id);
    const persona = ran?.persona ? `, persona: _${ran.persona}_` : '';
    return `- **${a.label}** (${a.id}): ${a.model} via ${ran?.provider ?? a.provider}${persona}${a.status === 'failed' ? ' — failed' : ''}`;
  });
  return `${state.agents.length} agent${state.agents.length === 1 ? '' : 's'} ran:\n\n${rows.join('\n')}`;
}

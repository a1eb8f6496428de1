// Answers about a finished run from its record (the run's state and the agents it ran with), for the chat's
// follow-ups "Explain the vote" and "Which agents ran?": what happened, not a new run that could cost calls and
// disagree with what the user saw. Pure markdown builders (no `vscode`: the translations come in as `l10n`), unit-tested
// in Node.

import type { RunState } from '../core/engine/run-state';
import { oneLine } from '../core/util/text';
import { agentName } from '../protocol/agent-name';
import { failureInWords } from '../protocol/failure-words';
import type { L10n } from './lm-tool/plan';
import type { RanAgent } from './run/manager';

const who = (state: RunState, id: string) => {
  const a = state.agents.find((x) => x.id === id);
  return a ? agentName(a) : id;
};

/** How the winner was decided, in a sentence. */
function decided(state: RunState, l10n: L10n): string {
  const w = state.winner;
  if (!w) return state.endReason === 'cancelled' ? l10n.t('You cancelled the run, so nothing won.') : l10n.t('No answer won.');
  const count = w.votes[w.agentId] ?? 0;
  const latest = w.basis === 'latest_votes';
  const by =
    w.basis === 'most_informed'
      ? l10n.t('no vote could decide, so the answer written after seeing the most of the others was taken')
      : w.tieBreak
        ? l10n.t('the votes tied ({0} each), so agent order decided', count)
        : count === 1
          ? latest
            ? l10n.t('1 vote, counting each agent\u2019s latest vote that still pointed at a current answer')
            : l10n.t('1 vote')
          : latest
            ? l10n.t('{0} votes, counting each agent\u2019s latest vote that still pointed at a current answer', count)
            : l10n.t('{0} votes', count);
  return l10n.t("**{0}** ({1}'s answer) won: {2}.", w.label, w.agentId, by);
}

/** "Explain the vote": the winner, then every vote in order with its reason (the stale ones struck out), then who failed. */
export function explainVote(state: RunState, l10n: L10n): string {
  const votes = state.votes.map((v) => {
    const line = `${who(state, v.voterId)} → **${v.targetLabel}**: ${oneLine(v.reason || l10n.t('(no reason given)'), 300)}`;
    return v.stale ? `- ~~${line}~~ ${l10n.t('(no longer counted: {0})', v.staleReason ?? l10n.t('newer answers arrived'))}` : `- ${line}`;
  });
  const failed = state.agents
    .filter((a) => a.status === 'failed')
    .map((a) => `- ${l10n.t('{0} failed: {1}', agentName(a), failureInWords(a.error ?? 'failed'))}`);
  return [
    decided(state, l10n),
    '',
    votes.length ? `${l10n.t("The votes, in the order they were cast (agentK.M is agentK's M-th answer):")}\n\n${votes.join('\n')}` : l10n.t('No agent voted.'),
    ...(failed.length ? ['', failed.join('\n')] : []),
  ].join('\n');
}

/** "Which agents ran?": each agent's id, label, model, provider and persona as it ran. */
export function agentsThatRan(state: RunState, agents: readonly RanAgent[] | undefined, l10n: L10n): string {
  const rows = state.agents.map((a) => {
    const ran = agents?.find((x) => x.id === a.id);
    const how = l10n.t('{0} via {1}', a.model, ran?.provider ?? a.provider);
    const persona = ran?.persona ? `, ${l10n.t('persona: _{0}_', ran.persona)}` : '';
    const failed = a.status === 'failed' ? ` — ${l10n.t('failed')}` : '';
    return `- **${agentName(a)}**: ${how}${persona}${failed}`;
  });
  const ran = state.agents.length === 1 ? l10n.t('1 agent ran:') : l10n.t('{0} agents ran:', state.agents.length);
  return `${ran}\n\n${rows.join('\n')}`;
}

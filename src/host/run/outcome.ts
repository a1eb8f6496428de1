// How a run ended, in the words of the notifications and the chat (the vote viewer has its own, webview/format.ts).
// A Cancel is the user's own choice: it reads as "you cancelled", never as a failure or "ended by cancelled". Plain
// functions (tested in Node): the translations come in as `l10n`.

import type { EndReason } from '../../core/engine/events';
import type { RunState } from '../../core/engine/run-state';
import { runErrorInWords } from '../../protocol/failure-words';
import type { L10n } from '../lm-tool/plan';

/** What else decides how a consensus reads: a tie broken by agent order, or agents that failed. */
export interface Consensus {
  tieBreak?: boolean;
  failed?: number;
  agents?: number;
}

/**
 * Why a run with a winner ended, when not by a plain consensus: "the time limit was reached, so the best answer so
 * far won". A tie broken by agent order, or the vote of the one agent left, is not called a consensus either.
 */
export function endingNote(reason: EndReason, { tieBreak = false, failed = 0, agents = 0 }: Consensus, l10n: L10n): string | undefined {
  if (reason === 'consensus' && tieBreak) return l10n.t('the votes tied, so agent order decided');
  if (reason === 'consensus' && failed > 0 && agents - failed === 1) return l10n.t('agreed by the 1 agent left ({0} of {1} failed)', failed, agents);
  switch (reason) {
    // A cancel has no winner to explain (noAnswer says it).
    case 'consensus':
    case 'cancelled':
      return undefined;
    case 'user_stop':
      return l10n.t('you asked for the answer now, so the best answer so far won');
    case 'majority':
      return l10n.t('a majority agreed, and the other votes could not change it');
    case 'answer_cap':
      return l10n.t('every agent reached its answer limit, so the votes decided');
    case 'max_rounds':
      return l10n.t('the rounds limit was reached, so the best answer so far won');
    case 'timeout':
      return l10n.t('the time limit was reached, so the best answer so far won');
    case 'budget':
      return l10n.t('the budget was reached, so the best answer so far won');
    case 'all_failed':
      return l10n.t('every agent failed');
  }
}

/** The consensus details of a finished run's state. */
export function consensusOf(state: Pick<RunState, 'winner' | 'agents'>): Consensus {
  return { tieBreak: state.winner?.tieBreak ?? false, failed: state.agents.filter((a) => a.status === 'failed').length, agents: state.agents.length };
}

/**
 * When every agent failed because it could not reach its server: one line with the servers' URLs and why ("cannot
 * reach http://localhost:8000/v1: connection refused"), in place of a failure per agent.
 */
export function serversDown(agents: readonly Pick<RunState['agents'][number], 'status' | 'unreachable'>[], l10n: L10n): string | undefined {
  const failed = agents.filter((a) => a.status === 'failed');
  const down = failed.flatMap((a) => (a.unreachable ? [a.unreachable] : []));
  if (failed.length === 0 || failed.length < agents.length || down.length < failed.length) return undefined;
  const unique = (xs: string[]) => [...new Set(xs)].join(', ');
  return l10n.t('cannot reach {0}: {1}', unique(down.map((d) => d.url)), unique(down.map((d) => d.reason)));
}

/**
 * A run without an answer: what to say, whether it is an error (a cancel is not), and whether the agents' servers
 * were down (the fix is then where the team's URLs are set). `agents`: the run's agents as it ended.
 */
export function noAnswer(
  reason: EndReason,
  error: string | undefined,
  agents: readonly Pick<RunState['agents'][number], 'status' | 'unreachable'>[],
  l10n: L10n,
): { text: string; isError: boolean; serverDown?: true } {
  // A cancel proposes nothing, with or without answers so far (Answer now takes the best one).
  if (reason === 'cancelled') return { text: l10n.t('You cancelled the run, so no answer was chosen.'), isError: false };
  const down = reason === 'all_failed' ? serversDown(agents, l10n) : undefined;
  if (down) return { text: l10n.t('No answer: {0}.', down), isError: true, serverDown: true };
  return { text: l10n.t('No answer: {0}', error ? runErrorInWords(error) : reason.replace(/_/g, ' ')), isError: true };
}

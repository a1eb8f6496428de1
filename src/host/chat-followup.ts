// What a @massgen chat request becomes when it follows another (pure, unit-tested in Node): a note to the run going
// (VS Code hands the participant a request while one of its runs is going from another chat, or a run started from
// the editor or the vote viewer), or a new run continuing the last answered exchange with the session's own
// continuation (the same <PREVIOUS RUN> block as `massgen run --continue`, with the winner's change when it had one).

import type { PreviousRun } from '../core/run/continuation';
import { oneLine } from '../core/util/text';

/** A change carried into a follow-up at most (characters): the rest is cut, and the agents are told so. */
export const MAX_CONTINUED_PATCH_CHARS = 40_000;

/**
 * Whether a request is a note to the run going rather than a new run: a plain prompt (no slash command: `/run` and
 * `/edit` start a run on purpose, `/config` and `/agents` only describe the team) while a run is going.
 */
export function isNoteRequest(request: { command?: string; prompt: string }, going: boolean): boolean {
  return going && !request.command && request.prompt.trim().length > 0;
}

/** The chat's reply to a follow-up that went to a run as a note. */
export function noteSentMarkdown(run: { title: string; agents: number }): string {
  const to = `${run.agents} agent${run.agents === 1 ? '' : 's'}`;
  return [
    `MassGen is still working on **${oneLine(run.title, 80)}**, so this went to its ${to} as a note: each gets it at its next turn or tool result, and the vote viewer's timeline shows it.`,
    '',
    'To end the run now with the best answer so far, use **Answer now**. To start a separate run instead, send it with `@massgen /run`.',
  ].join('\n');
}

/** The previous run for a follow-up: its question and final answer, and the winner's change (capped) when it had one. */
export function previousRunOf(exchange: { question: string; answer: string }, patch: string | undefined): PreviousRun {
  if (!patch) return { question: exchange.question, answer: exchange.answer };
  const cut = patch.length > MAX_CONTINUED_PATCH_CHARS;
  const kept = cut ? `${patch.slice(0, patch.lastIndexOf('\n', MAX_CONTINUED_PATCH_CHARS) + 1 || MAX_CONTINUED_PATCH_CHARS)}… (the rest of the diff is not shown)\n` : patch;
  return { question: exchange.question, answer: exchange.answer, patch: kept };
}

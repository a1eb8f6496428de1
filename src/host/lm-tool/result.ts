// The massgen_run tool's result, as the texts the calling model reads: the winning answer, then the tally, usage and
// where to see more, then (a workspace run) the winner's change, which the user applies from the vote viewer and
// the tool never does. Pure (no `vscode`), so it is tested in plain Node.

import type { RunState } from '../../core/engine/run-state';
import type { SessionResult } from '../../core/run/session';
import { costText } from '../../core/status/describe';

/** Larger patches are summarised by their files: the result goes into the caller's context window. */
export const MAX_PATCH_CHARS = 100_000;

export function tallyLines(state: RunState): string[] {
  return state.agents
    .filter((a) => a.latestAnswerLabel)
    .map((a) => {
      const voters = state.agents.filter((v) => v.currentVote && v.status !== 'failed' && v.currentVote.targetLabel === a.latestAnswerLabel).map((v) => v.label);
      return `- ${a.latestAnswerLabel} (${a.model})${state.winner?.agentId === a.id ? ' — winner' : ''}: ${voters.length} vote(s)${voters.length ? ` from ${voters.join(', ')}` : ''}`;
    });
}

/** The texts of the tool result, in order: answer, summary, and the change for a workspace run. */
export function resultTexts(result: SessionResult, state: RunState, runId: string): string[] {
  const winner = state.agents.find((a) => a.id === result.winnerId);
  const answer = result.finalAnswer === null
    ? `MassGen produced no answer (ended by ${result.reason}).${result.error ? ` ${result.error}` : ''}`
    : `MassGen's answer (${result.winnerLabel}, ${winner?.model ?? 'unknown model'}; ended by ${result.reason}):\n\n${result.finalAnswer}`;
  const u = state.usage;
  const summary = [
    'Votes per answer:',
    ...(tallyLines(state).length ? tallyLines(state) : ['- no answers']),
    `Usage: ${u.calls} model call(s), ${u.inputTokens + u.outputTokens} tokens; ${costText(u)}; ${(result.durationMs / 1000).toFixed(1)} s.`,
    `Every answer and vote is in MassGen's vote viewer (command massgen.showVoteViewer, run ${runId}).`,
  ].join('\n');
  const texts = [answer, summary];
  const change = result.change;
  if (change) {
    const files = change.files.map((f) => `${f.path} (${f.status})`).join(', ');
    texts.push(
      change.files.length === 0
        ? 'The winner changed no files.'
        : [
            `The winner's change (${change.files.length} file(s): ${files}) is NOT applied: the user reviews and applies it from the vote viewer; this tool never writes to the workspace.`,
            change.patch.length <= MAX_PATCH_CHARS ? `\n${change.patch}` : `(The patch is larger than ${MAX_PATCH_CHARS} characters and is left out here.)`,
          ].join('\n'),
    );
  }
  return texts;
}

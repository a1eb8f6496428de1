// The end of a run: pick the winner (plurality of current votes, ties by config order; past a limit, the votes
// still valid; else the most informed answer) and produce the final answer, as it was voted or rewritten by the
// winner seeing every answer and the votes' reasons. Every ending but a cancel still yields the best answer available
// (a cancel proposes nothing: the user stopped the run; Answer now is how to take the best answer so far), and the
// same run always yields the same one: nothing here depends on which parallel stream happened to finish last.

import type { ModelRequest } from '../providers/types';
import { toBoardEntry, type AnswerVersion } from './board';
import { gateWinner } from './check-gate';
import type { EndReason, VoteRecord, WinnerVerification } from './events';
import { callModel } from './model-call';
import type { RunResult } from './ports';
import { buildSynthesisSystemPrompt, buildSynthesisUserMessage } from './prompts';
import { asProviderError } from './retry';
import type { RunContext } from './run-context';
import { tallyVotes } from './tally';

type WinnerBasis = 'current_votes' | 'latest_votes' | 'most_informed';

interface Winner {
  answer: AnswerVersion;
  votes: Record<string, number>;
  tieBreak: boolean;
  basis: WinnerBasis;
  reasons: string[];
  /** Runs with checks: how the winner stands against them. */
  verification?: WinnerVerification;
}

function pickWinner(ctx: RunContext): Winner | null {
  const { board } = ctx;
  const order = ctx.agents.map((a) => a.spec.id);
  const current = board.current();
  if (current.length === 0) return null;
  const candidates = new Set(current.map((a) => a.agentId));
  const currentVotes = ctx.live().flatMap((a) => (a.vote && ctx.hasCurrentVote(a) ? [a.vote] : []));
  // Past the limits: a vote still counts if the version it chose is still that agent's latest answer.
  const stillValid = ctx.agents.flatMap((a) => {
    const v = a.lastVote;
    return v && board.latest(v.targetId)?.label === v.targetLabel ? [v] : [];
  });
  for (const [basis, votes] of [['current_votes', currentVotes], ['latest_votes', stillValid]] as const) {
    const tally = tallyVotes(order, votes, candidates);
    if (tally.winnerId) {
      // Most votes first, ties by config order (the order of `current`; the sort is stable).
      const ranked = [...current].sort((a, b) => (tally.counts[b.agentId] ?? 0) - (tally.counts[a.agentId] ?? 0));
      return decide(ctx, ranked, { votes: tally.counts, tieBreak: tally.tieBreak, basis }, votes);
    }
  }
  return decide(ctx, byInformed(current), { votes: {}, tieBreak: false, basis: 'most_informed' }, []);
}

/** The first of `ranked` wins, unless the checks gate it out (see check-gate.ts). */
function decide(ctx: RunContext, ranked: AnswerVersion[], tally: Pick<Winner, 'votes' | 'tieBreak' | 'basis'>, votes: readonly VoteRecord[]): Winner {
  const checks = ctx.options.checks;
  const gate = checks ? gateWinner(ranked, checks.mode) : { index: 0, verification: undefined };
  const answer = ranked[gate.index];
  const reasons = votes.filter((v) => v.targetId === answer.agentId && v.reason).map((v) => v.reason);
  return { ...tally, answer, tieBreak: gate.index === 0 && tally.tieBreak, reasons, ...(gate.verification ? { verification: gate.verification } : {}) };
}

/**
 * With no vote to go by: the answer written after seeing the most of the board (it could build on the most) first,
 * ties by config order. Upstream takes the most recent answer, which in a first round is whichever stream ended last.
 */
export function byInformed(current: readonly AnswerVersion[]): AnswerVersion[] {
  return [...current].sort((a, b) => b.informed - a.informed);
}

export async function finish(ctx: RunContext, reason: EndReason): Promise<RunResult> {
  const winner = reason === 'cancelled' ? null : pickWinner(ctx);
  const failures = ctx.agents.filter((a) => a.failed).map((a) => `${a.spec.id}: ${a.failure}`);
  let error: string | undefined;
  if (reason === 'all_failed') error = `Every agent failed.\n  ${failures.join('\n  ')}`;
  else if (reason === 'cancelled') error = ctx.board.current().length === 0 ? 'Cancelled before any agent answered.' : 'Cancelled: no answer was chosen (the answers so far are kept).';
  else if (!winner) error = 'No agent produced an answer.';
  if (!winner) {
    const durationMs = ctx.clock.now() - ctx.started;
    ctx.emit({ type: 'run_ended', reason, winnerId: null, durationMs, error });
    return { reason, winnerId: null, winnerLabel: null, finalAnswer: null, error, durationMs };
  }
  const { answer } = winner;
  ctx.emit({
    type: 'winner_selected',
    agentId: answer.agentId,
    label: answer.label,
    votes: winner.votes,
    tieBreak: winner.tieBreak,
    basis: winner.basis,
    ...(winner.verification ? { verification: winner.verification } : {}),
  });
  const finalAnswer = await presentFinal(ctx, winner);
  const durationMs = ctx.clock.now() - ctx.started;
  ctx.emit({ type: 'run_ended', reason, winnerId: answer.agentId, durationMs, error });
  return { reason, winnerId: answer.agentId, winnerLabel: answer.label, finalAnswer, error, durationMs, ...(winner.verification ? { verification: winner.verification } : {}) };
}

async function presentFinal(ctx: RunContext, { answer, reasons, tieBreak }: Winner): Promise<string> {
  const mode = ctx.options.orchestrator.finalAnswer;
  // The winner is one of the run's agents by construction.
  const agent = ctx.byId(answer.agentId)!;
  ctx.emit({ type: 'final_started', agentId: answer.agentId, mode });
  const asIs = (fallback?: string) => {
    ctx.emit({ type: 'final_answer', agentId: answer.agentId, label: answer.label, content: answer.content, mode: 'as_is', fallback });
    return answer.content;
  };
  if (mode === 'as_is') return asIs();
  if (ctx.stopCause) return asIs(`synthesis skipped: ${ctx.stopCause === 'timeout' ? 'the run timed out' : 'you asked for the answer now'}`);
  if (ctx.budget.reached) return asIs('synthesis skipped: budget reached');
  if (agent.failed) return asIs('synthesis skipped: the winning agent failed');
  const request: ModelRequest = {
    system: buildSynthesisSystemPrompt(agent.spec.systemMessage),
    messages: [
      {
        role: 'user',
        content: buildSynthesisUserMessage({ task: ctx.options.task, winnerLabel: agent.label, answers: ctx.board.current().map(toBoardEntry), reasons, tieBreak }),
      },
    ],
    tools: [],
    temperature: agent.spec.temperature,
    maxTokens: agent.spec.maxTokens,
  };
  try {
    const response = await callModel(ctx, agent, request, ctx.signal, 'final');
    const content = response.text.trim();
    if (!content) return asIs('synthesis returned no text');
    ctx.emit({ type: 'final_answer', agentId: answer.agentId, label: answer.label, content, mode: 'synthesize' });
    return content;
  } catch (err) {
    return asIs(`synthesis failed: ${asProviderError(err).message}`);
  }
}

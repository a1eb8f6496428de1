// A simulator of upstream MassGen's documented coordination policy (v0.1.12, reference §1.3, §1.7, §1.9, §1.13),
// driven by the same behaviours as our engine, so the two can be compared call for call and token for token:
//
//   * every agent without an open stream and without a vote is (re)started with a FRESH prompt: the coordination
//     system prompt + ORIGINAL MESSAGE + all current answers (full text), and the workflow tools;
//   * streams are never pre-empted; when several finish at the same moment they are handled as one batch;
//   * any new answer in a batch resets everything: every vote is dropped (votes staged in the same batch too), every
//     agent gets has_voted = false and restart_pending = true; a vote that finishes while restart_pending is set is
//     discarded and the agent restarted; the run ends when every agent has a vote;
//   * then the winner re-answers in a presentation call (counted separately).
//
// Charitable simplifications (each makes upstream look cheaper than it is): an agent at its answer cap votes (the
// later vote-only mode of upstream #724; v0.1.12 keeps offering new_answer and retries rejected calls), the
// update-injection bug that adds enforcement calls (§1.5) is left out, and answers are never rejected. Prompts use our
// own builders (same wording as upstream's templates), so prompt sizes differ only by policy.

import { coordinationTools } from '../../src/core/engine/coordination-tools';
import { buildCoordinationSystemPrompt, buildInitialUserMessage, buildSynthesisSystemPrompt, buildSynthesisUserMessage, type BoardEntry } from '../../src/core/engine/prompts';
import type { ModelRequest } from '../../src/core/providers/types';
import { durationMs, type Behaviour, type Decision } from './behaviours';

export interface SimOptions {
  task: string;
  n: number;
  behaviour: Behaviour;
  maxNewAnswersPerAgent: number | null;
  now: Date;
  duration?: (index: number, kind: Decision['kind']) => number;
}

export interface SimResult {
  /** [agentId, request] for every coordination call, in start order. */
  requests: [string, ModelRequest][];
  /** When each of `requests` was sent and when its stream began (a quarter in, as the scripted provider's), in the simulation's ms. */
  times: { start: number; ready: number }[];
  presentation: [string, ModelRequest];
  answers: number;
  /** Votes cast and then thrown away (restart pending, or a new answer in the same batch). */
  discardedVotes: number;
  winner: string;
}

interface SimAgent {
  id: string;
  label: string;
  index: number;
  answer: { content: string; version: number } | null;
  answerCount: number;
  hasVoted: boolean;
  vote: string | null;
  restartPending: boolean;
  stream: { end: number; decision: Decision } | null;
}

export function simulateUpstream(opts: SimOptions): SimResult {
  const duration = opts.duration ?? durationMs;
  const agents: SimAgent[] = Array.from({ length: opts.n }, (_, i) => ({
    id: `a${i + 1}`,
    label: `agent${i + 1}`,
    index: i,
    answer: null,
    answerCount: 0,
    hasVoted: false,
    vote: null,
    restartPending: true,
    stream: null,
  }));
  const labels = agents.map((a) => a.label);
  const board = (): BoardEntry[] => agents.flatMap((a) => (a.answer ? [{ label: a.label, versionLabel: `${a.label}.${a.answer.version}`, content: a.answer.content }] : []));
  const capReached = (a: SimAgent) => opts.maxNewAnswersPerAgent !== null && a.answerCount >= opts.maxNewAnswersPerAgent;
  const requests: [string, ModelRequest][] = [];
  const times: SimResult['times'] = [];
  let answers = 0;
  let discardedVotes = 0;
  let now = 0;

  for (let guard = 0; !agents.every((a) => a.hasVoted); guard++) {
    if (guard > 1_000_000) throw new Error('upstream simulation does not terminate');
    const entries = board();
    for (const a of agents) {
      if (a.stream || a.hasVoted) continue;
      const voteOnly = capReached(a);
      const decision = opts.behaviour({ label: a.label, visible: new Map(entries.map((e) => [e.label, e.content])), ownAnswers: a.answerCount, voteOnly });
      requests.push([
        a.id,
        {
          system: buildCoordinationSystemPrompt({ votingSensitivity: 'lenient', noveltyRequirement: 'lenient', now: opts.now, voteOnly }),
          messages: [{ role: 'user', content: buildInitialUserMessage(opts.task, entries) }],
          tools: coordinationTools(labels, voteOnly),
        },
      ]);
      a.restartPending = false; // a fresh stream has seen everything there is
      const ms = duration(a.index, decision.kind);
      a.stream = { end: now + ms, decision };
      times.push({ start: now, ready: now + ms / 4 });
    }
    now = Math.min(...agents.flatMap((a) => (a.stream ? [a.stream.end] : [])));
    const batch = agents.filter((a) => a.stream && a.stream.end - now < 1e-9);
    let reset = false;
    const stagedAnswers: [SimAgent, string][] = [];
    const stagedVotes: [SimAgent, string][] = [];
    for (const a of batch) {
      const d = a.stream!.decision;
      a.stream = null;
      if (d.kind === 'answer') {
        stagedAnswers.push([a, d.content]);
        reset = true;
      } else if (a.restartPending) {
        discardedVotes++;
      } else {
        stagedVotes.push([a, d.target]);
      }
    }
    if (reset) {
      discardedVotes += stagedVotes.length;
      for (const a of agents) {
        a.hasVoted = false;
        a.vote = null;
        a.restartPending = true;
      }
    } else {
      for (const [a, target] of stagedVotes) {
        a.hasVoted = true;
        a.vote = target;
      }
    }
    for (const [a, content] of stagedAnswers) {
      a.answerCount++;
      a.answer = { content, version: a.answerCount };
      answers++;
    }
  }

  // Plurality, ties by config order; the winner re-answers with every answer and its vote reasons in front of it.
  const counts = new Map<string, number>();
  for (const a of agents) if (a.vote) counts.set(a.vote, (counts.get(a.vote) ?? 0) + 1);
  const best = Math.max(...counts.values());
  const winner = agents.find((a) => counts.get(a.label) === best)!;
  const presentation: ModelRequest = {
    system: buildSynthesisSystemPrompt(),
    messages: [
      {
        role: 'user',
        content: buildSynthesisUserMessage({ task: opts.task, winnerLabel: winner.label, answers: board(), reasons: agents.filter((a) => a.vote === winner.label).map(() => 'reason'), tieBreak: false }),
      },
    ],
    tools: [],
  };
  return { requests, times, presentation: [winner.id, presentation], answers, discardedVotes, winner: winner.id };
}

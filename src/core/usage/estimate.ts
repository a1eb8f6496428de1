// A pre-run estimate of calls, tokens and cost, so a user can see what a team will spend before starting it. It
// replays the engine's protocol (rounds of parallel turns, one conversation per agent that grows with the answers
// it is shown) on the real prompt templates, with every answer a fixed length, for two schedules: the cheapest run
// that can finish and the dearest one the limits allow.

import { DEFAULT_ORCHESTRATOR, type FinalAnswerMode, type Pricing } from '../config/types';
import { coordinationTools } from '../engine/coordination-tools';
import {
  buildCoordinationSystemPrompt, buildInitialUserMessage, buildSynthesisSystemPrompt, buildSynthesisUserMessage,
  buildUpdateMessage, COORDINATION_RESULTS, type BoardEntry,
} from '../engine/prompts';
import { costUsd, resolvePricing, type TokenCounts } from './cost';
import { CHARS_PER_TOKEN, DEFAULT_ANSWER_TOKENS } from './tokens';

/** A vote call: the label and a sentence of reason. */
export const VOTE_TOKENS = 60;

export interface EstimateAgent {
  id: string;
  model: string;
  /** The agent's configured price; null = known to have no per-token price (a VS Code chat model); omitted = look the model up. */
  pricing?: Pricing | null;
  /** Length of the agent's own system_message; the engine's coordination instructions and tools are added here. */
  systemPromptChars?: number;
}

export interface EstimateInput {
  agents: EstimateAgent[];
  question: string;
  maxNewAnswersPerAgent: number | null;
  maxRounds: number;
  expectedAnswerTokens?: number;
  finalAnswer: FinalAnswerMode;
}

export interface Range {
  min: number;
  max: number;
}

export interface CostRange extends Range {
  /** Some agents are unpriced: the figures cover the others only, so both are lower bounds. */
  partial: boolean;
  unpricedAgentIds: string[];
}

export interface RunEstimate {
  calls: Range;
  /** Every prompt token, cached ones included, as providers report them. */
  inputTokens: Range;
  outputTokens: Range;
  /** null when no agent is priced. */
  costUsd: CostRange | null;
  assumptions: string[];
}

/** Per round, per agent (config order): true = it gives a new answer, false = it votes. */
type Schedule = boolean[][];

const tokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
/** The prompt's CURRENT TIME; only its length matters. */
const PROMPT_TIME = new Date(2025, 0, 1);
// The tool results the engine appends after an accepted answer or vote.
const ANSWER_RECORDED = COORDINATION_RESULTS.answerRecorded('agent1.1');
const VOTE_RECORDED = COORDINATION_RESULTS.voteRecorded();

/** The agreeing team: everyone answers (nobody can vote on an empty board), then everyone votes, and votes agree. */
function cheapestSchedule(n: number, maxRounds: number): Schedule {
  return [Array(n).fill(true), ...(maxRounds >= 2 ? [Array(n).fill(false)] : [])];
}

/**
 * The dearest run the limits allow. A run goes on while some round brings a new answer, so it lasts longest when,
 * after the first round, revisions come one per round (everyone else votes and sees the vote go stale):
 * N × (cap − 1) + 2 rounds with a cap, up to the rounds cap. When the rounds cap binds first, answers are packed
 * into the early rounds instead: news that arrives early is re-read in every later prompt.
 */
function dearestSchedule(n: number, cap: number | null, maxRounds: number): Schedule {
  const schedule: Schedule = [Array(n).fill(true)];
  const spareByAgent: number[] = Array(n).fill(cap === null ? Infinity : cap - 1);
  let spare = cap === null ? Infinity : n * (cap - 1);
  const answerRounds = Math.min(maxRounds - 1, spare);
  for (let r = 1; r <= answerRounds; r++) {
    // Leave one answer for each later answer round.
    const answerCount = Math.min(n, spare - (answerRounds - r));
    const answering = new Set([...spareByAgent.keys()].sort((a, b) => spareByAgent[b] - spareByAgent[a] || a - b).slice(0, answerCount));
    schedule.push(spareByAgent.map((_, i) => answering.has(i)));
    for (const i of answering) spareByAgent[i]--;
    spare -= answerCount;
  }
  if (schedule.length < maxRounds) schedule.push(Array(n).fill(false));
  return schedule;
}

interface Figures extends TokenCounts {
  calls: number;
}

/** Replays a schedule; per agent, `cachedInputTokens` counts the part of each prompt that repeats its previous prompt. */
function replay(input: EstimateInput, schedule: Schedule, answerTokens: number): Figures[] {
  const n = input.agents.length;
  const labels = input.agents.map((_, i) => `agent${i + 1}`);
  const content = 'x'.repeat(answerTokens * CHARS_PER_TOKEN);
  const answerExchange = JSON.stringify({ content }).length + ANSWER_RECORDED.length;
  const voteExchange = VOTE_TOKENS * CHARS_PER_TOKEN + VOTE_RECORDED.length;
  const versions: number[] = Array(n).fill(0);
  const agents = input.agents.map((spec) => ({
    systemMessage: 'x'.repeat(spec.systemPromptChars ?? 0),
    seen: Array(n).fill(0) as number[],
    conversationChars: 0,
    previousPrompt: 0,
    previousVoteOnly: false,
    voted: false,
    figures: { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 } as Figures,
  }));
  for (const round of schedule) {
    // Turns in a round run in parallel, so each sees the board as it was when the round began.
    const board = [...versions];
    // `reader`: whose update it is; its own new answer is in its conversation, so the board lists it by reference.
    const entries = (show: (j: number) => boolean, reader = -1): BoardEntry[] =>
      labels.flatMap((label, j) => (board[j] > 0 && show(j) ? [{ label, versionLabel: `${label}.${board[j]}`, content, ...(j === reader ? { own: true } : {}) }] : []));
    round.forEach((answers, i) => {
      const agent = agents[i];
      const f = agent.figures;
      const voteOnly = input.maxNewAnswersPerAgent !== null && board[i] >= input.maxNewAnswersPerAgent;
      const user = f.calls === 0
        ? buildInitialUserMessage(input.question, entries(() => true))
        : buildUpdateMessage(entries((j) => board[j] !== agent.seen[j], i), entries((j) => board[j] === agent.seen[j]), { voteOnly, voted: agent.voted });
      const system = buildCoordinationSystemPrompt({
        systemMessage: agent.systemMessage,
        votingSensitivity: DEFAULT_ORCHESTRATOR.votingSensitivity,
        noveltyRequirement: DEFAULT_ORCHESTRATOR.answerNoveltyRequirement,
        now: PROMPT_TIME,
        voteOnly,
      });
      const prompt = tokens(system.length + JSON.stringify(coordinationTools(labels, voteOnly)).length + agent.conversationChars + user.length);
      // The conversation only grows, so the previous request is a prefix of this one, unless the system prompt changed.
      if (f.calls > 0 && voteOnly === agent.previousVoteOnly) f.cachedInputTokens += agent.previousPrompt;
      f.calls++;
      f.inputTokens += prompt;
      f.outputTokens += answers ? answerTokens : VOTE_TOKENS;
      agent.conversationChars += user.length + (answers ? answerExchange : voteExchange);
      agent.previousPrompt = prompt;
      agent.previousVoteOnly = voteOnly;
      agent.voted = !answers;
      agent.seen = board;
    });
    round.forEach((answers, i) => { if (answers) versions[i]++; });
  }
  return agents.map((a) => a.figures);
}

/** The winner's synthesis call: all N answers and the vote reasons, no tools. */
function synthesisCall(input: EstimateInput, agent: EstimateAgent, answerTokens: number): Figures {
  const content = 'x'.repeat(answerTokens * CHARS_PER_TOKEN);
  const answers = input.agents.map((_, i) => ({ label: `agent${i + 1}`, versionLabel: `agent${i + 1}.1`, content }));
  const system = buildSynthesisSystemPrompt('x'.repeat(agent.systemPromptChars ?? 0));
  const user = buildSynthesisUserMessage({
    task: input.question,
    winnerLabel: 'agent1',
    answers,
    reasons: input.agents.map(() => 'x'.repeat(VOTE_TOKENS * CHARS_PER_TOKEN)),
    tieBreak: false,
  });
  return { calls: 1, inputTokens: tokens(system.length + user.length), cachedInputTokens: 0, outputTokens: answerTokens };
}

const sum = (figures: Figures[], key: keyof Figures) => figures.reduce((total, f) => total + f[key], 0);

export function estimateRun(input: EstimateInput): RunEstimate {
  const n = input.agents.length;
  if (n === 0) throw new Error('estimateRun needs at least one agent.');
  const answerTokens = input.expectedAnswerTokens ?? DEFAULT_ANSWER_TOKENS;
  const cheapest = cheapestSchedule(n, input.maxRounds);
  const dearest = dearestSchedule(n, input.maxNewAnswersPerAgent, input.maxRounds);
  const low = replay(input, cheapest, answerTokens);
  const high = replay(input, dearest, answerTokens);
  const synthesize = input.finalAnswer === 'synthesize';
  const synthesis = synthesize ? input.agents.map((a) => synthesisCall(input, a, answerTokens)) : [];
  const synthesisTokens = synthesis.map((f) => f.inputTokens);

  const pricing = input.agents.map((a) => (a.pricing === null ? null : resolvePricing(a.model, a.pricing)));
  const unpricedAgentIds = input.agents.filter((_, i) => !pricing[i]).map((a) => a.id);
  // Unpriced agents add nothing known: the figures are then the priced part only.
  const known = (f: Figures, i: number, cached: boolean) => {
    const p = pricing[i];
    return p ? costUsd(cached ? f : { ...f, cachedInputTokens: 0 }, p) : 0;
  };
  const synthesisCosts = synthesis.map((f, i) => known(f, i, false));
  const pricedSynthesisCosts = synthesisCosts.filter((_, i) => pricing[i]);

  const assumptions = [
    `Tokens are estimated as characters / ${CHARS_PER_TOKEN}; code and non-English text usually take more.`,
    `Each answer is about ${answerTokens} tokens and each vote about ${VOTE_TOKENS}. Hidden reasoning tokens (o-series, GPT-5, extended thinking) are billed as output and are not included.`,
    `Minimum: every agent answers once${input.maxRounds >= 2 ? ', then every agent votes for the same answer' : ' (the rounds cap allows no voting round)'}.`,
    `Maximum: ${count(dearest.length, 'round')} of ${count(n, 'turn')} (every new answer sends the others back for another turn; `
      + `${input.maxNewAnswersPerAgent === null ? 'no answer cap' : `at most ${count(input.maxNewAnswersPerAgent, 'answer')} per agent`}, at most ${count(input.maxRounds, 'round')}), `
      + `${dearest.length > 1 && dearest[dearest.length - 1].every((answers) => !answers) ? 'then a voting round' : 'ending at the rounds cap without a vote'}.`,
    'Retries after errors, re-prompts when a model calls neither vote nor new_answer, and file or MCP tool steps are not counted; each adds a call that re-sends the conversation.',
    'The maximum keeps every agent\'s whole conversation (context_compaction: never); with the default, a revised answer starts a fresh prompt, so real runs cost less.',
    ...(synthesize ? ['Synthesis adds one call by the winner: the cheapest agent for the minimum, the dearest for the maximum.'] : []),
    'Minimum cost counts every repeat of an agent\'s previous prompt as a cache hit; maximum cost counts none. Anthropic cache writes (1.25× input) are priced as input.',
    ...(unpricedAgentIds.length === 0 ? [] : unpricedAgentIds.length === n
      ? ['No agent\'s model has a known price: set backend.pricing to estimate cost.']
      : [`No known price for ${unpricedAgentIds.join(', ')}: cost covers the other agents only (a lower bound); set backend.pricing to include them.`]),
  ];

  return {
    calls: { min: sum(low, 'calls') + (synthesize ? 1 : 0), max: sum(high, 'calls') + (synthesize ? 1 : 0) },
    inputTokens: {
      min: sum(low, 'inputTokens') + (synthesize ? Math.min(...synthesisTokens) : 0),
      max: sum(high, 'inputTokens') + (synthesize ? Math.max(...synthesisTokens) : 0),
    },
    outputTokens: { min: sum(low, 'outputTokens') + (synthesize ? answerTokens : 0), max: sum(high, 'outputTokens') + (synthesize ? answerTokens : 0) },
    costUsd: unpricedAgentIds.length === n ? null : {
      min: low.reduce((total, f, i) => total + known(f, i, true), 0) + (synthesize ? Math.min(...synthesisCosts) : 0),
      max: high.reduce((total, f, i) => total + known(f, i, false), 0) + (synthesize ? Math.max(...pricedSynthesisCosts) : 0),
      partial: unpricedAgentIds.length > 0,
      unpricedAgentIds,
    },
    assumptions,
  };
}

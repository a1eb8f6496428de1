// Keeping each prompt inside its model's context window, before the request is sent: a 5 MB answer must not make
// every peer's next call fail. When a prompt would not fit, the agent's conversation starts afresh from the current
// board with the other answers shortened to a fair share of the room (each with a note), and `read_answer` is
// offered to read any of them whole, a piece at a time. Only when even that cannot fit does the agent fail, saying
// why. (Upstream compresses after a context error; this prevents the error.)

import { z } from 'zod';
import type { ModelRequest, ToolCall, ToolSpec } from '../providers/types';
import { parseArguments } from '../tools/arguments';
import { CHARS_PER_TOKEN } from '../usage/tokens';
import { toBoardEntry } from './board';
import { estimatePromptTokens } from './budget';
import { withKeptNotes } from './conversation';
import { buildInitialUserMessage, CONTEXT_TEXTS, formatShortened, type BoardEntry } from './prompts';
import type { AgentRuntime, RunContext } from './run-context';
import { READ_ANSWER } from './tool-names';

/** Output room kept free when the agent sets no max_tokens (a quarter of a small window at most). */
export const OUTPUT_RESERVE_TOKENS = 4096;
/** The estimate is chars / 4: keep a margin for tokenizers that count more. */
const SAFETY = 0.85;
/** The share of a shortened prompt's room its answers get; the rest is left for reading them (read_answer). */
const ANSWERS_SHARE = 0.6;
/** Below this many characters per answer, a shortened board says too little to vote on. */
const MIN_CHARS_PER_ANSWER = 400;
/** Characters one read_answer call returns at most (less when the agent's window has less room left). */
export const READ_ANSWER_CHUNK_CHARS = 12_000;
const MIN_PIECE_CHARS = 1_000;

export function windowOf(agent: AgentRuntime): number | undefined {
  return agent.spec.contextWindow ?? agent.spec.provider.contextWindow;
}

/** Tokens the request may use for its prompt in this window (the rest is the output's). */
function promptRoom(agent: AgentRuntime, window: number): number {
  return Math.floor(window * SAFETY) - (agent.spec.maxTokens ?? Math.min(OUTPUT_RESERVE_TOKENS, Math.floor(window / 4)));
}

export function fits(request: ModelRequest, agent: AgentRuntime, window: number): boolean {
  return estimatePromptTokens(request) <= promptRoom(agent, window);
}

/**
 * Each answer's share of `room` characters: short answers keep all they have, and what they leave is shared by the
 * long ones (water-filling), so one huge answer is cut and the others stay whole where possible.
 */
export function shareRoom(lengths: readonly number[], room: number): number[] {
  const shares = lengths.map(() => 0);
  let left = room;
  const order = lengths.map((len, i) => ({ len, i })).sort((a, b) => a.len - b.len);
  order.forEach(({ len, i }, k) => {
    const fair = Math.floor(left / (order.length - k));
    shares[i] = Math.min(len, fair);
    left -= shares[i];
  });
  return shares;
}

/**
 * Rebuilds the agent's conversation as a fresh prompt whose answers are shortened to fit `window`; false when even
 * that cannot fit (the task and instructions alone are too large).
 */
export function refit(ctx: RunContext, agent: AgentRuntime, window: number, requestWithout: (messages: ModelRequest['messages']) => ModelRequest): boolean {
  const current = ctx.board.current();
  // Offered from now on, so its definition is counted in the room it leaves.
  agent.conversation.offerReadAnswer();
  const prompt = (entries: BoardEntry[]) => `${withKeptNotes(agent, buildInitialUserMessage(ctx.options.task, entries))}\n\n${CONTEXT_TEXTS.shortenedNote}`;
  const bare = requestWithout([{ role: 'user', content: prompt(current.map((a) => ({ ...toBoardEntry(a), content: '' }))) }]);
  const roomChars = Math.floor((promptRoom(agent, window) - estimatePromptTokens(bare)) * CHARS_PER_TOKEN * ANSWERS_SHARE) - current.length * CONTEXT_TEXTS.noteChars;
  if (current.length > 0 && roomChars < MIN_CHARS_PER_ANSWER * current.length) return false;
  if (current.length === 0 && roomChars < 0) return false;
  const shares = shareRoom(current.map((a) => a.content.length), roomChars);
  const entries: BoardEntry[] = current.map((a, i) => {
    const entry = toBoardEntry(a);
    return shares[i] < a.content.length ? { ...entry, content: formatShortened(a.agentLabel, a.content, shares[i]) } : entry;
  });
  agent.conversation.startAfresh({ role: 'user', content: prompt(entries) }, { shortened: true });
  agent.conversation.markSeen(current, ctx.board.revision);
  return true;
}

export function readAnswerTool(labels: string[]): ToolSpec {
  return {
    name: READ_ANSWER,
    description: CONTEXT_TEXTS.readAnswerDescription(READ_ANSWER_CHUNK_CHARS),
    parameters: {
      type: 'object',
      properties: {
        agent_id: { type: 'string', enum: labels, description: 'Whose current answer to read, e.g. "agent1"' },
        start: { type: 'integer', minimum: 0, description: 'Character offset to read from (default 0)' },
      },
      required: ['agent_id'],
    },
  };
}

/** read_answer's arguments, validated by the tool kit; an unknown agent_id is answered with the answers that exist. */
const READ_ANSWER_ARGS = z.object({ agent_id: z.string(), start: z.int().min(0).optional() });

/** Characters a read_answer piece may take: what the agent's window has left after its last prompt, with a margin. */
function pieceChars(agent: AgentRuntime): number {
  const window = windowOf(agent);
  if (!window) return READ_ANSWER_CHUNK_CHARS;
  const left = (promptRoom(agent, window) - agent.promptTokens) * CHARS_PER_TOKEN * 0.8;
  return Math.max(MIN_PIECE_CHARS, Math.min(READ_ANSWER_CHUNK_CHARS, Math.floor(left)));
}

/** One piece of an agent's current answer, with where the next piece starts. Never throws. */
export function readAnswer(ctx: RunContext, agent: AgentRuntime, call: ToolCall): { ok: boolean; content: string } {
  const parsed = parseArguments(READ_ANSWER, call.arguments, READ_ANSWER_ARGS, '{"agent_id": "agent1", "start": 0}');
  if (!parsed.ok) return parsed.result;
  const { args } = parsed;
  const target = ctx.agents.find((a) => a.label === args.agent_id);
  const answer = target && ctx.board.latest(target.spec.id);
  if (!answer) return { ok: false, content: CONTEXT_TEXTS.noSuchAnswer(String(args.agent_id), ctx.board.current().map((a) => a.agentLabel)) };
  const start = args.start ?? 0;
  const piece = answer.content.slice(start, start + pieceChars(agent));
  const next = start + piece.length;
  return { ok: true, content: `${piece}${CONTEXT_TEXTS.pieceNote(answer.label, start, next, answer.content.length)}` };
}

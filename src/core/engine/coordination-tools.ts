// The two coordination tools (names and argument names as upstream: prompts and users rely on them) and the pure
// validation of one model response against the protocol's rules. Every tool call gets an answer, so providers
// that require a result per call id never reject the next request.

import { isDeepStrictEqual } from 'node:util';
import type { Sensitivity } from '../config/types';
import type { ToolCall, ToolSpec } from '../providers/types';
import { findTooSimilar } from './novelty';
import { NEW_ANSWER, VOTE } from './tool-names';
import { COORDINATION_RESULTS as R } from './prompts';
import { errorMessage } from '../util/errors';

export { NEW_ANSWER, VOTE } from './tool-names';

export function coordinationTools(allLabels: string[], voteOnly: boolean): ToolSpec[] {
  const vote: ToolSpec = {
    name: VOTE,
    description: 'Vote for the best agent to present final answer',
    parameters: {
      type: 'object',
      properties: {
        agent_id: { type: 'string', enum: allLabels, description: 'Anonymous id of the agent whose answer is best, e.g. "agent1"' },
        reason: { type: 'string', description: 'Brief reason why this agent has the best answer' },
      },
      required: ['agent_id', 'reason'],
    },
  };
  if (voteOnly) return [vote];
  const newAnswer: ToolSpec = {
    name: NEW_ANSWER,
    description: 'Provide an improved answer to the ORIGINAL MESSAGE',
    parameters: {
      type: 'object',
      properties: {
        content: {
          type: 'string',
          description: 'Your improved answer. If any builtin tools like search or code execution were used, mention how they are used here.',
        },
      },
      required: ['content'],
    },
  };
  return [newAnswer, vote];
}

export interface ValidationContext {
  /** agentK labels that currently have an answer, in config order. */
  labelsWithAnswers: string[];
  /** Every label in the run (agent1..agentN). */
  allLabels: string[];
  /**
   * The latest answer of each agent, by label, for the duplicate and novelty checks; `seen`: shown to this agent;
   * `changeId`: in a workspace run, the id of the change the answer carries.
   */
  currentAnswers: { label: string; content: string; seen?: boolean; changeId?: string }[];
  /** In a workspace run, the id of the change this response's answer would carry (the agent's copy as it is now). */
  changeId?: string;
  /** The agent's answer cap is reached; `new_answer` is refused. */
  capReached: boolean;
  maxNewAnswers: number | null;
  novelty: Sensitivity;
  /** Names of other tools the agent has (MCP, file tools); calls to them are executed, not validated here. */
  otherTools: ReadonlySet<string>;
  /**
   * Labels without an answer of their own whose latest `new_answer` was refused as the same as another label's
   * answer: a vote naming one of them is a vote for that answer (models and scripts that vote "agent1" by habit
   * would otherwise fail every attempt when agent1's identical answer lost the race to be first).
   */
  sameAs?: ReadonlyMap<string, string>;
}

export type ResponseVerdict =
  /** `repeats`: the same call sent again in the response, counted once; each still gets its result. */
  | { kind: 'answer'; call: ToolCall; content: string; repeats?: ToolCall[] }
  /** `unseenTarget`: the target is an answer the agent was not shown, the same word for word as its own `new_answer`. */
  | { kind: 'vote'; call: ToolCall; targetLabel: string; reason: string; note?: string; unseenTarget?: boolean; repeats?: ToolCall[] }
  /** Calls to non-coordination tools, to be executed before the model continues. */
  | { kind: 'tools'; calls: ToolCall[] }
  /** Something is wrong: answer every call with its result and ask again. `sameAs`: the answer was refused as the
   * same as (or too close to) this label's. */
  | { kind: 'invalid'; results: { call: ToolCall; content: string }[]; summary: string; sameAs?: string }
  /** No tool call at all: send the enforcement message. */
  | { kind: 'none' };

type Parsed = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

function parseArgs(call: ToolCall): Parsed {
  const raw = call.arguments.trim() === '' ? '{}' : call.arguments;
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, args: value as Record<string, unknown> };
    return { ok: false, error: R.argumentsNotObject(call.name) };
  } catch (err) {
    return { ok: false, error: R.argumentsNotJson(call.name, errorMessage(err)) };
  }
}

/** Accepts `agent2`, `Agent2`, ` agent2 ` and a bare `2`; models vary in how literally they follow the enum. */
export function normaliseLabel(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return `agent${value}`;
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  if (/^\d+$/.test(v)) return `agent${Number(v)}`;
  const m = /^<?agent\s*(\d+)>?$/.exec(v);
  return m ? `agent${Number(m[1])}` : undefined;
}

function invalid(calls: ToolCall[], perCall: (call: ToolCall) => string, summary: string, sameAs?: string): ResponseVerdict {
  return { kind: 'invalid', results: calls.map((call) => ({ call, content: perCall(call) })), summary, ...(sameAs ? { sameAs } : {}) };
}

/** The arguments as parsed JSON, or their raw text when they are not JSON. */
function argumentsValue(call: ToolCall): unknown {
  try {
    return JSON.parse(call.arguments.trim() === '' ? '{}' : call.arguments);
  } catch {
    return call.arguments;
  }
}

/**
 * The response's coordination calls beyond the first when they are all the same call (same tool, arguments equal as
 * JSON): llama.cpp often sends one call twice despite parallel_tool_calls false. Otherwise none: calls that differ
 * stay a protocol error.
 */
export function repeatedCalls(toolCalls: ToolCall[]): ToolCall[] {
  const [first, ...rest] = toolCalls.filter((c) => c.name === VOTE || c.name === NEW_ANSWER);
  if (!first || rest.length === 0) return [];
  const args = argumentsValue(first);
  return rest.every((c) => c.name === first.name && isDeepStrictEqual(argumentsValue(c), args)) ? rest : [];
}

/** The verdict on the response without its repeated calls, with a result for each of those too, in call order. */
function withRepeats(verdict: ResponseVerdict, repeats: ToolCall[], toolCalls: ToolCall[]): ResponseVerdict {
  switch (verdict.kind) {
    case 'answer':
    case 'vote':
      return { ...verdict, repeats };
    case 'invalid': {
      const results = [...verdict.results, ...repeats.map((call) => ({ call, content: R.repeatedCall(call.name) }))];
      return { ...verdict, results: results.sort((a, b) => toolCalls.indexOf(a.call) - toolCalls.indexOf(b.call)) };
    }
    default:
      return verdict;
  }
}

export function validateResponse(toolCalls: ToolCall[], ctx: ValidationContext): ResponseVerdict {
  if (toolCalls.length === 0) return { kind: 'none' };
  const repeats = repeatedCalls(toolCalls);
  if (repeats.length > 0) return withRepeats(validateResponse(toolCalls.filter((c) => !repeats.includes(c)), ctx), repeats, toolCalls);
  const votes = toolCalls.filter((c) => c.name === VOTE);
  const answers = toolCalls.filter((c) => c.name === NEW_ANSWER);
  const others = toolCalls.filter((c) => c.name !== VOTE && c.name !== NEW_ANSWER);
  const unknown = others.filter((c) => !ctx.otherTools.has(c.name));
  const coordinationNames = ctx.capReached ? '`vote`' : '`new_answer`, `vote`';

  if (unknown.length > 0) {
    const names = unknown.map((c) => c.name).join(', ');
    const available = [...(ctx.capReached ? [VOTE] : [NEW_ANSWER, VOTE]), ...ctx.otherTools].join(', ');
    return invalid(
      toolCalls,
      (c) => (unknown.includes(c) ? R.unknownTool(c.name, available) : R.notRunBesideUnknownTool),
      `unknown tool ${names}`,
    );
  }
  if (votes.length === 0 && answers.length === 0) return { kind: 'tools', calls: others };
  if (others.length > 0) {
    return invalid(
      toolCalls,
      (c) => (others.includes(c) ? R.otherToolsFirst(coordinationNames) : R.coordinationAlone(coordinationNames)),
      'coordination call mixed with other tools',
    );
  }
  if (votes.length > 0 && answers.length > 0) {
    return invalid(toolCalls, () => R.voteAndAnswer, 'both vote and new_answer');
  }
  if (votes.length > 1) {
    return invalid(toolCalls, (c) => (c === votes[0] ? R.multipleVotes(votes.length) : R.extraVote), 'multiple votes');
  }
  if (answers.length > 1) {
    return invalid(toolCalls, (c) => (c === answers[0] ? R.multipleAnswers(answers.length) : R.extraAnswer), 'multiple answers');
  }
  const call = toolCalls[0];
  const parsed = parseArgs(call);
  if (!parsed.ok) {
    const example = call.name === VOTE ? '{"agent_id": "agent1", "reason": "..."}' : '{"content": "..."}';
    return invalid([call], () => R.callAgainLike(parsed.error, call.name, example), 'malformed arguments');
  }
  return call.name === VOTE ? validateVote(call, parsed.args, ctx) : validateAnswer(call, parsed.args, ctx);
}

function validateVote(call: ToolCall, args: Record<string, unknown>, ctx: ValidationContext): ResponseVerdict {
  if (ctx.labelsWithAnswers.length === 0) {
    return invalid([call], () => R.voteBeforeAnswers, 'vote before any answer');
  }
  const label = normaliseLabel(args.agent_id);
  const reason = typeof args.reason === 'string' ? args.reason.trim() : '';
  const alias = label === undefined ? undefined : ctx.sameAs?.get(label);
  if (label && alias && !ctx.labelsWithAnswers.includes(label) && ctx.labelsWithAnswers.includes(alias)) {
    return { kind: 'vote', call, targetLabel: alias, reason, note: R.voteCountsForCopy(label, alias) };
  }
  if (!label || !ctx.labelsWithAnswers.includes(label)) {
    const shown = typeof args.agent_id === 'string' ? args.agent_id : JSON.stringify(args.agent_id ?? null);
    return invalid([call], () => R.invalidAgentId(shown, ctx.labelsWithAnswers), `invalid agent_id ${shown}`);
  }
  return { kind: 'vote', call, targetLabel: label, reason };
}

function validateAnswer(call: ToolCall, args: Record<string, unknown>, ctx: ValidationContext): ResponseVerdict {
  const content = typeof args.content === 'string' ? args.content.trim() : '';
  // An answer is its text plus its change: the same words over a different change are a different answer.
  const sameChange = ctx.currentAnswers.filter((a) => a.changeId === ctx.changeId);
  const duplicate = content === '' ? undefined : sameChange.find((a) => a.content.trim() === content);
  // Sending back, word for word, an answer on the board is endorsing it: a vote, over the answer cap too. Models that
  // cannot let go of `new_answer` (small local ones, scripted fakes) would otherwise be refused until they fail. An
  // answer the agent was not shown counts when it is all the agent has not seen: it reached the same answer on its
  // own, and being told to "provide a different answer" made small models invent a wrong one.
  if (duplicate && (duplicate.seen || ctx.currentAnswers.every((a) => a.seen || a === duplicate))) {
    const vote = { kind: 'vote' as const, call, targetLabel: duplicate.label, reason: R.sameAnswerReason(duplicate.label), note: R.sameAnswerIsVote(duplicate.label) };
    return duplicate.seen ? vote : { ...vote, unseenTarget: true };
  }
  if (ctx.capReached) {
    return invalid([call], () => R.answerCap(ctx.maxNewAnswers), 'answer cap reached');
  }
  if (content === '') {
    return invalid([call], () => R.emptyAnswer, 'empty answer');
  }
  if (duplicate) {
    return invalid([call], () => R.duplicateAnswer(duplicate.label), `duplicate of ${duplicate.label}`, duplicate.label);
  }
  const similar = findTooSimilar(content, sameChange, ctx.novelty);
  if (similar) {
    const pct = Math.round(similar.similarity * 100);
    const limit = Math.round(similar.threshold * 100);
    return invalid([call], () => R.tooSimilar(pct, similar.label, limit), `too similar to ${similar.label} (${pct}%)`, similar.label);
  }
  return { kind: 'answer', call, content };
}

const TEXT_CALL_NAMES = new Set([NEW_ANSWER, VOTE]);
const MAX_TEXT_SCAN = 200_000;

/** Each top-level `{...}` span in the text, in order, with string literals respected. */
function jsonObjectSpans(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"' && depth > 0) inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && depth > 0 && --depth === 0) spans.push(text.slice(start, i + 1));
  }
  return spans;
}

/**
 * Coordination calls written as JSON in the reply text (upstream's format for tool-less backends:
 * `{"tool_name": "vote", "arguments": {...}}`; `name`/`tool` and `parameters`/`input` are accepted too).
 * Only `new_answer` and `vote` are recognised, so ordinary JSON in an answer is never mistaken for a call.
 */
export function parseTextToolCalls(text: string, idPrefix: string): ToolCall[] {
  if (!text.includes('{') || text.length > MAX_TEXT_SCAN) return [];
  const calls: ToolCall[] = [];
  for (const span of jsonObjectSpans(text)) {
    let value: unknown;
    try {
      value = JSON.parse(span);
    } catch {
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    const obj = value as Record<string, unknown>;
    const name = obj.tool_name ?? obj.name ?? obj.tool;
    const args = obj.arguments ?? obj.parameters ?? obj.input ?? {};
    if (typeof name !== 'string' || !TEXT_CALL_NAMES.has(name)) continue;
    calls.push({ id: `${idPrefix}_${calls.length}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
  }
  return calls;
}

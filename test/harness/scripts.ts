// Scripted models behind the real Claude Code and Codex programs: each fake server plays one agent, and decides its
// reply from what the program sent (the request's messages or input items), as the real model would from its context.
// A turn is a short list (maybe empty) of the program's own tool calls, then `new_answer`, then a line of text; every
// later turn (the coordinator's next message) is a vote.

import type { FakeAnthropicBody, FakeAnthropicBlock, FakeAnthropicStreamReply } from '../fakes/anthropic-server';
import type { FakeResponsesBody, FakeResponsesStreamReply } from '../fakes/openai-responses-server';

/** One of the program's own tool calls, given the agent's folder (absolute paths, as the programs want them). */
export type Step = (folder: string) => { name: string; input: Record<string, unknown> };

export interface ProgramScript {
  steps: Step[];
  answer: string;
  voteFor: string;
  /** The `read_file` arguments it reads through the massgen server before it votes. */
  readBeforeVote?: Record<string, unknown>;
}

const blocks = (content: string | FakeAnthropicBlock[]): FakeAnthropicBlock[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

/** What Claude Code sent, as the script reads it: its folder, and the tools the last message answers (if any). */
function readClaude(body: FakeAnthropicBody) {
  const all = body.messages.flatMap((m) => blocks(m.content).map((b) => ({ role: m.role, b })));
  const folder = /Primary working directory: (\S+)/.exec(JSON.stringify(body.messages[0]?.content ?? ''))?.[1]?.replace(/\\n.*$/, '') ?? '';
  const names = new Map(all.filter(({ b }) => b.type === 'tool_use').map(({ b }) => [b.id!, b.name!]));
  const last = blocks(body.messages[body.messages.length - 1].content);
  const answered = last.filter((b) => b.type === 'tool_result').map((b) => names.get(b.tool_use_id!) ?? '?');
  const calledNewAnswer = [...names.values()].includes('mcp__massgen__new_answer');
  return { folder, answered, calledNewAnswer, results: all.filter(({ b }) => b.type === 'tool_result').map(({ b }) => b) };
}

const vote = (script: ProgramScript) => ({ name: 'mcp__massgen__vote', input: { agent_id: script.voteFor, reason: 'its change passes the tests' } });

/** The reply of Claude Code's model to one request. */
export function claudeReply(script: ProgramScript, body: FakeAnthropicBody): FakeAnthropicStreamReply {
  const { folder, answered, calledNewAnswer } = readClaude(body);
  const usage = { inputTokens: 1000, cacheReadInputTokens: 300, cacheCreationInputTokens: 20, outputTokens: 50 };
  if (answered.length > 0) {
    const done = answered[0];
    if (done === 'mcp__massgen__new_answer' || done === 'mcp__massgen__vote') return { text: 'Done.', usage };
    if (done === 'mcp__massgen__read_file') return { toolCalls: [vote(script)], usage };
    // Which step was answered: the one after it comes next.
    const ownCalls = body.messages.flatMap((m) => blocks(m.content)).filter((b) => b.type === 'tool_use' && !String(b.name).startsWith('mcp__')).length;
    const next = script.steps[ownCalls];
    if (next) {
      const { name, input } = next(folder);
      return { toolCalls: [{ name, input }], usage };
    }
    return { toolCalls: [{ name: 'mcp__massgen__new_answer', input: { content: script.answer } }], usage };
  }
  if (calledNewAnswer) return { toolCalls: [script.readBeforeVote ? { name: 'mcp__massgen__read_file', input: script.readBeforeVote } : vote(script)], usage };
  if (!script.steps[0]) return { toolCalls: [{ name: 'mcp__massgen__new_answer', input: { content: script.answer } }], usage };
  const { name, input } = script.steps[0](folder);
  return { toolCalls: [{ name, input }], usage };
}

/** Claude Code's tool results, in order, as its model saw them (for what its commands printed). */
export function claudeToolResults(bodies: FakeAnthropicBody[]): string[] {
  const last = bodies[bodies.length - 1];
  return last ? readClaude(last).results.map((b) => JSON.stringify(b.content)) : [];
}

interface InputItem {
  type?: string;
  role?: string;
  name?: string;
  call_id?: string;
  output?: unknown;
  [key: string]: unknown;
}

const codexVote = (script: ProgramScript) => ({ name: 'vote', namespace: 'mcp__massgen', arguments: { agent_id: script.voteFor, reason: 'its change passes the tests' } });

/** The reply of Codex's model to one request. */
export function codexReply(script: ProgramScript, body: FakeResponsesBody): FakeResponsesStreamReply {
  const items = (Array.isArray(body.input) ? body.input : []) as InputItem[];
  const usage = { inputTokens: 2000, cachedTokens: 500, outputTokens: 40 };
  const names = new Map(items.filter((i) => i.type === 'function_call').map((i) => [i.call_id!, i.name!]));
  const last = items[items.length - 1];
  if (last?.type === 'function_call_output') {
    const done = names.get(last.call_id!);
    if (done === 'new_answer' || done === 'vote') return { text: 'Done.', usage };
    if (done === 'read_file') return { toolCalls: [codexVote(script)], usage };
    const ownCalls = items.filter((i) => i.type === 'function_call' && i.namespace === undefined).length;
    const next = script.steps[ownCalls];
    if (next) {
      const { name, input } = next('');
      return { toolCalls: [{ name, arguments: input }], usage };
    }
    return { toolCalls: [{ name: 'new_answer', namespace: 'mcp__massgen', arguments: { content: script.answer } }], usage };
  }
  if ([...names.values()].includes('new_answer')) return { toolCalls: [script.readBeforeVote ? { name: 'read_file', namespace: 'mcp__massgen', arguments: script.readBeforeVote } : codexVote(script)], usage };
  if (!script.steps[0]) return { toolCalls: [{ name: 'new_answer', namespace: 'mcp__massgen', arguments: { content: script.answer } }], usage };
  const { name, input } = script.steps[0]('');
  return { toolCalls: [{ name, arguments: input }], usage };
}

/** What Codex's commands printed, in order (the outputs of its own tool calls). */
export function codexToolOutputs(bodies: FakeResponsesBody[]): string[] {
  const last = bodies[bodies.length - 1];
  const items = (last && Array.isArray(last.input) ? last.input : []) as InputItem[];
  return items.filter((i) => i.type === 'function_call_output').map((i) => JSON.stringify(i.output));
}

// Prompt size of a request with one rule for every policy: tokens = chars / 4 of the system prompt, every message
// (text, tool-call arguments, tool results) and the tool definitions. Also the part a provider's prefix cache could
// serve: the longest prefix shared with the same agent's previous request.

import { buildInitialUserMessage } from '../../src/core/engine/prompts';
import type { ModelRequest } from '../../src/core/providers/types';
import { commonPrefixLength } from '../../src/core/util/text';

/** The request as one string, in the order providers cache prompts: tools, system, then the messages. */
export function serialise(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): string {
  const parts = [JSON.stringify(request.tools), request.system];
  for (const m of request.messages) {
    if (m.role === 'assistant') parts.push(`assistant:${m.content}${(m.toolCalls ?? []).map((c) => `${c.name}(${c.arguments})`).join('')}`);
    else if (m.role === 'tool') parts.push(`tool:${m.name}:${m.content}`);
    else parts.push(`user:${m.content}`);
  }
  return parts.join('\n');
}

export const tokensOf = (chars: number): number => chars / 4;

export interface PromptTally {
  calls: number;
  /** Sum over requests of chars / 4. */
  promptTokens: number;
  /** The part of promptTokens not shared with the same agent's previous request (what a prefix cache cannot serve). */
  uncachedTokens: number;
  /** Prompt tokens of each request, per agent, in order. */
  perAgent: Map<string, number[]>;
}

/** Tallies requests given as [agentId, request] in the order each agent sent them. */
export function tally(requests: Iterable<[string, Pick<ModelRequest, 'system' | 'messages' | 'tools'>]>): PromptTally {
  const last = new Map<string, string>();
  const perAgent = new Map<string, number[]>();
  let calls = 0;
  let chars = 0;
  let uncached = 0;
  for (const [agent, request] of requests) {
    const text = serialise(request);
    calls++;
    chars += text.length;
    const prev = last.get(agent);
    uncached += text.length - (prev === undefined ? 0 : commonPrefixLength(prev, text));
    last.set(agent, text);
    if (!perAgent.has(agent)) perAgent.set(agent, []);
    perAgent.get(agent)!.push(tokensOf(text.length));
  }
  return { calls, promptTokens: tokensOf(chars), uncachedTokens: tokensOf(uncached), perAgent };
}

/**
 * The proposed compaction, applied to a request after the fact: when the conversation holds an answer more than
 * once (a superseded version, or the agent's own answer repeated back to it), it is rebuilt as a fresh start: the
 * ORIGINAL MESSAGE with the latest version of every answer it has seen, plus a one-line note of its own label.
 * Otherwise the request is left as it is. Returns chars/4.
 */
export function compactedTokens(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>, task: string): number {
  const block = /<(agent\d+)> ([\s\S]*?) <end of \1>/g;
  const latest = new Map<string, string>();
  let copies = 0;
  for (const m of request.messages) {
    if (m.role === 'assistant') {
      copies += (m.toolCalls ?? []).filter((c) => c.name === 'new_answer').length;
      continue;
    }
    for (const b of m.content.matchAll(block)) {
      copies++;
      latest.set(b[1], b[2]);
    }
  }
  const full = serialise(request).length;
  if (copies <= latest.size) return tokensOf(full);
  const board = [...latest.entries()].sort((a, b) => Number(a[0].slice(5)) - Number(b[0].slice(5))).map(([label, content]) => ({ label, versionLabel: label, content }));
  const note = 'Your own latest answer is the one under your label agentK above; your earlier turns were folded into this message.';
  const fresh = serialise({ system: request.system, tools: request.tools, messages: [{ role: 'user', content: `${buildInitialUserMessage(task, board)}\n\n${note}` }] }).length;
  return tokensOf(Math.min(full, fresh));
}

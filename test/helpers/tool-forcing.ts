// The rewrite that makes SmolLM2-135M on llama-server call a tool (the real-model study: with tool_choice "auto" it
// never does): tool_choice "required", one call per reply, and the assistant prefill "<tool_call>\n", which
// llama-server continues so that its grammar makes the reply one well-formed call of an offered tool. Forced so, the
// model calls `vote` before any answer exists, so while the latest board the prompt shows is empty `vote` is left out.
// Which of the other tools, and every argument, stay the model's. Pure: the proxies that apply it own the wire.
// Both systems show the empty board the same way: ours (src/core/engine/prompts.ts) and upstream MassGen 0.1.97
// (message_templates.py format_current_answers_empty) print BOARD then EMPTY_BOARD on the next line.

import { BOARD, EMPTY_BOARD } from '../../src/core/engine/prompts';

export const PREFILL = '<tool_call>\n';

export interface ChatBody {
  messages?: { role: string; content?: unknown }[];
  tools?: unknown[];
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
  [key: string]: unknown;
}

/** A message's text: a string, or the text parts of a content array (OpenAI's multi-part form). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : '')).join('\n');
  return '';
}

/** Whether the latest board the conversation shows is empty (no answer to vote for yet). */
export function boardIsEmpty(messages: NonNullable<ChatBody['messages']>): boolean {
  const text = messages.map((m) => textOf(m.content)).join('\n');
  const at = text.lastIndexOf(BOARD);
  return at >= 0 && text.slice(at + BOARD.length).trimStart().startsWith(EMPTY_BOARD);
}

const toolName = (tool: unknown) => (tool as { function?: { name?: string } }).function?.name;

/** The forced request for a chat-completions body that offers tools; undefined when there is nothing to force. */
export function forceToolCall(body: ChatBody): ChatBody | undefined {
  if (!body.tools?.length || !body.messages) return undefined;
  const tools = boardIsEmpty(body.messages) ? body.tools.filter((t) => toolName(t) !== 'vote') : body.tools;
  // One call per reply: SmolLM2 otherwise repeats the call, and two answers in one reply are refused.
  return { ...body, tools, tool_choice: 'required', parallel_tool_calls: false, messages: [...body.messages, { role: 'assistant', content: PREFILL }] };
}

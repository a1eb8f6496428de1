// The shape chat APIs without a tool role want a conversation in (Anthropic's Messages API, VS Code's chat models):
// alternating user and assistant turns, tool results inside user turns, and tool-call arguments as JSON objects.

import type { ChatMessage } from './types';

/** A turn as a list of API parts; user and assistant turns may hold different kinds of part. */
export type Turn<UserPart, AssistantPart> = { role: 'user'; parts: UserPart[] } | { role: 'assistant'; parts: AssistantPart[] };

/**
 * The messages as alternating turns: each message becomes a turn through `toTurn` (tool messages as user turns of
 * tool results), turns without parts are dropped, consecutive same-role turns are merged, and in each user turn the
 * tool results go first. Anthropic wants the results for an assistant's tool calls at the start of the very next user
 * turn, and the engine appends an update text after them.
 */
export function toTurns<UserPart, AssistantPart>(
  messages: readonly ChatMessage[],
  toTurn: (message: ChatMessage) => Turn<UserPart, AssistantPart>,
  isToolResult: (part: UserPart) => boolean,
): Turn<UserPart, AssistantPart>[] {
  const turns: Turn<UserPart, AssistantPart>[] = [];
  for (const message of messages) {
    const turn = toTurn(message);
    if (turn.parts.length === 0) continue;
    const last = turns[turns.length - 1];
    if (last?.role === 'user' && turn.role === 'user') last.parts.push(...turn.parts);
    else if (last?.role === 'assistant' && turn.role === 'assistant') last.parts.push(...turn.parts);
    else turns.push(turn);
  }
  for (const turn of turns) {
    if (turn.role === 'user') turn.parts = [...turn.parts.filter(isToolResult), ...turn.parts.filter((p) => !isToolResult(p))];
  }
  return turns;
}

/** The key under which tool-call arguments that are not a JSON object are replayed. */
export const RAW_ARGUMENTS_KEY = '_raw_arguments';

/**
 * The input of a replayed tool call, which these APIs require to be a JSON object. Arguments that parse to an object
 * are sent as such, empty arguments as `{}`, anything else (malformed JSON, an array, a bare value) as
 * `{ "_raw_arguments": "<the raw text>" }`, so the model still sees what it produced when it reads the tool result
 * that rejected it.
 */
export function toolInput(argumentsText: string): Record<string, unknown> {
  if (!argumentsText.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Fall through to the wrapped form.
  }
  return { [RAW_ARGUMENTS_KEY]: argumentsText };
}

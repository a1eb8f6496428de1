// A chat.completions request body as it arrived on the wire, read back into the engine's ModelRequest shape, so the
// bench's token rule (lib/tokens.ts), its cache billing (lib/billing.ts) and the behaviours' view (lib/behaviours.ts)
// apply to whatever system sent it: our CLI or upstream MassGen. Nothing is added or dropped but the wire's framing
// (model, stream flags): every system message, every turn, every tool definition is kept.

import type { FakeChatBody, FakeMessage } from '../../test/fakes/openai-server';
import type { ChatMessage, ModelRequest, ToolCall } from '../../src/core/providers/types';

/** A message's text: a string, or the text of its content parts (other parts as JSON, so they are still counted). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content)) return content.map((p: { type?: string; text?: string }) => (p?.type === 'text' && typeof p.text === 'string' ? p.text : JSON.stringify(p))).join('');
  return JSON.stringify(content);
}

/** The wire body as a ModelRequest: system messages joined (in order) into `system`, the rest as turns. */
export function requestOfWire(body: FakeChatBody): ModelRequest {
  const system: string[] = [];
  const messages: ChatMessage[] = [];
  const toolNames = new Map<string, string>();
  for (const m of body.messages as FakeMessage[]) {
    const text = contentText(m.content);
    if (m.role === 'system' || m.role === 'developer') system.push(text);
    else if (m.role === 'assistant') {
      const toolCalls: ToolCall[] = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      for (const c of toolCalls) toolNames.set(c.id, c.name);
      messages.push({ role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) });
    } else if (m.role === 'tool') {
      const id = String(m.tool_call_id ?? '');
      messages.push({ role: 'tool', toolCallId: id, name: toolNames.get(id) ?? String(m.name ?? ''), content: text });
    } else messages.push({ role: 'user', content: text });
  }
  const tools = (body.tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description ?? '', parameters: (t.function.parameters ?? {}) as Record<string, unknown> }));
  return { system: system.join('\n'), messages, tools };
}

/** Names of the tools the request offers. */
export function toolNames(body: FakeChatBody): string[] {
  return (body.tools ?? []).map((t) => t.function.name);
}

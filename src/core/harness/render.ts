// The engine's conversation as messages for a coding agent's program, which keeps its own session: the first message
// carries the whole conversation so far, later ones only what the engine added since (the results of the program's
// coordination calls, the board's updates, the user's notes). Its own replies are in its session already.

import type { ChatMessage } from '../providers/types';

/** Whether `messages` continues `conveyed` (the same message objects, then more): else the session starts over. */
export function continues(messages: readonly ChatMessage[], conveyed: readonly ChatMessage[]): boolean {
  return messages.length > conveyed.length && conveyed.every((m, i) => messages[i] === m);
}

function line(message: ChatMessage): string | null {
  switch (message.role) {
    case 'user':
      return message.content;
    case 'tool':
      return `[${message.name} result] ${message.content}`;
    case 'assistant':
      return null;
  }
}

/** What the engine added after the program's last turn: its replies are left out, the rest joined in order. */
export function followUp(added: readonly ChatMessage[]): string {
  return added.map(line).filter((l) => l !== null).join('\n\n');
}

/** The whole conversation for a new session; earlier replies of the agent are quoted as such. */
export function wholeConversation(messages: readonly ChatMessage[]): string {
  return messages
    .map((m) => {
      if (m.role !== 'assistant') return line(m);
      const calls = (m.toolCalls ?? []).map((c) => `${c.name}(${c.arguments})`).join(', ');
      const said = [m.content.trim(), calls && `called ${calls}`].filter(Boolean).join('; ');
      return said ? `[your earlier reply] ${said}` : null;
    })
    .filter((l) => l !== null)
    .join('\n\n');
}

// An agent's conversation: what it is shown of the board at each boundary (the whole board first, afterwards only
// what changed, or a fresh prompt when that is billed less, see deliverBoard) and the tool results it gets. User
// text is appended to a trailing user message when there is one, so roles keep alternating.

import type { ChatMessage, ToolCall } from '../providers/types';
import { rebuildPays } from '../usage/cache';
import { CHARS_PER_TOKEN } from '../usage/tokens';
import { commonPrefixLength } from '../util/text';
import { toBoardEntry, type AnswerVersion } from './board';
import { buildInitialUserMessage, buildUpdateMessage, formatNotes, noNewsMessage, revisedNote, type BoardEntry } from './prompts';
import type { AgentRuntime, RunContext } from './run-context';

export function toolResult(ctx: RunContext, agent: AgentRuntime, call: ToolCall, ok: boolean, content: string, textual = false): void {
  if (textual) agent.conversation.appendUserText(`[${call.name} result] ${content}`);
  else agent.conversation.append({ role: 'tool', toolCallId: call.id, name: call.name, content });
  ctx.emit({ type: 'tool_result', agentId: agent.spec.id, callId: call.id, name: call.name, ok, summary: content.slice(0, 500) });
}

/** A fresh prompt carries the notes the agent was already given: they are part of the task now. */
export function withKeptNotes(agent: AgentRuntime, prompt: string): string {
  const kept = [...agent.notes.kept, ...agent.notes.delivered];
  return kept.length ? `${prompt}\n\n${formatNotes(kept, false)}` : prompt;
}

/**
 * The user's notes waiting for the agent, appended at this boundary (each reaches it once; a failed turn puts back
 * the ones it had shown, see turn.ts).
 */
export function deliverNotes(ctx: RunContext, agent: AgentRuntime, via: 'next_turn' | 'tool_result'): void {
  const { pending } = agent.notes;
  if (pending.length === 0) return;
  const changesTask = pending.some((n) => ctx.notesChangingTask.has(n.id));
  agent.conversation.appendUserText(formatNotes(pending, changesTask));
  for (const n of pending) ctx.emit({ type: 'note_delivered', noteId: n.id, agentId: agent.spec.id, via });
  agent.notes.delivered.push(...pending);
  agent.notes.pending = [];
}

/**
 * Shows the agent what it has not seen: the whole board on its first turn, afterwards only the answers that
 * changed, appended, so each prompt starts with the one before it (what providers' prompt caches serve). At a turn
 * boundary the conversation may instead start afresh from the current board (unless compaction is off), when that
 * is billed less: after a revision of an answer it saw (it sheds the superseded versions), or when other agents on
 * its backend are starting turns too (they are all shown the same fresh prompt, whose start the provider's cache
 * then serves to all but the first, see prefix-gate.ts). With a prompt cache the carried conversation is billed at
 * the cached price, so a rebuild often costs more than it saves; rebuildPays weighs it.
 */
export function deliverBoard(ctx: RunContext, agent: AgentRuntime, via: 'next_turn' | 'tool_result'): void {
  const { board, options } = ctx;
  const { conversation } = agent;
  const current = board.current();
  const changed = current.filter((a) => conversation.seen.get(a.agentId) !== a.version);
  const unchanged = current.filter((a) => !changed.includes(a));
  const superseded = current.some((a) => (conversation.seen.get(a.agentId) ?? a.version) !== a.version);
  // Its own latest answer is in its conversation as its new_answer call unless that was rebuilt away (compaction,
  // a context-window refit): then, and in every fresh prompt, the board shows it in full.
  const call = conversation.answerCall;
  const ownInConversation = call !== null && call.version === board.latest(agent.spec.id)?.version && conversation.holds(call.message);
  const entry = (a: AnswerVersion): BoardEntry => (ownInConversation && a.agentId === agent.spec.id ? { ...toBoardEntry(a), own: true } : toBoardEntry(a));
  // Its last vote came after its latest answer (a vote sees the board, its own answer included).
  const voted = agent.lastVote !== null && agent.lastVote.seenRevision >= (board.latest(agent.spec.id)?.revision ?? 0);
  const update = () => buildUpdateMessage(changed.map(entry), unchanged.map(toBoardEntry), { voteOnly: ctx.capReached(agent), voted });
  // Only a turn boundary may start the conversation afresh; the board is rendered whole only when it might.
  const compactable = via === 'next_turn' && conversation.messages.length > 0 && options.orchestrator.contextCompaction !== 'never';
  const sharers = compactable && agent.spec.provider.promptCache && changed.length > 0 ? ctx.cachePeers(agent) + 1 : 1;
  const fresh = compactable && (superseded || sharers > 1) ? freshPrompt(ctx, agent, revisedNote({ revised: superseded, voted })) : null;
  if (conversation.messages.length === 0) {
    conversation.startAfresh(freshPrompt(ctx, agent));
  } else if (fresh && rebuildCheaper(ctx, agent, update(), fresh, sharers)) {
    conversation.startAfresh(fresh, { compacted: true });
    ctx.emit({ type: 'agent_updated', agentId: agent.spec.id, labels: changed.map((a) => a.label), via });
  } else {
    if (changed.length === 0 && via === 'tool_result') return;
    if (changed.length === 0) {
      conversation.appendUserText(noNewsMessage(ctx.capReached(agent)));
    } else {
      conversation.appendUserText(update());
      ctx.emit({ type: 'agent_updated', agentId: agent.spec.id, labels: changed.map((a) => a.label), via });
    }
  }
  conversation.markSeen(current, board.revision);
}

/**
 * The whole current board as the agent's one user turn: what every agent is shown alike first (the task and the
 * board, up to `sharedChars`), then what is its own (its kept notes and `note`).
 */
function freshPrompt(ctx: RunContext, agent: AgentRuntime, note?: string): FreshPrompt {
  const shared = buildInitialUserMessage(ctx.options.task, ctx.board.current().map(toBoardEntry));
  const content = withKeptNotes(agent, shared);
  return { role: 'user', content: note ? `${content}\n\n${note}` : content, sharedChars: shared.length };
}

type FreshPrompt = Extract<ChatMessage, { role: 'user' }> & { sharedChars: number };

const tokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

/**
 * Rebuilding from the board (`fresh`) against appending `update`, priced under the agent's provider cache (if
 * known); `sharers`: the agents expected to send the fresh prompt's shared start now (itself included).
 */
function rebuildCheaper(ctx: RunContext, agent: AgentRuntime, update: string, fresh: FreshPrompt, sharers: number): boolean {
  const last = agent.lastPrompt;
  if (!last) return true;
  const { messages } = agent.conversation;
  const conversation = messages.reduce((n, m) => n + m.content.length + (m.role === 'assistant' ? (m.toolCalls ?? []).reduce((k, c) => k + c.arguments.length, 0) : 0), 0);
  return rebuildPays(agent.spec.provider.promptCache, {
    stable: last.stable,
    sent: last.tokens,
    appended: last.stable + tokens(conversation + update.length),
    rebuilt: last.stable + tokens(fresh.content.length),
    shared: last.stable + tokens(fresh.sharedChars),
    rebuiltKept: last.stable + tokens(commonPrefixLength(fresh.content, messages[0]?.content ?? '')),
    sharers,
    prefixChanged: last.voteOnly !== ctx.capReached(agent),
  });
}

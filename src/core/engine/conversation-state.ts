// One agent's conversation and what it has been shown, owned in one place so a turn can be undone as a whole. A
// turn appends messages, may rebuild the conversation (compaction, a context-window refit) and marks answers seen;
// a failed turn restores the checkpoint taken before it, array and values alike. Messages are never edited in
// place: text added to a trailing user message replaces that message with a longer copy, so a checkpoint (which
// keeps the message objects) still holds the text as it was.

import type { ChatMessage } from '../providers/types';

/** Everything `restore` puts back; opaque to callers. */
export interface ConversationCheckpoint {
  readonly messages: readonly ChatMessage[];
  readonly seen: ReadonlyMap<string, number>;
  readonly seenRevision: number;
  readonly answerCall: AnswerCall | null;
  readonly compacted: boolean;
  readonly readsAnswers: boolean;
}

/** The assistant message of an accepted new_answer call, with the answer version it became. */
export interface AnswerCall {
  readonly version: number;
  readonly message: ChatMessage;
}

export class Conversation {
  private list: readonly ChatMessage[] = [];
  private seenVersions = new Map<string, number>();
  private revision = 0;
  private call: AnswerCall | null = null;
  private rebuilt = false;
  private reading = false;

  get messages(): readonly ChatMessage[] {
    return this.list;
  }

  /** Version of each agent's answer this agent has been shown. */
  get seen(): ReadonlyMap<string, number> {
    return this.seenVersions;
  }

  /** Board revision this agent has fully seen. */
  get seenRevision(): number {
    return this.revision;
  }

  /**
   * Its latest accepted new_answer call: while that message is still in the conversation, the board refers to the
   * answer instead of repeating it.
   */
  get answerCall(): AnswerCall | null {
    return this.call;
  }

  /** Rebuilt after revisions (compaction): the next revision will most likely rebuild it again. */
  get compacted(): boolean {
    return this.rebuilt;
  }

  /** Shortened to fit the context window: `read_answer` is offered from then on. */
  get readsAnswers(): boolean {
    return this.reading;
  }

  /** Whether `message` (by identity) is still in the conversation. */
  holds(message: ChatMessage): boolean {
    return this.list.includes(message);
  }

  append(message: ChatMessage): void {
    this.list = [...this.list, message];
  }

  /** User text joins a trailing user message (as a new, longer copy) so roles keep alternating; else a new one. */
  appendUserText(text: string): void {
    const last = this.list.at(-1);
    if (last?.role === 'user') this.list = [...this.list.slice(0, -1), { ...last, content: `${last.content}\n\n${text}` }];
    else this.append({ role: 'user', content: text });
  }

  /**
   * Starts afresh from `prompt`: `compacted` says why when it is a rebuild after revisions; `shortened` when it was cut
   * to the context window (read_answer is offered from then on).
   */
  startAfresh(prompt: ChatMessage, why: { compacted?: boolean; shortened?: boolean } = {}): void {
    this.list = [prompt];
    if (why.compacted) this.rebuilt = true;
    if (why.shortened) this.reading = true;
  }

  /** Offers read_answer from now on (a refit counts its definition in the room it leaves before it rebuilds). */
  offerReadAnswer(): void {
    this.reading = true;
  }

  /** The agent has been shown these answer versions, and the board up to `revision`. */
  markSeen(answers: readonly { agentId: string; version: number }[], revision: number): void {
    for (const a of answers) this.seenVersions.set(a.agentId, a.version);
    this.revision = revision;
  }

  /** Its own answer joined the board: only the revision moves (`seen` is left alone, see acceptAnswer). */
  markRevisionSeen(revision: number): void {
    this.revision = revision;
  }

  recordAnswerCall(version: number, message: ChatMessage): void {
    this.call = { version, message };
  }

  checkpoint(): ConversationCheckpoint {
    return { messages: this.list, seen: new Map(this.seenVersions), seenRevision: this.revision, answerCall: this.call, compacted: this.rebuilt, readsAnswers: this.reading };
  }

  restore(checkpoint: ConversationCheckpoint): void {
    this.list = checkpoint.messages;
    this.seenVersions = new Map(checkpoint.seen);
    this.revision = checkpoint.seenRevision;
    this.call = checkpoint.answerCall;
    this.rebuilt = checkpoint.compacted;
    this.reading = checkpoint.readsAnswers;
  }
}

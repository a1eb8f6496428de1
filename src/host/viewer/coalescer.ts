// Batches engine events for one webview: every `intervalMs` (50 ms), or at once when an agent has `maxAgentChars`
// (2 KB) of new text or the run ends. Within a batch, consecutive text (or reasoning) deltas of one agent are merged
// into one event as long as no other event about that agent (or about the whole run) came between them, so
// folding the batch gives exactly the state folding the raw events gives. Merged text is clipped to the reducer's
// stream tail: the state keeps no more anyway. Pure (no vscode): unit-tested in Node, reused by the benchmark.

import type { RunEvent } from '../../core/engine/events';
import { STREAM_TAIL_CHARS } from '../../core/engine/run-state';

export interface Batch {
  /** seq of the first event the batch covers. */
  from: number;
  /** seq of the last event the batch covers. */
  to: number;
  events: RunEvent[];
}

export interface CoalescerOptions {
  intervalMs?: number;
  maxAgentChars?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export const COALESCE_INTERVAL_MS = 50;
export const COALESCE_MAX_AGENT_CHARS = 2048;

/** The agent an event is about, or null for run-level events (which may touch every agent). */
function agentOf(event: RunEvent): string | null {
  if ('agentId' in event) return event.agentId;
  if (event.type === 'vote_cast') return event.vote.voterId;
  if (event.type === 'vote_invalidated') return event.voterId;
  return null;
}

export class EventCoalescer {
  private events: RunEvent[] = [];
  private from = 0;
  private to = 0;
  /** `${type}\u0000${agentId}` → index of that agent's mergeable text event in `events`. */
  private readonly open = new Map<string, number>();
  private readonly chars = new Map<string, number>();
  private timer: unknown = undefined;
  private readonly intervalMs: number;
  private readonly maxAgentChars: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly sink: (batch: Batch) => void, options: CoalescerOptions = {}) {
    this.intervalMs = options.intervalMs ?? COALESCE_INTERVAL_MS;
    this.maxAgentChars = options.maxAgentChars ?? COALESCE_MAX_AGENT_CHARS;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  get pending(): number {
    return this.events.length;
  }

  push(event: RunEvent): void {
    if (this.events.length === 0) this.from = event.seq;
    this.to = event.seq;
    if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
      const key = `${event.type}\u0000${event.agentId}`;
      const at = this.open.get(key);
      const prev = at === undefined ? undefined : this.events[at];
      if (prev && prev.type === event.type) {
        let text = prev.text + event.text;
        if (text.length > STREAM_TAIL_CHARS) text = text.slice(text.length - STREAM_TAIL_CHARS);
        this.events[at!] = { ...prev, text, seq: event.seq, t: event.t };
      } else {
        const text = event.text.length > STREAM_TAIL_CHARS ? event.text.slice(event.text.length - STREAM_TAIL_CHARS) : event.text;
        this.open.set(key, this.events.push({ ...event, text }) - 1);
      }
      const n = (this.chars.get(event.agentId) ?? 0) + event.text.length;
      this.chars.set(event.agentId, n);
      if (n >= this.maxAgentChars) this.flush();
      else this.arm();
      return;
    }
    const agent = agentOf(event);
    if (agent === null) this.open.clear();
    else {
      this.open.delete(`text_delta\u0000${agent}`);
      this.open.delete(`reasoning_delta\u0000${agent}`);
    }
    this.events.push(event);
    if (event.type === 'run_ended') this.flush();
    else this.arm();
  }

  /** Sends what is buffered now. */
  flush(): void {
    if (this.timer !== undefined) {
      this.clearTimer(this.timer);
      this.timer = undefined;
    }
    if (this.events.length === 0) return;
    const batch: Batch = { from: this.from, to: this.to, events: this.events };
    this.reset();
    this.sink(batch);
  }

  /** Forgets what is buffered (the webview went away; it will get a snapshot when it is back). */
  drop(): void {
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    this.reset();
  }

  dispose(): void {
    this.drop();
  }

  private reset(): void {
    this.events = [];
    this.open.clear();
    this.chars.clear();
  }

  private arm(): void {
    if (this.timer === undefined) {
      this.timer = this.setTimer(() => {
        this.timer = undefined;
        this.flush();
      }, this.intervalMs);
    }
  }
}

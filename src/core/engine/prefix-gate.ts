// Agents shown the same thing (the task, the board) send prompts that start alike, and a provider's prompt cache can
// serve that start to all but the first, but only once the first request's prompt has been read: requests sent
// together all miss. So a request whose shared start another request of the run is already sending waits until
// that one's response has begun (or `maxWaitMs`, or its own cancel), then goes. A little latency for the others, a
// shared start billed at the cached price. Keys are the shared start as the cache keys it (backend, tools, system,
// first user turn); a start sent once stays warm for the cache's lifetime, and later requests with it go at once.

import { createHash } from 'node:crypto';
import type { ModelRequest } from '../providers/types';
import type { PromptCachePolicy } from '../usage/cache';
import { CHARS_PER_TOKEN } from '../usage/tokens';
import { realClock, type Clock } from '../util/clock';
import { sleep } from '../util/sleep';

/** How long a provider keeps an unused prompt in its cache (Anthropic's default TTL; OpenAI's is 5 to 10 minutes). */
export const PROMPT_CACHE_TTL_MS = 5 * 60_000;

interface Entry {
  /** Resolves when the leading request's response begins (or it ends without). */
  begun: Promise<void>;
  openedAt: number | null;
}

export class SharedPrefixGate {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxWaitMs: number,
    private readonly clock: Clock = realClock,
  ) {}

  /**
   * Waits, if another request leads with `key` and has not begun, then lets the request go. Returns what to call
   * when its response begins: for the leader that lets the waiting ones go; for the others it does nothing.
   * `ended(begun)`: the call is over; a leader whose response never began gives up the lead.
   */
  async enter(key: string, signal: AbortSignal): Promise<{ begun: () => void; ended: (begun: boolean) => void }> {
    const entry = this.entries.get(key);
    const warm = entry && (entry.openedAt === null || this.clock.now() - entry.openedAt < PROMPT_CACHE_TTL_MS);
    if (!warm) return this.lead(key);
    if (entry.openedAt === null && this.maxWaitMs > 0) await waitFor(entry.begun, this.maxWaitMs, signal, this.clock);
    return { begun: () => undefined, ended: () => undefined };
  }

  private lead(key: string): { begun: () => void; ended: (begun: boolean) => void } {
    let resolve!: () => void;
    const entry: Entry = { begun: new Promise<void>((r) => (resolve = r)), openedAt: null };
    const open = () => {
      if (entry.openedAt !== null) return;
      entry.openedAt = this.clock.now();
      resolve();
    };
    this.entries.set(key, entry);
    return {
      begun: open,
      ended: (begun) => {
        open();
        // Nothing reached the cache: the next request with this start leads afresh.
        if (!begun && this.entries.get(key) === entry) this.entries.delete(key);
      },
    };
  }
}

/** Until `begun`, the limit, or the cancel, whichever comes first (a cancel ends the wait, not the call). */
async function waitFor(begun: Promise<void>, ms: number, signal: AbortSignal, clock: Clock): Promise<void> {
  const over = new AbortController();
  await Promise.race([begun, sleep(ms, AbortSignal.any([signal, over.signal]), clock).catch(() => undefined)]);
  over.abort(); // clears the limit's timer
}

/** The start of a request every agent may share: its first user turn up to `sharedChars` (all of it if unmarked). */
export function sharedStart(request: ModelRequest): string | null {
  const head = request.messages[0];
  if (head?.role !== 'user') return null;
  return head.sharedChars === undefined ? head.content : head.content.slice(0, head.sharedChars);
}

/**
 * The gate key of a request to `backend`: tools, system prompt and shared start, hashed; null when its cache would
 * not store that start (no known cache, or shorter than the cache's minimum).
 */
export function sharedStartKey(request: ModelRequest, backend: string, policy: PromptCachePolicy | undefined): string | null {
  const start = sharedStart(request);
  if (!policy || start === null) return null;
  const tools = JSON.stringify(request.tools);
  if ((tools.length + request.system.length + start.length) / CHARS_PER_TOKEN < policy.minTokens) return null;
  return createHash('sha256').update(backend).update('\u0000').update(tools).update('\u0000').update(request.system).update('\u0000').update(start).digest('hex');
}

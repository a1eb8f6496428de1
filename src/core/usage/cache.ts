// How the providers' prompt caches bill a prompt, as pure functions: the engine asks it whether rebuilding a
// conversation is cheaper than appending to it, and the benchmark prices whole runs with it. Tokens are the engine's
// rule of thumb (chars / 4); prices are fractions of the model's input price.

import { CHARS_PER_TOKEN } from './tokens';
import { commonPrefixLength } from '../util/text';

export interface PromptCachePolicy {
  /**
   * 'breakpoints': only prefixes ending at a block marked for caching are stored, and a hit is looked for at block
   * boundaries (Anthropic's cache_control). 'prefix': every prompt is stored, and any prefix of it is served
   * (OpenAI's automatic cache, Gemini's implicit cache).
   */
  mode: 'breakpoints' | 'prefix';
  /** A cached prompt token's price, as a fraction of the input price. */
  read: number;
  /** A token written to the cache, as a fraction of the input price (Anthropic bills writes at a premium). */
  write: number;
  /** Shortest prefix the cache stores, in tokens. */
  minTokens: number;
  /** Hits are counted in steps of this many tokens past `minTokens` (OpenAI: 128). */
  step: number;
  /** 'breakpoints': block boundaries before each breakpoint checked for a hit. */
  lookback: number;
}

/**
 * The three cache models, as the vendors document them: Anthropic reads at 0.1×, writes at 1.25× (5-minute TTL),
 * 1,024 tokens at least (Sonnet/Opus), hits at the 20 block boundaries before a breakpoint; OpenAI caches any prompt
 * of 1,024 tokens or more in 128-token steps at 0.5× (gpt-4o; newer models cost less, see `readShare`); Gemini's
 * implicit cache serves prefixes of 1,024 tokens or more (2.5 Flash) at 0.25×.
 */
export const CACHE_POLICIES = {
  anthropic: { mode: 'breakpoints', read: 0.1, write: 1.25, minTokens: 1024, step: 1, lookback: 20 },
  openai: { mode: 'prefix', read: 0.5, write: 1, minTokens: 1024, step: 128, lookback: 0 },
  gemini: { mode: 'prefix', read: 0.25, write: 1, minTokens: 1024, step: 1, lookback: 0 },
} as const satisfies Record<string, PromptCachePolicy>;

/** The policy with the read price of a priced model (cached price / input price), when its price says so. */
export function withReadShare(policy: PromptCachePolicy, pricing: { inputPerMillion: number; cachedInputPerMillion: number } | null | undefined): PromptCachePolicy {
  if (!pricing || pricing.inputPerMillion <= 0) return policy;
  return { ...policy, read: Math.min(1, pricing.cachedInputPerMillion / pricing.inputPerMillion) };
}

/** A piece of a prompt in the order the provider caches it (tools, system, messages); `breakpoint`: cache_control. */
export interface CacheBlock {
  text: string;
  breakpoint?: boolean;
}

export interface CachedPrompt {
  /** Requests share cache entries only within one scope (an organisation; OpenAI: one prompt_cache_key). */
  scope: string;
  blocks: readonly CacheBlock[];
  /**
   * When the request was sent and when its response began (any unit): from then on the cache holds its prompt and
   * serves requests sent later (Anthropic documents it so: an entry is available once the first response begins).
   */
  start: number;
  ready: number;
}

export interface PromptBill {
  /** Every prompt token. */
  tokens: number;
  /** Served from the cache. */
  read: number;
  /** Written to the cache at the write price ('breakpoints' only; implicit caches store for free). */
  written: number;
  /** Billed at the input price. */
  uncached: number;
  /** In input-token units: uncached + read × read price + written × write price. */
  billed: number;
}

const tokens = (chars: number) => chars / CHARS_PER_TOKEN;

/** Tokens a prefix cache serves of a shared prefix of `shared` tokens. */
export function servedTokens(shared: number, policy: PromptCachePolicy): number {
  if (shared < policy.minTokens) return 0;
  return policy.minTokens + Math.floor((shared - policy.minTokens) / policy.step) * policy.step;
}

function bill(total: number, read: number, written: number, policy: PromptCachePolicy): PromptBill {
  const uncached = total - read - written;
  return { tokens: total, read, written, uncached, billed: uncached + read * policy.read + written * policy.write };
}

/**
 * What each prompt of a run is billed under `policy`, given in any order (they are priced in the order they were
 * sent). Breakpoint caches store the prefix at each marked block of at least `minTokens`; a later prompt reads the
 * longest stored prefix ending at a block boundary no more than `lookback` blocks before one of its breakpoints,
 * and writes everything from there to its last breakpoint. Prefix caches store every prompt and serve the longest
 * prefix it shares with an earlier one (in steps).
 */
export function billPrompts(prompts: readonly CachedPrompt[], policy: PromptCachePolicy): PromptBill[] {
  const order = prompts.map((p, i) => ({ p, i })).sort((a, b) => a.p.start - b.p.start || a.i - b.i);
  const bills: PromptBill[] = new Array(prompts.length);
  if (policy.mode === 'prefix') {
    const stored: { scope: string; text: string; ready: number }[] = [];
    for (const { p, i } of order) {
      const text = p.blocks.map((b) => b.text).join('');
      let shared = 0;
      for (const s of stored) if (s.scope === p.scope && s.ready <= p.start) shared = Math.max(shared, commonPrefixLength(s.text, text));
      bills[i] = bill(tokens(text.length), servedTokens(tokens(shared), policy), 0, policy);
      stored.push({ scope: p.scope, text, ready: p.ready });
    }
    return bills;
  }
  // Breakpoints: entries are keyed by the exact blocks of the prefix, so a changed block anywhere before misses.
  const stored = new Map<string, number>();
  for (const { p, i } of order) {
    const keys: string[] = [];
    const ends: number[] = [];
    let key = p.scope;
    let chars = 0;
    for (const b of p.blocks) {
      key += `\u0000${b.text}`;
      chars += b.text.length;
      keys.push(key);
      ends.push(tokens(chars));
    }
    const marks = p.blocks.flatMap((b, k) => (b.breakpoint ? [k] : []));
    let hit = -1;
    for (const m of marks) {
      for (let k = m; k >= Math.max(0, m - policy.lookback); k--) {
        const at = stored.get(keys[k]);
        if (at !== undefined && at <= p.start && k > hit) hit = k;
      }
    }
    const read = hit >= 0 ? ends[hit] : 0;
    const writes = marks.filter((m) => m > hit && ends[m] >= policy.minTokens);
    const written = writes.length ? ends[writes[writes.length - 1]] - read : 0;
    bills[i] = bill(tokens(chars), read, written, policy);
    for (const m of writes) stored.set(keys[m], Math.min(p.ready, stored.get(keys[m]) ?? Infinity));
  }
  return bills;
}

export function sumBills(bills: readonly PromptBill[]): PromptBill {
  const total: PromptBill = { tokens: 0, read: 0, written: 0, uncached: 0, billed: 0 };
  for (const b of bills) {
    total.tokens += b.tokens;
    total.read += b.read;
    total.written += b.written;
    total.uncached += b.uncached;
    total.billed += b.billed;
  }
  return total;
}

export interface RebuildChoice {
  /** Tokens of what every prompt starts with (tools, system prompt). */
  stable: number;
  /** Tokens of the agent's last prompt: in the cache, as a prefix of the conversation. */
  sent: number;
  /** Tokens of the next prompt if the conversation is carried on (the update appended). */
  appended: number;
  /** Tokens of the next prompt if it is rebuilt from the current board. */
  rebuilt: number;
  /** Tokens of the rebuilt prompt's start that other agents are shown alike (tools, system, task, board). */
  shared?: number;
  /**
   * Tokens the rebuilt prompt has in common with the start of the last one (tools, system, the task up to the board),
   * which a prefix cache serves it; default `stable`.
   */
  rebuiltKept?: number;
  /** Agents expected to send that start now, this one included: all but the first read it from the cache. */
  sharers?: number;
  /** The tools or system prompt differ from the last prompt's: nothing of it is in the cache. */
  prefixChanged: boolean;
}

/**
 * Whether rebuilding an agent's conversation from the current board costs less than carrying it on: a rebuilt
 * prompt is shorter but loses the cached conversation, unless other agents send the same start now (`sharers`), in
 * which case all but the first read it from the cache. Priced over this prompt and one more turn that starts with
 * it (read from the cache where it can be), since whatever is carried on is paid for again in every later turn; a
 * shared start is priced as the average agent of the group pays it. Without a known cache, fewer tokens win.
 */
export function rebuildPays(policy: PromptCachePolicy | undefined, c: RebuildChoice): boolean {
  const kept = c.prefixChanged ? 0 : c.sent;
  const stable = c.prefixChanged ? 0 : c.stable;
  const sharers = Math.max(1, c.sharers ?? 1);
  const shared = Math.min(c.shared ?? stable, c.rebuilt);
  // A prompt of `total` tokens whose first `cached` are in the cache, in input-token units.
  const bill = (total: number, cached: number) => {
    const read = policy ? servedTokens(Math.min(cached, total), policy) : 0;
    return read * (policy?.read ?? 1) + total - read;
  };
  // This prompt rebuilt, as the average of the group pays it: the first with what it has cached (plus `premium`), the
  // others reading the shared start.
  const rebuiltNow = (premium: number, held = stable) => (bill(c.rebuilt, held) + premium + (sharers - 1) * bill(c.rebuilt, shared)) / sharers;
  if (policy?.mode === 'breakpoints') {
    // Marked blocks only: a carried conversation is held up to what its last prompt held (`sent`: its first user turn,
    // rewritten at the premium if the prefix changed); a rebuilt one up to its shared start when others read it
    // (written at the premium by the first), else only up to its system prompt (ModelRequest.cacheHead).
    const rewrite = c.sent >= policy.minTokens ? (c.sent - kept) * (policy.write - 1) : 0;
    const carried = bill(c.appended, kept) + rewrite + bill(c.appended, c.sent);
    if (sharers === 1) return bill(c.rebuilt, stable) + bill(c.rebuilt, c.stable) < carried;
    const premium = shared >= policy.minTokens ? (shared - stable) * (policy.write - 1) : 0;
    return rebuiltNow(premium) + bill(c.rebuilt, shared) < carried;
  }
  // Prefix caches store every prompt: the next turn reads all of this one.
  const held = c.prefixChanged ? 0 : Math.max(stable, c.rebuiltKept ?? 0);
  return rebuiltNow(0, held) + bill(c.rebuilt, c.rebuilt) < bill(c.appended, kept) + bill(c.appended, c.appended);
}

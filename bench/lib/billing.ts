// Billed input cost of a run under each provider's prompt cache: the requests are put on the wire by the real
// providers' body builders (Anthropic's cache_control breakpoints, OpenAI's prompt_cache_key), cut into the blocks
// each cache keys on, and priced by src/core/usage/cache.ts. The same for both policies.

import type { ContentBlockParam, MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { AnthropicProvider } from '../../src/core/providers/anthropic';
import { OpenAICompatibleProvider } from '../../src/core/providers/openai-compatible';
import type { ModelRequest } from '../../src/core/providers/types';
import { billPrompts, CACHE_POLICIES, sumBills, type CacheBlock, type CachedPrompt, type PromptBill } from '../../src/core/usage/cache';
import { serialise } from './tokens';

export type CacheModel = keyof typeof CACHE_POLICIES;
export const CACHE_MODELS: CacheModel[] = ['anthropic', 'openai', 'gemini'];

/** One model call of a run: whose, what it sent, when it was sent and when its response began (ms). */
export interface TimedRequest {
  agent: string;
  request: ModelRequest;
  start: number;
  ready: number;
}

const anthropic = new AnthropicProvider({ model: 'claude-sonnet-4-5', baseUrl: 'http://127.0.0.1:9' });
// Bodies are only built, never sent; OpenAI's own URL, so the provider treats it as OpenAI (prompt_cache_key).
const openai = new OpenAICompatibleProvider({ model: 'gpt-4o', baseUrl: 'https://api.openai.com/v1' });

function blockText(block: ContentBlockParam): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_use':
      return `${block.name}(${JSON.stringify(block.input)})`;
    case 'tool_result':
      return typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? '');
    default:
      return JSON.stringify(block);
  }
}

const marked = (b: object) => Boolean((b as { cache_control?: unknown }).cache_control);

/** Anthropic's prefix order: tools, system blocks, then every message's blocks, with their breakpoints. */
export function anthropicBlocks(body: MessageCreateParamsStreaming): CacheBlock[] {
  const tools = (body.tools ?? []).map((t) => ({ text: JSON.stringify({ ...t, cache_control: undefined }), breakpoint: marked(t) }));
  const system = typeof body.system === 'string' ? [{ text: body.system }] : (body.system ?? []).map((b) => ({ text: b.text, breakpoint: marked(b) }));
  const messages = body.messages.flatMap((m) =>
    typeof m.content === 'string' ? [{ text: m.content }] : m.content.map((b) => ({ text: `${m.role}:${blockText(b)}`, breakpoint: marked(b) })),
  );
  return [...tools, ...system, ...messages];
}

/** The run's requests as each cache model sees them. */
export function cachedPrompts(requests: readonly TimedRequest[], model: CacheModel): CachedPrompt[] {
  return requests.map(({ request, start, ready }) => {
    if (model === 'anthropic') return { scope: 'org', blocks: anthropicBlocks(anthropic.buildBody(request)), start, ready };
    // OpenAI routes requests by prompt_cache_key (a request without one shares the organisation's caches); Gemini's
    // implicit cache has no key.
    const scope = model === 'openai' ? (openai.buildBody(request).prompt_cache_key ?? 'org') : 'org';
    return { scope, blocks: [{ text: serialise(request) }], start, ready };
  });
}

/**
 * The run's billed input under `model`. `bestPlacement` (for upstream): under Anthropic, the cheaper of our
 * provider's breakpoints and none at all, since a breakpoint whose prefix is never read again only adds the write
 * premium, and upstream's restarts rarely extend a prompt.
 */
export function billedInput(requests: readonly TimedRequest[], model: CacheModel, bestPlacement = false): PromptBill {
  const prompts = cachedPrompts(requests, model);
  const billed = sumBills(billPrompts(prompts, CACHE_POLICIES[model]));
  if (!bestPlacement || model !== 'anthropic') return billed;
  const unmarked = prompts.map((p) => ({ ...p, blocks: p.blocks.map((b) => ({ text: b.text })) }));
  const plain = sumBills(billPrompts(unmarked, CACHE_POLICIES[model]));
  return plain.billed < billed.billed ? plain : billed;
}

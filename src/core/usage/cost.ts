// What tokens cost. Prices come from the agent's config (`backend.pricing`) or the built-in list-price table
// (prices.json); a model neither names is unpriced (null), never guessed, so a total over a team with an unpriced
// agent is reported as a lower bound (`partial`), not as a wrong figure. The table also holds each model's context
// window.

import { isLocalUrl } from '../config/backends';
import type { BackendConfig, Pricing } from '../config/types';
import prices from './prices.json';

interface PriceEntry {
  input: number;
  cachedInput: number;
  output: number;
  /** Context window in tokens, prompt and output together. */
  context: number;
}

export interface TokenCounts {
  /** Every prompt token, cached ones included (as `Usage` reports them). */
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** Dots between digits read as dashes, so OpenRouter's `claude-sonnet-4.5` and Anthropic's `claude-sonnet-4-5` agree. */
function canonical(name: string): string {
  return name.trim().toLowerCase().replace(/(\d)\.(?=\d)/g, '$1-');
}

// Typed assignment, not a cast: a malformed entry in prices.json fails the type check.
const MODELS: Record<string, PriceEntry> = prices.models;
const TABLE: [key: string, entry: PriceEntry][] = Object.entries(MODELS)
  .map(([key, entry]): [string, PriceEntry] => [canonical(key), entry])
  .sort((a, b) => b[0].length - a[0].length);

/**
 * What may follow a table key and still name the same model: nothing, a dated snapshot (-2025-04-14, -20250514,
 * Vertex's @20250514) or -latest. Anything else (-pro, -4-5, -mini) is another model, possibly at another price.
 */
const SAME_MODEL_SUFFIX = /^(?:$|@|-(?:latest|\d{4}-\d{2}-\d{2}|\d{8})(?:$|[-@:]))/;

/** The table's entry for a model name, or null. Longest key first, so gpt-4.1-mini-2025-04-14 is gpt-4.1-mini. */
function tableEntry(model: string): PriceEntry | null {
  // `openai/gpt-4o` (OpenRouter and other resellers): the vendor's own name is after the last slash.
  const name = canonical(model.slice(model.lastIndexOf('/') + 1));
  return TABLE.find(([key]) => name.startsWith(key) && SAME_MODEL_SUFFIX.test(name.slice(key.length)))?.[1] ?? null;
}

function tablePrice(model: string): Pricing | null {
  const hit = tableEntry(model);
  return hit && { inputPerMillion: hit.input, cachedInputPerMillion: hit.cachedInput, outputPerMillion: hit.output };
}

/** A model's context window in tokens from the table (the vendor's figure), or null for a model it does not list. */
export function tableContextWindow(model: string): number | null {
  return tableEntry(model)?.context ?? null;
}

/** The override (from the agent's config) when given, else the table's list price, else null (unknown). */
export function resolvePricing(model: string, override?: Pricing): Pricing | null {
  return override ?? tablePrice(model);
}

export interface BackendPricing {
  pricing: Pricing | null;
  source: 'config' | 'table' | null;
  /**
   * Where the model runs, so a view can explain a null price: 'local' = this machine or a private network (Ollama,
   * LM Studio, vLLM): no API cost, but we report it as unknown rather than 0 unless the config prices it;
   * 'vscode-lm' = VS Code's chat models, billed by the user's Copilot plan, not per token.
   */
  host: 'api' | 'local' | 'vscode-lm';
}

/** Backend types for a server of the user's own: a model served there (even one named gpt-4o) is not billed by a vendor. */
const SELF_HOSTED_TYPES = new Set(['chatcompletion', 'ollama', 'lmstudio', 'vllm', 'sglang']);

/**
 * Pricing for a configured backend. The table applies by model name whatever the URL (an `openai` backend at a
 * localhost proxy such as LiteLLM still bills the vendor's prices), except for VS Code chat models, whose names match
 * the table but which the user does not pay per token for, and for a self-hosted server type at a local URL.
 */
export function backendPricing(backend: Pick<BackendConfig, 'family' | 'model' | 'baseUrl' | 'pricing'> & { type?: string }): BackendPricing {
  const host = backend.family === 'vscode-lm' ? 'vscode-lm' : backend.baseUrl && isLocalUrl(backend.baseUrl) ? 'local' : 'api';
  if (backend.pricing) return { pricing: backend.pricing, source: 'config', host };
  const selfHosted = host === 'local' && SELF_HOSTED_TYPES.has((backend.type ?? '').toLowerCase());
  const pricing = host === 'vscode-lm' || selfHosted ? null : tablePrice(backend.model);
  return { pricing, source: pricing ? 'table' : null, host };
}

/** USD for the given tokens: uncached input at the input price, cache hits at the cached price, output at the output price. */
export function costUsd(usage: TokenCounts, pricing: Pricing): number {
  // Clamped: a server reporting more cached than total input must not produce a negative cost.
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  return ((usage.inputTokens - cached) * pricing.inputPerMillion
    + cached * pricing.cachedInputPerMillion
    + usage.outputTokens * pricing.outputPerMillion) / 1e6;
}

export interface CostTotal {
  /** Sum over the priced agents: the whole cost unless `partial`, then a lower bound. */
  usd: number;
  /** Some unpriced agent used tokens. */
  partial: boolean;
  unpricedAgentIds: string[];
  /** Some priced figures were estimated by a provider adapter, not reported by the server. */
  estimated: boolean;
}

/** Adds up per-agent usage (e.g. RunState's `agents[].usage`); cost is linear, so per-agent totals price exactly. */
export function totalCost(agents: { id: string; usage: TokenCounts & { estimated?: boolean }; pricing: Pricing | null }[]): CostTotal {
  const total: CostTotal = { usd: 0, partial: false, unpricedAgentIds: [], estimated: false };
  for (const { id, usage, pricing } of agents) {
    if (usage.inputTokens + usage.outputTokens === 0) continue;
    if (!pricing) {
      total.partial = true;
      total.unpricedAgentIds.push(id);
      continue;
    }
    total.usd += costUsd(usage, pricing);
    total.estimated ||= Boolean(usage.estimated);
  }
  return total;
}

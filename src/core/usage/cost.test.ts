import assert from 'node:assert/strict';
import type { Pricing } from '../config/types';
import { backendPricing, costUsd, resolvePricing, tableContextWindow, totalCost } from './cost';
import prices from './prices.json';

const p = (inputPerMillion: number, cachedInputPerMillion: number, outputPerMillion: number): Pricing =>
  ({ inputPerMillion, cachedInputPerMillion, outputPerMillion });
const inputPrice = (model: string) => resolvePricing(model)?.inputPerMillion ?? null;

describe('prices.json', () => {
  it('says where its figures come from and that they can be overridden', () => {
    assert.match(prices.source, /20\d\d/);
    assert.match(prices._comment.join(' '), /backend\.pricing/);
  });

  it('every entry is a sane list price', () => {
    for (const [model, e] of Object.entries(prices.models)) {
      assert.ok(e.input > 0 && e.output > 0 && e.cachedInput > 0, model);
      assert.ok(e.cachedInput <= e.input && e.output >= e.input, model);
    }
  });
});

describe('resolvePricing', () => {
  it('matches the longest key, with dated snapshots and -latest', () => {
    assert.deepEqual(resolvePricing('gpt-4.1-mini-2025-04-14'), p(0.4, 0.1, 1.6));
    assert.equal(inputPrice('gpt-4.1-2025-04-14'), 2);
    assert.equal(inputPrice('gpt-4.1-nano'), 0.1);
    assert.equal(inputPrice('gpt-4o-mini-2024-07-18'), 0.15);
    assert.equal(inputPrice('gpt-4o-2024-08-06'), 2.5);
    assert.equal(inputPrice('gpt-4o-2024-05-13'), 5, 'the first gpt-4o snapshot has its own price');
    assert.equal(inputPrice('o4-mini-2025-04-16'), 1.1);
    assert.equal(inputPrice('gpt-5-nano-2025-08-07'), 0.05);
    assert.equal(inputPrice('claude-sonnet-4-20250514'), 3);
    assert.equal(inputPrice('claude-3-5-haiku-latest'), 0.8);
    assert.equal(inputPrice('claude-haiku-4-5'), 1);
    assert.equal(inputPrice('claude-sonnet-4-5@20250929'), 3);
  });

  it('is case-insensitive and strips a provider prefix', () => {
    assert.equal(inputPrice('GPT-4o'), 2.5);
    assert.equal(inputPrice('openai/gpt-4o'), 2.5);
    assert.equal(inputPrice('openai/gpt-4.1-mini'), 0.4);
    assert.equal(inputPrice('anthropic/claude-sonnet-4-5'), 3);
    assert.equal(inputPrice('anthropic/claude-sonnet-4.5'), 3, "OpenRouter's dotted spelling");
    assert.equal(inputPrice('anthropic/claude-3.5-haiku'), 0.8);
  });

  it('keeps versions and variants apart instead of pricing them as their family', () => {
    assert.equal(inputPrice('claude-opus-4-5-20251101'), 5);
    assert.equal(inputPrice('claude-opus-4-1'), 15);
    assert.equal(inputPrice('claude-opus-4-20250514'), 15);
    assert.equal(inputPrice('o3-mini'), 1.1);
    assert.equal(inputPrice('o3'), 2);
    assert.equal(inputPrice('gpt-5.1'), 1.25);
    for (const model of ['claude-opus-4-6', 'gpt-5.2', 'gpt-5-codex', 'o3-pro', 'o4-mini-deep-research', 'gpt-4o-realtime-preview', 'gpt-4']) {
      assert.equal(resolvePricing(model), null, model);
    }
  });

  it('unknown and local models are null, never guessed', () => {
    for (const model of ['llama3.2', 'qwen3:30b', 'gpt-oss:20b', 'openai/gpt-oss-120b', 'mistral-large', 'my-gpt-4o', '']) {
      assert.equal(resolvePricing(model), null, model);
    }
  });

  it('an override wins, for known and unknown models', () => {
    assert.deepEqual(resolvePricing('gpt-4o', p(1, 0.5, 2)), p(1, 0.5, 2));
    assert.deepEqual(resolvePricing('llama3.2', p(0, 0, 0)), p(0, 0, 0));
  });
});

describe('backendPricing', () => {
  const backend = (model: string, extra: Partial<{ type: string; family: 'openai-compatible' | 'vscode-lm'; baseUrl: string; pricing: Pricing }> = {}) =>
    ({ family: 'openai-compatible' as const, model, baseUrl: 'https://api.openai.com/v1', ...extra });

  it('says where the price comes from and where the model runs', () => {
    assert.deepEqual(backendPricing(backend('gpt-4o')), { pricing: p(2.5, 1.25, 10), source: 'table', host: 'api' });
    assert.deepEqual(backendPricing(backend('deepseek-chat')), { pricing: null, source: null, host: 'api' });
    assert.deepEqual(backendPricing(backend('llama3.2', { baseUrl: 'http://localhost:11434/v1' })), { pricing: null, source: null, host: 'local' });
    assert.deepEqual(backendPricing(backend('llama3.2', { baseUrl: 'http://192.168.1.5:8000/v1', pricing: p(0, 0, 0) })),
      { pricing: p(0, 0, 0), source: 'config', host: 'local' });
  });

  it('a local proxy to a listed model is still priced', () => {
    assert.equal(backendPricing(backend('gpt-4o-mini', { baseUrl: 'http://127.0.0.1:4000' })).pricing?.inputPerMillion, 0.15);
    assert.equal(backendPricing(backend('gpt-4o-mini', { type: 'openai', baseUrl: 'http://127.0.0.1:4000' })).pricing?.inputPerMillion, 0.15);
  });

  it('a model on a self-hosted server at a local URL is not priced as the vendor\'s, whatever its name', () => {
    for (const type of ['chatcompletion', 'ollama', 'lmstudio', 'vllm', 'sglang']) {
      assert.deepEqual(backendPricing(backend('gpt-4o', { type, baseUrl: 'http://localhost:8000/v1' })), { pricing: null, source: null, host: 'local' }, type);
    }
    assert.equal(backendPricing(backend('gpt-4o', { type: 'chatcompletion', baseUrl: 'https://api.openai.com/v1' })).source, 'table', 'a hosted URL is the vendor\'s');
  });

  it('VS Code chat models are not priced from the table', () => {
    assert.deepEqual(backendPricing({ family: 'vscode-lm', model: 'gpt-4o' }), { pricing: null, source: null, host: 'vscode-lm' });
  });
});

describe('costUsd', () => {
  it('prices uncached input, cache hits and output separately', () => {
    const gpt41mini = resolvePricing('gpt-4.1-mini')!;
    // 1M input of which 400k cached: 600k × 0.40 + 400k × 0.10 + 100k × 1.60 = 0.24 + 0.04 + 0.16
    assert.ok(Math.abs(costUsd({ inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000 }, gpt41mini) - 0.44) < 1e-12);
    assert.equal(costUsd({ inputTokens: 2000, cachedInputTokens: 0, outputTokens: 500 }, p(3, 0.3, 15)), 0.0135);
    assert.equal(costUsd({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 }, p(3, 0.3, 15)), 0);
  });

  it('never goes negative when a server reports more cached than total input', () => {
    assert.equal(costUsd({ inputTokens: 100, cachedInputTokens: 300, outputTokens: 0 }, p(10, 1, 10)), 100 / 1e6);
  });
});

describe('totalCost', () => {
  const usage = (inputTokens: number, outputTokens: number, extra: { cachedInputTokens?: number; estimated?: boolean } = {}) =>
    ({ inputTokens, outputTokens, cachedInputTokens: 0, ...extra });

  it('sums priced agents', () => {
    const total = totalCost([
      { id: 'a', usage: usage(1_000_000, 0), pricing: p(2, 0.5, 8) },
      { id: 'b', usage: usage(0, 1_000_000), pricing: p(1, 0.1, 5) },
    ]);
    assert.deepEqual(total, { usd: 7, partial: false, unpricedAgentIds: [], estimated: false });
  });

  it('is a flagged lower bound when an unpriced agent used tokens', () => {
    const total = totalCost([
      { id: 'a', usage: usage(1_000_000, 0), pricing: p(2, 0.5, 8) },
      { id: 'local', usage: usage(5000, 800), pricing: null },
      { id: 'idle', usage: usage(0, 0), pricing: null },
    ]);
    assert.deepEqual(total, { usd: 2, partial: true, unpricedAgentIds: ['local'], estimated: false });
  });

  it('carries the estimated flag of priced usage', () => {
    assert.equal(totalCost([{ id: 'a', usage: usage(10, 10, { estimated: true }), pricing: p(1, 1, 1) }]).estimated, true);
    assert.equal(totalCost([{ id: 'a', usage: usage(10, 10, { estimated: true }), pricing: null }]).estimated, false);
  });
});

describe('prices.json: Gemini', () => {
  it('prices Gemini models by name, variants apart, OpenRouter names too, with their context windows', () => {
    assert.deepEqual(resolvePricing('gemini-2.5-flash'), { inputPerMillion: 0.3, cachedInputPerMillion: 0.03, outputPerMillion: 2.5 });
    assert.deepEqual(resolvePricing('gemini-2.5-flash-lite'), { inputPerMillion: 0.1, cachedInputPerMillion: 0.01, outputPerMillion: 0.4 });
    assert.deepEqual(resolvePricing('google/gemini-2.5-pro'), { inputPerMillion: 1.25, cachedInputPerMillion: 0.125, outputPerMillion: 10 });
    assert.deepEqual(resolvePricing('gemini-3-flash-preview'), { inputPerMillion: 0.5, cachedInputPerMillion: 0.05, outputPerMillion: 3 });
    assert.equal(resolvePricing('gemini-3.1-pro-preview'), null);
    assert.equal(resolvePricing('gemini-2.5-flash-preview-09-2025'), null);
    assert.equal(tableContextWindow('gemini-3-pro-preview'), 1048576);
  });
});

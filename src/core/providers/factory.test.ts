// Which provider a configured backend gets, and what the factory hands it: the Responses API for upstream's `openai`
// at OpenAI, chat completions elsewhere, Azure OpenAI's deployment URL, api-version and api-key header, Gemini, and
// the built-in tools for Claude.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeAnthropic } from '../../../test/fakes/anthropic-server';
import { rejection, request } from '../../../test/helpers/provider-tests';
import type { AgentConfig, BackendConfig } from '../config/types';
import { createProvider } from './factory';

const agent = (backend: Partial<BackendConfig> & Pick<BackendConfig, 'type' | 'family' | 'model'>): AgentConfig => ({ id: 'a', backend });

/** A server that records each request's URL and headers and answers 401, enough to see where a provider sends. */
async function recorder(): Promise<{ url: string; seen: { url: string; headers: IncomingHttpHeaders }[]; close: () => Promise<void> }> {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: '401', message: 'Access denied due to invalid subscription key.' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('createProvider', () => {
  it('gives upstream’s openai type the Responses API at OpenAI, chat completions at other servers, and follows api:', () => {
    assert.match(createProvider(agent({ type: 'openai', family: 'openai-compatible', model: 'gpt-5', baseUrl: 'https://api.openai.com/v1' })).description, /^openai-responses gpt-5 @ https:\/\/api\.openai\.com\/v1$/);
    assert.match(createProvider(agent({ type: 'openai', family: 'openai-compatible', model: 'm', baseUrl: 'http://localhost:11434/v1' })).description, /^openai-compatible m @/);
    assert.match(createProvider(agent({ type: 'openai', family: 'openai-compatible', model: 'm', baseUrl: 'http://localhost:11434/v1', api: 'responses' })).description, /^openai-responses m @/);
    assert.match(createProvider(agent({ type: 'openai', family: 'openai-compatible', model: 'gpt-5', api: 'chat_completions' })).description, /^openai-compatible gpt-5 @ https:\/\/api\.openai\.com\/v1$/);
    assert.match(createProvider(agent({ type: 'chatcompletion', family: 'openai-compatible', model: 'm', baseUrl: 'https://api.openai.com/v1' })).description, /^openai-compatible /);
    assert.match(createProvider(agent({ type: 'gemini', family: 'gemini', model: 'gemini-2.5-flash', baseUrl: 'https://generativelanguage.googleapis.com' })).description, /^gemini gemini-2\.5-flash @/);
  });

  it('sends Azure OpenAI requests to the deployment with api-version and the api-key header', async () => {
    const server = await recorder();
    try {
      const key = 'az-key-0123456789';
      const deployment = createProvider(agent({ type: 'azure_openai', family: 'openai-compatible', model: 'my gpt', baseUrl: server.url, apiKey: key, azureApiVersion: '2024-12-01-preview' }));
      const error = await rejection(deployment.complete(request(), { signal: new AbortController().signal }));
      assert.equal(error.kind, 'auth');
      assert.doesNotMatch(error.message, /did you mean/);
      assert.equal(server.seen[0].url, '/openai/deployments/my%20gpt/chat/completions?api-version=2024-12-01-preview');
      assert.equal(server.seen[0].headers['api-key'], key);

      const v1 = createProvider(agent({ type: 'azure_openai', family: 'openai-compatible', model: 'gpt-4o', baseUrl: `${server.url}/openai/v1`, apiKey: key, azureApiVersion: '2024-12-01-preview' }));
      await rejection(v1.complete(request(), { signal: new AbortController().signal }));
      assert.equal(server.seen[1].url, '/openai/v1/chat/completions');
    } finally {
      await server.close();
    }
  });

  it('hands Claude the web search tool when the config enables it', async () => {
    const fake = await startFakeAnthropic(() => ({ text: 'ok' }));
    try {
      const claude = createProvider(agent({ type: 'claude', family: 'anthropic', model: 'claude-fake', baseUrl: fake.baseUrl, apiKey: 'sk-ant-0123456789', builtinTools: ['web_search'] }));
      await claude.complete(request(), { signal: new AbortController().signal });
      assert.deepEqual(fake.requests[0].body?.tools, [{ type: 'web_search_20250305', name: 'web_search' }]);
    } finally {
      await fake.close();
    }
  });
});

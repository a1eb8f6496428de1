import assert from 'node:assert/strict';
import { BATTERY_TOOLS as TOOLS, providerBattery, rejection, request, type BatteryReply } from '../../../test/helpers/provider-tests';
import { startFakeGemini, type FakeGeminiReply, type FakeGeminiHandler, type FakeGeminiServer } from '../../../test/fakes/gemini-server';
import { GeminiProvider, type GeminiOptions } from './gemini';
import type { StreamDelta } from './types';

const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

/** The battery's neutral replies in Gemini's terms. */
function geminiReply(reply: BatteryReply): FakeGeminiReply {
  if ('error' in reply) {
    const { status, message, retryAfterSeconds } = reply.error;
    return { error: { httpStatus: status, status: STATUS_NAMES[status] ?? 'UNKNOWN', message, ...(retryAfterSeconds ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}) } };
  }
  const chunkSize = reply.chunkSize ?? 8;
  return {
    text: reply.text,
    thinking: reply.reasoning,
    toolCalls: reply.toolCalls?.map((c) => ({ name: c.name, args: c.args })),
    chunkSize,
    delayMsPerChunk: reply.delayMsPerChunk,
    ...(reply.usage ? { usage: { promptTokens: reply.usage.input, cachedTokens: reply.usage.cached, candidatesTokens: reply.usage.output } } : {}),
    ...(reply.cut ? { cut: { afterChunks: Math.ceil((reply.text ?? '').length / chunkSize / 2) } } : {}),
    ...(reply.endUnfinished ? { endWithoutFinish: true } : {}),
  };
}

providerBattery('GeminiProvider (real @google/genai SDK against the fake Gemini server)', {
  async start(reply) {
    const server = await startFakeGemini((r) => geminiReply(reply(r.index)));
    return {
      provider: (apiKey) => new GeminiProvider({ model: 'gemini-2.5-flash', baseUrl: server.baseUrl, apiKey }),
      requestCount: () => server.requests.length,
      outcome: (i) => server.requests[i].outcome,
      close: () => server.close(),
    };
  },
  unreachable(port) {
    const baseUrl = `http://127.0.0.1:${port}`;
    return { provider: new GeminiProvider({ model: 'gemini-2.5-flash', baseUrl, apiKey: 'k-0123456789' }), where: baseUrl };
  },
});

describe('GeminiProvider (against the fake Gemini server)', () => {
  let server: FakeGeminiServer | undefined;
  const live = () => new AbortController().signal;

  async function start(handler: FakeGeminiHandler): Promise<FakeGeminiServer> {
    server = await startFakeGemini(handler);
    return server;
  }
  function provider(options: Partial<GeminiOptions> = {}): GeminiProvider {
    assert.ok(server, 'start the server first');
    return new GeminiProvider({ model: 'gemini-2.5-flash', baseUrl: server.baseUrl, apiKey: 'AIza-test-0123456789', ...options });
  }
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('describes itself, and reads an API version from the base URL', async () => {
    const s = await start(() => ({ text: 'ok' }));
    assert.equal(provider().description, `gemini gemini-2.5-flash @ ${s.baseUrl}`);
    assert.equal(new GeminiProvider({ model: 'm' }).description, 'gemini m @ https://generativelanguage.googleapis.com');
    const p = provider({ baseUrl: `${s.baseUrl}/v1/` });
    assert.equal(p.description, `gemini gemini-2.5-flash @ ${s.baseUrl}`);
    assert.equal((await p.complete(request(), { signal: live() })).text, 'ok');
    assert.equal(s.requests[0].path, '/v1/models/gemini-2.5-flash:streamGenerateContent');
    assert.equal(s.requests[0].query.get('alt'), 'sse');
  });

  it('sends the request shape Gemini expects and replays tool history with its thought signatures', async () => {
    const s = await start((r) => (r.index === 0 ? { toolCalls: [{ name: 'new_answer', args: { content: '4' } }] } : { text: 'done' }));
    const p = provider({ temperature: 0.3, maxTokens: 512, topP: 0.9 });
    const first = await p.complete(request({ tools: TOOLS, toolChoice: 'required' }), { signal: live() });
    const call = first.toolCalls[0];
    await p.complete(
      request({
        tools: TOOLS,
        toolChoice: 'auto',
        messages: [
          { role: 'user', content: 'Solve it.' },
          { role: 'assistant', content: '', toolCalls: [call] },
          { role: 'tool', toolCallId: call.id, name: 'new_answer', content: 'recorded' },
          { role: 'user', content: 'An update.' },
          { role: 'assistant', content: 'Done.' },
          { role: 'user', content: 'Vote now.' },
        ],
      }),
      { signal: live() },
    );
    assert.equal(s.requests[0].headers['x-goog-api-key'], 'AIza-test-0123456789');
    const body = s.requests[1].body;
    assert.ok(body);
    assert.deepEqual(body.systemInstruction, { parts: [{ text: 'You are agent A.' }], role: 'user' });
    assert.deepEqual(body.tools, [{ functionDeclarations: TOOLS.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }]);
    assert.deepEqual(s.requests[0].body?.toolConfig, { functionCallingConfig: { mode: 'ANY' } });
    assert.deepEqual(body.toolConfig, { functionCallingConfig: { mode: 'AUTO' } });
    assert.deepEqual(body.generationConfig, { temperature: 0.3, topP: 0.9, maxOutputTokens: 512, thinkingConfig: { includeThoughts: true } });
    assert.deepEqual(body.contents, [
      { role: 'user', parts: [{ text: 'Solve it.' }] },
      { role: 'model', parts: [{ functionCall: { name: 'new_answer', args: { content: '4' } }, thoughtSignature: Buffer.from('sig_0_0').toString('base64') }] },
      { role: 'user', parts: [{ functionResponse: { name: 'new_answer', response: { output: 'recorded' } } }, { text: 'An update.' }] },
      { role: 'model', parts: [{ text: 'Done.' }] },
      { role: 'user', parts: [{ text: 'Vote now.' }] },
    ]);
  });

  it('sends the server’s call ids back, and for Gemini 3 a stand-in signature on calls it never saw', async () => {
    const s = await start((r) => (r.index === 0 ? { toolCalls: [{ name: 'vote', args: {}, id: 'fc-1', signature: null }] } : { text: 'ok' }));
    const p = provider({ model: 'gemini-3-pro-preview' });
    const first = await p.complete(request({ tools: TOOLS }), { signal: live() });
    assert.equal(first.toolCalls[0].id, 'fc-1');
    const foreign = { id: 'call_elsewhere', name: 'vote', arguments: '{"agent_id":"agent1"}' };
    await p.complete(request({
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'Go.' },
        { role: 'assistant', content: '', toolCalls: [first.toolCalls[0], foreign] },
        { role: 'tool', toolCallId: 'fc-1', name: 'vote', content: 'a' },
        { role: 'tool', toolCallId: 'call_elsewhere', name: 'vote', content: 'b' },
      ],
    }), { signal: live() });
    const contents = s.requests[1].body?.contents ?? [];
    assert.deepEqual(contents[1].parts, [
      { functionCall: { id: 'fc-1', name: 'vote', args: {} }, thoughtSignature: 'skip_thought_signature_validator' },
      { functionCall: { name: 'vote', args: { agent_id: 'agent1' } }, thoughtSignature: 'skip_thought_signature_validator' },
    ]);
    assert.deepEqual(contents[2].parts.map((p) => p.functionResponse), [
      { id: 'fc-1', name: 'vote', response: { output: 'a' } },
      { name: 'vote', response: { output: 'b' } },
    ]);
  });

  it('asks for thoughts only from models that think', async () => {
    const s = await start(() => ({ text: 'ok' }));
    await provider({ model: 'gemini-2.0-flash' }).complete(request(), { signal: live() });
    await provider({ model: 'gemini-3-flash-preview' }).complete(request(), { signal: live() });
    assert.equal(s.requests[0].body?.generationConfig?.thinkingConfig, undefined);
    assert.deepEqual(s.requests[1].body?.generationConfig?.thinkingConfig, { includeThoughts: true });
    assert.equal(s.requests[1].body?.tools, undefined);
  });

  it('offers Google Search and code execution when enabled; a model that refuses them beside functions is asked again without', async () => {
    const s = await start((r) => {
      const builtins = (r.body.tools ?? []).some((t) => t.googleSearch || t.codeExecution);
      const functions = (r.body.tools ?? []).some((t) => t.functionDeclarations);
      return builtins && functions ? { error: { httpStatus: 400, status: 'INVALID_ARGUMENT', message: 'Tool use with function calling is unsupported' } } : { text: 'ok' };
    });
    const p = provider({ builtinTools: ['web_search', 'code_execution'] });
    assert.equal((await p.complete(request(), { signal: live() })).text, 'ok');
    assert.deepEqual(s.requests[0].body?.tools, [{ googleSearch: {} }, { codeExecution: {} }]);
    assert.equal((await p.complete(request({ tools: TOOLS }), { signal: live() })).text, 'ok');
    assert.equal((await p.complete(request({ tools: TOOLS }), { signal: live() })).text, 'ok');
    assert.deepEqual(s.requests.map((r) => (r.body?.tools ?? []).length), [2, 3, 1, 1]);
  });

  it('counts thoughts and tool-use prompt tokens in usage, and maps MAX_TOKENS to length', async () => {
    await start(() => ({ text: 'cut sho', thinking: 'hmm', finishReason: 'MAX_TOKENS', usage: { promptTokens: 100, cachedTokens: 40, candidatesTokens: 7, thoughtsTokens: 30, toolUsePromptTokens: 20 } }));
    const response = await provider().complete(request(), { signal: live() });
    assert.equal(response.stopReason, 'length');
    assert.deepEqual(response.usage, { inputTokens: 120, cachedInputTokens: 40, outputTokens: 37 });
  });

  it('reads the retry delay from a RetryInfo detail when there is no Retry-After header', async () => {
    await start(() => ({ error: { httpStatus: 429, status: 'RESOURCE_EXHAUSTED', message: 'You exceeded your current quota.', retryDelay: '13s' } }));
    const error = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(error.kind, 'rate_limit');
    assert.equal(error.retryAfterMs, 13_000);
    assert.match(error.message, /You exceeded your current quota/);
  });

  it('maps Google’s 400 API_KEY_INVALID to auth, and a 404 to invalid_request with a hint', async () => {
    const s = await start((r) => r.index === 0
      ? { error: { httpStatus: 400, status: 'INVALID_ARGUMENT', message: 'API key not valid. Please pass a valid API key.', reason: 'API_KEY_INVALID' } }
      : { error: { httpStatus: 404, status: 'NOT_FOUND', message: 'models/gemini-nope is not found for API version v1beta' } });
    const auth = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(auth.kind, 'auth');
    assert.match(auth.message, /API key not valid/);
    const missing = await rejection(provider({ model: 'gemini-nope' }).complete(request(), { signal: live() }));
    assert.equal(missing.kind, 'invalid_request');
    assert.match(missing.message, /is not found.*check that the model name/);
    assert.equal(s.requests.length, 2);
  });

  it('maps an error object inside the stream by its code, after the partial deltas', async () => {
    await start(() => ({ text: 'partial answer', chunkSize: 4, streamError: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded.', afterChunks: 2 } }));
    const deltas: StreamDelta[] = [];
    const error = await rejection(provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) }));
    assert.equal(error.kind, 'server');
    assert.match(error.message, /mid-stream.*The model is overloaded/);
    assert.equal(deltas.map((d) => (d.type === 'text' ? d.text : '')).join(''), 'partial ');
  });

  it('refuses a blocked prompt as an invalid request', async () => {
    await start(() => ({ blockReason: 'SAFETY' }));
    const error = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(error.kind, 'invalid_request');
    assert.match(error.message, /blocked the prompt \(SAFETY\)/);
  });

  it('answers 403 without a key the way Google does, and sends a placeholder so keyless gateways work', async () => {
    const s = await start(() => ({ text: 'ok' }));
    await provider({ apiKey: undefined }).complete(request(), { signal: live() });
    assert.equal(s.requests[0].headers['x-goog-api-key'], 'not-needed');
  });
});

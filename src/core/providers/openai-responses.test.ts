import assert from 'node:assert/strict';
import { BATTERY_TOOLS as TOOLS, providerBattery, rejection, request, type BatteryReply } from '../../../test/helpers/provider-tests';
import { startFakeResponses, type FakeResponsesHandler, type FakeResponsesReply, type FakeResponsesServer } from '../../../test/fakes/openai-responses-server';
import { OpenAIResponsesProvider, type OpenAIResponsesOptions } from './openai-responses';
import type { StreamDelta } from './types';

/** The battery's neutral replies in the Responses API's terms. */
function responsesReply(reply: BatteryReply): FakeResponsesReply {
  if ('error' in reply) {
    const { status, message, retryAfterSeconds } = reply.error;
    return { error: { status, message, ...(retryAfterSeconds ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}) } };
  }
  const chunkSize = reply.chunkSize ?? 8;
  // response.created, response.in_progress, output_item.added and content_part.added come before the first text delta.
  const textEvents = Math.ceil((reply.text ?? '').length / chunkSize);
  return {
    text: reply.text,
    ...(reply.reasoning ? { reasoningSummary: [reply.reasoning] } : {}),
    toolCalls: reply.toolCalls?.map((c) => ({ name: c.name, arguments: c.args })),
    chunkSize,
    delayMsPerChunk: reply.delayMsPerChunk,
    ...(reply.usage ? { usage: { inputTokens: reply.usage.input, cachedTokens: reply.usage.cached, outputTokens: reply.usage.output } } : {}),
    ...(reply.cut ? { cut: { afterEvents: 4 + Math.ceil(textEvents / 2) } } : {}),
    ...(reply.endUnfinished ? { endWithoutCompleted: true } : {}),
  };
}

providerBattery('OpenAIResponsesProvider (real openai SDK against the fake Responses server)', {
  async start(reply) {
    const server = await startFakeResponses((r) => responsesReply(reply(r.index)));
    return {
      provider: (apiKey) => new OpenAIResponsesProvider({ model: 'gpt-5-mini', baseUrl: server.baseUrl, apiKey }),
      requestCount: () => server.requests.length,
      outcome: (i) => server.requests[i].outcome,
      close: () => server.close(),
    };
  },
  unreachable(port) {
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    return { provider: new OpenAIResponsesProvider({ model: 'gpt-5-mini', baseUrl }), where: baseUrl };
  },
});

describe('OpenAIResponsesProvider (against the fake Responses server)', () => {
  let server: FakeResponsesServer | undefined;
  const servers: FakeResponsesServer[] = [];
  const live = () => new AbortController().signal;

  async function start(handler: FakeResponsesHandler): Promise<FakeResponsesServer> {
    server = await startFakeResponses(handler);
    servers.push(server);
    return server;
  }
  function provider(options: Partial<OpenAIResponsesOptions> = {}): OpenAIResponsesProvider {
    assert.ok(server, 'start the server first');
    return new OpenAIResponsesProvider({ model: 'gpt-5-mini', baseUrl: server.baseUrl, apiKey: 'sk-test-0123456789', ...options });
  }
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    server = undefined;
  });

  it('describes itself with the model and base URL, OpenAI’s by default', () => {
    assert.equal(new OpenAIResponsesProvider({ model: 'gpt-5' }).description, 'openai-responses gpt-5 @ https://api.openai.com/v1');
  });

  it('sends the run’s cache key as prompt_cache_key', async () => {
    const s = await start(() => ({ text: 'ok' }));
    await provider().complete(request({ cacheKey: 'massgen-a1' }), { signal: live() });
    await provider().complete(request(), { signal: live() });
    assert.deepEqual(s.requests.map((r) => (r.body as { prompt_cache_key?: string }).prompt_cache_key), ['massgen-a1', undefined]);
  });

  it('sends instructions, input items, function tools, reasoning, text and store: false, and round-trips tool history', async () => {
    const s = await start(() => ({ text: 'ok' }));
    await provider({ maxTokens: 900, reasoning: { effort: 'high' }, text: { verbosity: 'low' } }).complete(
      request({
        tools: TOOLS,
        toolChoice: 'required',
        messages: [
          { role: 'user', content: 'Solve it.' },
          { role: 'assistant', content: 'Let me answer.', toolCalls: [{ id: 'call_1', name: 'new_answer', arguments: '{"content":"4"}' }] },
          { role: 'tool', toolCallId: 'call_1', name: 'new_answer', content: 'recorded' },
          { role: 'user', content: 'Vote now.' },
        ],
      }),
      { signal: live() },
    );
    const body = s.requests[0].body;
    assert.ok(body);
    assert.equal(s.requests[0].path, '/v1/responses');
    assert.equal(s.requests[0].headers.authorization, 'Bearer sk-test-0123456789');
    assert.equal(body.model, 'gpt-5-mini');
    assert.equal(body.instructions, 'You are agent A.');
    assert.equal(body.stream, true);
    assert.equal(body.store, false);
    assert.equal(body.max_output_tokens, 900);
    assert.equal(body.tool_choice, 'required');
    assert.deepEqual(body.reasoning, { effort: 'high', summary: 'auto' });
    assert.deepEqual(body.text, { verbosity: 'low' });
    assert.deepEqual(body.tools, TOOLS.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false })));
    assert.deepEqual(body.input, [
      { role: 'user', content: 'Solve it.' },
      { role: 'assistant', content: 'Let me answer.' },
      { type: 'function_call', call_id: 'call_1', name: 'new_answer', arguments: '{"content":"4"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'recorded' },
      { role: 'user', content: 'Vote now.' },
    ]);
    assert.equal('parallel_tool_calls' in body, false);
  });

  it('asks reasoning models for summaries by default and others for no reasoning at all', async () => {
    const s = await start(() => ({ text: 'ok' }));
    await provider({ model: 'o4-mini' }).complete(request(), { signal: live() });
    await provider({ model: 'gpt-4.1' }).complete(request(), { signal: live() });
    assert.deepEqual(s.requests[0].body?.reasoning, { summary: 'auto' });
    assert.equal(s.requests[1].body?.reasoning, undefined);
  });

  it('offers web_search and code_interpreter when enabled, without parallel calls, and ignores their items in the output', async () => {
    const s = await start(() => ({ builtinCalls: ['web_search', 'code_interpreter'], text: 'Found it: 4.', toolCalls: [{ name: 'vote', arguments: { agent_id: 'agent1' } }] }));
    const response = await provider({ builtinTools: ['web_search', 'code_execution'] }).complete(request({ tools: TOOLS }), { signal: live() });
    const body = s.requests[0].body;
    assert.deepEqual(body?.tools?.slice(2), [{ type: 'web_search' }, { type: 'code_interpreter', container: { type: 'auto' } }]);
    assert.equal(body?.parallel_tool_calls, false);
    assert.equal(response.text, 'Found it: 4.');
    assert.deepEqual(response.toolCalls.map((c) => c.name), ['vote']);
    assert.equal(response.stopReason, 'tool_calls');
  });

  it('separates reasoning summary parts, and passes malformed arguments through raw', async () => {
    await start(() => ({ reasoningSummary: ['First.', 'Second.'], toolCalls: [{ name: 'new_answer', arguments: '{"content": "unterminated', callId: 'call_x' }] }));
    const deltas: StreamDelta[] = [];
    const response = await provider().complete(request({ tools: TOOLS }), { signal: live(), onDelta: (d) => deltas.push(d) });
    assert.equal(response.reasoning, 'First.\n\nSecond.');
    assert.deepEqual(response.toolCalls, [{ id: 'call_x', name: 'new_answer', arguments: '{"content": "unterminated' }]);
  });

  it('maps response.incomplete for length to stopReason length, and for a filter to an invalid request', async () => {
    await start((r) => (r.index === 0 ? { text: 'cut sho', incomplete: 'max_output_tokens' } : { text: 'no', incomplete: 'content_filter' }));
    const response = await provider().complete(request(), { signal: live() });
    assert.equal(response.stopReason, 'length');
    assert.equal(response.text, 'cut sho');
    const error = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(error.kind, 'invalid_request');
    assert.match(error.message, /content_filter/);
  });

  it('maps response.failed and error events by their code', async () => {
    await start((r) => (r.index === 0 ? { text: 'x', failed: { code: 'server_error', message: 'The server had an error.' } } : { text: 'y', streamError: { code: 'rate_limit_exceeded', message: 'Slow down.' } }));
    const failed = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(failed.kind, 'server');
    assert.match(failed.message, /response.failed \(server_error\): The server had an error/);
    const limited = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(limited.kind, 'rate_limit');
    assert.match(limited.message, /Slow down/);
  });

  it('classifies an error event with nested details by its code: a context overflow or no credit is not retried as a server fault', async () => {
    await start((r) => ({ text: 'x', streamError: { code: r.index === 0 ? 'context_length_exceeded' : 'insufficient_quota', message: r.index === 0 ? 'Too long.' : 'No credit.', nested: true } }));
    const long = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(long.kind, 'invalid_request');
    assert.match(long.message, /context_length_exceeded.*Too long/);
    const broke = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(broke.kind, 'auth');
    assert.match(broke.message, /insufficient_quota.*No credit/);
  });

  it('asks once more without a sampling parameter the model refuses, and never sends it again', async () => {
    const s = await start((r) => ('temperature' in r.body ? { error: { status: 400, message: "Unsupported parameter: 'temperature' is not supported with this model.", code: 'unsupported_parameter' } } : { text: 'ok' }));
    const p = provider({ temperature: 0.2 });
    assert.equal((await p.complete(request(), { signal: live() })).text, 'ok');
    assert.equal((await p.complete(request(), { signal: live() })).text, 'ok');
    assert.deepEqual(s.requests.map((r) => 'temperature' in (r.body ?? {})), [true, false, false]);
    const other = await start(() => ({ error: { status: 400, message: 'Invalid prompt.' } }));
    await rejection(provider({ temperature: 0.2 }).complete(request(), { signal: live() }));
    assert.equal(other.requests.length, 1);
  });
});

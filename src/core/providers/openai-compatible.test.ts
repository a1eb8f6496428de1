import { CACHE_POLICIES } from '../usage/cache';
import assert from 'node:assert/strict';
import { closedPort, providerBattery, rejection, request, type BatteryReply } from '../../../test/helpers/provider-tests';
import { inspect } from 'node:util';
import { OpenAICompatibleProvider } from './openai-compatible';
import type { ModelResponse, StreamDelta } from './types';
import {
  coordinationScript,
  startFakeOpenAI,
  type FakeErrorReply,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeStreamReply,
  type FakeToolCall,
} from '../../../test/fakes/openai-server';

const TOOLS = [
  { name: 'new_answer', description: 'Submit an answer', parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] } },
  { name: 'vote', description: 'Vote for an answer', parameters: { type: 'object', properties: { agent_id: { type: 'string' }, reason: { type: 'string' } } } },
];



describe('OpenAICompatibleProvider (real openai SDK against the fake server)', () => {
  let server: FakeOpenAIServer | undefined;
  const servers: FakeOpenAIServer[] = [];

  async function start(handler: FakeHandler): Promise<FakeOpenAIServer> {
    server = await startFakeOpenAI(handler);
    servers.push(server);
    return server;
  }

  function provider(options: { apiKey?: string; model?: string } = {}): OpenAICompatibleProvider {
    assert.ok(server, 'start the server first');
    return new OpenAICompatibleProvider({ model: options.model ?? 'fake-model', baseUrl: server.baseUrl, apiKey: options.apiKey });
  }

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    server = undefined;
  });

  it('streams text deltas in order and returns the full text', async () => {
    const text = 'Two plus two is four. It has always been four.';
    await start(() => ({ text, chunkSize: 5 }));
    const deltas: StreamDelta[] = [];
    const response = await provider().complete(request(), { signal: new AbortController().signal, onDelta: (d) => deltas.push(d) });

    assert.equal(response.text, text);
    assert.equal(response.stopReason, 'stop');
    assert.deepEqual(response.toolCalls, []);
    assert.equal(deltas.length, Math.ceil(text.length / 5));
    assert.ok(deltas.every((d) => d.type === 'text'));
    assert.equal(deltas.map((d) => (d.type === 'text' ? d.text : '')).join(''), text);
  });

  it('describes itself with the model and base URL', async () => {
    const s = await start(() => ({ text: 'x' }));
    assert.equal(provider({ model: 'gpt-4o-mini' }).description, `openai-compatible gpt-4o-mini @ ${s.baseUrl}`);
  });

  it('assembles tool-call arguments that arrive in fragments, streaming no deltas for them', async () => {
    const args = { content: 'The answer is 4, because 2+2=4 in every base above 4.' };
    await start(() => ({ toolCalls: [{ name: 'new_answer', arguments: args, id: 'call_abc' }], chunkSize: 7 }));
    const deltas: StreamDelta[] = [];
    const response = await provider().complete(request({ tools: TOOLS }), { signal: new AbortController().signal, onDelta: (d) => deltas.push(d) });

    assert.equal(response.stopReason, 'tool_calls');
    assert.equal(response.toolCalls.length, 1);
    assert.deepEqual({ ...response.toolCalls[0], arguments: JSON.parse(response.toolCalls[0].arguments) }, { id: 'call_abc', name: 'new_answer', arguments: args });
    assert.deepEqual(deltas, []);
  });

  it('keeps several tool calls in one response apart', async () => {
    await start(() => ({
      toolCalls: [
        { name: 'new_answer', arguments: { content: 'four' } },
        { name: 'vote', arguments: { agent_id: 'agent2', reason: 'clear' } },
      ],
      chunkSize: 4,
    }));
    const response = await provider().complete(request({ tools: TOOLS }), { signal: new AbortController().signal });

    assert.deepEqual(response.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), [
      ['new_answer', { content: 'four' }],
      ['vote', { agent_id: 'agent2', reason: 'clear' }],
    ]);
    assert.notEqual(response.toolCalls[0].id, response.toolCalls[1].id);
  });

  it('generates ids for tool calls the server sent without one', async () => {
    await start(() => ({ toolCalls: [{ name: 'vote', arguments: { agent_id: 'agent1' } }, { name: 'vote', arguments: {} }], omitToolCallIds: true }));
    const response = await provider().complete(request({ tools: TOOLS }), { signal: new AbortController().signal });

    const ids = response.toolCalls.map((c) => c.id);
    assert.ok(ids.every((id) => /^call_\w+$/.test(id)), `ids: ${ids.join(', ')}`);
    assert.notEqual(ids[0], ids[1]);
  });

  it('passes malformed tool arguments through raw for the engine to judge', async () => {
    const broken = '{"content": "unterminated';
    await start(() => ({ toolCalls: [{ name: 'new_answer', arguments: broken }], chunkSize: 3 }));
    const response = await provider().complete(request({ tools: TOOLS }), { signal: new AbortController().signal });
    assert.equal(response.toolCalls[0].arguments, broken);
  });

  it('sends the run’s cache key as prompt_cache_key to OpenAI, and to another server only when told to', async () => {
    const s = await start(() => ({ text: 'ok' }));
    const keyed = new OpenAICompatibleProvider({ model: 'gpt-4o', baseUrl: s.baseUrl, promptCacheKey: true });
    await keyed.complete(request({ cacheKey: 'massgen-run1-a1' }), { signal: new AbortController().signal });
    await keyed.complete(request({ cacheKey: 'massgen-run1-a2' }), { signal: new AbortController().signal });
    await provider().complete(request({ cacheKey: 'massgen-run1-a1' }), { signal: new AbortController().signal });
    assert.deepEqual(s.requests.map((r) => (r.body as { prompt_cache_key?: string }).prompt_cache_key), ['massgen-run1-a1', 'massgen-run1-a2', undefined]);
    assert.equal(new OpenAICompatibleProvider({ model: 'gpt-4o' }).buildBody(request({ cacheKey: 'k' })).prompt_cache_key, 'k');
    assert.deepEqual(new OpenAICompatibleProvider({ model: 'gpt-4o' }).promptCache, CACHE_POLICIES.openai);
    assert.equal(provider().promptCache, undefined, 'a local server is not known to bill cached tokens less');
  });

  it('leaves prompt_cache_key out once a server refuses it', async () => {
    let calls = 0;
    const s = await start(() => (calls++ === 0 ? { error: { status: 400, message: "Unrecognized request argument supplied: prompt_cache_key" } } : { text: 'ok' }));
    const keyed = new OpenAICompatibleProvider({ model: 'm', baseUrl: s.baseUrl, promptCacheKey: true });
    assert.equal((await keyed.complete(request({ cacheKey: 'k' }), { signal: new AbortController().signal })).text, 'ok');
    assert.deepEqual(s.requests.map((r) => 'prompt_cache_key' in (r.body as object)), [true, false]);
    assert.ok('stream_options' in (s.requests[1].body as object), 'only the blamed field is dropped');
  });

  it('maps the final usage chunk, cached tokens included', async () => {
    await start(() => ({ text: 'ok', usage: { promptTokens: 1234, completionTokens: 56, cachedTokens: 1000 } }));
    const response = await provider().complete(request(), { signal: new AbortController().signal });
    assert.deepEqual(response.usage, { inputTokens: 1234, cachedInputTokens: 1000, outputTokens: 56 });
  });

  it('streams reasoning_content and reasoning fields as reasoning deltas', async () => {
    for (const reasoningField of ['reasoning_content', 'reasoning'] as const) {
      await start(() => ({ reasoning: 'Let me add the numbers.', reasoningField, text: '4', chunkSize: 6 }));
      const deltas: StreamDelta[] = [];
      const response = await provider().complete(request(), { signal: new AbortController().signal, onDelta: (d) => deltas.push(d) });

      assert.equal(response.reasoning, 'Let me add the numbers.', reasoningField);
      assert.equal(response.text, '4');
      const kinds = deltas.map((d) => d.type);
      assert.deepEqual(kinds, ['reasoning', 'reasoning', 'reasoning', 'reasoning', 'text'], reasoningField);
    }
  });

  it('sends the request shape OpenAI expects and round-trips tool history', async () => {
    const s = await start(() => ({ text: 'ok' }));
    const p = new OpenAICompatibleProvider({ model: 'm1', baseUrl: s.baseUrl, temperature: 0.3, maxTokens: 512, topP: 0.9, defaultHeaders: { 'x-test': 'yes' } });
    await p.complete(
      request({
        tools: TOOLS,
        toolChoice: 'required',
        messages: [
          { role: 'user', content: 'Solve it.' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'new_answer', arguments: '{"content":"4"}' }] },
          { role: 'tool', toolCallId: 'call_1', name: 'new_answer', content: 'recorded' },
          { role: 'assistant', content: 'Done.' },
          { role: 'user', content: 'Vote now.' },
        ],
      }),
      { signal: new AbortController().signal },
    );

    assert.equal(s.requests.length, 1);
    const { body, headers } = s.requests[0];
    assert.ok(body);
    assert.equal(body.model, 'm1');
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.tool_choice, 'required');
    assert.equal(body.temperature, 0.3);
    assert.equal(body.max_tokens, 512);
    assert.equal(body.top_p, 0.9);
    assert.equal(headers['x-test'], 'yes');
    assert.deepEqual(body.tools, TOOLS.map((t) => ({ type: 'function', function: t })));
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'You are agent A.' },
      { role: 'user', content: 'Solve it.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'new_answer', arguments: '{"content":"4"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'recorded' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Vote now.' },
    ]);
  });

  it('replays a malformed or empty call as a JSON object showing the raw text (chat-template servers parse it)', async () => {
    const s = await start(() => ({ text: 'ok' }));
    const calls = [
      { id: 'c1', name: 'new_answer', arguments: '{"content": "Paris is' },
      { id: 'c2', name: 'vote', arguments: '' },
      { id: 'c3', name: 'vote', arguments: '["agent1"]' },
      { id: 'c4', name: 'vote', arguments: '{"agent_id":  "agent1"}' },
    ];
    await provider().complete(
      request({ messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: '', toolCalls: calls }, ...calls.map((c) => ({ role: 'tool' as const, toolCallId: c.id, name: c.name, content: 'refused' }))] }),
      { signal: new AbortController().signal },
    );
    const sent = (s.requests[0].body!.messages[2].tool_calls ?? []).map((c) => c.function.arguments);
    assert.deepEqual(sent, ['{"_raw_arguments":"{\\"content\\": \\"Paris is"}', '{}', '{"_raw_arguments":"[\\"agent1\\"]"}', '{"agent_id":  "agent1"}']);
    for (const args of sent) assert.equal(typeof JSON.parse(args), 'object');
  });

  it('leaves tools and tool_choice out when no tools are offered', async () => {
    const s = await start(() => ({ text: 'ok' }));
    await provider().complete(request({ toolChoice: 'required' }), { signal: new AbortController().signal });
    const body = s.requests[0].body;
    assert.ok(body);
    assert.equal('tools' in body, false);
    assert.equal('tool_choice' in body, false);
    assert.equal('temperature' in body, false);
  });

  it('sends the api key as a bearer token, and a placeholder when there is none', async () => {
    const s = await start(() => ({ text: 'ok' }));
    await provider({ apiKey: 'sk-live-0123456789' }).complete(request(), { signal: new AbortController().signal });
    await provider().complete(request(), { signal: new AbortController().signal });
    assert.equal(s.requests[0].headers.authorization, 'Bearer sk-live-0123456789');
    assert.equal(s.requests[1].headers.authorization, 'Bearer not-needed');
  });

  it('maps 429 to rate_limit with retry-after, making exactly one request', async () => {
    const s = await start(() => ({ error: { status: 429, message: 'Rate limit reached for requests', type: 'requests', headers: { 'retry-after': '7' } } }));
    const error = await rejection(provider().complete(request(), { signal: new AbortController().signal }));
    assert.equal(error.kind, 'rate_limit');
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterMs, 7000);
    assert.match(error.message, /Rate limit reached for requests/);
    assert.equal(error.retryable, true);
    assert.equal(s.requests.length, 1, 'the SDK must not retry on its own');
  });

  it('prefers retry-after-ms over retry-after', async () => {
    await start(() => ({ error: { status: 429, message: 'slow down', headers: { 'retry-after-ms': '1500', 'retry-after': '9' } } }));
    const error = await rejection(provider().complete(request(), { signal: new AbortController().signal }));
    assert.equal(error.retryAfterMs, 1500);
  });

  it('maps 500 to server (retryable, one request) and 503 retry-after too', async () => {
    const s = await start((r) =>
      r.index === 0
        ? { error: { status: 500, message: 'The server had an error while processing your request.', type: 'server_error' } }
        : { error: { status: 503, message: 'overloaded', headers: { 'retry-after': '2' } } },
    );
    const first = await rejection(provider().complete(request(), { signal: new AbortController().signal }));
    assert.equal(first.kind, 'server');
    assert.equal(first.status, 500);
    assert.equal(first.retryable, true);
    assert.equal(s.requests.length, 1);
    const second = await rejection(provider().complete(request(), { signal: new AbortController().signal }));
    assert.equal(second.kind, 'server');
    assert.equal(second.retryAfterMs, 2000);
  });

  it('maps 401 to auth without leaking the key, even when the server echoes it', async () => {
    const key = 'sk-proj-SECRET-abcdef123456';
    await start((r) => ({
      error: { status: 401, message: `Incorrect API key provided: ${String(r.headers.authorization).slice('Bearer '.length)}.`, type: 'invalid_request_error', code: 'invalid_api_key' },
    }));
    const error = await rejection(provider({ apiKey: key }).complete(request(), { signal: new AbortController().signal }));
    assert.equal(error.kind, 'auth');
    assert.equal(error.status, 401);
    assert.equal(error.retryable, false);
    assert.match(error.message, /Incorrect API key provided/);
    assert.ok(!inspect(error, { depth: 10 }).includes(key), 'the key leaked into the error');
    assert.ok(!JSON.stringify(error).includes(key));
  });

  it('maps 404 model-not-found to invalid_request with a hint', async () => {
    await start((r) => ({ error: { status: 404, message: `The model \`${r.body.model}\` does not exist or you do not have access to it.`, code: 'model_not_found' } }));
    const error = await rejection(provider({ model: 'gpt-nope' }).complete(request(), { signal: new AbortController().signal }));
    assert.equal(error.kind, 'invalid_request');
    assert.equal(error.status, 404);
    assert.match(error.message, /The model `gpt-nope` does not exist/);
    assert.match(error.message, /model name and the base URL/);
    assert.doesNotMatch(error.message, /did you mean/, 'the base URL already ends in /v1');
    assert.equal(error.retryable, false);
  });

  it('maps 400 to invalid_request with the server message', async () => {
    await start(() => ({ error: { status: 400, message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' } }));
    const error = await rejection(provider().complete(request(), { signal: new AbortController().signal }));
    assert.equal(error.kind, 'invalid_request');
    assert.match(error.message, /maximum context length is 8192/);
  });

  it("keeps a server's message on one short line, however much of the model's output it quotes (llama.cpp)", async () => {
    const rambling = `Failed to parse input at pos 12: <tool_call>\n{"name": "new_answer", "arguments": {"content": "${'Paris is a city. '.repeat(200)}`;
    await start(() => ({ error: { status: 500, message: rambling, type: 'server_error' } }));
    const error = await rejection(provider().complete(request(), { signal: new AbortController().signal }));
    assert.match(error.message, /Failed to parse input at pos 12: <tool_call> \{"name": "new_answer"/);
    assert.doesNotMatch(error.message, /\n/);
    assert.ok(error.message.length < 600, `${error.message.length} characters`);
  });

  it("classifies llama.cpp's unparsable reply (HTTP 500) as the model's output, not retried, quoting the reply", async () => {
    await start(() => ({ error: { status: 500, message: 'Failed to parse input at pos 12: <tool_call>\n{"name": "vote", "arguments": {"agent_id": ', type: 'server_error' } }));
    const error = await rejection(provider().complete(request(), { signal: new AbortController().signal }));
    assert.equal(error.kind, 'unparsed_output');
    assert.equal(error.status, 500);
    assert.equal(error.retryable, false);
    assert.equal(error.output, '<tool_call> {"name": "vote", "arguments": {"agent_id":');
    assert.match(error.message, /could not parse the model's reply \(HTTP 500\): Failed to parse input at pos 12: <tool_call>/);
  });

  it('classifies the same report sent as an error event in a begun stream, after the text it streamed', async () => {
    await start(() => ({ text: 'Let me vote.', errorEvent: { message: 'Failed to parse input at pos 13: <tool_call>{"name": "vote"' } }));
    const deltas: StreamDelta[] = [];
    const error = await rejection(provider().complete(request(), { signal: new AbortController().signal, onDelta: (d) => deltas.push(d) }));
    assert.equal(error.kind, 'unparsed_output');
    assert.equal(error.output, '<tool_call>{"name": "vote"');
    assert.equal(deltas.map((d) => ('text' in d ? d.text : '')).join(''), 'Let me vote.');
  });

  it('other server failures stay retryable server errors', async () => {
    await start(() => ({ text: 'x', errorEvent: { message: 'slot unavailable' } }));
    const inStream = await rejection(provider().complete(request(), { signal: new AbortController().signal }));
    assert.equal(inStream.kind, 'server');
    assert.equal(inStream.retryable, true);
  });

  it('reports a stream cut mid-way after delivering the partial deltas', async () => {
    await start(() => ({ text: 'abcdefghijklmnopqrstuvwxyz', chunkSize: 4, cut: { afterChunks: 4 } }));
    const deltas: StreamDelta[] = [];
    const error = await rejection(provider().complete(request(), { signal: new AbortController().signal, onDelta: (d) => deltas.push(d) }));
    assert.ok(error.kind === 'stream_cut' || error.kind === 'network', error.kind);
    assert.equal(error.retryable, true);
    // Role chunk + three text chunks were written before the socket died.
    assert.equal(deltas.map((d) => (d.type === 'text' ? d.text : '')).join(''), 'abcdefghijkl');
  });

  it('treats a stream that ends without a finish_reason as cut', async () => {
    await start(() => ({ text: 'half an answ', endWithoutFinish: true }));
    const deltas: StreamDelta[] = [];
    const error = await rejection(provider().complete(request(), { signal: new AbortController().signal, onDelta: (d) => deltas.push(d) }));
    assert.equal(error.kind, 'stream_cut');
    assert.ok(deltas.length > 0);
  });


  it('aborts before the response headers arrive', async () => {
    await start(() => new Promise((resolve) => setTimeout(() => resolve({ text: 'late' }), 200)));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await rejection(provider().complete(request(), { signal: controller.signal }));
    assert.equal(error.kind, 'aborted');
  });

  it('reports a refused connection as network, naming the base URL', async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const error = await rejection(new OpenAICompatibleProvider({ model: 'm', baseUrl }).complete(request(), { signal: new AbortController().signal }));
    assert.equal(error.kind, 'network');
    assert.ok(error.message.includes(baseUrl), error.message);
    assert.match(error.message, /connection refused/);
  });

  it('never shows credentials or a query of its base URL (a ${VAR} may put a key there)', async () => {
    const port = await closedPort();
    const p = new OpenAICompatibleProvider({ model: 'm', baseUrl: `http://user:sk-IN-URL-1@127.0.0.1:${port}/v1?key=sk-IN-QUERY-2` });
    assert.equal(p.description, `openai-compatible m @ http://127.0.0.1:${port}/v1`);
    const error = await rejection(p.complete(request(), { signal: new AbortController().signal }));
    assert.ok(error.message.includes(`127.0.0.1:${port}/v1`), error.message);
    assert.doesNotMatch(error.message, /sk-IN-/);
  });

  describe('deviations of other OpenAI-compatible servers', () => {
    const live = () => new AbortController().signal;
    const texts = (deltas: StreamDelta[]) => deltas.map((d) => (d.type === 'text' ? d.text : '')).join('');
    const calls = (response: ModelResponse) => response.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]);
    const TWO_CALLS: FakeToolCall[] = [
      { name: 'new_answer', arguments: { content: 'It is 4, because 2+2=4.' }, id: 'call_a' },
      { name: 'vote', arguments: { agent_id: 'agent2', reason: 'clear' }, id: 'call_b' },
    ];
    const EXPECTED_TWO_CALLS = [
      ['new_answer', { content: 'It is 4, because 2+2=4.' }],
      ['vote', { agent_id: 'agent2', reason: 'clear' }],
    ];

    it('reads SSE framing variants the SDK decodes: no space after data:, CRLF, comments, event lines, no [DONE]', async () => {
      const variants: NonNullable<FakeStreamReply['sse']>[] = [
        { noSpace: true },
        { crlf: true },
        { keepAlive: true },
        { event: 'message' },
        { omitDone: true },
        { noSpace: true, crlf: true, keepAlive: true, event: 'completion.chunk', omitDone: true },
      ];
      for (const sse of variants) {
        await start(() => ({ text: 'Four, as ever.', chunkSize: 3, sse, usage: { promptTokens: 9, completionTokens: 4 } }));
        const deltas: StreamDelta[] = [];
        const response = await provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) });
        const label = JSON.stringify(sse);
        assert.equal(response.text, 'Four, as ever.', label);
        assert.equal(texts(deltas), 'Four, as ever.', label);
        assert.equal(response.stopReason, 'stop', label);
        assert.deepEqual(response.usage, { inputTokens: 9, cachedInputTokens: 0, outputTokens: 4 }, label);
      }
    });

    it('keeps a last event that ends without its blank line (the SDK alone drops it)', async () => {
      const variants: [NonNullable<FakeStreamReply['sse']>, FakeStreamReply['usageIn']][] = [
        [{ omitDone: true, unterminated: true }, 'final'],
        [{ omitDone: true, unterminated: true, crlf: true }, 'final'],
        [{ omitDone: true, unterminated: true }, 'with_finish'],
        [{ unterminated: true }, 'final'],
      ];
      for (const [sse, usageIn] of variants) {
        await start(() => ({ text: 'done', sse, usageIn, usage: { promptTokens: 7, completionTokens: 1 } }));
        const response = await provider().complete(request(), { signal: live() });
        const label = JSON.stringify({ sse, usageIn });
        assert.equal(response.text, 'done', label);
        assert.equal(response.stopReason, 'stop', label);
        assert.deepEqual(response.usage, { inputTokens: 7, cachedInputTokens: 0, outputTokens: 1 }, label);
      }
    });

    it('still treats a stream with neither [DONE] nor finish_reason as cut', async () => {
      await start(() => ({ text: 'half', endWithoutFinish: true, sse: { omitDone: true, unterminated: true } }));
      const error = await rejection(provider().complete(request(), { signal: live() }));
      assert.equal(error.kind, 'stream_cut');
    });

    it('parses a plain JSON chat.completion sent although stream: true was asked', async () => {
      const s = await start(() => ({ nonStreaming: true, reasoning: 'Adding.', text: 'It is 4.', usage: { promptTokens: 20, completionTokens: 5, cachedTokens: 8 } }));
      const deltas: StreamDelta[] = [];
      const response = await provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) });

      assert.equal(s.requests.length, 1);
      assert.equal(response.text, 'It is 4.');
      assert.equal(response.reasoning, 'Adding.');
      assert.equal(response.stopReason, 'stop');
      assert.deepEqual(response.usage, { inputTokens: 20, cachedInputTokens: 8, outputTokens: 5 });
      assert.deepEqual(deltas, [
        { type: 'reasoning', text: 'Adding.' },
        { type: 'text', text: 'It is 4.' },
      ]);
    });

    it('takes tool calls from a plain JSON answer, arguments as a string or as an object', async () => {
      for (const argumentsAsObject of [false, true]) {
        await start(() => ({ nonStreaming: true, toolCalls: TWO_CALLS, usageIn: 'none', toolCallStyle: { argumentsAsObject } }));
        const response = await provider().complete(request({ tools: TOOLS }), { signal: live() });

        assert.deepEqual(calls(response), EXPECTED_TWO_CALLS, `argumentsAsObject: ${argumentsAsObject}`);
        assert.deepEqual(response.toolCalls.map((c) => c.id), ['call_a', 'call_b']);
        assert.equal(response.stopReason, 'tool_calls');
        assert.equal(response.usage, undefined);
      }
    });

    it('sniffs bodies not labelled as an event stream: a plain completion in HTML or unlabelled, a stream labelled JSON', async () => {
      const replies: FakeStreamReply[] = [
        { nonStreaming: true, contentType: null },
        { nonStreaming: true, contentType: 'text/html; charset=utf-8' },
        { contentType: 'application/json' },
        { contentType: null, sse: { omitDone: true, unterminated: true } },
      ];
      for (const reply of replies) {
        await start(() => ({ ...reply, text: 'It is 4.', chunkSize: 3, usage: { promptTokens: 3, completionTokens: 2 } }));
        const deltas: StreamDelta[] = [];
        const response = await provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) });
        assert.equal(response.text, 'It is 4.', JSON.stringify(reply));
        assert.equal(texts(deltas), 'It is 4.', JSON.stringify(reply));
        assert.deepEqual(response.usage, { inputTokens: 3, cachedInputTokens: 0, outputTokens: 2 }, JSON.stringify(reply));
      }
    });

    it('still reports an abort or a cut while reading a body whole', async () => {
      // Aborted once the first bytes of the body have reached the client, while the server still has most of it to
      // send (one byte per chunk, 5 ms apart): the abort cannot come before the body, nor after it ended.
      const slow = await start(() => ({ text: 'x'.repeat(100), chunkSize: 1, delayMsPerChunk: 5, contentType: 'application/json' }));
      const controller = new AbortController();
      const abortOnFirstBytes: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (!response.body) return response;
        const tap = new TransformStream<Uint8Array, Uint8Array>({
          transform: (chunk, out) => {
            out.enqueue(chunk);
            controller.abort();
          },
        });
        return new Response(response.body.pipeThrough(tap), response);
      };
      const reading = new OpenAICompatibleProvider({ model: 'fake-model', baseUrl: slow.baseUrl, fetch: abortOnFirstBytes });
      assert.equal((await rejection(reading.complete(request(), { signal: controller.signal }))).kind, 'aborted');
      assert.ok(controller.signal.aborted);
      assert.equal(await slow.requests[0].outcome, 'client_closed');

      await start(() => ({ text: 'abcdefghijkl', chunkSize: 4, contentType: null, cut: { afterChunks: 2 } }));
      const cut = await rejection(provider().complete(request(), { signal: live() }));
      assert.ok(cut.kind === 'stream_cut' || cut.kind === 'network', cut.kind);
    });

    it('maps an error object in a 200 JSON body to a server error', async () => {
      await start(() => ({ error: { status: 200, body: { error: { message: 'upstream provider failed', code: 502 } } } }));
      const error = await rejection(provider().complete(request(), { signal: live() }));
      assert.equal(error.kind, 'server');
      assert.match(error.message, /upstream provider failed/);
    });

    it('retries once without stream_options when the server refuses it, and never sends it again', async () => {
      const refusals: FakeErrorReply['error'][] = [
        { status: 400, message: 'Unrecognized request argument supplied: stream_options' },
        // vLLM before it knew the field: its own top-level error shape, which the SDK does not read.
        { status: 400, body: { object: 'error', message: "[{'type': 'extra_forbidden', 'loc': ('body', 'stream_options'), 'msg': 'Extra inputs are not permitted'}]", type: 'BadRequestError', code: 400 } },
        // A FastAPI server validating with pydantic v1.
        { status: 422, body: { detail: [{ loc: ['body', 'stream_options'], msg: 'extra fields not permitted', type: 'value_error.extra' }] } },
        { status: 400, message: 'extra fields not permitted' },
      ];
      for (const refusal of refusals) {
        const s = await start((r) => ('stream_options' in r.body ? { error: refusal } : { text: 'ok' }));
        const p = provider();
        assert.equal((await p.complete(request(), { signal: live() })).text, 'ok', JSON.stringify(refusal));
        assert.equal((await p.complete(request(), { signal: live() })).text, 'ok');
        assert.deepEqual(s.chatRequests().map((r) => 'stream_options' in r.body), [true, false, false], JSON.stringify(refusal));
        assert.equal((await provider().complete(request(), { signal: live() })).text, 'ok', 'a new provider tries again');
        assert.equal('stream_options' in s.chatRequests()[3].body, true);
      }
    });

    it('retries once without tool_choice when the server refuses it, and never sends it again', async () => {
      const messages = ['tool_choice "required" is not supported', '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'];
      for (const message of messages) {
        const s = await start((r) => ('tool_choice' in r.body ? { error: { status: 400, message } } : { toolCalls: [{ name: 'vote', arguments: {} }] }));
        const p = provider();
        const response = await p.complete(request({ tools: TOOLS, toolChoice: 'required' }), { signal: live() });
        assert.equal(response.toolCalls[0].name, 'vote');
        await p.complete(request({ tools: TOOLS, toolChoice: 'required' }), { signal: live() });
        const sent = s.chatRequests().map((r) => ['tool_choice' in r.body, 'stream_options' in r.body]);
        assert.deepEqual(sent, [[true, true], [false, true], [false, true]], message);
      }
    });

    it('retries at most once per call, and not for unrelated 400s', async () => {
      const s = await start(() => ({ error: { status: 400, message: 'Unrecognized request argument supplied: stream_options, tool_choice' } }));
      const error = await rejection(provider().complete(request({ tools: TOOLS, toolChoice: 'required' }), { signal: live() }));
      assert.equal(error.kind, 'invalid_request');
      assert.equal(s.requests.length, 2);
      assert.deepEqual(Object.keys(s.chatRequests()[1].body).filter((k) => k === 'tool_choice' || k === 'stream_options'), []);

      const other = await start(() => ({ error: { status: 400, message: "This model's maximum context length is 8192 tokens." } }));
      await rejection(provider().complete(request({ tools: TOOLS, toolChoice: 'required' }), { signal: live() }));
      assert.equal(other.requests.length, 1);
    });

    it('reports no usage as undefined, not zeros', async () => {
      const s = await start(() => ({ text: 'ok', usageIn: 'none' }));
      const response = await provider().complete(request(), { signal: live() });
      assert.equal(s.requests[0].body?.stream_options?.include_usage, true);
      assert.equal(response.usage, undefined);
    });

    it('takes the last usage from servers that send it in every chunk, or with the finish_reason', async () => {
      for (const usageIn of ['every_chunk', 'with_finish'] as const) {
        await start(() => ({ text: 'a longer answer', chunkSize: 2, usageIn, usage: { promptTokens: 300, completionTokens: 42 } }));
        const deltas: StreamDelta[] = [];
        const response = await provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) });
        assert.deepEqual(response.usage, { inputTokens: 300, cachedInputTokens: 0, outputTokens: 42 }, usageIn);
        assert.equal(response.text, 'a longer answer', usageIn);
        assert.equal(texts(deltas), 'a longer answer', usageIn);
        assert.equal(response.stopReason, 'stop', usageIn);
      }
    });

    it('takes several tool calls delivered whole in one chunk', async () => {
      await start(() => ({ toolCalls: TWO_CALLS, toolCallStyle: { whole: true } }));
      const response = await provider().complete(request({ tools: TOOLS }), { signal: live() });
      assert.deepEqual(calls(response), EXPECTED_TWO_CALLS);
      assert.deepEqual(response.toolCalls.map((c) => c.id), ['call_a', 'call_b']);
    });

    it('groups fragments without an index by id, or failing that opens a call at each name', async () => {
      for (const omitToolCallIds of [false, true]) {
        await start(() => ({ toolCalls: TWO_CALLS, chunkSize: 5, toolCallStyle: { omitIndex: true }, omitToolCallIds }));
        const response = await provider().complete(request({ tools: TOOLS }), { signal: live() });
        assert.deepEqual(calls(response), EXPECTED_TWO_CALLS, `omitToolCallIds: ${omitToolCallIds}`);
        if (!omitToolCallIds) assert.deepEqual(response.toolCalls.map((c) => c.id), ['call_a', 'call_b']);
        else assert.notEqual(response.toolCalls[0].id, response.toolCalls[1].id);
      }
    });

    it('stringifies tool arguments sent as a JSON object', async () => {
      await start(() => ({ toolCalls: TWO_CALLS, toolCallStyle: { argumentsAsObject: true, omitIndex: true } }));
      const response = await provider().complete(request({ tools: TOOLS }), { signal: live() });
      assert.deepEqual(calls(response), EXPECTED_TWO_CALLS);
      assert.ok(response.toolCalls.every((c) => typeof c.arguments === 'string'));
    });

    it('counts tool calls that end with finish_reason "stop" (Ollama)', async () => {
      await start(() => ({ toolCalls: TWO_CALLS, toolCallStyle: { whole: true }, finishReason: 'stop' }));
      const response = await provider().complete(request({ tools: TOOLS }), { signal: live() });
      assert.deepEqual(calls(response), EXPECTED_TWO_CALLS);
      assert.equal(response.stopReason, 'tool_calls');
    });

    it('treats a legacy function_call, streamed or whole, as one tool call', async () => {
      for (const whole of [false, true]) {
        await start(() => ({ toolCalls: [{ name: 'vote', arguments: { agent_id: 'agent1', reason: 'it is right' } }], chunkSize: 4, toolCallStyle: { legacyFunctionCall: true, whole } }));
        const response = await provider().complete(request({ tools: TOOLS }), { signal: live() });
        assert.deepEqual(calls(response), [['vote', { agent_id: 'agent1', reason: 'it is right' }]], `whole: ${whole}`);
        assert.match(response.toolCalls[0].id, /^call_\w+$/);
        assert.equal(response.stopReason, 'tool_calls');
      }
    });

    it('reads content sent as an array of text parts, and content: null', async () => {
      for (const reply of [{ contentAsParts: true }, { nullContent: true }, { contentAsParts: true, nullContent: true, nonStreaming: true }]) {
        await start(() => ({ ...reply, reasoning: 'hm', text: 'Two and two.', chunkSize: 4, toolCalls: [{ name: 'vote', arguments: {} }] }));
        const deltas: StreamDelta[] = [];
        const response = await provider().complete(request({ tools: TOOLS }), { signal: live(), onDelta: (d) => deltas.push(d) });
        assert.equal(response.text, 'Two and two.', JSON.stringify(reply));
        assert.equal(texts(deltas), 'Two and two.', JSON.stringify(reply));
        assert.equal(response.reasoning, 'hm');
        assert.equal(response.toolCalls.length, 1);
      }
    });

    it('shortens an HTML or plain-text error page to its gist, without the key', async () => {
      const key = 'sk-proxy-SECRET-0123456789';
      const page =
        '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body { font-family: sans-serif; }</style>' +
        `<script>var k = "${key}";</script></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>` +
        `<p>${'Lorem ipsum dolor sit amet. '.repeat(40)}</p></body></html>`;
      await start((r) =>
        r.index === 0
          ? { error: { status: 502, body: page, contentType: 'text/html' } }
          : { error: { status: 503, body: `upstream connect error for ${key}: ${'x'.repeat(1000)}`, contentType: 'text/plain' } },
      );
      for (const status of [502, 503]) {
        const error = await rejection(provider({ apiKey: key }).complete(request(), { signal: live() }));
        assert.equal(error.kind, 'server');
        assert.equal(error.status, status);
        assert.ok(!error.message.includes('<'), error.message);
        assert.ok(error.message.length < 320, `${error.message.length} chars: ${error.message}`);
        assert.ok(!inspect(error, { depth: 10 }).includes(key), 'the key leaked into the error');
        if (status === 502) assert.match(error.message, /HTTP 502\): 502 Bad Gateway 502 Bad Gateway nginx Lorem/);
        else assert.match(error.message, /HTTP 503\): upstream connect error for \*\*\*: x+…$/);
      }
    });

    it('suggests /v1 when a base URL without it gets a 404, and only then', async () => {
      const s = await start(() => ({ text: 'ok' }));
      const origin = s.baseUrl.replace(/\/v1$/, '');
      for (const baseUrl of [origin, `${origin}/`]) {
        const error = await rejection(new OpenAICompatibleProvider({ model: 'm', baseUrl }).complete(request(), { signal: live() }));
        assert.equal(error.kind, 'invalid_request');
        assert.equal(error.status, 404);
        assert.ok(error.message.includes(`did you mean ${origin}/v1?`), error.message);
      }
      assert.deepEqual(s.requests.map((r) => r.path), ['/chat/completions', '/chat/completions']);
    });
  });
});

describe('coordinationScript (fake MassGen agents)', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => server?.close());

  it('answers, then votes once its answer is shown, per model; plain text without coordination tools', async () => {
    server = await startFakeOpenAI(
      coordinationScript({ a1: { answer: 'It is 4.', voteFor: 'agent2', reason: 'tidy' }, a2: { first: [{ error: { status: 429, message: 'busy' } }] } }),
    );
    const signal = new AbortController().signal;
    const a1 = new OpenAICompatibleProvider({ model: 'a1', baseUrl: server.baseUrl });
    const a2 = new OpenAICompatibleProvider({ model: 'a2', baseUrl: server.baseUrl });

    const fresh = await a1.complete(request({ tools: TOOLS }), { signal });
    assert.deepEqual(fresh.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), [['new_answer', { content: 'It is 4.' }]]);

    const shown = request({ tools: TOOLS, messages: [{ role: 'user', content: 'Current answers:\n<agent1>It is 4.</agent1>' }] });
    const vote = await a1.complete(shown, { signal });
    assert.deepEqual(vote.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), [['vote', { agent_id: 'agent2', reason: 'tidy' }]]);

    const onlyVote = await a1.complete(request({ tools: TOOLS.filter((t) => t.name === 'vote') }), { signal });
    assert.equal(onlyVote.toolCalls[0].name, 'vote');
    assert.equal((await a1.complete(request(), { signal })).text, 'It is 4.');

    assert.equal((await rejection(a2.complete(request({ tools: TOOLS }), { signal }))).kind, 'rate_limit');
    const second = await a2.complete(request({ tools: TOOLS }), { signal });
    assert.deepEqual(JSON.parse(second.toolCalls[0].arguments), { content: 'Answer from a2.' });
  });
});


/** The battery's neutral replies in the chat completions wire format. */
function chatReply(reply: BatteryReply): FakeStreamReply | FakeErrorReply {
  if ('error' in reply) {
    const { status, message, retryAfterSeconds } = reply.error;
    return { error: { status, message, ...(retryAfterSeconds ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}) } };
  }
  const chunkSize = reply.chunkSize ?? 8;
  return {
    text: reply.text,
    reasoning: reply.reasoning,
    toolCalls: reply.toolCalls?.map((c) => ({ name: c.name, arguments: c.args })),
    chunkSize,
    delayMsPerChunk: reply.delayMsPerChunk,
    ...(reply.usage ? { usage: { promptTokens: reply.usage.input, cachedTokens: reply.usage.cached, completionTokens: reply.usage.output } } : {}),
    // The role chunk comes first.
    ...(reply.cut ? { cut: { afterChunks: 1 + Math.ceil(Math.ceil((reply.text ?? '').length / chunkSize) / 2) } } : {}),
    ...(reply.endUnfinished ? { endWithoutFinish: true } : {}),
  };
}

providerBattery('OpenAICompatibleProvider (real openai SDK against the fake chat completions server)', {
  async start(reply) {
    const server = await startFakeOpenAI((r) => chatReply(reply(r.index)));
    return {
      provider: (apiKey) => new OpenAICompatibleProvider({ model: 'fake-model', baseUrl: server.baseUrl, apiKey }),
      requestCount: () => server.requests.length,
      outcome: (i) => server.requests[i].outcome,
      close: () => server.close(),
    };
  },
  unreachable(port) {
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    return { provider: new OpenAICompatibleProvider({ model: 'm', baseUrl }), where: baseUrl };
  },
});

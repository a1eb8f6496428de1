import { CACHE_POLICIES } from '../usage/cache';
import assert from 'node:assert/strict';
import { closedPort, providerBattery, rejection, request, type BatteryReply } from '../../../test/helpers/provider-tests';
import { inspect } from 'node:util';
import { AnthropicProvider, type AnthropicOptions } from './anthropic';
import { RAW_ARGUMENTS_KEY } from './turns';
import type { ChatMessage, StreamDelta } from './types';
import {
  coordinationScript,
  startFakeAnthropic,
  validateBody,
  type FakeAnthropicBody,
  type FakeAnthropicHandler,
  type FakeAnthropicOptions,
  type FakeAnthropicReply,
  type FakeAnthropicServer,
} from '../../../test/fakes/anthropic-server';

const TOOLS = [
  { name: 'new_answer', description: 'Submit an answer', parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] } },
  { name: 'vote', description: 'Vote for an answer', parameters: { type: 'object', properties: { agent_id: { type: 'string' }, reason: { type: 'string' } } } },
];

const EPHEMERAL = { type: 'ephemeral' };


function live(): AbortSignal {
  return new AbortController().signal;
}


function texts(deltas: StreamDelta[], type: 'text' | 'reasoning' = 'text'): string {
  return deltas.map((d) => (d.type === type ? d.text : '')).join('');
}

describe('AnthropicProvider (real @anthropic-ai/sdk against the fake server)', () => {
  let server: FakeAnthropicServer | undefined;
  const servers: FakeAnthropicServer[] = [];

  async function start(handler: FakeAnthropicHandler, options?: FakeAnthropicOptions): Promise<FakeAnthropicServer> {
    server = await startFakeAnthropic(handler, options);
    servers.push(server);
    return server;
  }

  function provider(options: Partial<AnthropicOptions> = {}): AnthropicProvider {
    assert.ok(server, 'start the server first');
    return new AnthropicProvider({ model: 'claude-fake', baseUrl: server.baseUrl, apiKey: 'sk-ant-test-0123456789', ...options });
  }

  function body(index = 0): FakeAnthropicBody {
    const b = server?.requests[index]?.body;
    assert.ok(b, `no body recorded for request ${index}`);
    return b;
  }

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    server = undefined;
  });

  it('streams text deltas in order and returns the full text', async () => {
    const text = 'Two plus two is four. It has always been four.';
    await start(() => ({ text, chunkSize: 5 }));
    const deltas: StreamDelta[] = [];
    let startedBeforeDeltas = 0;
    const response = await provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d), onStarted: () => (startedBeforeDeltas ||= deltas.length === 0 ? 1 : -1) });
    assert.equal(startedBeforeDeltas, 1, 'onStarted came with the first event, before any delta');

    assert.equal(response.text, text);
    assert.equal(response.stopReason, 'stop');
    assert.deepEqual(response.toolCalls, []);
    assert.equal(response.reasoning, undefined);
    assert.equal(deltas.length, Math.ceil(text.length / 5));
    assert.ok(deltas.every((d) => d.type === 'text'));
    assert.equal(texts(deltas), text);
  });

  it('describes itself with the model and base URL, tolerating a trailing /v1', async () => {
    const s = await start(() => ({ text: 'ok' }));
    assert.equal(provider({ model: 'claude-sonnet-4-5' }).description, `anthropic claude-sonnet-4-5 @ ${s.baseUrl}`);
    assert.equal(new AnthropicProvider({ model: 'm' }).description, 'anthropic m @ https://api.anthropic.com');

    const p = provider({ baseUrl: `${s.baseUrl}/v1/` });
    assert.equal(p.description, `anthropic claude-fake @ ${s.baseUrl}`);
    assert.equal((await p.complete(request(), { signal: live() })).text, 'ok');
    assert.equal(s.requests[0].path, '/v1/messages');
  });

  it('assembles tool input that arrives as input_json_delta fragments, streaming no deltas for it', async () => {
    const input = { content: 'The answer is 4, because 2+2=4 in every base above 4.' };
    await start(() => ({ toolCalls: [{ name: 'new_answer', input, id: 'toolu_abc' }], chunkSize: 7 }));
    const deltas: StreamDelta[] = [];
    const response = await provider().complete(request({ tools: TOOLS }), { signal: live(), onDelta: (d) => deltas.push(d) });

    assert.equal(response.stopReason, 'tool_calls');
    assert.equal(response.toolCalls.length, 1);
    // The raw text is passed through as streamed; the engine parses it.
    assert.equal(response.toolCalls[0].arguments, JSON.stringify(input));
    assert.deepEqual({ ...response.toolCalls[0], arguments: JSON.parse(response.toolCalls[0].arguments) }, { id: 'toolu_abc', name: 'new_answer', arguments: input });
    assert.deepEqual(deltas, []);
  });

  it('keeps several tool calls (after some text) apart, in block order', async () => {
    await start(() => ({
      text: 'Let me do both.',
      toolCalls: [
        { name: 'new_answer', input: { content: 'four' } },
        { name: 'vote', input: { agent_id: 'agent2', reason: 'clear' } },
        { name: 'vote', input: {} },
      ],
      chunkSize: 4,
    }));
    const deltas: StreamDelta[] = [];
    const response = await provider().complete(request({ tools: TOOLS }), { signal: live(), onDelta: (d) => deltas.push(d) });

    assert.equal(response.text, 'Let me do both.');
    assert.deepEqual(response.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), [
      ['new_answer', { content: 'four' }],
      ['vote', { agent_id: 'agent2', reason: 'clear' }],
      ['vote', {}],
    ]);
    assert.deepEqual(response.toolCalls.map((c) => c.id), ['toolu_fake_0_0', 'toolu_fake_0_1', 'toolu_fake_0_2']);
    // Only the text streams; the calls are in the response.
    assert.ok(deltas.every((d) => d.type === 'text'));
    assert.equal(texts(deltas), 'Let me do both.');
  });

  it('passes malformed tool input through raw for the engine to judge', async () => {
    const broken = '{"content": "unterminated';
    await start(() => ({ toolCalls: [{ name: 'new_answer', input: broken }], chunkSize: 3 }));
    const response = await provider().complete(request({ tools: TOOLS }), { signal: live() });
    assert.equal(response.toolCalls[0].arguments, broken);
  });

  it('streams thinking deltas as reasoning, before the text', async () => {
    await start(() => ({ thinking: 'Let me add the numbers.', text: '4', chunkSize: 6 }));
    const deltas: StreamDelta[] = [];
    const response = await provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) });

    assert.equal(response.reasoning, 'Let me add the numbers.');
    assert.equal(response.text, '4');
    assert.deepEqual(deltas.map((d) => d.type), ['reasoning', 'reasoning', 'reasoning', 'reasoning', 'text']);
    assert.equal(texts(deltas, 'reasoning'), 'Let me add the numbers.');
  });

  it('maps usage: inputTokens sums uncached, cache-read and cache-write tokens; output from message_delta', async () => {
    await start(() => ({ text: 'ok', usage: { inputTokens: 34, cacheReadInputTokens: 1200, cacheCreationInputTokens: 56, outputTokens: 78 } }));
    const response = await provider().complete(request(), { signal: live() });
    assert.deepEqual(response.usage, { inputTokens: 34 + 1200 + 56, cachedInputTokens: 1200, outputTokens: 78 });
  });

  it('normalises stop reasons and passes unknown ones through', async () => {
    const reasons = ['max_tokens', 'stop_sequence', 'model_context_window_exceeded', 'refusal', 'pause_turn'];
    await start((r) => ({ text: 'x', stopReason: reasons[r.index] }));
    const seen: string[] = [];
    for (let i = 0; i < reasons.length; i++) seen.push((await provider().complete(request(), { signal: live() })).stopReason);
    assert.deepEqual(seen, ['length', 'stop', 'length', 'refusal', 'pause_turn']);
  });

  it('sends the request shape Anthropic expects: system blocks, cache breakpoints, merged tool results, tools, tool_choice', async () => {
    const s = await start(() => ({ text: 'ok' }));
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Solve it.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: '{"q":"facts"}' }] },
      { role: 'tool', toolCallId: 'toolu_1', name: 'lookup', content: 'fact: 2+2=4' },
      { role: 'assistant', content: 'Answering now.', toolCalls: [{ id: 'toolu_2', name: 'new_answer', arguments: '{"content":"4"}' }, { id: 'toolu_3', name: 'vote', arguments: '{"agent_id":"agent1"}' }] },
      { role: 'tool', toolCallId: 'toolu_2', name: 'new_answer', content: 'Your answer was recorded.' },
      { role: 'tool', toolCallId: 'toolu_3', name: 'vote', content: 'Vote rejected: both vote and new_answer.' },
      { role: 'user', content: 'Update: agent2 answered 5.' },
    ];
    await provider({ maxTokens: 1024, temperature: 0.3 }).complete(
      request({ system: 'You are agent A.', messages, tools: TOOLS, toolChoice: 'required', temperature: 0.7 }),
      { signal: live() },
    );

    assert.equal(s.requests.length, 1);
    const { headers } = s.requests[0];
    assert.equal(headers['x-api-key'], 'sk-ant-test-0123456789');
    assert.equal(headers.authorization, 'Bearer sk-ant-test-0123456789');
    assert.match(String(headers['anthropic-version']), /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(s.requests[0].path, '/v1/messages');

    const b = body();
    assert.equal(b.model, 'claude-fake');
    assert.equal(b.stream, true);
    assert.equal(b.max_tokens, 1024);
    // API version 2026-10-21 answers 400 to any sampling parameter.
    assert.equal('temperature' in b, false);
    assert.deepEqual(b.system, [{ type: 'text', text: 'You are agent A.', cache_control: EPHEMERAL }]);
    assert.deepEqual(b.tools, TOOLS.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })));
    assert.deepEqual(b.tool_choice, { type: 'any' });
    assert.deepEqual(b.messages, [
      { role: 'user', content: [{ type: 'text', text: 'Solve it.', cache_control: EPHEMERAL }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'facts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'fact: 2+2=4' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Answering now.' },
          { type: 'tool_use', id: 'toolu_2', name: 'new_answer', input: { content: '4' } },
          { type: 'tool_use', id: 'toolu_3', name: 'vote', input: { agent_id: 'agent1' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'Your answer was recorded.' },
          { type: 'tool_result', tool_use_id: 'toolu_3', content: 'Vote rejected: both vote and new_answer.' },
          { type: 'text', text: 'Update: agent2 answered 5.' },
        ],
      },
    ]);
    // Roles alternate, and the fake (which checks like API 2026-10-21) accepted it.
    assert.ok(b.messages.every((m, i) => m.role === (i % 2 === 0 ? 'user' : 'assistant')));
    assert.equal(validateBody(b), undefined);
  });

  it('merges consecutive same-role messages, puts tool results first and drops empty texts', async () => {
    await start(() => ({ text: 'ok' }));
    await provider({ promptCaching: false }).complete(
      request({
        messages: [
          { role: 'user', content: 'Task.' },
          { role: 'user', content: 'More context.' },
          { role: 'assistant', content: 'Thinking out loud.' },
          { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'vote', arguments: '{}' }] },
          { role: 'user', content: '' },
          { role: 'user', content: 'Interjection.' },
          { role: 'tool', toolCallId: 't1', name: 'vote', content: 'ok' },
          { role: 'assistant', content: '' },
          { role: 'user', content: 'Next.' },
        ],
      }),
      { signal: live() },
    );
    assert.deepEqual(body().messages, [
      { role: 'user', content: [{ type: 'text', text: 'Task.' }, { type: 'text', text: 'More context.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Thinking out loud.' }, { type: 'tool_use', id: 't1', name: 'vote', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }, { type: 'text', text: 'Interjection.' }, { type: 'text', text: 'Next.' }] },
    ]);
    assert.equal(validateBody(body()), undefined);
  });

  it('puts the first-user breakpoint on the last block of the merged first user turn only', async () => {
    await start(() => ({ text: 'ok' }));
    await provider().complete(
      request({
        messages: [
          { role: 'user', content: 'Task.' },
          { role: 'user', content: 'Current answers: none.' },
          { role: 'assistant', content: 'Hmm.' },
          { role: 'user', content: 'Later update.' },
        ],
      }),
      { signal: live() },
    );
    const marked = body().messages.flatMap((m, i) => (Array.isArray(m.content) ? m.content : []).map((blk, j) => (blk.cache_control ? `${i}.${j}` : '')).filter(Boolean));
    assert.deepEqual(marked, ['0.1']);
  });

  it('with cacheTail, also marks the request’s last block, which the next request reads with the premium on the new part', async () => {
    const s = await start(() => ({ toolCalls: [{ name: 'vote', input: { agent_id: 'agent1' } }] }), { cache: true });
    const task = `Task: ${'explain the proof in detail. '.repeat(40)}`;
    const turn1 = [{ role: 'user' as const, content: task }, { role: 'assistant' as const, content: 'Reading.' }, { role: 'user' as const, content: `Tool output: ${'x'.repeat(800)}` }];
    await provider().complete(request({ tools: TOOLS, messages: turn1, cacheTail: true }), { signal: live() });
    const marked = (i: number) =>
      (s.requests[i].body as { messages: { content: unknown }[] }).messages.flatMap((m, k) => (Array.isArray(m.content) ? m.content : []).map((blk: { cache_control?: unknown }, j: number) => (blk.cache_control ? `${k}.${j}` : '')).filter(Boolean));
    assert.deepEqual(marked(0), ['0.0', '2.0'], 'the first user turn and the last block');
    const next = await provider().complete(request({ tools: TOOLS, messages: [...turn1, { role: 'assistant', content: 'More.' }, { role: 'user', content: 'Tool output 2.' }], cacheTail: true }), { signal: live() });
    assert.deepEqual(marked(1), ['0.0', '4.0']);
    assert.ok(next.usage && next.usage.cachedInputTokens > task.length / 4, inspect(next.usage));
    // Without the hint the tail stays unmarked: a last call would pay the write premium for nothing.
    await provider().complete(request({ tools: TOOLS, messages: turn1 }), { signal: live() });
    assert.deepEqual(marked(2), ['0.0']);
    // cacheHead: false (a conversation rebuilt after revisions) leaves the first user turn unmarked too.
    await provider().complete(request({ tools: TOOLS, messages: turn1, cacheHead: false }), { signal: live() });
    assert.deepEqual(marked(3), []);
    assert.deepEqual((s.requests[3].body as { system: unknown }).system, [{ type: 'text', text: 'You are agent A.', cache_control: EPHEMERAL }], 'the system prompt keeps its breakpoint');
  });

  it('declares the breakpoint cache (reads 0.1×, writes 1.25×) unless caching is off', () => {
    assert.deepEqual(new AnthropicProvider({ model: 'claude-sonnet-4-5' }).promptCache, CACHE_POLICIES.anthropic);
    assert.equal(new AnthropicProvider({ model: 'claude-sonnet-4-5', promptCaching: false }).promptCache, undefined);
  });

  it('sends no cache_control at all with promptCaching: false', async () => {
    await start(() => ({ text: 'ok' }));
    await provider({ promptCaching: false }).complete(request({ tools: TOOLS }), { signal: live() });
    assert.equal(JSON.stringify(body()).includes('cache_control'), false);
    assert.deepEqual(body().system, [{ type: 'text', text: 'You are agent A.' }]);
  });

  it('maps tool_choice auto and none, and leaves tools and tool_choice out without tools', async () => {
    await start(() => ({ text: 'ok' }));
    await provider().complete(request({ tools: TOOLS, toolChoice: 'auto' }), { signal: live() });
    await provider().complete(request({ tools: TOOLS, toolChoice: 'none' }), { signal: live() });
    await provider().complete(request({ tools: TOOLS }), { signal: live() });
    await provider().complete(request({ toolChoice: 'required', system: '' }), { signal: live() });
    assert.deepEqual(body(0).tool_choice, { type: 'auto' });
    assert.deepEqual(body(1).tool_choice, { type: 'none' });
    assert.equal('tool_choice' in body(2), false);
    assert.equal('tools' in body(3), false);
    assert.equal('tool_choice' in body(3), false);
    // An empty system prompt is left out (the API rejects empty text blocks); max_tokens defaults to 8192.
    assert.equal('system' in body(3), false);
    assert.equal(body(3).max_tokens, 8192);
  });

  it('replays malformed or non-object tool arguments wrapped so the API accepts them', async () => {
    await start(() => ({ text: 'ok' }));
    await provider().complete(
      request({
        messages: [
          { role: 'user', content: 'Go.' },
          { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'new_answer', arguments: '{"content": "unterminated' }] },
          { role: 'tool', toolCallId: 't1', name: 'new_answer', content: 'Invalid JSON in arguments.' },
        ],
      }),
      { signal: live() },
    );
    assert.deepEqual(body().messages[1].content, [{ type: 'tool_use', id: 't1', name: 'new_answer', input: { [RAW_ARGUMENTS_KEY]: '{"content": "unterminated' } }]);
  });

  it('reads the stable prefix from the cache on an agent’s later turns (fake cache simulation)', async () => {
    await start(() => ({ toolCalls: [{ name: 'vote', input: { agent_id: 'agent1' } }] }), { cache: true });
    const task = `Task: ${'explain the proof in detail. '.repeat(40)}`;
    const first = await provider().complete(request({ tools: TOOLS, messages: [{ role: 'user', content: task }] }), { signal: live() });
    const second = await provider().complete(
      request({
        tools: TOOLS,
        messages: [
          { role: 'user', content: task },
          { role: 'assistant', content: '', toolCalls: first.toolCalls },
          { role: 'tool', toolCallId: first.toolCalls[0].id, name: 'vote', content: 'Vote rejected.' },
          { role: 'user', content: 'Try again.' },
        ],
      }),
      { signal: live() },
    );
    assert.equal(first.usage?.cachedInputTokens, 0);
    assert.ok(second.usage && second.usage.cachedInputTokens > task.length / 4, inspect(second.usage));
    assert.ok(second.usage.inputTokens > second.usage.cachedInputTokens);

    // Without breakpoints nothing is cached.
    await start(() => ({ text: 'ok' }), { cache: true });
    const uncached = provider({ promptCaching: false });
    await uncached.complete(request({ messages: [{ role: 'user', content: task }] }), { signal: live() });
    assert.equal((await uncached.complete(request({ messages: [{ role: 'user', content: task }] }), { signal: live() })).usage?.cachedInputTokens, 0);
  });

  it('ends the first breakpoint where the shared part of the first user turn ends, so another agent reads it', async () => {
    await start(() => ({ text: 'ok' }), { cache: true });
    const shared = `Task and board: ${'every agent is shown this alike. '.repeat(150)}`;
    const own = (who: string) => ({ role: 'user' as const, content: `${shared}\n\nA note for ${who} only.`, sharedChars: shared.length });
    const first = await provider().complete(request({ tools: TOOLS, messages: [own('agent1')] }), { signal: live() });
    const second = await provider().complete(request({ tools: TOOLS, messages: [own('agent2')] }), { signal: live() });
    assert.deepEqual(body(0).messages[0].content, [
      { type: 'text', text: shared, cache_control: EPHEMERAL },
      { type: 'text', text: '\n\nA note for agent1 only.' },
    ]);
    assert.ok(first.usage && first.usage.cachedInputTokens === 0);
    assert.ok(second.usage && second.usage.cachedInputTokens > shared.length / 4, inspect(second.usage));
    // Unmarked (all of the turn is shared) or all shared: one block, marked at its end, as before.
    await provider().complete(request({ messages: [{ role: 'user', content: shared, sharedChars: shared.length }] }), { signal: live() });
    assert.deepEqual(body(2).messages[0].content, [{ type: 'text', text: shared, cache_control: EPHEMERAL }]);
  });

  it('maps 429 to rate_limit with retry-after, making exactly one request', async () => {
    const s = await start(() => ({ error: { status: 429, type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit', headers: { 'retry-after': '7' } } }));
    const error = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(error.kind, 'rate_limit');
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterMs, 7000);
    assert.match(error.message, /per-minute rate limit/);
    assert.equal(error.retryable, true);
    assert.equal(s.requests.length, 1, 'the SDK must not retry on its own');
  });

  it('prefers retry-after-ms over retry-after', async () => {
    await start(() => ({ error: { status: 429, type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after-ms': '1500', 'retry-after': '9' } } }));
    const error = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(error.retryAfterMs, 1500);
  });

  it('maps 529 overloaded to rate_limit (retryable), with one request', async () => {
    const s = await start(() => ({ error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } }));
    const error = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(error.kind, 'rate_limit');
    assert.equal(error.status, 529);
    assert.equal(error.retryable, true);
    assert.match(error.message, /overloaded \(HTTP 529\): Overloaded/);
    assert.equal(s.requests.length, 1);
  });

  it('maps 500 to server (retryable, one request) and 408/409/503 too', async () => {
    const statuses = [500, 408, 409, 503];
    const s = await start((r) => ({ error: { status: statuses[r.index], type: 'api_error', message: 'Internal server error' } }));
    for (const status of statuses) {
      const error = await rejection(provider().complete(request(), { signal: live() }));
      assert.equal(error.kind, 'server', String(status));
      assert.equal(error.status, status);
      assert.equal(error.retryable, true);
    }
    assert.equal(s.requests.length, statuses.length);
  });

  it('maps 401 to auth without leaking the key, even when the server echoes it', async () => {
    const key = 'sk-ant-api03-SECRET-abcdef123456';
    await start((r) => ({ error: { status: 401, type: 'authentication_error', message: `invalid x-api-key: ${String(r.headers['x-api-key'])}` } }));
    const error = await rejection(provider({ apiKey: key }).complete(request(), { signal: live() }));
    assert.equal(error.kind, 'auth');
    assert.equal(error.status, 401);
    assert.equal(error.retryable, false);
    assert.match(error.message, /invalid x-api-key: \*\*\*/);
    assert.ok(!inspect(error, { depth: 10 }).includes(key), 'the key leaked into the error');
    assert.ok(!JSON.stringify(error).includes(key));
    assert.ok(!String(error.stack).includes(key));
  });

  it('maps 403 and 402 to auth', async () => {
    await start((r) =>
      r.index === 0
        ? { error: { status: 403, type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' } }
        : { error: { status: 402, type: 'billing_error', message: 'Your credit balance is too low.' } },
    );
    assert.equal((await rejection(provider().complete(request(), { signal: live() }))).kind, 'auth');
    const billing = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(billing.kind, 'auth');
    assert.match(billing.message, /billing.*credit balance/);
  });

  it('maps 404 model-not-found to invalid_request with a hint', async () => {
    await start((r) => ({ error: { status: 404, type: 'not_found_error', message: `model: ${r.body.model}` } }));
    const error = await rejection(provider({ model: 'claude-nope' }).complete(request(), { signal: live() }));
    assert.equal(error.kind, 'invalid_request');
    assert.equal(error.status, 404);
    assert.match(error.message, /model: claude-nope/);
    assert.match(error.message, /model name and the base URL/);
    assert.equal(error.retryable, false);
  });

  it('maps 400 and 413 to invalid_request with the API message', async () => {
    await start((r) =>
      r.index === 0
        ? { error: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } }
        : { error: { status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } },
    );
    const tooLong = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(tooLong.kind, 'invalid_request');
    assert.match(tooLong.message, /prompt is too long: 210000 tokens/);
    const tooLarge = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(tooLarge.kind, 'invalid_request');
    assert.equal(tooLarge.status, 413);
  });

  it('maps an error event inside the stream by its type, after delivering the partial deltas', async () => {
    const errors = [
      { type: 'overloaded_error', message: 'Overloaded', kind: 'rate_limit' },
      { type: 'api_error', message: 'Internal server error', kind: 'server' },
      { type: 'invalid_request_error', message: 'bad', kind: 'invalid_request' },
    ];
    await start((r) => ({ text: 'partial answer', chunkSize: 4, streamError: { type: errors[r.index].type, message: errors[r.index].message } }));
    for (const expected of errors) {
      const deltas: StreamDelta[] = [];
      const error = await rejection(provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) }));
      assert.equal(error.kind, expected.kind, expected.type);
      assert.equal(error.status, undefined);
      assert.ok(error.message.includes(expected.type) && error.message.includes(expected.message), error.message);
      assert.equal(texts(deltas), 'partial answer');
    }
    assert.equal((await rejection(provider().complete(request(), { signal: live() }))).retryable, true, 'overloaded mid-stream is retryable');
  });

  it("llama-server's \"Failed to parse input\" mid-stream is the model's unparsed output, not a server fault", async () => {
    await start(() => ({ text: '', streamError: { type: 'server_error', message: 'Failed to parse input at pos 0: <tool_call>\n{"name": "vote"', afterEvents: 1 } }));
    const error = await rejection(provider().complete(request(), { signal: live() }));
    assert.equal(error.kind, 'unparsed_output');
    assert.equal(error.retryable, false);
    assert.match(error.output ?? '', /^<tool_call>/);
  });

  it('reports a stream cut mid-way after delivering the partial deltas', async () => {
    // message_start, ping, content_block_start, then three text deltas before the socket dies.
    await start(() => ({ text: 'abcdefghijklmnopqrstuvwxyz', chunkSize: 4, cut: { afterEvents: 6 } }));
    const deltas: StreamDelta[] = [];
    const error = await rejection(provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) }));
    assert.ok(error.kind === 'stream_cut' || error.kind === 'network', error.kind);
    assert.equal(error.retryable, true);
    assert.equal(texts(deltas), 'abcdefghijkl');
  });

  it('treats a stream that ends without message_stop as cut', async () => {
    await start(() => ({ text: 'half an answ', endWithoutStop: true }));
    const deltas: StreamDelta[] = [];
    const error = await rejection(provider().complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) }));
    assert.equal(error.kind, 'stream_cut');
    assert.match(error.message, /message_stop/);
    assert.equal(texts(deltas), 'half an answ');
  });


  it('aborts before the response headers arrive', async () => {
    await start(() => new Promise((resolve) => setTimeout(() => resolve({ text: 'late' }), 200)));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await rejection(provider().complete(request(), { signal: controller.signal }));
    assert.equal(error.kind, 'aborted');
  });

  it('offers the web search server tool when enabled, and keeps its blocks out of the text and the tool calls', async () => {
    const s = await start(() => ({ webSearch: { query: 'iso 8601 duration', results: [{ url: 'https://example.org/iso', title: 'ISO 8601' }] }, text: 'PT1H30M is 90 minutes.', toolCalls: [{ name: 'vote', input: { agent_id: 'agent1' } }] }));
    const deltas: StreamDelta[] = [];
    const response = await provider({ webSearch: true }).complete(request({ tools: TOOLS, toolChoice: 'required' }), { signal: live(), onDelta: (d) => deltas.push(d) });
    assert.equal(response.text, 'PT1H30M is 90 minutes.');
    assert.equal(texts(deltas), 'PT1H30M is 90 minutes.');
    assert.deepEqual(response.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), [['vote', { agent_id: 'agent1' }]]);
    const sent = body().tools ?? [];
    assert.deepEqual(sent.slice(2), [{ type: 'web_search_20250305', name: 'web_search' }]);
    assert.deepEqual(body().tool_choice, { type: 'any' });

    await provider({ webSearch: true }).complete(request(), { signal: live() });
    assert.deepEqual(s.requests[1].body?.tools, [{ type: 'web_search_20250305', name: 'web_search' }]);
    assert.equal(s.requests[1].body?.tool_choice, undefined);
  });

  it('reports a refused connection as network, naming the base URL', async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const error = await rejection(new AnthropicProvider({ model: 'm', baseUrl, apiKey: 'sk-ant-x-123456789' }).complete(request(), { signal: live() }));
    assert.equal(error.kind, 'network');
    assert.ok(error.message.includes(baseUrl), error.message);
    assert.match(error.message, /connection refused/);
    assert.ok(!inspect(error, { depth: 10 }).includes('sk-ant-x-123456789'));
  });
});

describe('fake Anthropic server', () => {
  let server: FakeAnthropicServer | undefined;
  afterEach(async () => server?.close());

  it('rejects what API 2026-10-21 rejects', () => {
    const ok: FakeAnthropicBody = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    assert.equal(validateBody(ok), undefined);
    assert.match(validateBody({ ...ok, temperature: 1 }) ?? '', /temperature: Extra inputs are not permitted/);
    assert.match(validateBody({ ...ok, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }) ?? '', /non-empty/);
    const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'vote', input: {} }] };
    assert.match(validateBody({ ...ok, messages: [ok.messages[0], toolUse, { role: 'user', content: 'no result' }] }) ?? '', /without `tool_result` blocks/);
    assert.match(
      validateBody({ ...ok, messages: [ok.messages[0], toolUse, { role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'tool_result', tool_use_id: 't1' }] }] }) ?? '',
      /must come first/,
    );
    assert.match(validateBody({ ...ok, messages: [ok.messages[0], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'zz' }] }] }) ?? '', /unexpected `tool_use_id`/);
  });

  it('answers 400 without an anthropic-version header, and 404 on unknown paths', async () => {
    server = await startFakeAnthropic(() => ({ text: 'ok' }));
    const bare = await fetch(`${server.baseUrl}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 1, messages: [], stream: true }) });
    assert.equal(bare.status, 400);
    assert.deepEqual(await bare.json(), { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' }, request_id: 'req_fake_0' });
    const unknown = await fetch(`${server.baseUrl}/v1/complete`, { method: 'POST' });
    assert.equal(unknown.status, 404);
  });

  it('writes the real SSE event sequence', async () => {
    server = await startFakeAnthropic(() => ({ thinking: 'hm', text: 'hi', toolCalls: [{ name: 'vote', input: { a: 1 } }], chunkSize: 100 }));
    const response = await fetch(`${server.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'anthropic-version': '2026-10-21', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const events = [...(await response.text()).matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    assert.deepEqual(events, [
      'message_start',
      'ping',
      ...['content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_stop'],
      'message_delta',
      'message_stop',
    ]);
  });

  it('coordinationScript answers, then votes once its answer is shown, per model; plain text without coordination tools', async () => {
    server = await startFakeAnthropic(
      coordinationScript({ a1: { answer: 'It is 4.', voteFor: 'agent2', reason: 'tidy' }, a2: { first: [{ error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } }] } }),
    );
    const signal = live();
    const a1 = new AnthropicProvider({ model: 'a1', baseUrl: server.baseUrl, apiKey: 'k' });
    const a2 = new AnthropicProvider({ model: 'a2', baseUrl: server.baseUrl, apiKey: 'k' });

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


const ANTHROPIC_ERROR_TYPES: Record<number, string> = { 401: 'authentication_error', 429: 'rate_limit_error', 500: 'api_error', 503: 'api_error' };

/** The battery's neutral replies in the Messages API's events. */
function messagesReply(reply: BatteryReply): FakeAnthropicReply {
  if ('error' in reply) {
    const { status, message, retryAfterSeconds } = reply.error;
    return { error: { status, type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message, ...(retryAfterSeconds ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}) } };
  }
  const chunkSize = reply.chunkSize ?? 8;
  return {
    text: reply.text,
    thinking: reply.reasoning,
    toolCalls: reply.toolCalls?.map((c) => ({ name: c.name, input: c.args })),
    chunkSize,
    delayMsPerChunk: reply.delayMsPerChunk,
    ...(reply.usage ? { usage: { inputTokens: reply.usage.input - reply.usage.cached, cacheReadInputTokens: reply.usage.cached, cacheCreationInputTokens: 0, outputTokens: reply.usage.output } } : {}),
    // message_start, ping and content_block_start come before the first text delta.
    ...(reply.cut ? { cut: { afterEvents: 3 + Math.ceil(Math.ceil((reply.text ?? '').length / chunkSize) / 2) } } : {}),
    ...(reply.endUnfinished ? { endWithoutStop: true } : {}),
  };
}

providerBattery('AnthropicProvider (real @anthropic-ai/sdk against the fake Messages server)', {
  async start(reply) {
    const server = await startFakeAnthropic((r) => messagesReply(reply(r.index)));
    return {
      provider: (apiKey) => new AnthropicProvider({ model: 'claude-fake', baseUrl: server.baseUrl, apiKey }),
      requestCount: () => server.requests.length,
      outcome: (i) => server.requests[i].outcome,
      close: () => server.close(),
    };
  },
  unreachable(port) {
    const baseUrl = `http://127.0.0.1:${port}`;
    return { provider: new AnthropicProvider({ model: 'm', baseUrl, apiKey: 'sk-ant-x-123456789' }), where: baseUrl };
  },
});

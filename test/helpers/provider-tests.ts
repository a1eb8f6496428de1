// Shared by the provider tests: a small request, "this call must fail with a ProviderError", and the battery every
// provider passes against the fake of its own wire format (streams, reasoning, tool calls, usage, 429 with
// retry-after, 5xx, auth without the key, cut streams, unfinished streams, abort, a refused connection). Each
// provider's test file gives the battery a harness that turns the battery's neutral replies into its fake's.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { ProviderError, type ModelProvider, type ModelRequest, type StreamDelta } from '../../src/core/providers/types';

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { system: 'You are agent A.', messages: [{ role: 'user', content: 'What is 2+2?' }], tools: [], ...overrides };
}

export async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${inspect(error)}`);
    return error;
  }
  assert.fail('expected the call to reject');
}

/** A port that was free a moment ago, so connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export const BATTERY_TOOLS = [
  { name: 'new_answer', description: 'Submit an answer', parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] } },
  { name: 'vote', description: 'Vote for an answer', parameters: { type: 'object', properties: { agent_id: { type: 'string' }, reason: { type: 'string' } } } },
];

export interface BatteryCall {
  name: string;
  args: Record<string, unknown>;
}

/** A reply in the battery's neutral terms; each harness writes it in its fake's wire format. */
export type BatteryReply =
  | {
      text?: string;
      reasoning?: string;
      toolCalls?: BatteryCall[];
      /** `input` counts every prompt token, cached ones included (as Usage does). */
      usage?: { input: number; cached: number; output: number };
      chunkSize?: number;
      delayMsPerChunk?: number;
      /** Cut the connection once part of the text is out. */
      cut?: boolean;
      /** End the response cleanly without the event that finishes it. */
      endUnfinished?: boolean;
    }
  | { error: { status: number; message: string; retryAfterSeconds?: number } };

export interface BatteryServer {
  provider(apiKey: string): ModelProvider;
  requestCount(): number;
  /** How the fake saw the n-th reply end ('completed', 'error', 'cut', 'client_closed'). */
  outcome(index: number): Promise<string>;
  close(): Promise<void>;
}

export interface BatteryHarness {
  start(reply: (index: number) => BatteryReply): Promise<BatteryServer>;
  /** A provider whose server is at 127.0.0.1:`port` (nothing listens there); `where` is what its errors must name. */
  unreachable(port: number): { provider: ModelProvider; where: string };
}

const KEY = 'sk-battery-SECRET-0123456789';
const live = () => new AbortController().signal;
const texts = (deltas: StreamDelta[], type: 'text' | 'reasoning' = 'text') => deltas.map((d) => (d.type === type && 'text' in d ? d.text : '')).join('');

/** The shared battery, as a describe block named after the provider. */
export function providerBattery(name: string, harness: BatteryHarness): void {
  describe(`${name}: the provider battery`, () => {
    const servers: BatteryServer[] = [];
    async function start(reply: (index: number) => BatteryReply): Promise<BatteryServer> {
      const server = await harness.start(reply);
      servers.push(server);
      return server;
    }
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((s) => s.close()));
    });

    it('streams text deltas in order and returns the whole text', async () => {
      const text = 'Two plus two is four. It has always been four.';
      const s = await start(() => ({ text, chunkSize: 5 }));
      const deltas: StreamDelta[] = [];
      const response = await s.provider(KEY).complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) });
      assert.equal(response.text, text);
      assert.equal(response.stopReason, 'stop');
      assert.deepEqual(response.toolCalls, []);
      assert.ok(deltas.length >= Math.ceil(text.length / 5), `${deltas.length} deltas`);
      assert.ok(deltas.every((d) => d.type === 'text'));
      assert.equal(texts(deltas), text);
    });

    it('streams reasoning as reasoning deltas, before the text', async () => {
      const s = await start(() => ({ reasoning: 'Adding two and two.', text: 'It is 4.', chunkSize: 6 }));
      const deltas: StreamDelta[] = [];
      const response = await s.provider(KEY).complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) });
      assert.equal(response.reasoning, 'Adding two and two.');
      assert.equal(response.text, 'It is 4.');
      assert.equal(texts(deltas, 'reasoning'), 'Adding two and two.');
      const firstText = deltas.findIndex((d) => d.type === 'text');
      assert.ok(deltas.slice(0, firstText).every((d) => d.type === 'reasoning') && firstText > 0, JSON.stringify(deltas));
    });

    it('returns several tool calls whole and apart, with distinct ids, streaming no deltas for them', async () => {
      const calls = [
        { name: 'new_answer', args: { content: 'It is 4, because 2+2=4 in every base above 4.' } },
        { name: 'vote', args: { agent_id: 'agent2', reason: 'clear' } },
      ];
      const s = await start(() => ({ toolCalls: calls, chunkSize: 4 }));
      const deltas: StreamDelta[] = [];
      let started = 0;
      const response = await s.provider(KEY).complete(request({ tools: BATTERY_TOOLS, toolChoice: 'required' }), { signal: live(), onDelta: (d) => deltas.push(d), onStarted: () => started++ });
      assert.ok(started > 0, 'the response’s start is signalled though it streams no deltas (what the shared-prompt gate waits for)');
      assert.equal(response.stopReason, 'tool_calls');
      assert.deepEqual(response.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), calls.map((c) => [c.name, c.args]));
      const ids = response.toolCalls.map((c) => c.id);
      assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0));
      assert.notEqual(ids[0], ids[1]);
      assert.deepEqual(deltas, []);
    });

    it('maps the reported usage, cached input included', async () => {
      const s = await start(() => ({ text: 'ok', usage: { input: 1234, cached: 1000, output: 56 } }));
      const response = await s.provider(KEY).complete(request(), { signal: live() });
      assert.deepEqual(response.usage, { inputTokens: 1234, cachedInputTokens: 1000, outputTokens: 56 });
    });

    it('maps 429 to rate_limit with the retry-after, after exactly one request', async () => {
      const s = await start(() => ({ error: { status: 429, message: 'Rate limit reached for requests', retryAfterSeconds: 7 } }));
      let started = 0;
      const error = await rejection(s.provider(KEY).complete(request(), { signal: live(), onStarted: () => started++ }));
      assert.equal(error.kind, 'rate_limit');
      assert.equal(started, 0, 'a refused request never began');
      assert.equal(error.status, 429);
      assert.equal(error.retryAfterMs, 7000);
      assert.equal(error.retryable, true);
      assert.match(error.message, /Rate limit reached for requests/);
      assert.equal(s.requestCount(), 1, 'the SDK must not retry on its own');
    });

    it('maps 500 and 503 to server errors (retryable), one request each', async () => {
      const s = await start((i) => ({ error: { status: i === 0 ? 500 : 503, message: i === 0 ? 'internal error' : 'overloaded' } }));
      for (const status of [500, 503]) {
        const error = await rejection(s.provider(KEY).complete(request(), { signal: live() }));
        assert.equal(error.kind, 'server');
        assert.equal(error.status, status);
        assert.equal(error.retryable, true);
      }
      assert.equal(s.requestCount(), 2);
    });

    it('maps 401 to auth without leaking the key, even when the server echoes it', async () => {
      const s = await start(() => ({ error: { status: 401, message: `Incorrect API key provided: ${KEY}.` } }));
      const error = await rejection(s.provider(KEY).complete(request(), { signal: live() }));
      assert.equal(error.kind, 'auth');
      assert.equal(error.retryable, false);
      assert.match(error.message, /Incorrect API key provided/);
      assert.ok(!inspect(error, { depth: 10 }).includes(KEY), 'the key leaked into the error');
    });

    it('reports a stream cut mid-way, after delivering the partial deltas', async () => {
      const text = 'abcdefghijklmnopqrstuvwxyz';
      const s = await start(() => ({ text, chunkSize: 4, cut: true }));
      const deltas: StreamDelta[] = [];
      const error = await rejection(s.provider(KEY).complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) }));
      assert.ok(error.kind === 'stream_cut' || error.kind === 'network', error.kind);
      assert.equal(error.retryable, true);
      const partial = texts(deltas);
      assert.ok(partial.length > 0 && partial.length < text.length && text.startsWith(partial), `partial: ${partial}`);
    });

    it('treats a stream that ends without finishing as cut', async () => {
      const s = await start(() => ({ text: 'half an answ', endUnfinished: true }));
      const deltas: StreamDelta[] = [];
      const error = await rejection(s.provider(KEY).complete(request(), { signal: live(), onDelta: (d) => deltas.push(d) }));
      assert.equal(error.kind, 'stream_cut');
      assert.equal(texts(deltas), 'half an answ');
    });

    it('aborts mid-stream on the signal, and the server sees the connection close', async () => {
      const s = await start(() => ({ text: 'x'.repeat(200), chunkSize: 1, delayMsPerChunk: 5 }));
      const controller = new AbortController();
      let seen = 0;
      const error = await rejection(s.provider(KEY).complete(request(), {
        signal: controller.signal,
        onDelta: () => {
          if (++seen === 3) controller.abort();
        },
      }));
      assert.equal(error.kind, 'aborted');
      assert.equal(error.retryable, false);
      assert.equal(seen, 3);
      assert.equal(await s.outcome(0), 'client_closed');
    });

    it('reports a refused connection as network, naming where it went', async () => {
      const { provider, where } = harness.unreachable(await closedPort());
      const error = await rejection(provider.complete(request(), { signal: live() }));
      assert.equal(error.kind, 'network');
      assert.ok(error.message.includes(where), error.message);
      assert.match(error.message, /connection refused/);
    });
  });
}

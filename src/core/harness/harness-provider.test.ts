import assert from 'node:assert/strict';
import type { AgentToolbox } from '../engine/ports';
import { ProviderError, type ChatMessage, type ModelRequest, type StreamDelta } from '../providers/types';
import type { CoordinationEndpoint, HarnessDriver, HarnessSession, HarnessSink } from './driver';
import { CALL_RECEIVED, HarnessProvider } from './harness-provider';

/** What one scripted turn of the program does, given the endpoint it calls and the sink it reports to. */
type Turn = (endpoint: CoordinationEndpoint, sink: HarnessSink, signal: AbortSignal) => Promise<string> | string;

/** A driver whose sessions play `turns` in order and record what they were told. */
function scriptedDriver(turns: Turn[]) {
  const log = { opened: [] as string[], messages: [] as string[], closed: 0, acks: [] as string[] };
  const driver: HarnessDriver = {
    description: 'scripted program',
    model: 'scripted',
    async open({ system, coordination }) {
      log.opened.push(system);
      const endpoint: CoordinationEndpoint = { tools: coordination.tools, reading: coordination.reading, onCall: (name, args) => {
        const ack = coordination.onCall(name, args);
        log.acks.push(ack);
        return ack;
      } };
      const session: HarnessSession = {
        async run(message, sink, signal) {
          log.messages.push(message);
          const turn = turns.shift();
          if (!turn) throw new Error('no turn scripted');
          return { text: await turn(endpoint, sink, signal) };
        },
        async close() {
          log.closed++;
        },
      };
      return session;
    },
  };
  return { driver, log };
}

const tools = [{ name: 'new_answer', description: 'answer', parameters: { type: 'object', properties: { content: { type: 'string' } } } }];
const request = (messages: ChatMessage[], system = 'rules'): ModelRequest => ({ system, messages, tools });
const live = () => new AbortController().signal;

describe('harness provider: a coding agent program as a provider', () => {
  it('hands the turn’s coordination calls to the engine once the turn ended, with the turn’s usage', async () => {
    const { driver, log } = scriptedDriver([
      (endpoint, sink) => {
        sink.tool({ phase: 'call', id: 't1', name: 'Edit', arguments: '{"file_path":"a.ts"}' });
        sink.tool({ phase: 'result', id: 't1', name: 'Edit', ok: true, summary: 'edited' });
        sink.usage({ inputTokens: 100, cachedInputTokens: 40, outputTokens: 10 });
        endpoint.onCall('new_answer', { content: 'done' });
        sink.usage({ inputTokens: 120, cachedInputTokens: 100, outputTokens: 5 });
        sink.text('Answered.');
        return 'Answered.';
      },
    ]);
    const deltas: StreamDelta[] = [];
    const provider = new HarnessProvider(driver);
    const response = await provider.complete(request([{ role: 'user', content: 'the task and the board' }]), { signal: live(), onDelta: (d) => deltas.push(d) });
    assert.deepEqual(log.opened, ['rules']);
    assert.deepEqual(log.messages, ['the task and the board']);
    assert.deepEqual(log.acks, [CALL_RECEIVED]);
    assert.deepEqual(response.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), [['new_answer', { content: 'done' }]]);
    assert.equal(response.stopReason, 'tool_calls');
    assert.deepEqual(response.usage, { inputTokens: 220, cachedInputTokens: 140, outputTokens: 15 });
    assert.deepEqual(deltas.map((d) => d.type), ['tool_call', 'tool_result', 'text']);
  });

  it('tells a continuing session only what the engine added, without its own replies', async () => {
    const { driver, log } = scriptedDriver([(e) => (e.onCall('new_answer', { content: 'A' }), 'ok'), () => 'voted'] );
    const provider = new HarnessProvider(driver);
    const first: ChatMessage[] = [{ role: 'user', content: 'task' }];
    const r1 = await provider.complete(request(first), { signal: live() });
    const second: ChatMessage[] = [
      ...first,
      { role: 'assistant', content: r1.text, toolCalls: r1.toolCalls },
      { role: 'tool', toolCallId: r1.toolCalls[0].id, name: 'new_answer', content: 'Recorded as agent1.1' },
      { role: 'user', content: 'agent2 answered B' },
    ];
    const r2 = await provider.complete(request(second), { signal: live() });
    assert.deepEqual(log.opened.length, 1, 'one session');
    assert.equal(log.messages[1], '[new_answer result] Recorded as agent1.1\n\nagent2 answered B');
    assert.deepEqual(r2.toolCalls, []);
    assert.equal(r2.stopReason, 'stop');
    assert.equal(r2.usage, undefined, 'nothing reported, nothing claimed');
  });

  it('starts a new session with the whole conversation when the engine’s conversation does not continue it', async () => {
    const { driver, log } = scriptedDriver([() => 'one', () => 'two']);
    const provider = new HarnessProvider(driver);
    const task: ChatMessage = { role: 'user', content: 'task' };
    await provider.complete(request([task]), { signal: live() });
    // A failed turn undone: the conversation is back to an earlier state, rebuilt with new message objects.
    const rebuilt: ChatMessage[] = [{ role: 'user', content: 'task' }, { role: 'assistant', content: 'earlier', toolCalls: [{ id: 'c', name: 'vote', arguments: '{"agent_id":"agent2"}' }] }, { role: 'user', content: 'try again' }];
    await provider.complete(request(rebuilt), { signal: live() });
    assert.equal(log.opened.length, 2);
    assert.equal(log.closed, 1);
    assert.equal(log.messages[1], 'task\n\n[your earlier reply] earlier; called vote({"agent_id":"agent2"})\n\ntry again');
  });

  it('passes changed coordinator rules to a continuing session, once', async () => {
    const { driver, log } = scriptedDriver([() => 'one', () => 'two', () => 'three']);
    const provider = new HarnessProvider(driver);
    const first: ChatMessage[] = [{ role: 'user', content: 'task' }];
    await provider.complete(request(first), { signal: live() });
    const second: ChatMessage[] = [...first, { role: 'assistant', content: 'one' }, { role: 'user', content: 'vote now' }];
    await provider.complete(request(second, 'vote only'), { signal: live() });
    assert.equal(log.messages[1], "The coordinator's instructions are now:\nvote only\n\nvote now");
    await provider.complete(request([...second, { role: 'assistant', content: 'two' }, { role: 'user', content: 'and now?' }], 'vote only'), { signal: live() });
    assert.equal(log.messages[2], 'and now?');
  });

  it('a program that finishes starting after the run closed it is closed at once and never runs', async () => {
    let opened!: () => void;
    let starting!: () => void;
    const gate = new Promise<void>((resolve) => (opened = resolve));
    const started = new Promise<void>((resolve) => (starting = resolve));
    const { driver, log } = scriptedDriver([() => 'never']);
    const open = driver.open.bind(driver);
    driver.open = async (options, signal) => {
      starting();
      await gate;
      return open(options, signal);
    };
    const provider = new HarnessProvider(driver);
    const turn = provider.complete(request([{ role: 'user', content: 'task' }]), { signal: live() });
    await started;
    await provider.close();
    opened();
    await assert.rejects(turn, (e: unknown) => e instanceof ProviderError && e.kind === 'aborted');
    assert.deepEqual([log.opened.length, log.messages.length, log.closed], [1, 0, 1]);
  });

  it('a retry waits for the stopped turn\'s program to close instead of failing as busy', async () => {
    let finishClosing!: () => void;
    let closingStarted!: () => void;
    const closing = new Promise<void>((resolve) => (closingStarted = resolve));
    const { driver, log } = scriptedDriver([() => { throw new ProviderError('aborted', 'timed out'); }, () => 'retried']);
    const open = driver.open.bind(driver);
    let sessions = 0;
    driver.open = async (options, signal) => {
      const session = await open(options, signal);
      if (++sessions > 1) return session;
      return { ...session, close: () => new Promise<void>((resolve) => {
        finishClosing = () => void session.close().then(resolve);
        closingStarted();
      }) };
    };
    const provider = new HarnessProvider(driver);
    const task: ChatMessage[] = [{ role: 'user', content: 'task' }];
    const firstFailed = assert.rejects(provider.complete(request(task), { signal: live() }), /timed out/);
    await closing;
    // The engine retries while the stopped program still closes.
    const retry = provider.complete(request(task), { signal: live() });
    finishClosing();
    await firstFailed;
    assert.equal((await retry).text, 'retried');
    assert.equal(log.opened.length, 2);
  });

  it('closes the session when a turn fails or is stopped, and ignores calls outside a turn', async () => {
    let late: CoordinationEndpoint | undefined;
    const { driver, log } = scriptedDriver([
      (endpoint) => {
        late = endpoint;
        throw new ProviderError('aborted', 'stopped');
      },
      () => 'fresh',
    ]);
    const provider = new HarnessProvider(driver);
    await assert.rejects(provider.complete(request([{ role: 'user', content: 'task' }]), { signal: live() }), /stopped/);
    assert.equal(log.closed, 1);
    assert.match(late!.onCall('vote', {}), /No turn of yours is running/);
    await provider.complete(request([{ role: 'user', content: 'task' }]), { signal: live() });
    assert.equal(log.opened.length, 2);
    await provider.close();
    assert.equal(log.closed, 2);
  });

  it('serves the agent\'s read-only file tools on the massgen server, run when called, started once and closed with it', async () => {
    const log: string[] = [];
    const files: AgentToolbox = {
      tools: [{ name: 'read_file', description: 'read', parameters: { type: 'object' } }],
      start: async () => void log.push('start'),
      execute: async (call) => {
        log.push(`${call.name} ${call.arguments}`);
        return { ok: true, content: 'exports.add = (a, b) => a + b;' };
      },
      close: async () => void log.push('close'),
    };
    const { driver } = scriptedDriver([
      async (endpoint) => {
        assert.deepEqual(endpoint.reading?.tools.map((t) => t.name), ['read_file']);
        const read = await endpoint.reading!.call('read_file', { path: 'peers/agent2/add.js' });
        return read.content;
      },
      async (endpoint) => (await endpoint.reading!.call('read_file', { path: 'peers/agent1/add.js' })).content,
    ]);
    const provider = new HarnessProvider(driver, () => files);
    const task: ChatMessage[] = [{ role: 'user', content: 'task' }];
    assert.equal((await provider.complete(request(task), { signal: live() })).text, 'exports.add = (a, b) => a + b;');
    // A new session (the conversation was rebuilt) gets the same tools, not started again.
    await provider.complete(request([{ role: 'user', content: 'task' }]), { signal: live() });
    await provider.close();
    assert.deepEqual(log, ['start', 'read_file {"path":"peers/agent2/add.js"}', 'read_file {"path":"peers/agent1/add.js"}', 'close']);
  });
});

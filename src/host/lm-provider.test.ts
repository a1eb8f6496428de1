import assert from 'node:assert/strict';
import { rejection, request } from '../../test/helpers/provider-tests';
import type * as vscode from 'vscode';
import { PERSONAS } from '../core/config/discover';
import { ProviderError, type ModelRequest, type StreamDelta } from '../core/providers/types';
import {
  DEFAULT_JUSTIFICATION,
  lmAgentConfig,
  lmModelSpec,
  noChatModelsMessage,
  parseLmModelSpec,
  parseToolInput,
  pickLmTeam,
  selectLmModels,
  UNPARSED_ARGUMENTS_KEY,
  VsCodeLmProvider,
  type LmApi,
} from './lm-provider';

// ---------------------------------------------------------------------------------------------------------------
// Hand-written fakes of the vscode.lm surface, with the same shapes as the real classes.

class FakeTextPart {
  constructor(public value: string) {}
}
class FakeToolCallPart {
  constructor(public callId: string, public name: string, public input: object) {}
}
class FakeToolResultPart {
  constructor(public callId: string, public content: unknown[]) {}
}
type FakePart = FakeTextPart | FakeToolCallPart | FakeToolResultPart;
const USER = 1;
const ASSISTANT = 2;
class FakeChatMessage {
  static User(content: string | FakePart[], name?: string) {
    return new FakeChatMessage(USER, content, name);
  }
  static Assistant(content: string | FakePart[], name?: string) {
    return new FakeChatMessage(ASSISTANT, content, name);
  }
  content: FakePart[];
  constructor(public role: number, content: string | FakePart[], public name?: string) {
    this.content = typeof content === 'string' ? [new FakeTextPart(content)] : content;
  }
}

class FakeToken {
  isCancellationRequested = false;
  private listeners: Array<() => void> = [];
  onCancellationRequested = (listener: () => void) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire() {
    this.isCancellationRequested = true;
    for (const l of this.listeners.splice(0)) l();
  }
  /** Resolves once cancelled. */
  cancelled(): Promise<void> {
    return new Promise((resolve) => (this.isCancellationRequested ? resolve() : this.onCancellationRequested(resolve)));
  }
}
class FakeCancellationTokenSource {
  static created: FakeCancellationTokenSource[] = [];
  token = new FakeToken();
  cancelCalls = 0;
  disposed = false;
  constructor() {
    FakeCancellationTokenSource.created.push(this);
  }
  cancel() {
    this.cancelCalls++;
    if (!this.disposed) this.token.fire();
  }
  dispose() {
    this.disposed = true;
  }
}

class FakeLanguageModelError extends Error {
  static NoPermissions(message?: string) {
    return new FakeLanguageModelError(message ?? '', 'NoPermissions');
  }
  static Blocked(message?: string) {
    return new FakeLanguageModelError(message ?? '', 'Blocked');
  }
  static NotFound(message?: string) {
    return new FakeLanguageModelError(message ?? '', 'NotFound');
  }
  constructor(message: string, readonly code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LanguageModelError';
  }
}

interface SentRequest {
  messages: FakeChatMessage[];
  options: vscode.LanguageModelChatRequestOptions | undefined;
  token: FakeToken | undefined;
}

/** What a scripted model does for one request: yield parts; may wait for cancellation, hang, or throw. */
type Script = (token: FakeToken) => AsyncIterable<unknown>;

interface FakeModel extends vscode.LanguageModelChat {
  sent: SentRequest[];
  counted: Array<string | FakeChatMessage>;
}

function fakeModel(
  init: { vendor?: string; family?: string; id?: string; script?: Script; sendError?: unknown; countTokens?: (x: string | FakeChatMessage) => number } = {},
): FakeModel {
  const vendor = init.vendor ?? 'copilot';
  const family = init.family ?? 'gpt-4o';
  const sent: SentRequest[] = [];
  const counted: Array<string | FakeChatMessage> = [];
  const model = {
    id: init.id ?? `${vendor}-${family}`,
    name: family,
    vendor,
    family,
    version: '1',
    maxInputTokens: 100_000,
    sent,
    counted,
    async sendRequest(messages: FakeChatMessage[], options?: vscode.LanguageModelChatRequestOptions, token?: FakeToken) {
      sent.push({ messages, options, token });
      if (init.sendError) throw init.sendError;
      const stream = (init.script ?? textScript('ok'))(token ?? new FakeToken());
      return { stream, text: (async function* () {})() };
    },
    async countTokens(x: string | FakeChatMessage) {
      counted.push(x);
      if (init.countTokens) return init.countTokens(x);
      const text = typeof x === 'string' ? x : x.content.map((p) => (p instanceof FakeTextPart ? p.value : JSON.stringify(p))).join('');
      return text.length;
    },
  };
  return model as unknown as FakeModel;
}

function textScript(...chunks: string[]): Script {
  return async function* () {
    for (const chunk of chunks) yield new FakeTextPart(chunk);
  };
}

function fakeLm(models: vscode.LanguageModelChat[]) {
  const selectors: Array<vscode.LanguageModelChatSelector | undefined> = [];
  return {
    selectors,
    async selectChatModels(selector?: vscode.LanguageModelChatSelector) {
      selectors.push(selector);
      return models.filter((m) => (!selector?.vendor || m.vendor === selector.vendor) && (!selector?.family || m.family === selector.family));
    },
  };
}

function fakeApi(models: vscode.LanguageModelChat[] = []): LmApi {
  return {
    lm: fakeLm(models),
    LanguageModelChatMessage: FakeChatMessage,
    LanguageModelTextPart: FakeTextPart,
    LanguageModelToolCallPart: FakeToolCallPart,
    LanguageModelToolResultPart: FakeToolResultPart,
    CancellationTokenSource: FakeCancellationTokenSource,
    LanguageModelError: FakeLanguageModelError,
    LanguageModelChatToolMode: { Auto: 1, Required: 2 },
  } as unknown as LmApi;
}

const TOOLS = [
  { name: 'new_answer', description: 'Submit an answer', parameters: { type: 'object', properties: { content: { type: 'string' } } } },
  { name: 'vote', description: 'Vote for an answer', parameters: { type: 'object', properties: { agent_id: { type: 'string' } } } },
];


function signal(): AbortSignal {
  return new AbortController().signal;
}


function texts(message: FakeChatMessage): string[] {
  return message.content.filter((p) => p instanceof FakeTextPart).map((p) => (p as FakeTextPart).value);
}

// ---------------------------------------------------------------------------------------------------------------

describe('VsCodeLmProvider (fake vscode.lm)', () => {
  beforeEach(() => {
    FakeCancellationTokenSource.created = [];
  });

  describe('message mapping', () => {
    it('sends the system prompt first, as a clearly wrapped User message, then the user text', async () => {
      const model = fakeModel();
      await new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), { signal: signal() });
      const [sent] = model.sent;
      assert.equal(sent.messages.length, 2);
      const [system, user] = sent.messages;
      assert.equal(system.role, USER);
      const systemText = texts(system).join('');
      assert.match(systemText, /System instructions/);
      assert.match(systemText, /<system_instructions>\nYou are agent A\.\n<\/system_instructions>/);
      assert.equal(user.role, USER);
      assert.deepEqual(texts(user), ['What is 2+2?']);
    });

    it('omits an empty system prompt', () => {
      const provider = new VsCodeLmProvider({ api: fakeApi(), model: fakeModel() });
      const messages = provider.toLmMessages({ system: '  ', messages: [{ role: 'user', content: 'hi' }] }) as unknown as FakeChatMessage[];
      assert.equal(messages.length, 1);
      assert.deepEqual(texts(messages[0]), ['hi']);
    });

    it('round-trips tool calls: assistant text + ToolCallParts, then tool results merged with the next user text (results first)', () => {
      const provider = new VsCodeLmProvider({ api: fakeApi(), model: fakeModel() });
      const messages = provider.toLmMessages({
        system: 'sys',
        messages: [
          { role: 'user', content: 'task' },
          {
            role: 'assistant',
            content: 'Let me answer.',
            toolCalls: [
              { id: 'c1', name: 'new_answer', arguments: '{"content":"4"}' },
              { id: 'c2', name: 'vote', arguments: '{"agent_id":"agent1"}' },
            ],
          },
          { role: 'tool', toolCallId: 'c1', name: 'new_answer', content: 'answer recorded' },
          { role: 'tool', toolCallId: 'c2', name: 'vote', content: '' },
          { role: 'user', content: 'New answers arrived.' },
        ],
      }) as unknown as FakeChatMessage[];

      assert.deepEqual(messages.map((m) => m.role), [USER, USER, ASSISTANT, USER]);
      const assistant = messages[2];
      assert.ok(assistant.content[0] instanceof FakeTextPart);
      assert.equal((assistant.content[0] as FakeTextPart).value, 'Let me answer.');
      assert.deepEqual(
        assistant.content.slice(1).map((p) => ({ ...(p as FakeToolCallPart) })),
        [
          { callId: 'c1', name: 'new_answer', input: { content: '4' } },
          { callId: 'c2', name: 'vote', input: { agent_id: 'agent1' } },
        ],
      );
      assert.ok(assistant.content.slice(1).every((p) => p instanceof FakeToolCallPart));

      const merged = messages[3];
      assert.equal(merged.content.length, 3, 'two results and the user text in ONE message');
      const [r1, r2, text] = merged.content;
      assert.ok(r1 instanceof FakeToolResultPart && r2 instanceof FakeToolResultPart && text instanceof FakeTextPart);
      assert.equal(r1.callId, 'c1');
      assert.deepEqual(r1.content.map((p) => (p as FakeTextPart).value), ['answer recorded']);
      assert.ok(r1.content[0] instanceof FakeTextPart);
      assert.equal(r2.callId, 'c2');
      assert.deepEqual(r2.content.map((p) => (p as FakeTextPart).value), ['(no output)'], 'an empty result is still answered');
      assert.equal(text.value, 'New answers arrived.');
    });

    it('sends a tool-call-only assistant turn without an empty text part, and skips empty turns', () => {
      const provider = new VsCodeLmProvider({ api: fakeApi(), model: fakeModel() });
      const messages = provider.toLmMessages({
        system: '',
        messages: [
          { role: 'user', content: 'task' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'vote', arguments: '{}' }] },
          { role: 'tool', toolCallId: 'c1', name: 'vote', content: 'ok' },
          { role: 'assistant', content: '' },
          { role: 'user', content: 'go on' },
        ],
      }) as unknown as FakeChatMessage[];
      assert.deepEqual(messages.map((m) => m.role), [USER, ASSISTANT, USER]);
      assert.equal(messages[1].content.length, 1);
      assert.ok(messages[1].content[0] instanceof FakeToolCallPart);
      assert.ok(messages[2].content[0] instanceof FakeToolResultPart);
      assert.equal((messages[2].content[1] as FakeTextPart).value, 'go on');
    });

    it('replays malformed or non-object arguments as {} keeping the raw text', () => {
      assert.deepEqual(parseToolInput(''), {});
      assert.deepEqual(parseToolInput('{"a":1}'), { a: 1 });
      assert.deepEqual(parseToolInput('{"a":'), { [UNPARSED_ARGUMENTS_KEY]: '{"a":' });
      assert.deepEqual(parseToolInput('[1,2]'), { [UNPARSED_ARGUMENTS_KEY]: '[1,2]' });
      assert.deepEqual(parseToolInput('null'), { [UNPARSED_ARGUMENTS_KEY]: 'null' });

      const provider = new VsCodeLmProvider({ api: fakeApi(), model: fakeModel() });
      const [assistant] = provider.toLmMessages({
        system: '',
        messages: [{ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'vote', arguments: '{broken' }] }],
      }) as unknown as FakeChatMessage[];
      assert.deepEqual((assistant.content[0] as FakeToolCallPart).input, { [UNPARSED_ARGUMENTS_KEY]: '{broken' });
    });
  });

  describe('tools and tool mode', () => {
    async function optionsFor(overrides: Partial<ModelRequest>, justification?: string) {
      const model = fakeModel();
      await new VsCodeLmProvider({ api: fakeApi(), model, ...(justification ? { justification } : {}) }).complete(request(overrides), { signal: signal() });
      return model.sent[0].options;
    }

    it('maps tools to LanguageModelChatTool and toolChoice auto to Auto', async () => {
      const options = await optionsFor({ tools: TOOLS, toolChoice: 'auto' });
      assert.deepEqual(options?.tools, TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })));
      assert.equal(options?.toolMode, 1);
      assert.equal(options?.justification, DEFAULT_JUSTIFICATION);
    });

    it('uses Required only with exactly one tool; with several tools required degrades to Auto', async () => {
      assert.equal((await optionsFor({ tools: [TOOLS[0]], toolChoice: 'required' }))?.toolMode, 2);
      assert.equal((await optionsFor({ tools: TOOLS, toolChoice: 'required' }))?.toolMode, 1);
      assert.equal((await optionsFor({ tools: TOOLS }))?.toolMode, 1);
    });

    it('sends no tools for toolChoice none or an empty tool list, and passes a custom justification', async () => {
      const none = await optionsFor({ tools: TOOLS, toolChoice: 'none' });
      assert.equal(none?.tools, undefined);
      assert.equal(none?.toolMode, undefined);
      const empty = await optionsFor({ tools: [] }, 'custom reason');
      assert.equal(empty?.tools, undefined);
      assert.equal(empty?.justification, 'custom reason');
    });
  });

  describe('streaming', () => {
    it('streams text deltas in order and returns the full text with stopReason stop', async () => {
      const model = fakeModel({ script: textScript('Two plus ', 'two ', '', 'is four.') });
      const deltas: StreamDelta[] = [];
      const response = await new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), { signal: signal(), onDelta: (d) => deltas.push(d) });
      assert.equal(response.text, 'Two plus two is four.');
      assert.equal(response.stopReason, 'stop');
      assert.deepEqual(response.toolCalls, []);
      assert.deepEqual(deltas, [
        { type: 'text', text: 'Two plus ' },
        { type: 'text', text: 'two ' },
        { type: 'text', text: 'is four.' },
      ]);
    });

    it('collects tool calls with JSON arguments, emits tool_call_start, and ignores unknown parts', async () => {
      const model = fakeModel({
        script: async function* () {
          yield new FakeTextPart('Voting now.');
          yield { mimeType: 'image/png', data: new Uint8Array() };
          yield new FakeToolCallPart('call_1', 'vote', { agent_id: 'agent2', reason: 'best' });
          yield new FakeToolCallPart('', 'new_answer', { content: 'x' });
        },
      });
      const deltas: StreamDelta[] = [];
      const response = await new VsCodeLmProvider({ api: fakeApi(), model }).complete(request({ tools: TOOLS }), {
        signal: signal(),
        onDelta: (d) => deltas.push(d),
      });
      assert.equal(response.text, 'Voting now.');
      assert.equal(response.stopReason, 'tool_calls');
      assert.equal(response.toolCalls.length, 2);
      assert.deepEqual(response.toolCalls[0], { id: 'call_1', name: 'vote', arguments: '{"agent_id":"agent2","reason":"best"}' });
      assert.equal(JSON.parse(response.toolCalls[0].arguments).agent_id, 'agent2');
      assert.match(response.toolCalls[1].id, /^call_[0-9a-f]{24}$/, 'a missing call id is generated');
      assert.equal(response.toolCalls[1].arguments, '{"content":"x"}');
      assert.deepEqual(deltas, [
        { type: 'text', text: 'Voting now.' },
        { type: 'tool_call_start', id: 'call_1', name: 'vote' },
        { type: 'tool_call_start', id: response.toolCalls[1].id, name: 'new_answer' },
      ]);
    });

    it('passes a token from a CancellationTokenSource and disposes the source afterwards', async () => {
      const model = fakeModel();
      const controller = new AbortController();
      await new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), { signal: controller.signal });
      const [source] = FakeCancellationTokenSource.created;
      assert.equal(model.sent[0].token, source.token);
      assert.ok(source.disposed);
      controller.abort();
      assert.equal(source.cancelCalls, 0, 'the abort listener is removed after the call');
    });
  });

  describe('usage', () => {
    it('estimates usage with countTokens (prompt messages summed, output text) and marks it estimated', async () => {
      const model = fakeModel({ script: textScript('four'), countTokens: (x) => (typeof x === 'string' ? x.length : 100) });
      const response = await new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), { signal: signal() });
      assert.deepEqual(response.usage, { inputTokens: 200, cachedInputTokens: 0, outputTokens: 4, estimated: true });
      assert.equal(model.counted.filter((x) => typeof x !== 'string').length, 2, 'each prompt message counted');
      assert.deepEqual(model.counted.filter((x) => typeof x === 'string'), ['four']);
    });

    it('counts tool calls as output', async () => {
      const model = fakeModel({
        script: async function* () {
          yield new FakeToolCallPart('c', 'vote', { a: 1 });
        },
        countTokens: (x) => (typeof x === 'string' ? x.length : 1),
      });
      const response = await new VsCodeLmProvider({ api: fakeApi(), model }).complete(request({ tools: TOOLS }), { signal: signal() });
      assert.equal(response.usage?.outputTokens, 'vote({"a":1})'.length);
    });

    it('omits usage when counting fails', async () => {
      const model = fakeModel({
        countTokens: () => {
          throw new Error('tokenizer unavailable');
        },
      });
      const response = await new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), { signal: signal() });
      assert.equal(response.text, 'ok');
      assert.equal(response.usage, undefined);
      assert.ok(!('usage' in response));
    });
  });

  describe('cancellation', () => {
    it('aborting the signal cancels the token, and the call rejects with ProviderError aborted', async () => {
      let sawCancel = false;
      const model = fakeModel({
        script: async function* (token) {
          yield new FakeTextPart('partial');
          await token.cancelled();
          sawCancel = true;
          throw Object.assign(new Error('Canceled'), { name: 'Canceled' });
        },
      });
      const controller = new AbortController();
      const promise = new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), {
        signal: controller.signal,
        onDelta: () => controller.abort(),
      });
      const error = await rejection(promise);
      assert.equal(error.kind, 'aborted');
      assert.equal(error.retryable, false);
      const [source] = FakeCancellationTokenSource.created;
      assert.ok(source.token.isCancellationRequested);
      assert.equal(source.cancelCalls, 1);
      assert.ok(source.disposed);
      await new Promise((r) => setImmediate(r));
      assert.ok(sawCancel, 'the model saw the cancellation');
    });

    it('rejects promptly even when the stream ignores the token', async () => {
      const model = fakeModel({
        script: async function* () {
          yield new FakeTextPart('partial');
          await new Promise(() => undefined);
        },
      });
      const controller = new AbortController();
      const promise = new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), { signal: controller.signal });
      setTimeout(() => controller.abort(), 10);
      assert.equal((await rejection(promise)).kind, 'aborted');
    });

    it('rejects while waiting for sendRequest, and never sends when already aborted', async () => {
      const hanging = fakeModel();
      hanging.sendRequest = (() => new Promise(() => undefined)) as typeof hanging.sendRequest;
      const controller = new AbortController();
      const promise = new VsCodeLmProvider({ api: fakeApi(), model: hanging }).complete(request(), { signal: controller.signal });
      setTimeout(() => controller.abort(), 5);
      assert.equal((await rejection(promise)).kind, 'aborted');

      const model = fakeModel();
      const aborted = AbortSignal.abort();
      assert.equal((await rejection(new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), { signal: aborted }))).kind, 'aborted');
      assert.equal(model.sent.length, 0);
    });

    it('maps a cancellation error from VS Code to aborted', async () => {
      const model = fakeModel({ sendError: Object.assign(new Error('Canceled'), { name: 'Canceled' }) });
      assert.equal((await rejection(new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), { signal: signal() }))).kind, 'aborted');
    });
  });

  describe('errors', () => {
    async function errorFor(sendError: unknown, where: 'send' | 'stream' = 'send'): Promise<ProviderError> {
      const model =
        where === 'send'
          ? fakeModel({ sendError })
          : fakeModel({
              script: async function* () {
                yield new FakeTextPart('partial');
                throw sendError;
              },
            });
      return rejection(new VsCodeLmProvider({ api: fakeApi(), model }).complete(request(), { signal: signal() }));
    }

    it('NoPermissions → auth, telling the user how to allow MassGen', async () => {
      const error = await errorFor(FakeLanguageModelError.NoPermissions('consent denied'));
      assert.equal(error.kind, 'auth');
      assert.equal(error.retryable, false);
      assert.match(error.message, /copilot\/gpt-4o/);
      assert.match(error.message, /Allow/);
      assert.match(error.message, /Manage Language Model Access/);
      assert.match(error.message, /consent denied/);
    });

    it('NotFound → invalid_request, suggesting another model', async () => {
      const error = await errorFor(FakeLanguageModelError.NotFound('no such model'));
      assert.equal(error.kind, 'invalid_request');
      assert.match(error.message, /no longer available/);
      assert.match(error.message, /another model/);
    });

    it('Blocked → rate_limit (retryable)', async () => {
      const error = await errorFor(FakeLanguageModelError.Blocked('too many'));
      assert.equal(error.kind, 'rate_limit');
      assert.ok(error.retryable);
      assert.match(error.message, /quota/);
    });

    it('rate/quota messages → rate_limit, also through an Unknown error cause and mid-stream', async () => {
      assert.equal((await errorFor(new Error('Sorry, you have been rate-limited.'))).kind, 'rate_limit');
      assert.equal((await errorFor(new Error('Monthly quota exceeded'), 'stream')).kind, 'rate_limit');
      const wrapped = new FakeLanguageModelError('Request failed', 'Unknown', { cause: new Error('429 rate limit reached') });
      assert.equal((await errorFor(wrapped)).kind, 'rate_limit');
    });

    it('other failures → unknown (retryable), a too-long prompt → invalid_request', async () => {
      const unknown = await errorFor(new FakeLanguageModelError('server exploded', 'Unknown'), 'stream');
      assert.equal(unknown.kind, 'unknown');
      assert.ok(unknown.retryable);
      assert.match(unknown.message, /server exploded/);
      assert.equal((await errorFor('a plain string')).kind, 'unknown');
      assert.equal((await errorFor(new Error('Message exceeds token limit.'))).kind, 'invalid_request');
    });

    it('recognises a LanguageModelError by name when instanceof fails', async () => {
      const foreign = Object.assign(new Error('denied'), { name: 'LanguageModelError', code: 'NoPermissions' });
      assert.equal((await errorFor(foreign)).kind, 'auth');
    });
  });

  describe('model resolution', () => {
    it('describes a concrete model as vscode-lm vendor/family', () => {
      const provider = new VsCodeLmProvider({ api: fakeApi(), model: fakeModel({ vendor: 'copilot', family: 'gpt-4o' }) });
      assert.equal(provider.description, 'vscode-lm copilot/gpt-4o');
      assert.equal(provider.model, 'copilot/gpt-4o');
    });

    it('resolves a selector lazily through lm.selectChatModels and caches the model', async () => {
      const claude = fakeModel({ family: 'claude-sonnet-4' });
      const api = fakeApi([fakeModel({ family: 'gpt-4o' }), claude]);
      const provider = new VsCodeLmProvider({ api, model: { vendor: 'copilot', family: 'claude-sonnet-4' } });
      assert.equal(provider.description, 'vscode-lm copilot/claude-sonnet-4');
      await provider.complete(request(), { signal: signal() });
      await provider.complete(request(), { signal: signal() });
      assert.equal(claude.sent.length, 2);
      assert.equal((api.lm as unknown as ReturnType<typeof fakeLm>).selectors.length, 1);
    });

    it('fails with the no-models message when nothing matches', async () => {
      const provider = new VsCodeLmProvider({ api: fakeApi([]), model: {} });
      const error = await rejection(provider.complete(request(), { signal: signal() }));
      assert.equal(error.kind, 'invalid_request');
      assert.equal(error.message, noChatModelsMessage());
    });

    it('re-selects after NotFound when built from a selector', async () => {
      const gone = fakeModel({ family: 'gpt-4o', sendError: FakeLanguageModelError.NotFound('gone') });
      const models: vscode.LanguageModelChat[] = [gone];
      const api = fakeApi(models);
      const provider = new VsCodeLmProvider({ api, model: { family: 'gpt-4o' } });
      assert.equal((await rejection(provider.complete(request(), { signal: signal() }))).kind, 'invalid_request');
      const fresh = fakeModel({ family: 'gpt-4o' });
      models[0] = fresh;
      const response = await provider.complete(request(), { signal: signal() });
      assert.equal(response.text, 'ok');
      assert.equal(fresh.sent.length, 1);
    });
  });
});

describe('vscode.lm model selection helpers', () => {
  it('selectLmModels passes the selector (none for an empty one) and returns the models', async () => {
    const models = [fakeModel({ family: 'gpt-4o' }), fakeModel({ family: 'claude-sonnet-4' })];
    const lm = fakeLm(models);
    assert.deepEqual(await selectLmModels(lm), models);
    assert.deepEqual(await selectLmModels(lm, {}), models);
    assert.deepEqual(await selectLmModels(lm, { family: 'claude-sonnet-4' }), [models[1]]);
    assert.deepEqual(lm.selectors, [undefined, undefined, { family: 'claude-sonnet-4' }]);
    assert.deepEqual(await selectLmModels(fakeLm([])), []);
  });

  it('noChatModelsMessage says what to do', () => {
    const message = noChatModelsMessage();
    assert.match(message, /No VS Code chat models are available/);
    assert.match(message, /Sign in to GitHub Copilot/);
    assert.match(message, /massgen\.agents/);
    const filtered = noChatModelsMessage({ vendor: 'copilot', family: 'o9' });
    assert.match(filtered, /No VS Code chat model matches copilot\/o9/);
    assert.match(filtered, /massgen\.agents/);
  });

  it('parses and prints vendor/family model specs', () => {
    assert.deepEqual(parseLmModelSpec('copilot/gpt-4o'), { vendor: 'copilot', family: 'gpt-4o' });
    assert.deepEqual(parseLmModelSpec('gpt-4o'), { family: 'gpt-4o' });
    assert.deepEqual(parseLmModelSpec('copilot/*'), { vendor: 'copilot' });
    assert.deepEqual(parseLmModelSpec(''), {});
    assert.deepEqual(parseLmModelSpec('auto'), {});
    assert.deepEqual(parseLmModelSpec(undefined), {});
    assert.equal(lmModelSpec(fakeModel({ vendor: 'copilot', family: 'gpt-4o' })), 'copilot/gpt-4o');
  });
});

describe('pickLmTeam', () => {
  it('picks three distinct models, spread across model lines, without personas', () => {
    const models = [
      fakeModel({ family: 'gpt-4o' }),
      fakeModel({ family: 'gpt-4.1' }),
      fakeModel({ family: 'claude-sonnet-4' }),
      fakeModel({ family: 'gemini-2.5-pro' }),
    ];
    const team = pickLmTeam(models);
    assert.deepEqual(team.map((a) => a.model.family), ['gpt-4o', 'claude-sonnet-4', 'gemini-2.5-pro']);
    assert.deepEqual(team.map((a) => a.id), ['gpt-4o', 'claude-sonnet-4', 'gemini-2-5-pro']);
    assert.ok(team.every((a) => a.personaSystemMessage === undefined));
  });

  it('fills from the same line when there are not enough lines', () => {
    const team = pickLmTeam([fakeModel({ family: 'gpt-4o' }), fakeModel({ family: 'gpt-4.1' }), fakeModel({ family: 'gpt-5' })]);
    assert.deepEqual(team.map((a) => a.model.family), ['gpt-4o', 'gpt-4.1', 'gpt-5']);
  });

  it('one model → three agents on it with the three personas', () => {
    const only = fakeModel({ family: 'gpt-4o' });
    const team = pickLmTeam([only]);
    assert.equal(team.length, 3);
    assert.ok(team.every((a) => a.model === only));
    assert.deepEqual(team.map((a) => a.personaSystemMessage), PERSONAS.slice(0, 3).map((p) => p.systemMessage));
    assert.deepEqual(team.map((a) => a.id), PERSONAS.slice(0, 3).map((p) => `gpt-4o-${p.id}`));
  });

  it('two models → A, B, A, every agent with its own persona', () => {
    const a = fakeModel({ family: 'gpt-4o' });
    const b = fakeModel({ family: 'claude-sonnet-4' });
    const team = pickLmTeam([a, b]);
    assert.deepEqual(team.map((x) => x.model), [a, b, a]);
    assert.deepEqual(team.map((x) => x.personaSystemMessage), PERSONAS.slice(0, 3).map((p) => p.systemMessage));
    assert.equal(new Set(team.map((x) => x.id)).size, 3);
  });

  it('treats the same vendor/family twice as one model, and puts the preferred model first', () => {
    const a = fakeModel({ family: 'gpt-4o', id: 'one' });
    const a2 = fakeModel({ family: 'gpt-4o', id: 'two' });
    const b = fakeModel({ family: 'claude-sonnet-4' });
    const c = fakeModel({ family: 'gemini-2.5-pro' });
    assert.equal(pickLmTeam([a, a2]).filter((x) => x.model === a).length, 3);
    const team = pickLmTeam([a, b, c], { preferred: c });
    assert.deepEqual(team.map((x) => x.model), [c, a, b]);
    assert.equal(pickLmTeam([a, b, c], { teamSize: 2 }).length, 2);
  });

  it('throws the no-models message when there is no model', () => {
    assert.throws(() => pickLmTeam([]), (e: Error) => e.message === noChatModelsMessage());
  });

  it('builds vscode-lm agent configs', () => {
    const [agent] = pickLmTeam([fakeModel({ family: 'gpt-4o' })]);
    assert.deepEqual(lmAgentConfig(agent), {
      id: 'gpt-4o-reviewer',
      backend: { type: 'vscode-lm', family: 'vscode-lm', model: 'copilot/gpt-4o' },
      systemMessage: PERSONAS[0].systemMessage,
    });
  });
});

import assert from 'node:assert/strict';
import { rejection, request } from '../../../test/helpers/provider-tests';
import type * as vscode from 'vscode';
import { RAW_ARGUMENTS_KEY } from '../../core/providers/turns';
import { ProviderError, type ModelRequest, type StreamDelta } from '../../core/providers/types';
import { noChatModelsMessage } from './models';
import { VsCodeLmProvider } from './provider';
import {
  ASSISTANT,
  FakeCancellationTokenSource,
  FakeChatMessage,
  FakeLanguageModelError,
  FakeTextPart,
  FakeToolCallPart,
  FakeToolResultPart,
  englishL10n,
  fakeApi,
  fakeLm,
  fakeModel,
  textScript,
  USER,
} from '../../../test/fakes/vscode-lm';

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

    it('replays malformed or non-object arguments as an object keeping the raw text', () => {
      const provider = new VsCodeLmProvider({ api: fakeApi(), model: fakeModel() });
      const [assistant] = provider.toLmMessages({
        system: '',
        messages: [{ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'vote', arguments: '{broken' }] }],
      }) as unknown as FakeChatMessage[];
      assert.deepEqual((assistant.content[0] as FakeToolCallPart).input, { [RAW_ARGUMENTS_KEY]: '{broken' });
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
      assert.equal(options?.justification, 'MassGen runs several AI agents on your task in parallel; they compare their answers and vote on the best one.');
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

    it('collects tool calls with JSON arguments, streaming only the text, and ignores unknown parts', async () => {
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
      assert.deepEqual(deltas, [{ type: 'text', text: 'Voting now.' }]);
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

    it('the texts a user reads (errors, the consent reason) go through the api\u2019s l10n.t, with their values as arguments', async () => {
      const api = { ...fakeApi(), l10n: { t: (message: string, ...args: Array<string | number | boolean>) => `«${englishL10n(message, ...args)}»` } } as unknown as ReturnType<typeof fakeApi>;
      const model = fakeModel({ sendError: FakeLanguageModelError.NotFound('no such model') });
      const error = await rejection(new VsCodeLmProvider({ api, model }).complete(request(), { signal: signal() }));
      assert.match(error.message, /^«The chat model copilot\/gpt-4o is no longer available \(.*no such model.*\)\. Pick another model .*»$/);
      const ok = fakeModel();
      await new VsCodeLmProvider({ api, model: ok }).complete(request(), { signal: signal() });
      assert.match(String(ok.sent[0].options?.justification), /^«MassGen runs several AI agents .*»$/);
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

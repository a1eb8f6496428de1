// The `vscode-lm` provider: the engine's provider port on top of VS Code's Language Model API (`vscode.lm`), so a
// run can use the chat models the user already has (Copilot, or any extension that contributes chat models)
// without a key. The vscode API comes in as a constructor dependency (`api`, in the extension simply the `vscode`
// module) and is only imported as types here, so this file loads, and is unit-tested, in plain Node; the texts a
// user reads (the consent dialog's reason, the errors) are translated through that port's `l10n.t`.
//
// Mapping decisions (VS Code 1.100's stable API):
// - There is no system role: the system prompt goes first as a User message, wrapped in <system_instructions>.
// - Tool results can only live in User messages: consecutive tool results and the user text that follows them are
//   merged into ONE User message, results first (what Anthropic-backed models require). Consecutive messages of
//   the same role are merged in general; empty text parts are dropped (several backends reject them).
// - toolChoice 'required' maps to LanguageModelChatToolMode.Required only when exactly one tool is offered: the API
//   documents that "some models only support a single tool" in that mode (Copilot rejects it outright), and one
//   `complete` call must be one attempt. With several tools 'required' degrades to Auto; the engine already
//   re-prompts an agent that answers without calling a tool. 'none' sends no tools at all (the API has no such mode).
// - temperature/maxTokens are not sent: `modelOptions` are vendor-specific and Copilot has no documented keys.
//   Callers that know their vendor can pass `modelOptions` explicitly.
// - Usage is never reported by the API; it is estimated with `model.countTokens` and marked `estimated: true`.
import type * as vscode from 'vscode';
import { callId } from '../../core/providers/http-errors';
import { toolInput, toTurns, type Turn } from '../../core/providers/turns';
import type { ChatMessage, CompleteOptions, ModelProvider, ModelRequest, ModelResponse, ToolCall, Usage } from '../../core/providers/types';
import { ProviderError } from '../../core/providers/types';
import { AbortedError, raceAbort } from '../../core/util/abort';
import { describeSelector, lmModelSpec, noChatModelsMessage, selectLmModels } from './models';

/** The part of the `vscode` module this provider uses. In the extension, pass `vscode` itself. */
export type LmApi = Pick<
  typeof vscode,
  | 'lm'
  | 'LanguageModelChatMessage'
  | 'LanguageModelTextPart'
  | 'LanguageModelToolCallPart'
  | 'LanguageModelToolResultPart'
  | 'CancellationTokenSource'
  | 'LanguageModelError'
  | 'LanguageModelChatToolMode'
  | 'l10n'
>;

export interface VsCodeLmProviderOptions {
  api: LmApi;
  /** The chat model to use, or a selector resolved through `lm.selectChatModels` on first use (first match wins). */
  model: vscode.LanguageModelChat | vscode.LanguageModelChatSelector;
  /** Shown by VS Code in its consent dialog (default: what MassGen does, translated). */
  justification?: string;
  /** Vendor-specific `modelOptions`, passed through untouched. */
  modelOptions?: Record<string, unknown>;
}

const SYSTEM_PREAMBLE = 'System instructions from MassGen, the application you are working in. Follow them for this whole conversation.';

type LmMessage = vscode.LanguageModelChatMessage;
type UserPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart;
type AssistantPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;

export class VsCodeLmProvider implements ModelProvider {
  private readonly api: LmApi;
  private readonly selector: vscode.LanguageModelChatSelector | undefined;
  private resolved: vscode.LanguageModelChat | undefined;
  private readonly justification: string;
  private readonly modelOptions: Record<string, unknown> | undefined;

  constructor(options: VsCodeLmProviderOptions) {
    this.api = options.api;
    if (isChatModel(options.model)) this.resolved = options.model;
    else this.selector = { ...options.model };
    this.justification = options.justification ?? this.api.l10n.t('MassGen runs several AI agents on your task in parallel; they compare their answers and vote on the best one.');
    this.modelOptions = options.modelOptions;
  }

  /** The model's input limit as VS Code reports it, once the model is known. */
  get contextWindow(): number | undefined {
    return this.resolved?.maxInputTokens || undefined;
  }

  /** `vendor/family` of the model (of the selector until it is resolved). */
  get model(): string {
    return this.resolved ? lmModelSpec(this.resolved) : describeSelector(this.selector ?? {});
  }

  get description(): string {
    return `vscode-lm ${this.model}`;
  }

  async complete(request: ModelRequest, { signal, onDelta }: CompleteOptions): Promise<ModelResponse> {
    if (signal.aborted) throw this.abortedError();
    const source = new this.api.CancellationTokenSource();
    const cancel = () => source.cancel();
    signal.addEventListener('abort', cancel, { once: true });

    let model: vscode.LanguageModelChat | undefined;
    try {
      model = await raceAbort(this.resolveModel(), signal);
      const messages = this.toLmMessages(request);
      const response = await raceAbort(model.sendRequest(messages, this.requestOptions(request), source.token), signal);

      let text = '';
      const toolCalls: ToolCall[] = [];
      const iterator = response.stream[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await raceAbort(iterator.next(), signal);
          if (next.done) break;
          const part = next.value;
          if (part instanceof this.api.LanguageModelTextPart) {
            if (!part.value) continue;
            text += part.value;
            onDelta?.({ type: 'text', text: part.value });
          } else if (part instanceof this.api.LanguageModelToolCallPart) {
            toolCalls.push({ id: part.callId || callId('call'), name: part.name, arguments: JSON.stringify(part.input ?? {}) });
          }
          // Other parts (data, thinking, future types) carry nothing the engine uses.
        }
      } finally {
        // Breaking out of the stream is how the API cancels it; do not wait for a stream that ignores that.
        if (signal.aborted) void Promise.resolve(iterator.return?.()).catch(() => undefined);
      }
      if (signal.aborted) throw new AbortedError();

      const usage = await raceAbort(estimateUsage(model, messages, outputText(text, toolCalls), source.token), signal);
      return { text, toolCalls, ...(usage ? { usage } : {}), stopReason: toolCalls.length > 0 ? 'tool_calls' : 'stop' };
    } catch (error) {
      throw this.toProviderError(error, signal, model);
    } finally {
      signal.removeEventListener('abort', cancel);
      source.dispose();
    }
  }

  /** The request's messages as VS Code chat messages (system prompt first, as a User message). Exposed for tests. */
  toLmMessages(request: Pick<ModelRequest, 'system' | 'messages'>): LmMessage[] {
    const { LanguageModelChatMessage, LanguageModelTextPart, LanguageModelToolResultPart } = this.api;
    const system = request.system.trim() ? [LanguageModelChatMessage.User([new LanguageModelTextPart(wrapSystem(request.system))])] : [];
    const turns = toTurns(request.messages, (m) => this.toTurn(m), (part) => part instanceof LanguageModelToolResultPart);
    return [...system, ...turns.map((t) => (t.role === 'user' ? LanguageModelChatMessage.User(t.parts) : LanguageModelChatMessage.Assistant(t.parts)))];
  }

  private toTurn(message: ChatMessage): Turn<UserPart, AssistantPart> {
    const { LanguageModelTextPart, LanguageModelToolCallPart, LanguageModelToolResultPart } = this.api;
    switch (message.role) {
      case 'user':
        return { role: 'user', parts: message.content ? [new LanguageModelTextPart(message.content)] : [] };
      case 'tool':
        // An empty result part is still a result: the model's call must be answered.
        return {
          role: 'user',
          parts: [new LanguageModelToolResultPart(message.toolCallId, [new LanguageModelTextPart(message.content || '(no output)')])],
        };
      case 'assistant': {
        const parts: AssistantPart[] = message.content ? [new LanguageModelTextPart(message.content)] : [];
        for (const call of message.toolCalls ?? []) parts.push(new LanguageModelToolCallPart(call.id, call.name, toolInput(call.arguments)));
        return { role: 'assistant', parts };
      }
    }
  }

  private requestOptions(request: ModelRequest): vscode.LanguageModelChatRequestOptions {
    const options: vscode.LanguageModelChatRequestOptions = { justification: this.justification };
    if (this.modelOptions) options.modelOptions = { ...this.modelOptions };
    if (request.tools.length > 0 && request.toolChoice !== 'none') {
      options.tools = request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters }));
      const { Auto, Required } = this.api.LanguageModelChatToolMode;
      options.toolMode = request.toolChoice === 'required' && request.tools.length === 1 ? Required : Auto;
    }
    return options;
  }

  private async resolveModel(): Promise<vscode.LanguageModelChat> {
    if (this.resolved) return this.resolved;
    const selector = this.selector ?? {};
    const [model] = await selectLmModels(this.api.lm, selector);
    if (!model) throw new ProviderError('invalid_request', noChatModelsMessage(selector));
    this.resolved = model;
    return model;
  }

  private abortedError(): ProviderError {
    return new ProviderError('aborted', `request to ${this.description} was aborted`);
  }

  private toProviderError(error: unknown, signal: AbortSignal, model: vscode.LanguageModelChat | undefined): ProviderError {
    if (error instanceof ProviderError) return error;
    if (signal.aborted || error instanceof AbortedError || isCancellation(error)) return this.abortedError();
    const label = this.model;
    const detail = describeError(error);
    const code = this.lmErrorCode(error);
    const l10n = this.api.l10n;
    if (code === 'NoPermissions') {
      return new ProviderError(
        'auth',
        l10n.t(
          'MassGen is not allowed to use the chat model {0} ({1}). Run MassGen again and choose "Allow" when VS Code asks, or grant access from the Accounts menu (bottom of the Activity Bar) → Manage Language Model Access.',
          label,
          detail,
        ),
        { cause: error },
      );
    }
    if (code === 'NotFound') {
      // A selector-based provider picks again next time; a fixed model is gone for good.
      if (this.selector && model === this.resolved) this.resolved = undefined;
      return new ProviderError(
        'invalid_request',
        l10n.t('The chat model {0} is no longer available ({1}). Pick another model (massgen.agents in settings), or run again to use the models available now.', label, detail),
        { cause: error },
      );
    }
    if (code === 'Blocked') {
      return new ProviderError(
        'rate_limit',
        l10n.t('VS Code blocked the request to {0}: its quota is used up or requests are being limited ({1}). Wait a little and try again, or pick another model.', label, detail),
        { cause: error },
      );
    }
    if (/\brate[\s_-]?limit|\brate\b|quota|too many requests/i.test(detail)) {
      return new ProviderError('rate_limit', l10n.t('{0} is rate limiting: {1}', label, detail), { cause: error });
    }
    if (/token limit|context (length|window)|too many tokens|prompt is too long|maximum context/i.test(detail)) {
      return new ProviderError('invalid_request', l10n.t('{0} rejected the request as too long: {1}', label, detail), { cause: error });
    }
    return new ProviderError('unknown', l10n.t('{0} failed: {1}', label, detail), { cause: error });
  }

  private lmErrorCode(error: unknown): string | undefined {
    const isLmError = error instanceof this.api.LanguageModelError || (error instanceof Error && error.name === 'LanguageModelError');
    if (!isLmError) return undefined;
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
}

function isChatModel(value: vscode.LanguageModelChat | vscode.LanguageModelChatSelector): value is vscode.LanguageModelChat {
  return typeof (value as Partial<vscode.LanguageModelChat>).sendRequest === 'function';
}

function wrapSystem(system: string): string {
  return `${SYSTEM_PREAMBLE}\n<system_instructions>\n${system}\n</system_instructions>`;
}

function outputText(text: string, toolCalls: ToolCall[]): string {
  return [text, ...toolCalls.map((c) => `${c.name}(${c.arguments})`)].filter(Boolean).join('\n');
}

/** Prompt and output tokens by the model's own tokenizer; undefined when counting fails (usage is then omitted). */
async function estimateUsage(
  model: vscode.LanguageModelChat,
  messages: LmMessage[],
  output: string,
  token: vscode.CancellationToken,
): Promise<Usage | undefined> {
  try {
    const counts = await Promise.all([...messages.map((m) => model.countTokens(m, token)), output ? model.countTokens(output, token) : 0]);
    if (!counts.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return undefined;
    const outputTokens = counts.pop() ?? 0;
    const inputTokens = counts.reduce((sum, n) => sum + n, 0);
    return { inputTokens, cachedInputTokens: 0, outputTokens, estimated: true };
  } catch {
    return undefined;
  }
}

function isCancellation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // vscode.CancellationError has name and message 'Canceled'; AbortError comes from fetch-based providers.
  return error.name === 'Canceled' || error.name === 'CancellationError' || error.name === 'AbortError';
}

function describeError(error: unknown): string {
  const messages: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const message = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
    if (message && !messages.includes(message)) messages.push(message);
  }
  return messages.join(': ') || String(error);
}

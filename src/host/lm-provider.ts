// The `vscode-lm` provider: the engine's provider port on top of VS Code's Language Model API (`vscode.lm`), so a
// run can use the chat models the user already has (Copilot, or any extension that contributes chat models)
// without a key. The vscode API comes in as a constructor dependency (`api`, in the extension simply the `vscode`
// module) and is only imported as types here, so this file loads, and is unit-tested, in plain Node.
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
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import type { AgentConfig } from '../core/config/types';
import { PERSONAS, TEAM_SIZE } from '../core/config/discover';
import type { ChatMessage, CompleteOptions, ModelProvider, ModelRequest, ModelResponse, ToolCall, Usage } from '../core/providers/types';
import { ProviderError } from '../core/providers/types';

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
>;

/** Only `selectChatModels` is needed from `vscode.lm`. */
export type LmNamespace = Pick<typeof vscode.lm, 'selectChatModels'>;

export const DEFAULT_JUSTIFICATION = 'MassGen runs several AI agents on your task in parallel; they compare their answers and vote on the best one.';

export interface VsCodeLmProviderOptions {
  api: LmApi;
  /** The chat model to use, or a selector resolved through `lm.selectChatModels` on first use (first match wins). */
  model: vscode.LanguageModelChat | vscode.LanguageModelChatSelector;
  /** Shown by VS Code in its consent dialog. */
  justification?: string;
  /** Vendor-specific `modelOptions`, passed through untouched. */
  modelOptions?: Record<string, unknown>;
}

/** The raw arguments of a call whose JSON could not be parsed into an object are kept under this input key. */
export const UNPARSED_ARGUMENTS_KEY = '_unparsed_arguments';

const SYSTEM_PREAMBLE = 'System instructions from MassGen, the application you are working in. Follow them for this whole conversation.';

type LmMessage = vscode.LanguageModelChatMessage;
type UserPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart;
type AssistantPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;

/** Sentinel the abort race rejects with; never leaves this file (it becomes ProviderError 'aborted'). */
class AbortedByCaller extends Error {}

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
    this.justification = options.justification ?? DEFAULT_JUSTIFICATION;
    this.modelOptions = options.modelOptions;
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
    let rejectAborted: (reason: unknown) => void = () => undefined;
    const aborted = new Promise<never>((_, reject) => {
      rejectAborted = reject;
    });
    aborted.catch(() => undefined);
    const onAbort = () => {
      source.cancel();
      rejectAborted(new AbortedByCaller());
    };
    signal.addEventListener('abort', onAbort, { once: true });

    let model: vscode.LanguageModelChat | undefined;
    try {
      model = await Promise.race([this.resolveModel(), aborted]);
      const messages = this.toLmMessages(request);
      const response = await Promise.race([Promise.resolve(model.sendRequest(messages, this.requestOptions(request), source.token)), aborted]);

      let text = '';
      const toolCalls: ToolCall[] = [];
      const iterator = response.stream[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await Promise.race([iterator.next(), aborted]);
          if (next.done) break;
          const part = next.value;
          if (part instanceof this.api.LanguageModelTextPart) {
            if (!part.value) continue;
            text += part.value;
            onDelta?.({ type: 'text', text: part.value });
          } else if (part instanceof this.api.LanguageModelToolCallPart) {
            const call: ToolCall = { id: part.callId || generatedCallId(), name: part.name, arguments: JSON.stringify(part.input ?? {}) };
            toolCalls.push(call);
            onDelta?.({ type: 'tool_call_start', id: call.id, name: call.name });
          }
          // Other parts (data, thinking, future types) carry nothing the engine uses.
        }
      } finally {
        // Breaking out of the stream is how the API cancels it; do not wait for a stream that ignores that.
        if (signal.aborted) void Promise.resolve(iterator.return?.()).catch(() => undefined);
      }
      if (signal.aborted) throw new AbortedByCaller();

      const usage = await Promise.race([estimateUsage(model, messages, outputText(text, toolCalls), source.token), aborted]);
      return { text, toolCalls, ...(usage ? { usage } : {}), stopReason: toolCalls.length > 0 ? 'tool_calls' : 'stop' };
    } catch (error) {
      throw this.toProviderError(error, signal, model);
    } finally {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }

  /** The request's messages as VS Code chat messages (system prompt first, as a User message). Exposed for tests. */
  toLmMessages(request: Pick<ModelRequest, 'system' | 'messages'>): LmMessage[] {
    const { LanguageModelChatMessage, LanguageModelTextPart } = this.api;
    const result: LmMessage[] = [];
    if (request.system.trim()) {
      result.push(LanguageModelChatMessage.User([new LanguageModelTextPart(wrapSystem(request.system))]));
    }
    // Built as role-tagged part lists first so same-role neighbours merge, then turned into messages.
    const turns: Array<{ role: 'user'; parts: UserPart[] } | { role: 'assistant'; parts: AssistantPart[] }> = [];
    for (const message of request.messages) {
      const turn = this.toTurn(message);
      if (turn.parts.length === 0) continue;
      const last = turns[turns.length - 1];
      if (last && last.role === 'user' && turn.role === 'user') last.parts.push(...turn.parts);
      else if (last && last.role === 'assistant' && turn.role === 'assistant') last.parts.push(...turn.parts);
      else turns.push(turn);
    }
    for (const turn of turns) {
      if (turn.role === 'user') {
        const results = turn.parts.filter((p) => p instanceof this.api.LanguageModelToolResultPart);
        const rest = turn.parts.filter((p) => !(p instanceof this.api.LanguageModelToolResultPart));
        result.push(LanguageModelChatMessage.User([...results, ...rest]));
      } else {
        result.push(LanguageModelChatMessage.Assistant(turn.parts));
      }
    }
    return result;
  }

  private toTurn(message: ChatMessage): { role: 'user'; parts: UserPart[] } | { role: 'assistant'; parts: AssistantPart[] } {
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
        for (const call of message.toolCalls ?? []) parts.push(new LanguageModelToolCallPart(call.id, call.name, parseToolInput(call.arguments)));
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
    if (signal.aborted || error instanceof AbortedByCaller || isCancellation(error)) return this.abortedError();
    const label = this.model;
    const detail = describeError(error);
    const code = this.lmErrorCode(error);
    if (code === 'NoPermissions') {
      return new ProviderError(
        'auth',
        `MassGen is not allowed to use the chat model ${label} (${detail}). Run MassGen again and choose "Allow" when VS Code asks, ` +
          'or grant access from the Accounts menu (bottom of the Activity Bar) → Manage Language Model Access.',
        { cause: error },
      );
    }
    if (code === 'NotFound') {
      // A selector-based provider picks again next time; a fixed model is gone for good.
      if (this.selector && model === this.resolved) this.resolved = undefined;
      return new ProviderError(
        'invalid_request',
        `The chat model ${label} is no longer available (${detail}). Pick another model (massgen.agents in settings), or run again to use the models available now.`,
        { cause: error },
      );
    }
    if (code === 'Blocked') {
      return new ProviderError(
        'rate_limit',
        `VS Code blocked the request to ${label}: its quota is used up or requests are being limited (${detail}). Wait a little and try again, or pick another model.`,
        { cause: error },
      );
    }
    if (/\brate[\s_-]?limit|\brate\b|quota|too many requests/i.test(detail)) {
      return new ProviderError('rate_limit', `${label} is rate limiting: ${detail}`, { cause: error });
    }
    if (/token limit|context (length|window)|too many tokens|prompt is too long|maximum context/i.test(detail)) {
      return new ProviderError('invalid_request', `${label} rejected the request as too long: ${detail}`, { cause: error });
    }
    return new ProviderError('unknown', `${label} failed: ${detail}`, { cause: error });
  }

  private lmErrorCode(error: unknown): string | undefined {
    const isLmError = error instanceof this.api.LanguageModelError || (error instanceof Error && error.name === 'LanguageModelError');
    if (!isLmError) return undefined;
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Model selection and team building

/** The chat models matching `selector` (all models without one). May be empty: see `noChatModelsMessage`. */
export async function selectLmModels(lm: LmNamespace, selector?: vscode.LanguageModelChatSelector): Promise<vscode.LanguageModelChat[]> {
  const models = await lm.selectChatModels(selector && Object.keys(selector).length > 0 ? selector : undefined);
  return [...(models ?? [])];
}

/** What to tell the user when `selectChatModels` found nothing: what to do, not just what went wrong. */
export function noChatModelsMessage(selector?: vscode.LanguageModelChatSelector): string {
  const filtered = selector && Object.values(selector).some((v) => v !== undefined && v !== '');
  if (filtered) {
    return (
      `No VS Code chat model matches ${describeSelector(selector)}. Check the model name in settings (massgen.agents; ` +
      'use vendor/family, e.g. copilot/gpt-4o), or make sure the extension providing that model is installed and signed in.'
    );
  }
  return (
    'No VS Code chat models are available. Sign in to GitHub Copilot (or install another extension that provides chat models), ' +
    'then run again — or configure agents with API keys in settings (massgen.agents).'
  );
}

/** `vendor/family`, the way a `vscode-lm` agent names its model in the config (e.g. `copilot/gpt-4o`). */
export function lmModelSpec(model: Pick<vscode.LanguageModelChat, 'vendor' | 'family'>): string {
  return `${model.vendor}/${model.family}`;
}

/**
 * The selector for a configured `vscode-lm` model: `vendor/family` (copilot/gpt-4o), a bare family (gpt-4o), or
 * empty / `auto` / `default` / `*` for any model.
 */
export function parseLmModelSpec(spec: string | undefined): vscode.LanguageModelChatSelector {
  const value = (spec ?? '').trim();
  if (!value || /^(auto|default|\*)$/i.test(value)) return {};
  const slash = value.indexOf('/');
  if (slash < 0) return { family: value };
  const vendor = value.slice(0, slash).trim();
  const family = value.slice(slash + 1).trim();
  return { ...(vendor && vendor !== '*' ? { vendor } : {}), ...(family && family !== '*' ? { family } : {}) };
}

export interface LmAgentSpec {
  id: string;
  model: vscode.LanguageModelChat;
  /** Set when agents share a model, so they still approach the task differently. */
  personaSystemMessage?: string;
}

export interface PickLmTeamOptions {
  /** Defaults to TEAM_SIZE (3). */
  teamSize?: number;
  /** A model to put first, e.g. the one the user picked in the chat view (`request.model`). */
  preferred?: vscode.LanguageModelChat;
}

/**
 * A zero-config team from the available chat models.
 * - At least `teamSize` distinct models (distinct vendor/family): one agent per model, spread across model lines
 *   (gpt, claude, gemini, ...) before taking a second model of the same line; no personas (the models differ).
 * - Fewer distinct models: `teamSize` agents cycling through them (2 models → A, B, A), every agent with its own
 *   persona from PERSONAS, since some agents share a model.
 * Throws with `noChatModelsMessage()` when there is no model at all.
 */
export function pickLmTeam(models: readonly vscode.LanguageModelChat[], options: PickLmTeamOptions = {}): LmAgentSpec[] {
  const teamSize = Math.max(1, Math.floor(options.teamSize ?? TEAM_SIZE));
  const distinct = dedupeModels(options.preferred ? [options.preferred, ...models] : models);
  if (distinct.length === 0) throw new Error(noChatModelsMessage());

  const ids = new Set<string>();
  const uniqueId = (base: string) => {
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
    ids.add(id);
    return id;
  };

  if (distinct.length >= teamSize) {
    return spreadAcrossLines(distinct, teamSize).map((model) => ({ id: uniqueId(slug(model.family || model.id || model.vendor)), model }));
  }
  return Array.from({ length: teamSize }, (_, i) => {
    const model = distinct[i % distinct.length];
    const persona = PERSONAS[i % PERSONAS.length];
    return { id: uniqueId(`${slug(model.family || model.id || model.vendor)}-${persona.id}`), model, personaSystemMessage: persona.systemMessage };
  });
}

/** The engine's agent config for a picked agent (type `vscode-lm`, model `vendor/family`). */
export function lmAgentConfig(spec: LmAgentSpec): AgentConfig {
  return {
    id: spec.id,
    backend: { type: 'vscode-lm', family: 'vscode-lm', model: lmModelSpec(spec.model) },
    ...(spec.personaSystemMessage ? { systemMessage: spec.personaSystemMessage } : {}),
  };
}

function dedupeModels(models: readonly vscode.LanguageModelChat[]): vscode.LanguageModelChat[] {
  const seen = new Set<string>();
  const result: vscode.LanguageModelChat[] = [];
  for (const model of models) {
    const key = lmModelSpec(model).toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(model);
  }
  return result;
}

/** The leading letters of the family: gpt-4o → gpt, claude-3.5-sonnet → claude, o3-mini → o. */
function modelLine(model: vscode.LanguageModelChat): string {
  return `${model.vendor}/${/^[a-z]+/i.exec(model.family)?.[0]?.toLowerCase() ?? model.family}`;
}

function spreadAcrossLines(models: vscode.LanguageModelChat[], count: number): vscode.LanguageModelChat[] {
  const lines = new Set<string>();
  const picked: vscode.LanguageModelChat[] = [];
  for (const model of models) {
    if (picked.length === count) break;
    if (lines.has(modelLine(model))) continue;
    lines.add(modelLine(model));
    picked.push(model);
  }
  for (const model of models) {
    if (picked.length === count) break;
    if (!picked.includes(model)) picked.push(model);
  }
  // Keep the order the models came in (the preferred one first).
  return models.filter((m) => picked.includes(m));
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

function isChatModel(value: vscode.LanguageModelChat | vscode.LanguageModelChatSelector): value is vscode.LanguageModelChat {
  return typeof (value as Partial<vscode.LanguageModelChat>).sendRequest === 'function';
}

function wrapSystem(system: string): string {
  return `${SYSTEM_PREAMBLE}\n<system_instructions>\n${system}\n</system_instructions>`;
}

/**
 * The input object for a replayed tool call. The API wants an object; arguments that are not a JSON object are
 * replaced by {} holding the raw text under UNPARSED_ARGUMENTS_KEY, so the model still sees what it sent (the engine
 * answers such a call with a tool result explaining the error).
 */
export function parseToolInput(raw: string): object {
  if (!raw.trim()) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // fall through
  }
  return { [UNPARSED_ARGUMENTS_KEY]: raw };
}

function describeSelector(selector: vscode.LanguageModelChatSelector): string {
  const { vendor, family, version, id } = selector;
  if (!vendor && !family && !version && !id) return 'any model';
  let label = `${vendor || '*'}/${family || '*'}`;
  if (version) label += `@${version}`;
  if (id) label += ` (id ${id})`;
  return label;
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

/** An agent id fragment: gpt-4o → gpt-4o, "Claude 3.5 Sonnet" → claude-3-5-sonnet. */
function slug(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
}

function generatedCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

// The OpenAI Responses provider: OpenAI's `POST /responses` API, which upstream MassGen's `openai` type speaks, on the
// official SDK with its retries off (one `complete` call is exactly one HTTP attempt; the engine owns retries).
// It streams output text, function-call arguments and reasoning summaries, sends `reasoning` and `text` as the
// config writes them, and offers OpenAI's built-in web_search and code_interpreter tools when the config enables them.
//
// Nothing is stored at OpenAI (`store: false`): every call sends the whole conversation, as the other providers do.
import { APIError } from 'openai';
import type OpenAI from 'openai';
import type { BuiltinTool, ReasoningSettings, TextSettings } from '../config/types';
import { callId, kindForStatus, statusError, toProviderError, type SdkErrors } from './http-errors';
import { openAIClient, serverMessage } from './openai-compatible';
import type { ChatMessage, CompleteOptions, ModelProvider, ModelRequest, ModelResponse, ToolCall, Usage } from './types';
import { ProviderError } from './types';
import { CACHE_POLICIES } from '../usage/cache';

export interface OpenAIResponsesOptions {
  model: string;
  /** Defaults to OpenAI's API. */
  baseUrl?: string;
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  /** Sent as `reasoning` (effort, summary…). Reasoning models get `summary: auto` when it is not set, as upstream does. */
  reasoning?: ReasoningSettings;
  /** Sent as `text` (verbosity). */
  text?: TextSettings;
  builtinTools?: BuiltinTool[];
  /** Replaces the global fetch (tests, proxies). */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

type Body = OpenAI.Responses.ResponseCreateParamsStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;
type StreamEvent = OpenAI.Responses.ResponseStreamEvent;
/** Sampling parameters reasoning models refuse with a 400 ("Unsupported parameter"). */
type SamplingField = 'temperature' | 'top_p';

/** OpenAI's reasoning models (upstream's test in _response_api_params_handler.py). */
function isReasoningModel(model: string): boolean {
  return /^(gpt-5|o1|o3|o4)/i.test(model);
}

export class OpenAIResponsesProvider implements ModelProvider {
  readonly model: string;
  readonly description: string;
  /** The base URL as it may be shown (no credentials or query). */
  private readonly shownUrl: string;
  /** OpenAI's automatic prefix cache, routed per run by `prompt_cache_key`. */
  readonly promptCache = CACHE_POLICIES.openai;
  private readonly apiKey: string | undefined;
  private readonly client: OpenAI;
  private readonly errors: SdkErrors<APIError>;
  /** Sampling fields this model refused: left out of every later request. */
  private readonly refused = new Set<SamplingField>();

  constructor(private readonly options: OpenAIResponsesOptions) {
    this.model = options.model;
    ({ client: this.client, errors: this.errors, shownUrl: this.shownUrl, apiKey: this.apiKey } = openAIClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      fetch: options.fetch,
      streamUnit: 'event',
      fromApiError: (error) => this.fromApiError(error),
    }));
    this.description = `openai-responses ${this.model} @ ${this.shownUrl}`;
  }

  async complete(request: ModelRequest, { signal, onDelta, onStarted }: CompleteOptions): Promise<ModelResponse> {
    const assembler = new ResponsesAssembler(onDelta);
    try {
      const stream = await this.send(request, signal);
      for await (const event of stream) {
        // `response.created` and `in_progress` come as the request is accepted, before the prompt is read.
        if (event.type !== 'response.created' && event.type !== 'response.in_progress') onStarted?.();
        assembler.add(event);
      }
    } catch (error) {
      throw toProviderError(error, signal, this.errors);
    }
    // On abort the SDK's stream iterator ends quietly instead of throwing, so the signal is the only witness.
    if (signal.aborted) throw new ProviderError('aborted', `request to ${this.shownUrl} was aborted`);
    const failure = assembler.failure();
    if (failure) throw new ProviderError(failure.kind, `${this.model} @ ${this.shownUrl} ${failure.message}`);
    const response = assembler.result();
    if (!response) {
      throw new ProviderError('stream_cut', `stream from ${this.shownUrl} ended before response.completed (${assembler.text.length} chars received)`);
    }
    return response;
  }

  /** Sends the request; if the model refuses a sampling parameter, sends it once more without (and remembers). */
  private async send(request: ModelRequest, signal: AbortSignal) {
    const body = this.buildBody(request);
    try {
      return await this.client.responses.create(body, { signal });
    } catch (error) {
      if (!this.noteRefused(error, body)) throw error;
      return await this.client.responses.create(this.buildBody(request), { signal });
    }
  }

  private noteRefused(error: unknown, body: Body): boolean {
    if (!(error instanceof APIError) || error.status !== 400) return false;
    const message = serverMessage(error, this.apiKey);
    const fields = (['temperature', 'top_p'] as const).filter((f) => f in body && new RegExp(`'?${f}'?`).test(message) && /unsupported|not supported/i.test(message));
    fields.forEach((f) => this.refused.add(f));
    return fields.length > 0;
  }

  private buildBody(request: ModelRequest): Body {
    const temperature = request.temperature ?? this.options.temperature;
    const maxTokens = request.maxTokens ?? this.options.maxTokens;
    const builtins = this.options.builtinTools ?? [];
    const tools: OpenAI.Responses.Tool[] = [
      ...request.tools.map((t): OpenAI.Responses.FunctionTool => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false })),
      ...(builtins.includes('web_search') ? [{ type: 'web_search' as const }] : []),
      ...(builtins.includes('code_execution') ? [{ type: 'code_interpreter' as const, container: { type: 'auto' as const } }] : []),
    ];
    const reasoning = this.reasoning();
    return {
      model: this.model,
      instructions: request.system || undefined,
      input: toInput(request.messages),
      stream: true,
      store: false,
      ...(request.cacheKey ? { prompt_cache_key: request.cacheKey } : {}),
      ...(tools.length ? { tools } : {}),
      ...(tools.length && request.toolChoice ? { tool_choice: request.toolChoice } : {}),
      // OpenAI refuses parallel calls with built-in tools.
      ...(builtins.length && tools.length ? { parallel_tool_calls: false } : {}),
      ...(temperature !== undefined && !this.refused.has('temperature') ? { temperature } : {}),
      ...(this.options.topP !== undefined && !this.refused.has('top_p') ? { top_p: this.options.topP } : {}),
      ...(maxTokens !== undefined ? { max_output_tokens: maxTokens } : {}),
      ...(reasoning ? { reasoning: reasoning as OpenAI.Reasoning } : {}),
      ...(this.options.text ? { text: this.options.text as OpenAI.Responses.ResponseTextConfig } : {}),
    };
  }

  /** The config's reasoning block; reasoning models summarise by default so their reasoning streams (upstream's default). */
  private reasoning(): ReasoningSettings | undefined {
    const configured = this.options.reasoning;
    if (!isReasoningModel(this.model)) return configured;
    return { ...configured, summary: configured?.summary ?? 'auto' };
  }

  private fromApiError(error: APIError): ProviderError {
    const message = serverMessage(error, this.apiKey);
    const at = `${this.model} @ ${this.shownUrl}`;
    if (error.status === undefined) {
      // An `error` event with its details nested under `error` (the SDK throws on those): classified by its code.
      const failure = failureOf(typeof error.code === 'string' ? error.code : undefined, message, 'reported an error in its response');
      return new ProviderError(failure.kind, `${at} ${failure.message}`);
    }
    return statusError(error.status, at, message, error.headers);
  }
}

/** The conversation as Responses input items: messages, then function calls and their outputs by call_id. */
function toInput(messages: ChatMessage[]): InputItem[] {
  const items: InputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        items.push({ role: 'user', content: message.content });
        break;
      case 'tool':
        items.push({ type: 'function_call_output', call_id: message.toolCallId, output: message.content });
        break;
      case 'assistant':
        if (message.content) items.push({ role: 'assistant', content: message.content });
        // No item ids: an id would ask the server for the reasoning item it belonged to, which is not stored.
        for (const call of message.toolCalls ?? []) items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
        break;
    }
  }
  return items;
}

interface CallSlot {
  id: string;
  name: string;
  arguments: string;
}

/** How `response.failed`, `response.incomplete` (other than for length) and `error` events end a call. */
interface Failure {
  kind: ProviderError['kind'];
  message: string;
}

/** Error codes the Responses API sends inside the stream, by the status each stands for. */
const ERROR_CODE_STATUS: Readonly<Record<string, number>> = {
  rate_limit_exceeded: 429,
  // Out of credits: waiting does not help (the chat-completions path maps its 429 the same way only by status).
  insufficient_quota: 402,
  server_error: 500,
  invalid_prompt: 400,
  context_length_exceeded: 400,
  invalid_request_error: 400,
};

function failureOf(code: string | null | undefined, message: string | undefined, what: string): Failure {
  const status = code && Object.hasOwn(ERROR_CODE_STATUS, code) ? ERROR_CODE_STATUS[code] : 500;
  return { kind: kindForStatus(status), message: `${what}${code ? ` (${code})` : ''}: ${message ?? 'no message'}` };
}

/** Folds the stream's events into a response, reporting text and reasoning deltas as they come. */
class ResponsesAssembler {
  text = '';
  private reasoning = '';
  private readonly slots = new Map<string, CallSlot>();
  private usage: Usage | undefined;
  private stopReason: string | undefined;
  private failed: Failure | undefined;
  private lastSummary = -1;

  constructor(private readonly onDelta: CompleteOptions['onDelta']) {}

  add(event: StreamEvent): void {
    switch (event.type) {
      case 'response.output_text.delta':
        this.text += event.delta;
        this.onDelta?.({ type: 'text', text: event.delta });
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        // Summary parts are separate paragraphs; the stream has no separator between them.
        const index = 'summary_index' in event ? event.summary_index : this.lastSummary;
        const text = index !== this.lastSummary && this.reasoning ? `\n\n${event.delta}` : event.delta;
        this.lastSummary = index;
        this.reasoning += text;
        this.onDelta?.({ type: 'reasoning', text });
        break;
      }
      case 'response.output_item.added':
        if (event.item.type === 'function_call') this.slot(event.item.id ?? `item_${event.output_index}`, event.item);
        break;
      case 'response.function_call_arguments.delta': {
        const slot = this.slots.get(event.item_id);
        if (slot) slot.arguments += event.delta;
        break;
      }
      case 'response.output_item.done':
        // The finished item is authoritative (some servers send no argument deltas at all).
        if (event.item.type === 'function_call') Object.assign(this.slot(event.item.id ?? `item_${event.output_index}`, event.item), { arguments: event.item.arguments });
        break;
      case 'response.completed':
        this.usage = usageOf(event.response.usage);
        this.stopReason = 'stop';
        break;
      case 'response.incomplete': {
        this.usage = usageOf(event.response.usage);
        const reason = event.response.incomplete_details?.reason;
        if (reason === 'max_output_tokens') this.stopReason = 'length';
        else this.failed = { kind: 'invalid_request', message: `stopped the response (${reason ?? 'incomplete'})` };
        break;
      }
      case 'response.failed':
        this.failed = failureOf(event.response.error?.code, event.response.error?.message, 'reported response.failed');
        break;
      case 'error':
        this.failed = failureOf(event.code, event.message, 'reported an error mid-stream');
        break;
    }
  }

  failure(): Failure | undefined {
    return this.failed;
  }

  result(): ModelResponse | undefined {
    if (!this.stopReason) return undefined;
    const toolCalls: ToolCall[] = [...this.slots.values()].map((s) => ({ id: s.id, name: s.name, arguments: s.arguments }));
    const stopReason = toolCalls.length > 0 && this.stopReason === 'stop' ? 'tool_calls' : this.stopReason;
    return { text: this.text, ...(this.reasoning ? { reasoning: this.reasoning } : {}), toolCalls, usage: this.usage, stopReason };
  }

  /** The call for an item, opened on first sight; its id is the call_id the output must name. */
  private slot(itemId: string, item: OpenAI.Responses.ResponseFunctionToolCall): CallSlot {
    let slot = this.slots.get(itemId);
    if (!slot) {
      slot = { id: item.call_id || callId('call'), name: item.name, arguments: '' };
      this.slots.set(itemId, slot);
    }
    if (item.name) slot.name = item.name;
    return slot;
  }
}

function usageOf(usage: OpenAI.Responses.ResponseUsage | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  return {
    inputTokens: usage.input_tokens ?? 0,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    // Reasoning tokens are part of output_tokens, and billed as output.
    outputTokens: usage.output_tokens ?? 0,
  };
}

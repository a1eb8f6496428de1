// The OpenAI-compatible provider: OpenAI itself and every server speaking its chat.completions API (vLLM, Ollama,
// LM Studio, llama.cpp, Groq, OpenRouter, ...). Built on the official SDK with its retries off: the engine owns
// retries, so one `complete` call is exactly one HTTP attempt, and every failure leaves here as a ProviderError.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { Stream } from 'openai/streaming';
import type {
  ChatMessage,
  CompleteOptions,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ToolCall,
  Usage,
} from './types';
import { ProviderError } from './types';
import { callId, HEADERS_TIMEOUT_MS, PLACEHOLDER_KEY, redact, statusError, toProviderError, unparsedOutputError, type SdkErrors } from './http-errors';
import { CACHE_POLICIES, type PromptCachePolicy } from '../usage/cache';
import { publicUrl } from '../util/url';
import { RAW_ARGUMENTS_KEY, toolInput } from './turns';

export interface OpenAICompatibleOptions {
  model: string;
  /** Defaults to OpenAI's API. */
  baseUrl?: string;
  /** Local servers (Ollama, LM Studio, vLLM) need none. */
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  /**
   * Upstream's `reasoning` block: OpenRouter reads it as it is, other chat-completions servers (OpenAI, Groq, vLLM…)
   * read the effort as `reasoning_effort`. A server that refuses the field is sent the request once more without it.
   */
  reasoning?: { effort?: string; [key: string]: unknown };
  /**
   * Send the request's cache key as `prompt_cache_key`, which routes a run's requests to the same prompt cache.
   * Default: only to OpenAI and Azure OpenAI, which document it; a server that refuses it is sent it no more.
   */
  promptCacheKey?: boolean;
  defaultHeaders?: Record<string, string>;
  /** Query parameters on every request (Azure OpenAI's `api-version`). */
  defaultQuery?: Record<string, string>;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

type OpenAIMessage = OpenAI.Chat.ChatCompletionMessageParam;
type Fetch = NonNullable<OpenAICompatibleOptions['fetch']>;
/** Optional request fields some servers refuse with a 400. */
type OptionalField = 'stream_options' | 'tool_choice' | 'reasoning' | 'reasoning_effort' | 'prompt_cache_key';

/** A chunk as servers really send it: looser than the SDK's types in every field read here. */
interface WireChunk {
  choices?: { index?: number; delta?: WireDelta | null; finish_reason?: string | null }[] | null;
  usage?: OpenAI.CompletionUsage | null;
}

interface WireDelta {
  /** A string, null, or (some servers) an array of `{ type: 'text', text }` parts. */
  content?: unknown;
  /** DeepSeek, vLLM and Ollama stream reasoning in fields the SDK's types do not know. */
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: WireToolCall[] | null;
  /** The pre-tools API's single call. */
  function_call?: WireFunction | null;
}

interface WireToolCall {
  index?: number;
  id?: string | null;
  function?: WireFunction | null;
}

interface WireFunction {
  name?: string | null;
  /** A JSON string, in fragments; some servers send the parsed object, whole. */
  arguments?: unknown;
}

/** A non-streamed `chat.completion` body, as servers ignoring `stream: true` send it. */
interface WireCompletion {
  choices?: { index?: number; message?: WireDelta | null; finish_reason?: string | null }[] | null;
  usage?: OpenAI.CompletionUsage | null;
  error?: object;
}

interface ToolCallSlot {
  id: string;
  name: string;
  arguments: string;
}

/** An SDK status error with the whole response body, which the SDK itself reduces to its `error` member. */
type APIErrorWithBody = APIError & { responseBody?: unknown };

/** The SDK client, keeping error bodies whole: vLLM, FastAPI servers and proxies put their explanation elsewhere. */
export class Client extends OpenAI {
  protected override makeStatusError(status: number, error: object | undefined, message: string | undefined, headers: Headers): APIError {
    // `error` is the parsed JSON body, `message` the raw text when the body is not JSON.
    const apiError: APIErrorWithBody = super.makeStatusError(status, error as object, message, headers);
    apiError.responseBody = error ?? message;
    return apiError;
  }
}

/**
 * The SDK client and the error mapping both OpenAI providers (chat completions, Responses) use: no SDK retries (the
 * engine owns them), our header timeout, a stream that closes on its last event, and errors naming the shown URL.
 * Also the base URL (OpenAI's by default, without a trailing slash), the URL as it may be shown (no credentials or
 * query) and the key (none when empty) the provider goes by.
 */
export function openAIClient(o: {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  fetch: Fetch | undefined;
  defaultHeaders?: Record<string, string>;
  defaultQuery?: Record<string, string>;
  streamUnit: SdkErrors<APIError>['streamUnit'];
  fromApiError: (error: APIError) => ProviderError;
}): { client: OpenAI; errors: SdkErrors<APIError>; baseUrl: string; shownUrl: string; apiKey: string | undefined } {
  const baseUrl = (o.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, '');
  const shownUrl = publicUrl(baseUrl);
  const apiKey = o.apiKey || undefined;
  const client = new Client({
    baseURL: baseUrl,
    apiKey: apiKey ?? PLACEHOLDER_KEY,
    maxRetries: 0,
    timeout: HEADERS_TIMEOUT_MS,
    defaultHeaders: o.defaultHeaders,
    defaultQuery: o.defaultQuery,
    fetch: closingLastEvent(o.fetch ?? globalThis.fetch),
  });
  const errors: SdkErrors<APIError> = {
    classes: { userAbort: APIUserAbortError, connectionTimeout: APIConnectionTimeoutError, connection: APIConnectionError, api: APIError },
    where: shownUrl,
    key: apiKey,
    streamUnit: o.streamUnit,
    fromApiError: o.fromApiError,
  };
  return { client, errors, baseUrl, shownUrl, apiKey };
}

export class OpenAICompatibleProvider implements ModelProvider {
  readonly model: string;
  readonly description: string;
  /** The base URL as it may be shown (no credentials or query). */
  private readonly shownUrl: string;
  /** OpenAI's automatic prefix cache; other servers' caches (if any) are not known to bill less. */
  readonly promptCache?: PromptCachePolicy;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly client: OpenAI;
  private readonly errors: SdkErrors<APIError>;
  /** Optional fields this server refused: left out of every later request. */
  private readonly refusedFields = new Set<OptionalField>();

  constructor(private readonly options: OpenAICompatibleOptions) {
    this.model = options.model;
    ({ client: this.client, errors: this.errors, baseUrl: this.baseUrl, shownUrl: this.shownUrl, apiKey: this.apiKey } = openAIClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      fetch: options.fetch,
      defaultHeaders: options.defaultHeaders,
      defaultQuery: options.defaultQuery,
      streamUnit: 'chunk',
      fromApiError: (error) => this.fromApiError(error),
    }));
    this.description = `openai-compatible ${this.model} @ ${this.shownUrl}`;
    if (this.isOpenAI()) this.promptCache = CACHE_POLICIES.openai;
  }

  async complete(request: ModelRequest, { signal, onDelta, onStarted }: CompleteOptions): Promise<ModelResponse> {
    const assembler = new ResponseAssembler(onDelta);
    try {
      const { data: stream, response } = await this.send(request, signal);
      const chunks = /event-stream/i.test(response.headers.get('content-type') ?? '') ? stream : wholeBodyChunks(await response.text());
      for await (const chunk of chunks) {
        onStarted?.();
        assembler.add(chunk);
      }
    } catch (error) {
      throw toProviderError(error, signal, this.errors);
    }
    // On abort the SDK's stream iterator ends quietly instead of throwing, so the signal is the only witness.
    if (signal.aborted) throw new ProviderError('aborted', `request to ${this.shownUrl} was aborted`);
    const response = assembler.result();
    if (!response) {
      throw new ProviderError('stream_cut', `stream from ${this.shownUrl} ended without a finish_reason (${assembler.text.length} chars received)`);
    }
    return response;
  }

  /** Sends the request; if the server refuses an optional field, sends it once more without (and remembers). */
  private async send(request: ModelRequest, signal: AbortSignal) {
    const body = this.buildBody(request);
    try {
      return await this.client.chat.completions.create(body, { signal }).withResponse();
    } catch (error) {
      if (!this.noteRefusedFields(error, body)) throw error;
      return await this.client.chat.completions.create(this.buildBody(request), { signal }).withResponse();
    }
  }

  /** True when a 400/422 blames optional fields the body had, which are then left out from now on. */
  private noteRefusedFields(error: unknown, body: object): boolean {
    if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
    const refused = blamedFields(this.serverMessage(error)).filter((field) => field in body);
    refused.forEach((field) => this.refusedFields.add(field));
    return refused.length > 0;
  }

  /** The request body as sent (public for the benchmark, which prices its prompt cache). */
  buildBody(request: ModelRequest): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
    const temperature = request.temperature ?? this.options.temperature;
    const maxTokens = request.maxTokens ?? this.options.maxTokens;
    const hasTools = request.tools.length > 0;
    return {
      model: this.model,
      messages: [{ role: 'system', content: request.system }, ...request.messages.map(toOpenAIMessage)],
      stream: true,
      ...(this.refusedFields.has('stream_options') ? {} : { stream_options: { include_usage: true } }),
      ...(hasTools
        ? {
            tools: request.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
            ...(request.toolChoice && !this.refusedFields.has('tool_choice') ? { tool_choice: request.toolChoice } : {}),
          }
        : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(this.options.topP !== undefined ? { top_p: this.options.topP } : {}),
      ...(request.cacheKey && (this.options.promptCacheKey ?? this.isOpenAI()) && !this.refusedFields.has('prompt_cache_key') ? { prompt_cache_key: request.cacheKey } : {}),
      ...this.reasoningFields(),
      // OpenAI's newer models reject max_tokens; many local servers only know it.
      ...(maxTokens !== undefined ? (this.isOpenAI() ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens }) : {}),
    };
  }

  /** The reasoning setting in the field this server reads, unless it refused that field before. */
  private reasoningFields(): { reasoning?: object; reasoning_effort?: OpenAI.ReasoningEffort } {
    const reasoning = this.options.reasoning;
    if (!reasoning) return {};
    if (this.host().endsWith('openrouter.ai')) return this.refusedFields.has('reasoning') ? {} : { reasoning };
    return reasoning.effort && !this.refusedFields.has('reasoning_effort') ? { reasoning_effort: reasoning.effort as OpenAI.ReasoningEffort } : {};
  }

  /** OpenAI and Azure OpenAI, whose newer models take max_completion_tokens only. */
  private isOpenAI(): boolean {
    const host = this.host();
    return host === 'api.openai.com' || host.endsWith('.openai.azure.com');
  }

  private host(): string {
    try {
      return new URL(this.baseUrl).hostname;
    } catch {
      return '';
    }
  }

  private fromApiError(error: APIError): ProviderError {
    const serverMessage = this.serverMessage(error);
    const at = `${this.model} @ ${this.shownUrl}`;
    if (error.status === undefined) {
      // An `error` object sent after a 200: inside the SSE stream, or as the whole JSON body.
      return unparsedOutputError(at, serverMessage) ?? new ProviderError('server', `${at} reported an error in its response: ${serverMessage}`);
    }
    // Many servers serve the API under /v1 only; guessing a rewrite would break paths like OpenRouter's /api/v1.
    const v1 = this.baseUrl.endsWith('/v1') || this.options.defaultQuery ? '' : `; did you mean ${this.shownUrl}/v1?`;
    return statusError(error.status, at, serverMessage, error.headers, v1);
  }

  private serverMessage(error: APIErrorWithBody): string {
    return serverMessage(error, this.apiKey);
  }
}

/**
 * The server's explanation, redacted, on one line; one from a body in another shape than OpenAI's is cut to its gist.
 * An OpenAI-shaped message is kept longer, but not whole: llama.cpp's "Failed to parse input at pos N: …" carries the
 * rest of the model's output.
 */
export function serverMessage(error: APIError, apiKey: string | undefined): string {
  const message = (error.error as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string' && message) return clip(redact(message, apiKey).replace(/\s+/g, ' ').trim(), MAX_MESSAGE_TEXT);
  const body = (error as APIErrorWithBody).responseBody;
  // Redact before clipping, so no part of the key survives the cut.
  return clip(redact(body === undefined ? error.message : bodyText(body), apiKey));
}

function toOpenAIMessage(message: ChatMessage): OpenAIMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // null rather than '' is what OpenAI itself returns for tool-call-only turns, so every server accepts it.
        content: message.content || null,
        tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: replayedArguments(c.arguments) } })),
      };
  }
}

/**
 * A replayed call's arguments as the server will take them back. Servers that render the conversation through a
 * chat template (llama.cpp, vLLM) parse them, and answer a whole request with HTTP 500 when a model's earlier call
 * was malformed JSON, so the correction telling it so would never reach it. Those go as `toolInput` wraps them, a
 * JSON object still showing the raw text; arguments that are already a JSON object go byte for byte (prompt caches).
 */
function replayedArguments(text: string): string {
  const input = toolInput(text);
  return RAW_ARGUMENTS_KEY in input || !text.trim() ? JSON.stringify(input) : text;
}

/**
 * Folds chunks into a response, reporting deltas as they come. Servers deviate from OpenAI in many small ways here;
 * each is absorbed where the field is read.
 */
class ResponseAssembler {
  text = '';
  private finishReason: string | undefined;
  private reasoning = '';
  private usage: Usage | undefined;
  private readonly calls: ToolCallSlot[] = [];
  private readonly callsByIndex = new Map<number, ToolCallSlot>();
  private current: ToolCallSlot | undefined;

  constructor(private readonly onDelta: CompleteOptions['onDelta']) {}

  add(chunk: WireChunk): void {
    // Some servers repeat a running usage in every chunk or put it in the finish chunk: the last one is the total.
    if (chunk.usage) this.usage = mapUsage(chunk.usage);
    const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta ?? {};
    const thought = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : typeof delta.reasoning === 'string' ? delta.reasoning : '';
    if (thought) {
      this.reasoning += thought;
      this.onDelta?.({ type: 'reasoning', text: thought });
    }
    const text = contentText(delta.content);
    if (text) {
      this.text += text;
      this.onDelta?.({ type: 'text', text });
    }
    delta.tool_calls?.forEach((fragment) => this.addToolCall(fragment));
    if (delta.function_call) this.addToolCall({ function: delta.function_call });
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  /** Undefined until a finish_reason arrived: without one the response is incomplete. */
  result(): ModelResponse | undefined {
    if (!this.finishReason) return undefined;
    const toolCalls: ToolCall[] = this.calls.map((s) => ({ id: s.id || callId('call'), name: s.name, arguments: s.arguments }));
    // Ollama reports 'stop' after tool calls, the legacy API 'function_call': either way the turn ended in calls.
    const endedInCalls = toolCalls.length > 0 && (this.finishReason === 'stop' || this.finishReason === 'function_call');
    const stopReason = endedInCalls ? 'tool_calls' : this.finishReason;
    return { text: this.text, ...(this.reasoning ? { reasoning: this.reasoning } : {}), toolCalls, usage: this.usage, stopReason };
  }

  private addToolCall(fragment: WireToolCall): void {
    const slot = this.slotFor(fragment);
    this.current = slot;
    if (fragment.id && !slot.id) slot.id = fragment.id;
    const { name, arguments: args } = fragment.function ?? {};
    // Some servers repeat the full name in later fragments; the SDK's own accumulator also overwrites.
    if (name) slot.name = name;
    if (typeof args === 'string') slot.arguments += args;
    else if (args !== undefined && args !== null) slot.arguments = JSON.stringify(args);
  }

  /**
   * Fragments of one call share an `index`. Servers that leave it out are grouped by `id`; with neither, a named
   * fragment opens a call and an unnamed one continues the current call.
   */
  private slotFor(fragment: WireToolCall): ToolCallSlot {
    if (typeof fragment.index === 'number') return this.callsByIndex.get(fragment.index) ?? this.open(fragment.index);
    if (fragment.id) return this.calls.find((c) => c.id === fragment.id) ?? this.open();
    return fragment.function?.name || !this.current ? this.open() : this.current;
  }

  private open(index?: number): ToolCallSlot {
    const slot = { id: '', name: '', arguments: '' };
    this.calls.push(slot);
    if (index !== undefined) this.callsByIndex.set(index, slot);
    return slot;
  }
}

/**
 * The chunks of a body not labelled as an event stream, read whole: servers ignoring `stream: true` send one plain
 * `chat.completion` (labelled JSON, HTML or nothing), and some proxies label a real stream as JSON.
 */
async function* wholeBodyChunks(text: string): AsyncGenerator<WireChunk> {
  if (text.trimStart().startsWith('{')) yield completionAsChunk(JSON.parse(text));
  else yield* Stream.fromSSEResponse<WireChunk>(new Response(text), new AbortController());
}

/** A whole `chat.completion` body recast as the one chunk a stream of it would add up to. */
function completionAsChunk(body: WireCompletion): WireChunk {
  // The SDK does the same for an `error` object inside a stream.
  if (body.error) throw new APIError(undefined, body.error, undefined, undefined);
  return {
    usage: body.usage,
    // A body that arrived whole is complete even when the server left finish_reason out.
    choices: body.choices?.map((c) => ({ index: c.index, delta: c.message, finish_reason: c.finish_reason ?? 'stop' })),
  };
}

/** Delta content as text: a string, or the text of an array of parts; null and anything else is no text. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { text?: unknown } | null) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

/** How servers word a refused unknown field: OpenAI/Azure, zod, pydantic v1 and v2, serde. */
const UNKNOWN_FIELD = /unrecognized (request )?(argument|field|key|parameter)|extra (fields|inputs) (are )?not permitted|unknown (field|parameter)/i;

/**
 * The optional fields a 400's message blames. Unknown-field wording that does not name tool_choice blames
 * stream_options, the field older servers lack most often.
 */
function blamedFields(message: string): OptionalField[] {
  const toolChoice = /tool[_ ]choice/i.test(message);
  const effort = /reasoning[_ ]effort/i.test(message);
  const reasoning = !effort && /\breasoning\b/i.test(message);
  const cacheKey = /prompt_cache_key/i.test(message);
  const streamOptions = /stream_options/i.test(message) || (!toolChoice && !effort && !reasoning && !cacheKey && UNKNOWN_FIELD.test(message));
  return [
    ...(cacheKey ? ['prompt_cache_key' as const] : []),
    ...(streamOptions ? ['stream_options' as const] : []),
    ...(toolChoice ? ['tool_choice' as const] : []),
    ...(effort ? ['reasoning_effort' as const] : []),
    ...(reasoning ? ['reasoning' as const] : []),
  ];
}

/** Readable text from an error body: a message-like member of JSON, or the text of an HTML page or plain text. */
export function bodyText(body: unknown): string {
  if (body && typeof body === 'object') {
    const { message, detail, error } = body as Record<string, unknown>;
    const text = [message, detail, error].find((v) => typeof v === 'string' && v);
    return typeof text === 'string' ? text : JSON.stringify(body);
  }
  return String(body)
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const MAX_BODY_TEXT = 200;
const MAX_MESSAGE_TEXT = 400;

export function clip(text: string, max = MAX_BODY_TEXT): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

/**
 * The SDK's SSE decoder drops a last event that lacks its closing blank line, which servers ending without `[DONE]`
 * send; a trailing blank line restores it, and is harmless to SSE and JSON bodies alike.
 */
export function closingLastEvent(fetchImpl: Fetch): Fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!response.ok || !response.body) return response;
    const close = new TransformStream<Uint8Array, Uint8Array>({ flush: (controller) => controller.enqueue(BLANK_LINE) });
    return new Response(response.body.pipeThrough(close), response);
  };
}

const BLANK_LINE = new TextEncoder().encode('\n\n');

function mapUsage(usage: OpenAI.CompletionUsage): Usage {
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
  };
}


// The OpenAI-compatible provider: OpenAI itself and every server speaking its chat.completions API (vLLM, Ollama,
// LM Studio, llama.cpp, Groq, OpenRouter, ...). Built on the official SDK with its retries off: the engine owns
// retries, so one `complete` call is exactly one HTTP attempt, and every failure leaves here as a ProviderError.
import { randomUUID } from 'node:crypto';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
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

export interface OpenAICompatibleOptions {
  model: string;
  /** Defaults to OpenAI's API. */
  baseUrl?: string;
  /** Local servers (Ollama, LM Studio, vLLM) need none. */
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  defaultHeaders?: Record<string, string>;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
// The SDK throws without a key; local servers ignore the Authorization header.
const PLACEHOLDER_KEY = 'not-needed';
// The SDK's timeout only covers the wait for response headers (it is cleared once the stream starts), so it must
// allow for a local model's slow prompt processing. Stalls mid-stream are the engine's turn timeout to catch.
const HEADERS_TIMEOUT_MS = 5 * 60_000;

type OpenAIMessage = OpenAI.Chat.ChatCompletionMessageParam;
type ToolCallFragment = OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall;
/** DeepSeek, vLLM and Ollama stream reasoning in fields the SDK's types do not know. */
type DeltaWithReasoning = OpenAI.Chat.ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown };

interface ToolCallSlot {
  id: string;
  name: string;
  arguments: string;
  started: boolean;
}

export class OpenAICompatibleProvider implements ModelProvider {
  readonly model: string;
  readonly description: string;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAICompatibleOptions) {
    this.model = options.model;
    this.baseUrl = (options.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, '');
    this.apiKey = options.apiKey || undefined;
    this.description = `openai-compatible ${this.model} @ ${this.baseUrl}`;
    this.client = new OpenAI({
      baseURL: this.baseUrl,
      apiKey: this.apiKey ?? PLACEHOLDER_KEY,
      maxRetries: 0,
      timeout: HEADERS_TIMEOUT_MS,
      defaultHeaders: options.defaultHeaders,
      fetch: options.fetch,
    });
  }

  async complete(request: ModelRequest, { signal, onDelta }: CompleteOptions): Promise<ModelResponse> {
    let text = '';
    let reasoning = '';
    let stopReason: string | undefined;
    let usage: Usage | undefined;
    const slots: ToolCallSlot[] = [];

    try {
      const stream = await this.client.chat.completions.create(this.buildBody(request), { signal });
      for await (const chunk of stream) {
        if (chunk.usage) usage = mapUsage(chunk.usage);
        const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
        if (!choice) continue;
        const delta = (choice.delta ?? {}) as DeltaWithReasoning;
        const thought = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : typeof delta.reasoning === 'string' ? delta.reasoning : '';
        if (thought) {
          reasoning += thought;
          onDelta?.({ type: 'reasoning', text: thought });
        }
        if (typeof delta.content === 'string' && delta.content) {
          text += delta.content;
          onDelta?.({ type: 'text', text: delta.content });
        }
        delta.tool_calls?.forEach((fragment, position) => {
          const slot = accumulate(slots, fragment, position);
          if (!slot.started && slot.name) {
            slot.started = true;
            slot.id ||= generatedCallId();
            onDelta?.({ type: 'tool_call_start', id: slot.id, name: slot.name });
          }
        });
        if (choice.finish_reason) stopReason = choice.finish_reason;
      }
    } catch (error) {
      throw this.toProviderError(error, signal);
    }
    // On abort the SDK's stream iterator ends quietly instead of throwing, so the signal is the only witness.
    if (signal.aborted) throw new ProviderError('aborted', `request to ${this.baseUrl} was aborted`);
    if (!stopReason) {
      throw new ProviderError('stream_cut', `stream from ${this.baseUrl} ended without a finish_reason (${text.length} chars received)`);
    }

    const toolCalls: ToolCall[] = slots.filter(Boolean).map((s) => ({ id: s.id || generatedCallId(), name: s.name, arguments: s.arguments }));
    return { text, ...(reasoning ? { reasoning } : {}), toolCalls, usage, stopReason };
  }

  private buildBody(request: ModelRequest): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
    const temperature = request.temperature ?? this.options.temperature;
    const maxTokens = request.maxTokens ?? this.options.maxTokens;
    const hasTools = request.tools.length > 0;
    return {
      model: this.model,
      messages: [{ role: 'system', content: request.system }, ...request.messages.map(toOpenAIMessage)],
      stream: true,
      stream_options: { include_usage: true },
      ...(hasTools
        ? {
            tools: request.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
            ...(request.toolChoice ? { tool_choice: request.toolChoice } : {}),
          }
        : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(this.options.topP !== undefined ? { top_p: this.options.topP } : {}),
      // OpenAI's newer models reject max_tokens; many local servers only know it.
      ...(maxTokens !== undefined ? (this.isOpenAI() ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens }) : {}),
    };
  }

  private isOpenAI(): boolean {
    try {
      return new URL(this.baseUrl).hostname === 'api.openai.com';
    } catch {
      return false;
    }
  }

  private toProviderError(error: unknown, signal: AbortSignal): ProviderError {
    if (error instanceof ProviderError) return error;
    const where = this.baseUrl;
    if (signal.aborted || error instanceof APIUserAbortError) {
      return new ProviderError('aborted', `request to ${where} was aborted`);
    }
    if (error instanceof APIConnectionTimeoutError) {
      return new ProviderError('network', `cannot reach ${where}: no response within ${HEADERS_TIMEOUT_MS / 1000}s`, { cause: error });
    }
    if (error instanceof APIConnectionError) {
      return new ProviderError('network', `cannot reach ${where}: ${describeNetworkCause(error)}`, { cause: error });
    }
    if (error instanceof APIError) return this.fromApiError(error);
    if (error instanceof SyntaxError) {
      return new ProviderError('unknown', `malformed stream chunk from ${where}: ${this.redact(error.message)}`, { cause: error });
    }
    // Anything else surfaced while reading the body (undici's "terminated", ECONNRESET): the connection dropped.
    return new ProviderError('stream_cut', `stream from ${where} was cut: ${describeNetworkCause(error)}`, { cause: error });
  }

  // Status errors get no `cause`: the SDK error carries the server's message, which may echo the key.
  private fromApiError(error: APIError): ProviderError {
    const status = error.status;
    const serverMessage = this.redact(extractServerMessage(error));
    const at = `${this.model} @ ${this.baseUrl}`;
    if (status === undefined) {
      // An `error` object sent inside the SSE stream after a 200.
      return new ProviderError('server', `${at} reported an error mid-stream: ${serverMessage}`);
    }
    const retryAfterMs = parseRetryAfter(error.headers);
    const options = { status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    if (status === 401 || status === 403) {
      return new ProviderError('auth', `${at} refused the credentials (HTTP ${status}): ${serverMessage}`, options);
    }
    if (status === 404) {
      return new ProviderError(
        'invalid_request',
        `${at} returned HTTP 404: ${serverMessage} (check that the model name and the base URL are right)`,
        options,
      );
    }
    if (status === 400 || status === 422) {
      return new ProviderError('invalid_request', `${at} rejected the request (HTTP ${status}): ${serverMessage}`, options);
    }
    if (status === 429) return new ProviderError('rate_limit', `${at} is rate limiting (HTTP 429): ${serverMessage}`, options);
    if (status === 408 || status === 409 || status >= 500) {
      return new ProviderError('server', `${at} failed (HTTP ${status}): ${serverMessage}`, options);
    }
    return new ProviderError('unknown', `${at} answered HTTP ${status}: ${serverMessage}`, options);
  }

  private redact(message: string): string {
    // Guard short keys: replacing a one-letter "key" would mangle the message without protecting anything.
    return this.apiKey && this.apiKey.length >= 8 ? message.split(this.apiKey).join('***') : message;
  }
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
        tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
      };
  }
}

/** Merges one streamed fragment into its call. Fragments are keyed by `index`; a server omitting it gets array order. */
function accumulate(slots: ToolCallSlot[], fragment: ToolCallFragment, position: number): ToolCallSlot {
  const index = typeof fragment.index === 'number' ? fragment.index : position;
  const slot = (slots[index] ??= { id: '', name: '', arguments: '', started: false });
  if (fragment.id && !slot.id) slot.id = fragment.id;
  // Some servers repeat the full name in later fragments; the SDK's own accumulator also overwrites.
  if (fragment.function?.name) slot.name = fragment.function.name;
  if (fragment.function?.arguments) slot.arguments += fragment.function.arguments;
  return slot;
}

function generatedCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

function mapUsage(usage: OpenAI.CompletionUsage): Usage {
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
  };
}

function extractServerMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (typeof body?.message === 'string' && body.message) return body.message;
  return error.message;
}

/** Milliseconds from `retry-after-ms`, or `retry-after` as seconds or an HTTP date. */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** Walks the cause chain (SDK error → undici "fetch failed" → system error) for the most telling reason. */
function describeNetworkCause(error: unknown): string {
  let deepest = '';
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_REASONS[code]) return NETWORK_REASONS[code];
    if (typeof code === 'string' && /^(CERT_|ERR_TLS|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return `TLS error (${code})`;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message) deepest = message;
  }
  return deepest || 'connection failed';
}

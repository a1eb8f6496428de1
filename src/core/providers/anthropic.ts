// The Anthropic provider: Claude through the Messages API, on the official SDK with its retries off (the engine owns
// retries, so one `complete` call is exactly one HTTP attempt, and every failure leaves here as a ProviderError).
//
// SDK 1.x speaks API version 2026-10-21, which answers 400 to `temperature`, `top_p` and `top_k` (even at their
// defaults) and whose SDK sends the key as `Authorization: Bearer`. So this provider never sends a temperature, and
// it also sends the key as `x-api-key`, the header Anthropic-compatible gateways and proxies read.
import { randomUUID } from 'node:crypto';
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  TextBlockParam,
  Tool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import { parseRetryAfter } from './openai-compatible';
import type { ChatMessage, CompleteOptions, ModelProvider, ModelRequest, ModelResponse, ToolCall, Usage } from './types';
import { ProviderError, type ProviderErrorKind } from './types';
import { describeNetworkCause } from './network-errors';

export interface AnthropicOptions {
  model: string;
  /** Defaults to Anthropic's API. The API root, without `/v1` (a trailing `/v1` is tolerated and dropped). */
  baseUrl?: string;
  /** Sent as `x-api-key` and `Authorization: Bearer`. A placeholder is sent without one (keyless gateways). */
  apiKey?: string;
  /**
   * Accepted for config compatibility but never sent: API version 2026-10-21 (the only one SDK 1.x speaks) rejects
   * `temperature` with HTTP 400, even at 1.0. `ModelRequest.temperature` is ignored for the same reason.
   */
  temperature?: number;
  /** Anthropic requires `max_tokens`; default 8192. `ModelRequest.maxTokens` wins. */
  maxTokens?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /**
   * Cache breakpoints on the stable prefix: the (last) system block and the first user turn's last block, i.e. tools +
   * system prompt + original task, so an agent's later turns read it from the cache. Default true.
   */
  promptCaching?: boolean;
}

const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_MAX_TOKENS = 8192;
// The SDK throws without some credential, and would otherwise go looking for one in the environment and in profile
// files; keyless gateways ignore it.
const PLACEHOLDER_KEY = 'not-needed';
// As in the OpenAI-compatible provider: the SDK's timeout only covers the wait for response headers (it is cleared
// once the stream starts). Stalls mid-stream are the engine's turn timeout to catch.
const HEADERS_TIMEOUT_MS = 5 * 60_000;
/** The key under which tool-call arguments that are not a JSON object are replayed (tool_use input must be one). */
export const RAW_ARGUMENTS_KEY = '_raw_arguments';

const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
};

type Turn = { role: 'user' | 'assistant'; content: ContentBlockParam[] };

interface ToolSlot {
  id: string;
  name: string;
  /** Concatenated `partial_json` fragments. */
  json: string;
  /** The `input` of content_block_start, used when no fragment arrives (a call without arguments). */
  initialInput: unknown;
  fragments: number;
}

interface UsageCounts {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
}

export class AnthropicProvider implements ModelProvider {
  readonly model: string;
  readonly description: string;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly client: Anthropic;

  constructor(private readonly options: AnthropicOptions) {
    this.model = options.model;
    // The SDK appends `/v1/messages`; a base URL copied from an OpenAI-style config often ends in /v1 already.
    this.baseUrl = (options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, '');
    this.apiKey = options.apiKey || undefined;
    this.description = `anthropic ${this.model} @ ${this.baseUrl}`;
    const key = this.apiKey ?? PLACEHOLDER_KEY;
    this.client = new Anthropic({
      baseURL: this.baseUrl,
      apiKey: key,
      defaultHeaders: { 'x-api-key': key },
      maxRetries: 0,
      timeout: HEADERS_TIMEOUT_MS,
      fetch: options.fetch,
    });
  }

  async complete(request: ModelRequest, { signal, onDelta }: CompleteOptions): Promise<ModelResponse> {
    let text = '';
    let reasoning = '';
    let stopReason: string | null = null;
    let stopped = false;
    let counts: UsageCounts | undefined;
    const slots = new Map<number, ToolSlot>();

    try {
      const stream = await this.client.messages.create(this.buildBody(request), { signal });
      for await (const event of stream) {
        switch (event.type) {
          case 'message_start':
            counts = mergeUsage(counts, event.message.usage);
            break;
          case 'content_block_start': {
            const block = event.content_block;
            if (block.type === 'tool_use') {
              const slot: ToolSlot = { id: block.id || generatedCallId(), name: block.name, json: '', initialInput: block.input, fragments: 0 };
              slots.set(event.index, slot);
              onDelta?.({ type: 'tool_call_start', id: slot.id, name: slot.name });
            } else if (block.type === 'text' && block.text) {
              text += block.text;
              onDelta?.({ type: 'text', text: block.text });
            } else if (block.type === 'thinking' && block.thinking) {
              reasoning += block.thinking;
              onDelta?.({ type: 'reasoning', text: block.thinking });
            }
            break;
          }
          case 'content_block_delta': {
            const delta = event.delta;
            if (delta.type === 'text_delta' && delta.text) {
              text += delta.text;
              onDelta?.({ type: 'text', text: delta.text });
            } else if (delta.type === 'thinking_delta' && delta.thinking) {
              reasoning += delta.thinking;
              onDelta?.({ type: 'reasoning', text: delta.thinking });
            } else if (delta.type === 'input_json_delta') {
              const slot = slots.get(event.index);
              if (slot) {
                slot.json += delta.partial_json;
                slot.fragments++;
              }
            }
            break;
          }
          case 'message_delta':
            if (event.delta.stop_reason) stopReason = event.delta.stop_reason;
            counts = mergeUsage(counts, event.usage);
            break;
          case 'message_stop':
            stopped = true;
            break;
        }
      }
    } catch (error) {
      throw this.toProviderError(error, signal);
    }
    // On abort the SDK's stream iterator ends quietly instead of throwing, so the signal is the only witness.
    if (signal.aborted) throw new ProviderError('aborted', `request to ${this.baseUrl} was aborted`);
    if (!stopped) {
      throw new ProviderError('stream_cut', `stream from ${this.baseUrl} ended before message_stop (${text.length} chars received)`);
    }

    const toolCalls: ToolCall[] = [...slots.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, s]) => ({ id: s.id, name: s.name, arguments: s.fragments > 0 ? s.json : JSON.stringify(s.initialInput ?? {}) }));
    const normalizedStop = stopReason ? (STOP_REASONS[stopReason] ?? stopReason) : toolCalls.length ? 'tool_calls' : 'stop';
    return { text, ...(reasoning ? { reasoning } : {}), toolCalls, usage: counts && toUsage(counts), stopReason: normalizedStop };
  }

  private buildBody(request: ModelRequest): MessageCreateParamsStreaming {
    const caching = this.options.promptCaching !== false;
    const system: TextBlockParam[] = request.system ? [{ type: 'text', text: request.system }] : [];
    const messages = toAnthropicMessages(request.messages);
    if (caching) {
      const lastSystem = system[system.length - 1];
      if (lastSystem) lastSystem.cache_control = { type: 'ephemeral' };
      const firstUser = messages.find((m) => m.role === 'user');
      const lastBlock = firstUser?.content[firstUser.content.length - 1];
      if (lastBlock) markCacheBreakpoint(lastBlock);
    }
    const hasTools = request.tools.length > 0;
    const toolChoice = request.toolChoice ? TOOL_CHOICES[request.toolChoice] : undefined;
    return {
      model: this.model,
      max_tokens: request.maxTokens ?? this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
      stream: true,
      ...(system.length ? { system } : {}),
      messages,
      ...(hasTools
        ? {
            tools: request.tools.map(
              (t): Tool => ({ name: t.name, description: t.description, input_schema: { ...t.parameters, type: 'object' } }),
            ),
            ...(toolChoice ? { tool_choice: toolChoice } : {}),
          }
        : {}),
    };
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
      return new ProviderError('unknown', `malformed stream event from ${where}: ${this.redact(error.message)}`, { cause: error });
    }
    // Anything else surfaced while reading the body (undici's "terminated", ECONNRESET): the connection dropped.
    return new ProviderError('stream_cut', `stream from ${where} was cut: ${describeNetworkCause(error)}`, { cause: error });
  }

  // Status errors get no `cause`: the SDK error carries the server's message, which may echo the key.
  private fromApiError(error: APIError): ProviderError {
    const status = error.status;
    const type = error.type ?? undefined;
    const serverMessage = this.redact(error.apiMessage ?? error.message);
    const at = `${this.model} @ ${this.baseUrl}`;
    if (status === undefined) {
      // An `event: error` inside the SSE stream after a 200: only the error type tells what happened.
      const kind = kindForErrorType(type);
      return new ProviderError(kind, `${at} reported ${type ?? 'an error'} mid-stream: ${serverMessage}`);
    }
    const retryAfterMs = parseRetryAfter(error.headers);
    const options = { status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    if (status === 401 || status === 403) {
      return new ProviderError('auth', `${at} refused the credentials (HTTP ${status}): ${serverMessage}`, options);
    }
    if (status === 402) return new ProviderError('auth', `${at} refused the request for billing reasons (HTTP 402): ${serverMessage}`, options);
    if (status === 404) {
      return new ProviderError(
        'invalid_request',
        `${at} returned HTTP 404: ${serverMessage} (check that the model name and the base URL are right)`,
        options,
      );
    }
    if (status === 400 || status === 413 || status === 422) {
      return new ProviderError('invalid_request', `${at} rejected the request (HTTP ${status}): ${serverMessage}`, options);
    }
    if (status === 429) return new ProviderError('rate_limit', `${at} is rate limiting (HTTP 429): ${serverMessage}`, options);
    if (status === 529) return new ProviderError('rate_limit', `${at} is overloaded (HTTP 529): ${serverMessage}`, options);
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

const TOOL_CHOICES: Readonly<Record<NonNullable<ModelRequest['toolChoice']>, ToolChoice>> = {
  auto: { type: 'auto' },
  required: { type: 'any' },
  none: { type: 'none' },
};

/**
 * Anthropic wants alternating user/assistant turns, and the tool results for an assistant's tool_use blocks at the
 * start of the very next user turn. Tool messages become `tool_result` blocks in a user turn, consecutive same-role
 * messages are merged into one turn, and in each user turn the tool results go first (an update text the engine
 * appends after them follows). Empty texts are dropped: the API rejects empty text blocks.
 */
export function toAnthropicMessages(messages: ChatMessage[]): Turn[] {
  const turns: Turn[] = [];
  for (const message of messages) {
    const turn = toTurn(message);
    if (turn.content.length === 0) continue;
    const last = turns[turns.length - 1];
    if (last?.role === turn.role) last.content.push(...turn.content);
    else turns.push(turn);
  }
  for (const turn of turns) {
    if (turn.role !== 'user') continue;
    turn.content = [...turn.content.filter((b) => b.type === 'tool_result'), ...turn.content.filter((b) => b.type !== 'tool_result')];
  }
  return turns;
}

function toTurn(message: ChatMessage): Turn {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content ? [{ type: 'text', text: message.content }] : [] };
    case 'tool':
      return {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: message.toolCallId, ...(message.content ? { content: message.content } : {}) }],
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: [
          ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
          ...(message.toolCalls ?? []).map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: toolInput(c.arguments) })),
        ],
      };
  }
}

/**
 * The `input` of a replayed tool_use block, which the API requires to be a JSON object. Arguments that parse to an
 * object are sent as such, empty arguments as `{}`, anything else (malformed JSON, an array, a bare value) as
 * `{ "_raw_arguments": "<the raw text>" }`, so the model still sees what it produced when it reads the tool result
 * that rejected it.
 */
export function toolInput(argumentsText: string): Record<string, unknown> {
  if (!argumentsText.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Fall through to the wrapped form.
  }
  return { [RAW_ARGUMENTS_KEY]: argumentsText };
}

function markCacheBreakpoint(block: ContentBlockParam): void {
  // Every block type a ChatMessage maps to (text, tool_use, tool_result) takes cache_control.
  (block as { cache_control?: { type: 'ephemeral' } }).cache_control = { type: 'ephemeral' };
}

/** Takes the figures a usage object reports; message_delta repeats some (output_tokens is its final count). */
function mergeUsage(
  previous: UsageCounts | undefined,
  usage:
    | {
        input_tokens?: number | null;
        cache_read_input_tokens?: number | null;
        cache_creation_input_tokens?: number | null;
        output_tokens?: number | null;
      }
    | null
    | undefined,
): UsageCounts | undefined {
  if (!usage) return previous;
  const base = previous ?? { input: 0, cacheRead: 0, cacheCreation: 0, output: 0 };
  const pick = (value: number | null | undefined, fallback: number) => (typeof value === 'number' ? value : fallback);
  return {
    input: pick(usage.input_tokens, base.input),
    cacheRead: pick(usage.cache_read_input_tokens, base.cacheRead),
    cacheCreation: pick(usage.cache_creation_input_tokens, base.cacheCreation),
    output: pick(usage.output_tokens, base.output),
  };
}

function toUsage(counts: UsageCounts): Usage {
  return {
    inputTokens: counts.input + counts.cacheRead + counts.cacheCreation,
    cachedInputTokens: counts.cacheRead,
    outputTokens: counts.output,
  };
}

/** How an `error` event inside the stream is classified, by its `error.type`. */
function kindForErrorType(type: string | undefined): ProviderErrorKind {
  switch (type) {
    case 'overloaded_error':
    case 'rate_limit_error':
      return 'rate_limit';
    case 'authentication_error':
    case 'permission_error':
    case 'billing_error':
      return 'auth';
    case 'invalid_request_error':
    case 'not_found_error':
    case 'request_too_large':
      return 'invalid_request';
    default:
      // api_error, timeout_error and anything new: a server-side failure worth another attempt.
      return 'server';
  }
}

function generatedCallId(): string {
  return `toolu_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}


// The Anthropic provider: Claude through the Messages API, on the official SDK with its retries off (the engine owns
// retries, so one `complete` call is exactly one HTTP attempt, and every failure leaves here as a ProviderError).
//
// SDK 1.x speaks API version 2026-10-21, which answers 400 to `temperature`, `top_p` and `top_k` (even at their
// defaults) and whose SDK sends the key as `Authorization: Bearer`. So this provider never sends a temperature, and
// it also sends the key as `x-api-key`, the header Anthropic-compatible gateways and proxies read.
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  TextBlockParam,
  Tool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import { callId, HEADERS_TIMEOUT_MS, kindForStatus, PLACEHOLDER_KEY, redact, statusError, toProviderError, unparsedOutputError, type SdkErrors } from './http-errors';
import { toolInput, toTurns, type Turn } from './turns';
import { CACHE_POLICIES, type PromptCachePolicy } from '../usage/cache';
import type { ChatMessage, CompleteOptions, ModelProvider, ModelRequest, ModelResponse, ToolCall, Usage } from './types';
import { ProviderError, type ProviderErrorKind } from './types';
import { publicUrl } from '../util/url';

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
   * Cache breakpoints (see `cacheBreakpointBlocks`): the system prompt (tools + system), the first user turn (unless
   * the request says no, `cacheHead`) and, when the request says another will extend it (`cacheTail`), its last block.
   * Default true.
   */
  promptCaching?: boolean;
  /**
   * Offer Claude's web search server tool (upstream's enable_web_search). Anthropic runs the searches itself: the
   * stream's server_tool_use and web_search_tool_result blocks are its work, the text after them the answer.
   */
  webSearch?: boolean;
}

/** Anthropic's web search server tool, by the version the Messages API documents. */
const WEB_SEARCH_TOOL = { type: 'web_search_20250305', name: 'web_search' } as const;

const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_MAX_TOKENS = 8192;

const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
};

export type AnthropicMessage = { role: 'user' | 'assistant'; content: ContentBlockParam[] };

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
  /** The base URL as it may be shown (no credentials or query). */
  private readonly shownUrl: string;
  readonly promptCache?: PromptCachePolicy;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly client: Anthropic;
  private readonly errors: SdkErrors<APIError>;

  constructor(private readonly options: AnthropicOptions) {
    this.model = options.model;
    // The SDK appends `/v1/messages`; a base URL copied from an OpenAI-style config often ends in /v1 already.
    this.baseUrl = (options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, '');
    this.apiKey = options.apiKey || undefined;
    this.shownUrl = publicUrl(this.baseUrl);
    this.description = `anthropic ${this.model} @ ${this.shownUrl}`;
    if (options.promptCaching !== false) this.promptCache = CACHE_POLICIES.anthropic;
    const key = this.apiKey ?? PLACEHOLDER_KEY;
    // Bundled without `client.beta` (esbuild.mjs, anthropicWithoutBeta): use `client.messages` only.
    this.client = new Anthropic({
      baseURL: this.baseUrl,
      apiKey: key,
      defaultHeaders: { 'x-api-key': key },
      maxRetries: 0,
      timeout: HEADERS_TIMEOUT_MS,
      fetch: options.fetch,
    });
    this.errors = {
      classes: { userAbort: APIUserAbortError, connectionTimeout: APIConnectionTimeoutError, connection: APIConnectionError, api: APIError },
      where: this.shownUrl,
      key: this.apiKey,
      streamUnit: 'event',
      fromApiError: (error) => this.fromApiError(error),
    };
  }

  async complete(request: ModelRequest, { signal, onDelta, onStarted }: CompleteOptions): Promise<ModelResponse> {
    let text = '';
    let reasoning = '';
    let stopReason: string | null = null;
    let stopped = false;
    let counts: UsageCounts | undefined;
    const slots = new Map<number, ToolSlot>();

    try {
      const stream = await this.client.messages.create(this.buildBody(request), { signal });
      for await (const event of stream) {
        onStarted?.();
        switch (event.type) {
          case 'message_start':
            counts = mergeUsage(counts, event.message.usage);
            break;
          case 'content_block_start': {
            const block = event.content_block;
            if (block.type === 'tool_use') {
              slots.set(event.index, { id: block.id || callId('toolu'), name: block.name, json: '', initialInput: block.input, fragments: 0 });
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
      throw toProviderError(error, signal, this.errors);
    }
    // On abort the SDK's stream iterator ends quietly instead of throwing, so the signal is the only witness.
    if (signal.aborted) throw new ProviderError('aborted', `request to ${this.shownUrl} was aborted`);
    if (!stopped) {
      throw new ProviderError('stream_cut', `stream from ${this.shownUrl} ended before message_stop (${text.length} chars received)`);
    }

    const toolCalls: ToolCall[] = [...slots.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, s]) => ({ id: s.id, name: s.name, arguments: s.fragments > 0 ? s.json : JSON.stringify(s.initialInput ?? {}) }));
    const normalizedStop = stopReason ? (STOP_REASONS[stopReason] ?? stopReason) : toolCalls.length ? 'tool_calls' : 'stop';
    return { text, ...(reasoning ? { reasoning } : {}), toolCalls, usage: counts && toUsage(counts), stopReason: normalizedStop };
  }

  /** The request body as sent (public for the benchmark, which prices its cache breakpoints). */
  buildBody(request: ModelRequest): MessageCreateParamsStreaming {
    const caching = this.options.promptCaching !== false;
    const system: TextBlockParam[] = request.system ? [{ type: 'text', text: request.system }] : [];
    const messages = toAnthropicMessages(request.messages);
    if (caching) {
      const lastSystem = system[system.length - 1];
      if (lastSystem) lastSystem.cache_control = { type: 'ephemeral' };
      const head = request.cacheHead === false ? false : sharedHead(request.messages[0]) ? 'shared' : true;
      for (const block of cacheBreakpointBlocks(messages, request.cacheTail === true, head)) markCacheBreakpoint(block);
    }
    const hasTools = request.tools.length > 0 || this.options.webSearch === true;
    const toolChoice = request.toolChoice && request.tools.length > 0 ? TOOL_CHOICES[request.toolChoice] : undefined;
    return {
      model: this.model,
      max_tokens: request.maxTokens ?? this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
      stream: true,
      ...(system.length ? { system } : {}),
      messages,
      ...(hasTools
        ? {
            tools: [
              ...request.tools.map((t): Tool => ({ name: t.name, description: t.description, input_schema: { ...t.parameters, type: 'object' } })),
              ...(this.options.webSearch ? [WEB_SEARCH_TOOL] : []),
            ],
            ...(toolChoice ? { tool_choice: toolChoice } : {}),
          }
        : {}),
    };
  }

  private fromApiError(error: APIError): ProviderError {
    const type = error.type ?? undefined;
    const serverMessage = redact(error.apiMessage ?? error.message, this.apiKey);
    const at = `${this.model} @ ${this.shownUrl}`;
    if (error.status === undefined) {
      // An `event: error` inside the SSE stream after a 200: only the error type tells what happened, or llama.cpp's
      // words for a reply of the model's it could not parse.
      return unparsedOutputError(at, serverMessage) ?? new ProviderError(kindForErrorType(type), `${at} reported ${type ?? 'an error'} mid-stream: ${serverMessage}`);
    }
    return statusError(error.status, at, serverMessage, error.headers);
  }
}

const TOOL_CHOICES: Readonly<Record<NonNullable<ModelRequest['toolChoice']>, ToolChoice>> = {
  auto: { type: 'auto' },
  required: { type: 'any' },
  none: { type: 'none' },
};

/** The messages as the API's alternating turns (see `toTurns`), tool results as `tool_result` blocks. */
function toAnthropicMessages(messages: ChatMessage[]): AnthropicMessage[] {
  return toTurns(messages, toTurn, (block) => block.type === 'tool_result').map(({ role, parts }) => ({ role, content: parts }));
}

/** One message's blocks. Empty texts are left out: the API rejects empty text blocks. */
function toTurn(message: ChatMessage): Turn<ContentBlockParam, ContentBlockParam> {
  switch (message.role) {
    case 'user': {
      // The start every agent is shown alike is a block of its own, so a breakpoint can end there.
      const cut = message.sharedChars ?? 0;
      const texts = cut > 0 && cut < message.content.length ? [message.content.slice(0, cut), message.content.slice(cut)] : [message.content];
      return { role: 'user', parts: texts.filter((t) => t).map((text) => ({ type: 'text' as const, text })) };
    }
    case 'tool':
      return {
        role: 'user',
        parts: [{ type: 'tool_result', tool_use_id: message.toolCallId, ...(message.content ? { content: message.content } : {}) }],
      };
    case 'assistant':
      return {
        role: 'assistant',
        parts: [
          ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
          ...(message.toolCalls ?? []).map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: toolInput(c.arguments) })),
        ],
      };
  }
}

/**
 * Where the conversation's breakpoints go (the system prompt has its own): the end of the first user turn (the task
 * and the board as first shown, the start of every later turn; with `head: 'shared'` the end of its first block, the
 * part every agent is shown alike, so the other agents' requests read it too) and, with `tail`, the end of the whole
 * request, which the next request extends: the cache finds it among the 20 blocks before that request's own last
 * breakpoint.
 * Writing costs 1.25× and reading 0.1×, so the tail is marked only when a next request is expected to extend it (a
 * tool loop): the last call of a conversation would pay the premium for nothing; for the same reason the first user
 * turn is left unmarked without `head` (a conversation rebuilt after revisions). At most two, within the API's four.
 */
export function cacheBreakpointBlocks(messages: readonly AnthropicMessage[], tail: boolean, head: boolean | 'shared' = true): ContentBlockParam[] {
  const last = (m: AnthropicMessage | undefined) => m?.content[m.content.length - 1];
  const firstUser = messages.find((m) => m.role === 'user');
  const first = head === 'shared' ? firstUser?.content[0] : head ? last(firstUser) : undefined;
  const end = tail ? last(messages[messages.length - 1]) : undefined;
  return [...new Set([first, end])].filter((b): b is ContentBlockParam => b !== undefined);
}

/** The first user turn starts with a part every agent shares, shorter than the turn (a block of its own, see toTurn). */
function sharedHead(message: ChatMessage | undefined): boolean {
  return message?.role === 'user' && (message.sharedChars ?? 0) > 0 && (message.sharedChars ?? 0) < message.content.length;
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

/** The HTTP status the API documents for each error type. */
const ERROR_TYPE_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** How an `error` event inside the stream is classified: as the status its `error.type` stands for. */
function kindForErrorType(type: string | undefined): ProviderErrorKind {
  // Anything new is taken for a server-side failure worth another attempt.
  return kindForStatus(type !== undefined && Object.hasOwn(ERROR_TYPE_STATUS, type) ? ERROR_TYPE_STATUS[type] : 500);
}


// The provider port: every model backend (OpenAI-compatible, Anthropic, VS Code chat models, the scripted test
// provider) turns one request into one streamed response behind this interface. The engine owns retries, so a
// provider makes exactly one attempt per `complete` call and reports failures as `ProviderError`.

import type { PromptCachePolicy } from '../usage/cache';

// A tool the model may call (its parameters as JSON Schema: OpenAI `function.parameters` / Anthropic
// `input_schema`) and a call it made (`arguments` raw, possibly malformed): the tool kit's shapes, one declaration.
import type { ToolCall, ToolSpec } from '../tools/types';

export type { ToolCall, ToolSpec };

export type ChatMessage =
  | {
      role: 'user';
      content: string;
      /**
       * The first this many characters are what every agent of the run is shown alike (the task and the board): a
       * provider with cache breakpoints puts the first user turn's there, so the other agents' requests can read it.
       */
      sharedChars?: number;
    }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface ModelRequest {
  /** The system prompt; providers place it where their API wants it. */
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** 'required' asks the model to call a tool when the API supports it. */
  toolChoice?: 'auto' | 'required' | 'none';
  temperature?: number;
  maxTokens?: number;
  /**
   * The same for every request of a run: providers that route by a cache key send it (OpenAI's prompt_cache_key), so
   * requests that start alike (one agent's conversation, or the prompt the agents share) reach the same prompt cache.
   */
  cacheKey?: string;
  /**
   * The next request is expected to extend this one (a tool loop): worth caching all of it even where a cache
   * write costs extra (Anthropic marks its end then; otherwise only the system prompt and the first user turn).
   */
  cacheTail?: boolean;
  /**
   * The first user turn is worth a cache breakpoint (default true): later requests start with it. False for a
   * conversation rebuilt after revisions that no other agent shares, which the next revision rebuilds again: its
   * write premium would buy nothing.
   */
  cacheHead?: boolean;
}

/** Token usage as the server reported it. `inputTokens` counts every prompt token, cached ones included. */
export interface Usage {
  inputTokens: number;
  /** Read from the provider's prompt cache (billed at its cached price). */
  cachedInputTokens: number;
  outputTokens: number;
  /** True when the numbers are estimates (the provider reported none). */
  estimated?: boolean;
}

/**
 * Streamed as the model produces it; its tool calls are not streamed (they arrive whole, in the response). A coding
 * agent's program also reports the tools it runs itself (its edits, its commands) as they happen.
 */
export type StreamDelta =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'tool_result'; id: string; name: string; ok: boolean; summary: string };

export interface ModelResponse {
  text: string;
  reasoning?: string;
  toolCalls: ToolCall[];
  usage?: Usage;
  /** Provider's stop reason, normalised: 'stop' | 'tool_calls' | 'length' | other provider text. */
  stopReason: string;
}

export interface CompleteOptions {
  signal: AbortSignal;
  onDelta?: (delta: StreamDelta) => void;
  /**
   * The response has begun (a streamed event arrived): the server has read the prompt, so a prompt cache now holds
   * it. Providers call it at every event; only the first call matters.
   */
  onStarted?: () => void;
}

export interface ModelProvider {
  /** Human-readable provider/model, e.g. "openai-compatible gpt-4o-mini @ http://127.0.0.1:1234/v1". */
  readonly description: string;
  readonly model: string;
  /** The model's context window in tokens, when the provider knows it (VS Code's chat models report theirs). */
  readonly contextWindow?: number;
  /** How the backend's prompt cache bills (see usage/cache.ts); absent when it is not known to have one. */
  readonly promptCache?: PromptCachePolicy;
  complete(request: ModelRequest, options: CompleteOptions): Promise<ModelResponse>;
  /** Stops what the provider keeps running between calls (a coding agent's program); the run calls it at its end. */
  close?(): Promise<void>;
}

export type ProviderErrorKind =
  /** Bad key, forbidden: retrying cannot help. */
  | 'auth'
  /** The request was refused as invalid (400/404/422, unknown model, context too long). */
  | 'invalid_request'
  /** 429 or a provider "overloaded" (529). */
  | 'rate_limit'
  /** 5xx, 408, 409. */
  | 'server'
  /** Connection refused/reset, DNS, TLS. */
  | 'network'
  /** The stream ended before the response was complete. */
  | 'stream_cut'
  /** The request was aborted by us (cancel, timeout). */
  | 'aborted'
  /**
   * The server could not parse the model's own reply (llama.cpp: "Failed to parse input at pos N: …", a cut or
   * malformed tool call): the model's doing, repeated by a retry at a low temperature, so the engine corrects it.
   */
  | 'unparsed_output'
  | 'unknown';

/** A server a request never reached: its URL and why, in words ("connection refused"). */
export interface UnreachableServer {
  url: string;
  reason: string;
}

/** A provider failure, classified so the engine's retry policy can decide without knowing the SDK. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  /** Delay the server asked for (retry-after / retry-after-ms), in milliseconds. */
  readonly retryAfterMs?: number;
  /** Set when the request never reached the server, so views can name it in one line. */
  readonly unreachable?: UnreachableServer;
  /** For `unparsed_output`: what the server quoted of the model's reply (clipped, one line). */
  readonly output?: string;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    options: { status?: number; retryAfterMs?: number; cause?: unknown; unreachable?: UnreachableServer; output?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.unreachable = options.unreachable;
    this.output = options.output;
  }

  get retryable(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'server' || this.kind === 'network' || this.kind === 'stream_cut' || this.kind === 'unknown';
  }
}

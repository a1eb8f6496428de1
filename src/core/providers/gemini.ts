// The Gemini provider: Google's Gemini API (streamGenerateContent over SSE) through the official @google/genai SDK,
// with its retries and automatic function calling off: the engine owns retries and tools, so one `complete` call is
// exactly one HTTP attempt, and every failure leaves here as a ProviderError.
//
// The SDK throws one error class (ApiError, with the JSON body as its message and no headers) and plain Errors for
// everything else, so the fetch it is given records the response headers (retry-after) and marks connection failures.
import type { Content, FunctionCallingConfigMode, GenerateContentConfig, GenerateContentResponse, GoogleGenAI as Client, Part, Tool } from '@google/genai' with { 'resolution-mode': 'import' };
import { callId, describeNetworkCause, kindForStatus, PLACEHOLDER_KEY, redact, statusError, unreachableError } from './http-errors';
import { toolInput, toTurns, type Turn } from './turns';
import { CACHE_POLICIES } from '../usage/cache';
import type { BuiltinTool } from '../config/types';
import type { ChatMessage, CompleteOptions, ModelProvider, ModelRequest, ModelResponse, ToolCall, Usage } from './types';
import { ProviderError } from './types';
import { publicUrl } from '../util/url';

// The package is an ES module whose CommonJS build Node's `require` loads (as the bundles do); only the types come
// from its ESM declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ApiError, FunctionCallingConfigMode: CallingMode, GoogleGenAI } = require('@google/genai') as typeof import('@google/genai', { with: { 'resolution-mode': 'import' } });

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface GeminiOptions {
  model: string;
  /** The API root, default Google's; a trailing /v1beta (or /v1, /v1alpha) picks that API version. */
  baseUrl?: string;
  /** Sent as `x-goog-api-key`. */
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  /** Gemini's own tools: Google Search grounding and code execution (upstream's enable_web_search / enable_code_execution). */
  builtinTools?: BuiltinTool[];
  /** Ask for thought summaries (reasoning deltas). Default: on for models that think (2.5 and later). */
  includeThoughts?: boolean;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: Fetch;
}

const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
const DEFAULT_API_VERSION = 'v1beta';

/**
 * Gemini 3 rejects a replayed function call without the thought signature it came with. Calls we did not receive
 * (a conversation begun elsewhere) carry the value Google documents for exactly that case.
 */
const UNKNOWN_SIGNATURE = 'skip_thought_signature_validator';

const FINISH_REASONS: Readonly<Record<string, string>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
};

/** Models that think, and so accept `includeThoughts`; older ones answer 400 to it. */
function thinks(model: string): boolean {
  return /gemini-(2\.5|[3-9])/i.test(model) || /thinking/i.test(model);
}

/** What the provider keeps about a call it returned, to replay it as Gemini wants it. */
interface CallRecord {
  signature?: string;
  /** The server's own id; sent back only when the server gave one. */
  serverId?: string;
}

export class GeminiProvider implements ModelProvider {
  readonly model: string;
  readonly description: string;
  /** The base URL as it may be shown (no credentials or query). */
  private readonly shownUrl: string;
  /** Gemini caches prompts implicitly: a request that starts like a recent one is billed the cached part at less. */
  readonly promptCache = CACHE_POLICIES.gemini;
  private readonly baseUrl: string;
  private readonly apiVersion: string;
  private readonly apiKey: string | undefined;
  private readonly client: Client;
  private readonly calls = new Map<string, CallRecord>();
  /** The server refused built-in tools next to function declarations (older models): send them no more. */
  private builtinsRefused = false;

  constructor(private readonly options: GeminiOptions) {
    this.model = options.model;
    const root = (options.baseUrl ?? GEMINI_BASE_URL).replace(/\/+$/, '');
    const version = /\/(v1beta|v1alpha|v1)$/.exec(root);
    this.baseUrl = version ? root.slice(0, -version[0].length) : root;
    this.apiVersion = version?.[1] ?? DEFAULT_API_VERSION;
    this.apiKey = options.apiKey || undefined;
    this.shownUrl = publicUrl(this.baseUrl);
    this.description = `gemini ${this.model} @ ${this.shownUrl}`;
    this.client = new GoogleGenAI({ apiKey: this.apiKey ?? PLACEHOLDER_KEY, apiVersion: this.apiVersion, httpOptions: { baseUrl: this.baseUrl } });
  }

  async complete(request: ModelRequest, options: CompleteOptions): Promise<ModelResponse> {
    try {
      return await this.attempt(request, options);
    } catch (error) {
      // The one retry inside a call: built-in tools beside function declarations are refused by models before Gemini 3.
      if (!this.refusesBuiltins(error, request)) throw error;
      this.builtinsRefused = true;
      return this.attempt(request, options);
    }
  }

  private async attempt(request: ModelRequest, { signal, onDelta, onStarted }: CompleteOptions): Promise<ModelResponse> {
    const exchange: Exchange = {};
    const assembler = new GeminiAssembler(onDelta);
    try {
      const stream = await this.client.models.generateContentStream({
        model: this.model,
        contents: this.toContents(request.messages),
        config: this.buildConfig(request, signal, exchange),
      });
      for await (const chunk of stream) {
        if (signal.aborted) break;
        onStarted?.();
        assembler.add(chunk);
      }
    } catch (error) {
      throw this.toProviderError(error, signal, exchange, assembler.text.length);
    }
    if (signal.aborted) throw new ProviderError('aborted', `request to ${this.shownUrl} was aborted`);
    const blocked = assembler.blockReason();
    if (blocked) throw new ProviderError('invalid_request', `${this.model} @ ${this.shownUrl} blocked the prompt (${blocked})`);
    const response = assembler.result();
    if (!response) {
      throw new ProviderError('stream_cut', `stream from ${this.shownUrl} ended without a finishReason (${assembler.text.length} chars received)`);
    }
    for (const [id, record] of assembler.records) this.calls.set(id, record);
    return response;
  }

  private buildConfig(request: ModelRequest, signal: AbortSignal, exchange: Exchange): GenerateContentConfig {
    const temperature = request.temperature ?? this.options.temperature;
    const maxTokens = request.maxTokens ?? this.options.maxTokens;
    const tools: Tool[] = [];
    if (request.tools.length > 0) {
      // parametersJsonSchema takes JSON Schema as written; `parameters` only an OpenAPI subset that MCP tools' schemas break.
      tools.push({ functionDeclarations: request.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) });
    }
    const builtins = this.builtinsRefused && request.tools.length > 0 ? [] : (this.options.builtinTools ?? []);
    if (builtins.includes('web_search')) tools.push({ googleSearch: {} });
    if (builtins.includes('code_execution')) tools.push({ codeExecution: {} });
    const mode = request.toolChoice && request.tools.length > 0 ? CALLING_MODES[request.toolChoice] : undefined;
    const includeThoughts = this.options.includeThoughts ?? thinks(this.model);
    return {
      abortSignal: signal,
      httpOptions: { fetch: recordingFetch(this.options.fetch ?? globalThis.fetch, exchange), baseUrl: this.baseUrl, apiVersion: this.apiVersion },
      // One request per call: no SDK-side tool loop, no automatic continuation hops.
      automaticFunctionCalling: { disable: true },
      automaticContinuation: false,
      ...(request.system ? { systemInstruction: request.system } : {}),
      ...(tools.length ? { tools } : {}),
      ...(mode ? { toolConfig: { functionCallingConfig: { mode } } } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(this.options.topP !== undefined ? { topP: this.options.topP } : {}),
      ...(maxTokens !== undefined ? { maxOutputTokens: maxTokens } : {}),
      ...(includeThoughts ? { thinkingConfig: { includeThoughts: true } } : {}),
    };
  }

  /** The conversation as Gemini's alternating user/model contents, tool results as functionResponse parts. */
  private toContents(messages: ChatMessage[]): Content[] {
    const needsSignature = /gemini-[3-9]/i.test(this.model);
    const toTurn = (message: ChatMessage): Turn<Part, Part> => {
      switch (message.role) {
        case 'user':
          return { role: 'user', parts: message.content ? [{ text: message.content }] : [] };
        case 'tool': {
          const serverId = this.calls.get(message.toolCallId)?.serverId;
          return { role: 'user', parts: [{ functionResponse: { ...(serverId ? { id: serverId } : {}), name: message.name, response: { output: message.content } } }] };
        }
        case 'assistant':
          return {
            role: 'assistant',
            parts: [
              ...(message.content ? [{ text: message.content }] : []),
              ...(message.toolCalls ?? []).map((call) => this.replayCall(call, needsSignature)),
            ],
          };
      }
    };
    return toTurns(messages, toTurn, (part) => part.functionResponse !== undefined).map(({ role, parts }) => ({ role: role === 'assistant' ? 'model' : 'user', parts }));
  }

  private replayCall(call: ToolCall, needsSignature: boolean): Part {
    const record = this.calls.get(call.id);
    const signature = record?.signature ?? (needsSignature ? UNKNOWN_SIGNATURE : undefined);
    return {
      functionCall: { ...(record?.serverId ? { id: record.serverId } : {}), name: call.name, args: toolInput(call.arguments) },
      ...(signature ? { thoughtSignature: signature } : {}),
    };
  }

  private refusesBuiltins(error: unknown, request: ModelRequest): boolean {
    if (this.builtinsRefused || !this.options.builtinTools?.length || request.tools.length === 0) return false;
    return error instanceof ProviderError && error.kind === 'invalid_request' && /tool|function calling|google_search|code_execution/i.test(error.message);
  }

  private toProviderError(error: unknown, signal: AbortSignal, exchange: Exchange, received: number): ProviderError {
    if (error instanceof ProviderError) return error;
    if (signal.aborted) return new ProviderError('aborted', `request to ${this.shownUrl} was aborted`);
    const at = `${this.model} @ ${this.shownUrl}`;
    if (error instanceof ConnectionFailure) {
      return unreachableError(this.shownUrl, error.cause);
    }
    if (error instanceof ApiError) {
      const body = parseErrorBody(error.message);
      const message = redact(body.message, this.apiKey);
      if (!exchange.status || exchange.status < 400) {
        // An error object inside the stream after a 200: its code says what happened.
        return new ProviderError(kindForStatus(error.status), `${at} reported an error mid-stream (${body.status ?? error.status}): ${message}`, { status: error.status });
      }
      const headers = new Headers(exchange.headers);
      if (!headers.has('retry-after') && body.retryDelaySeconds !== undefined) headers.set('retry-after', String(body.retryDelaySeconds));
      const failure = statusError(error.status, at, message, headers);
      // Google answers a bad key with 400 INVALID_ARGUMENT; it is a credentials problem all the same.
      return body.reason === 'API_KEY_INVALID'
        ? new ProviderError('auth', failure.message, { status: error.status })
        : failure;
    }
    // Anything thrown while the body was read (undici's "terminated", the SDK's "Incomplete JSON segment"): a cut stream.
    return new ProviderError('stream_cut', `stream from ${this.shownUrl} was cut after ${received} chars: ${redact(describeNetworkCause(error), this.apiKey)}`, { cause: error });
  }
}

const CALLING_MODES: Readonly<Record<NonNullable<ModelRequest['toolChoice']>, FunctionCallingConfigMode>> = {
  auto: CallingMode.AUTO,
  required: CallingMode.ANY,
  none: CallingMode.NONE,
};

/** What the fetch saw of the one HTTP exchange of a call. */
interface Exchange {
  status?: number;
  headers?: Headers;
}

/** A failure to connect (the fetch itself rejected), as opposed to one while the body streams. */
class ConnectionFailure extends Error {
  constructor(cause: unknown) {
    super('connection failed', { cause });
  }
}

function recordingFetch(fetchImpl: Fetch, exchange: Exchange): Fetch {
  return async (input, init) => {
    let response: Response;
    try {
      // No timeout of the SDK's (it would bound the whole stream): undici's wait for the headers (300 s) applies,
      // as HEADERS_TIMEOUT_MS does for the other providers; stalls mid-stream are the engine's turn timeout to catch.
      response = await fetchImpl(input, init);
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      throw new ConnectionFailure(error);
    }
    exchange.status = response.status;
    exchange.headers = response.headers;
    return response;
  };
}

interface ErrorBody {
  message: string;
  status?: string;
  reason?: string;
  retryDelaySeconds?: number;
}

/**
 * Google's error body `{error: {code, message, status, details: [...]}}`, which the SDK puts in ApiError's message
 * (mid-stream as "got status: X. {json}"). `details` may hold a RetryInfo (`retryDelay: "7s"`) and an ErrorInfo.
 */
function parseErrorBody(text: string): ErrorBody {
  const json = text.slice(text.indexOf('{'));
  try {
    const parsed = JSON.parse(json) as { error?: { message?: unknown; status?: unknown; details?: unknown } };
    const error = parsed.error ?? {};
    const details = Array.isArray(error.details) ? (error.details as Record<string, unknown>[]) : [];
    const retry = details.find((d) => typeof d.retryDelay === 'string');
    const seconds = retry ? Number.parseFloat(String(retry.retryDelay)) : Number.NaN;
    const info = details.find((d) => typeof d.reason === 'string');
    return {
      message: typeof error.message === 'string' && error.message ? error.message : clip(json),
      ...(typeof error.status === 'string' ? { status: error.status } : {}),
      ...(info ? { reason: String(info.reason) } : {}),
      ...(Number.isFinite(seconds) ? { retryDelaySeconds: seconds } : {}),
    };
  } catch {
    return { message: clip(text) };
  }
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200).trimEnd()}…` : text;
}

/** Folds the stream's GenerateContentResponse chunks into one response, reporting deltas as they come. */
class GeminiAssembler {
  text = '';
  readonly records = new Map<string, CallRecord>();
  private reasoning = '';
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private blocked: string | undefined;
  private readonly toolCalls: ToolCall[] = [];

  constructor(private readonly onDelta: CompleteOptions['onDelta']) {}

  add(chunk: GenerateContentResponse): void {
    if (chunk.usageMetadata) {
      const u = chunk.usageMetadata;
      // Thoughts are billed as output; tool-use prompt tokens (search results fed back) as input.
      this.usage = {
        inputTokens: (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0),
        cachedInputTokens: u.cachedContentTokenCount ?? 0,
        outputTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0),
      };
    }
    if (chunk.promptFeedback?.blockReason) this.blocked = String(chunk.promptFeedback.blockReason);
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.addPart(part);
    if (candidate?.finishReason) this.finishReason = String(candidate.finishReason);
  }

  blockReason(): string | undefined {
    return this.toolCalls.length || this.text ? undefined : this.blocked;
  }

  result(): ModelResponse | undefined {
    if (!this.finishReason) return undefined;
    const stopReason = this.toolCalls.length > 0 && this.finishReason === 'STOP' ? 'tool_calls' : (FINISH_REASONS[this.finishReason] ?? this.finishReason.toLowerCase());
    return { text: this.text, ...(this.reasoning ? { reasoning: this.reasoning } : {}), toolCalls: [...this.toolCalls], usage: this.usage, stopReason };
  }

  private addPart(part: Part): void {
    if (part.functionCall) {
      const id = part.functionCall.id || callId('call');
      this.toolCalls.push({ id, name: part.functionCall.name ?? '', arguments: JSON.stringify(part.functionCall.args ?? {}) });
      this.records.set(id, { ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}), ...(part.functionCall.id ? { serverId: part.functionCall.id } : {}) });
      return;
    }
    // Built-in code execution: the code and its output are the model's working, not its answer.
    const working = part.executableCode?.code ? `\n${part.executableCode.code}\n` : part.codeExecutionResult?.output ? `\n${part.codeExecutionResult.output}\n` : '';
    const thought = part.thought ? (part.text ?? '') : working;
    if (thought) {
      this.reasoning += thought;
      this.onDelta?.({ type: 'reasoning', text: thought });
    } else if (part.text) {
      this.text += part.text;
      this.onDelta?.({ type: 'text', text: part.text });
    }
  }
}

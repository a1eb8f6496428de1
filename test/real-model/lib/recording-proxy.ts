// A recording HTTP proxy between the CLI and the real inference server: it forwards every request as it is and
// streams the server's reply back while keeping a copy, so a test sees each request the engine sent (the corrections
// in it) and the usage the server reported in each reply. A `rewrite` can replace one reply's events before the CLI
// gets them, for model output a real small model cannot be made to produce on demand; the reply's usage, ids and
// timings stay the server's. A client that hangs up aborts the upstream request, so the server stops generating.

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { startFakeHttp } from '../../fakes/http-fake';
import { parseSse, writeSse, type SseEvent } from './sse';

/** Token counts as the server reported them for one reply, in the engine's terms (input includes cache reads). */
export interface ReportedUsage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

export interface ProxyExchange {
  /** 0-based arrival order. */
  index: number;
  path: string;
  /** The request body as the CLI sent it (parsed JSON). */
  request: Record<string, unknown>;
  status: number;
  /** The reply's events as the server sent them. */
  serverEvents: SseEvent[];
  /** The reply's events as the CLI got them: the server's, or the rewrite's. */
  sentEvents: SseEvent[];
  rewritten: boolean;
  /** From the server's events; undefined when the reply carried none (cut, failed). */
  usage: ReportedUsage | undefined;
  /**
   * `completed`: the whole reply reached the CLI; `failed`: the server answered with an error (HTTP status 400 or
   * more, or an `error` event in the stream, as llama-server sends when it cannot parse the model's tool call), so
   * the CLI got no usage from it; `incomplete`: the CLI hung up before the reply ended (an aborted turn); `broken`:
   * the connection to the server broke first (llama-server at times closes one mid-reply; the CLI retries the call).
   */
  outcome: 'completed' | 'failed' | 'incomplete' | 'broken';
}

/** Replaces the events of a reply, or returns undefined to pass it on as it is. */
export type Rewrite = (exchange: { index: number; request: Record<string, unknown>; events: SseEvent[] }) => SseEvent[] | undefined;

export interface RecordingProxy {
  /** http://127.0.0.1:PORT: point a config's base_url here (plus /v1 for OpenAI-compatible types). */
  origin: string;
  /** Every exchange so far whose reply has ended, in arrival order. */
  exchanges(): ProxyExchange[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Consulted for every request; a reply it rewrites is read whole before the CLI gets any of it. */
  rewrite?: (request: Record<string, unknown>, index: number) => Rewrite | undefined;
  /** Holds a request back until the promise it returns settles: to order requests the engine sends at once. */
  hold?: (request: Record<string, unknown>, index: number) => Promise<void> | undefined;
}

export async function startRecordingProxy(upstreamOrigin: string, options: ProxyOptions = {}): Promise<RecordingProxy> {
  const upstream = new URL(upstreamOrigin);
  const done: ProxyExchange[] = [];
  let count = 0;
  const fake = await startFakeHttp(({ req, res, raw }) => {
    const index = count++;
    let request: Record<string, unknown> = {};
    try {
      request = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      // Not JSON: forwarded all the same, recorded as an empty body.
    }
    const rewrite = options.rewrite?.(request, index);
    const path = (req.url ?? '/').split('?')[0];
    const chunks: Buffer[] = [];
    let status = 0;
    let recorded = false;
    const record = (outcome: ProxyExchange['outcome'], replaced?: SseEvent[]) => {
      if (recorded) return;
      recorded = true;
      const serverEvents = parseSse(Buffer.concat(chunks).toString('utf8'));
      if (outcome === 'completed' && (status >= 400 || serverEvents.some(isError))) outcome = 'failed';
      const usage = outcome === 'completed' ? reportedUsage(serverEvents) : undefined;
      done.push({ index, path, request, status, serverEvents, sentEvents: replaced ?? serverEvents, rewritten: Boolean(replaced), usage, outcome });
    };
    const headers = { ...req.headers, host: upstream.host, 'content-length': String(Buffer.byteLength(raw)) };
    const out = httpRequest({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (reply: IncomingMessage) => {
      status = reply.statusCode ?? 502;
      if (!rewrite) res.writeHead(status, reply.headers);
      reply.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (!rewrite) res.write(chunk);
      });
      reply.on('end', () => {
        if (res.destroyed) return;
        let replaced: SseEvent[] | undefined;
        if (rewrite) {
          replaced = rewrite({ index, request, events: parseSse(Buffer.concat(chunks).toString('utf8')) });
          const body = replaced ? writeSse(replaced) : Buffer.concat(chunks);
          const { 'content-length': _length, 'transfer-encoding': _encoding, ...kept } = reply.headers;
          res.writeHead(status, { ...kept, 'content-length': String(Buffer.byteLength(body)) });
          res.write(body);
        }
        res.end();
        record('completed', replaced);
      });
      reply.on('error', () => {
        record('broken');
        res.destroy();
      });
    });
    out.on('error', () => {
      record('broken');
      res.destroy();
    });
    // The CLI hung up (an aborted turn): stop the server's work too, and record what had arrived.
    res.on('close', () => {
      if (res.writableEnded) return;
      out.destroy();
      record('incomplete');
    });
    const held = options.hold?.(request, index);
    if (held) void held.then(() => out.end(raw));
    else out.end(raw);
  });
  return {
    origin: `http://127.0.0.1:${fake.port}`,
    exchanges: () => [...done].sort((a, b) => a.index - b.index),
    close: () => fake.close(),
  };
}

/** The fields of an event's data read here: OpenAI's chunks, Anthropic's message_start and message_delta. */
interface WireEvent {
  id?: string;
  type?: string;
  choices?: { index?: number; delta?: Record<string, unknown>; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number }; output_tokens?: number };
  message?: { usage?: { input_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number; output_tokens?: number } };
}

/** An error in a stream: OpenAI-style `{"error": …}` data, or Anthropic's `event: error`. */
function isError({ event, data }: SseEvent): boolean {
  return event === 'error' || (typeof data === 'object' && data !== null && 'error' in data);
}

/** The usage a reply reports: OpenAI's last `usage` object, or Anthropic's message_start and message_delta. */
export function reportedUsage(events: readonly SseEvent[]): ReportedUsage | undefined {
  let usage: ReportedUsage | undefined;
  for (const { data } of events) {
    if (!data || typeof data !== 'object') continue;
    const d = data as WireEvent;
    if (d.usage && typeof d.usage.prompt_tokens === 'number') {
      usage = { inputTokens: d.usage.prompt_tokens, cachedInputTokens: d.usage.prompt_tokens_details?.cached_tokens ?? 0, outputTokens: d.usage.completion_tokens ?? 0 };
    } else if (d.type === 'message_start' && d.message?.usage) {
      // Anthropic counts cache reads apart from input_tokens.
      const u = d.message.usage;
      const cached = u.cache_read_input_tokens ?? 0;
      usage = { inputTokens: (u.input_tokens ?? 0) + cached + (u.cache_creation_input_tokens ?? 0), cachedInputTokens: cached, outputTokens: u.output_tokens ?? 0 };
    } else if (d.type === 'message_delta' && usage && typeof d.usage?.output_tokens === 'number') {
      usage = { ...usage, outputTokens: d.usage.output_tokens };
    }
  }
  return usage;
}

/** The sum of the reported usage of the replies that reached the CLI whole, and how many there were. */
export function totalUsage(exchanges: readonly ProxyExchange[]): ReportedUsage & { calls: number } {
  const counted = exchanges.filter((e) => e.outcome === 'completed' && e.usage);
  return counted.reduce(
    (sum, e) => ({
      inputTokens: sum.inputTokens + e.usage!.inputTokens,
      cachedInputTokens: sum.cachedInputTokens + e.usage!.cachedInputTokens,
      outputTokens: sum.outputTokens + e.usage!.outputTokens,
      calls: sum.calls + 1,
    }),
    { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0 },
  );
}

/**
 * A chat.completions reply with the model's text and calls dropped, `first` put into the first delta, and the finish
 * reason (where the server gave one) set to `finishReason`; everything else (ids, usage, timings, the chunks' order)
 * is the server's.
 */
function replaceReply(events: readonly SseEvent[], first: (chunkId: string) => Record<string, unknown>, finishReason: string): SseEvent[] {
  let placed = false;
  return events.map((e) => {
    const chunk = e.data as WireEvent;
    if (!chunk || typeof chunk !== 'object' || !Array.isArray(chunk.choices) || chunk.choices.length === 0) return e;
    const choices = chunk.choices.map((c) => {
      const { content: _content, tool_calls: _calls, ...rest }: Record<string, unknown> = c.delta ?? {};
      const delta = placed ? rest : { ...rest, ...first(String(chunk.id ?? 'x')) };
      placed = true;
      return { ...c, delta, ...(c.finish_reason ? { finish_reason: finishReason } : {}) };
    });
    return { ...e, data: { ...chunk, choices } };
  });
}

/** A chat.completions reply turned into one call of `name` with `args` (sent verbatim, so it may be malformed). */
export function asToolCall(events: readonly SseEvent[], name: string, args: string): SseEvent[] {
  return replaceReply(events, (id) => ({ tool_calls: [{ index: 0, id: `call_rewritten_${id}`, type: 'function', function: { name, arguments: args } }] }), 'tool_calls');
}

/** A chat.completions reply turned into plain text (no tool call) that ends normally. */
export function asText(events: readonly SseEvent[], text: string): SseEvent[] {
  return replaceReply(events, () => ({ content: text }), 'stop');
}

/** The text a chat.completions reply streamed (its `delta.content` pieces). */
export function replyText(events: readonly SseEvent[]): string {
  return events.map((e) => (e.data as WireEvent)?.choices?.[0]?.delta?.content).filter((c): c is string => typeof c === 'string').join('');
}

/** Whether a chat.completions reply streamed a tool call. */
export function hasToolCall(events: readonly SseEvent[]): boolean {
  return events.some(({ data }) => {
    const calls = (data as WireEvent)?.choices?.[0]?.delta?.tool_calls;
    return Array.isArray(calls) && calls.length > 0;
  });
}

/** The arguments of the tool calls a chat.completions reply streamed, joined: what the model wrote inside its calls. */
export function toolCallArguments(events: readonly SseEvent[]): string {
  return events
    .flatMap((e) => ((e.data as WireEvent)?.choices?.[0]?.delta?.tool_calls as { function?: { arguments?: unknown } }[] | undefined) ?? [])
    .map((c) => c.function?.arguments)
    .filter((a): a is string => typeof a === 'string')
    .join('');
}

// A fake Anthropic Messages API server for tests and benchmarks. It speaks the real `POST /v1/messages` SSE wire
// format (named events: message_start, ping, content_block_start/delta/stop, message_delta, message_stop, error), so
// the official SDK runs against it unmodified, and it can misbehave on purpose: HTTP errors with Anthropic's error
// body, `event: error` mid-stream, cut connections, streams without message_stop, malformed tool input, slow streams.
//
// It also checks requests the way API version 2026-10-21 does where our provider could get it wrong (see
// `validateBody`): sampling parameters, empty text blocks, tool_use/tool_result pairing, cache breakpoint count.
//
//   const server = await startFakeAnthropic(() => ({ text: 'hello' }));
//   // point a provider at server.baseUrl (no /v1: the SDK appends /v1/messages), then assert on server.requests
//   await server.close();
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordExchange, split, startFakeHttp, type RecordedHttpRequest, type ReplyOutcome } from './http-fake';

/** A content block as sent in a request (text, tool_use, tool_result, ...); the fields depend on `type`. */
export interface FakeAnthropicBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  cache_control?: { type: string; ttl?: string } | null;
  [key: string]: unknown;
}

export interface FakeAnthropicMessage {
  role: string;
  content: string | FakeAnthropicBlock[];
}

/** The parts of a Messages request body tests look at (the full parsed JSON is there too). */
export interface FakeAnthropicBody {
  model: string;
  max_tokens: number;
  messages: FakeAnthropicMessage[];
  system?: string | FakeAnthropicBlock[];
  tools?: { name: string; description?: string; input_schema?: unknown; cache_control?: unknown; [key: string]: unknown }[];
  tool_choice?: { type: string; [key: string]: unknown };
  stream?: boolean;
  [key: string]: unknown;
}

export type AnthropicReplyOutcome = ReplyOutcome;

/**
 * One HTTP request the server received, in arrival order. Its headers are as received: the SDK sends
 * `authorization: Bearer <key>`, our provider adds `x-api-key`, and `anthropic-version`.
 */
export type AnthropicRecordedRequest = RecordedHttpRequest<FakeAnthropicBody>;

export interface FakeAnthropicToolUse {
  name: string;
  /** An object is sent as JSON; a string is sent verbatim as `partial_json` fragments, so malformed JSON can be produced. */
  input: string | Record<string, unknown>;
  /** Defaults to `toolu_fake_<request>_<n>`. */
  id?: string;
}

/** Usage figures for `message_start` / `message_delta`. Defaults: input ≈ request body chars / 4, output ≈ output chars / 4, cache 0. */
export interface FakeAnthropicUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheCreationInputTokens?: number;
  cacheReadInputTokens?: number;
}

/** A normal streamed answer, optionally with injected faults. Blocks are streamed as thinking, text, then tool_use. */
export interface FakeAnthropicStreamReply {
  text?: string;
  /** A thinking block (thinking_delta fragments, then a signature_delta) before the text. */
  thinking?: string;
  /**
   * Claude's web search server tool at work before the text: a server_tool_use block (its input as input_json_delta
   * fragments) and a web_search_tool_result block, as the API streams them when the request offers web_search.
   */
  webSearch?: { query: string; results: { url: string; title: string }[] };
  toolCalls?: FakeAnthropicToolUse[];
  usage?: FakeAnthropicUsage;
  /** Defaults to 'tool_use' when there are tool calls, else 'end_turn'. */
  stopReason?: string;
  /** Characters per text, thinking and partial_json fragment (default 8), so tool input arrives in pieces. */
  chunkSize?: number;
  delayMsPerChunk?: number;
  /** Delay after the response headers, before the first event. */
  ttftMs?: number;
  /** A `ping` event after message_start, as the API sends (default true). */
  ping?: boolean;
  /**
   * Destroy the socket after this many SSE events (message_start is the first, the ping the second), `afterMs`
   * (default 10) after the last write. With 0 the client may lose events still in flight.
   */
  cut?: { afterEvents: number; afterMs?: number };
  /** Send every content block and message_delta, then end the response cleanly without message_stop. */
  endWithoutStop?: boolean;
  /**
   * Send `event: error` with `{type:'error', error:{type, message}}` after `afterEvents` events (default: after the
   * content blocks, before message_delta), then end the response, as the API does when it fails mid-stream.
   */
  streamError?: { type: string; message: string; afterEvents?: number };
}

/** An HTTP error with Anthropic's body `{ type: 'error', error: { type, message }, request_id }`. */
export interface FakeAnthropicErrorReply {
  error: { status: number; type: string; message: string; headers?: Record<string, string> };
}

export type FakeAnthropicReply = FakeAnthropicStreamReply | FakeAnthropicErrorReply;

/** Decides the reply to one valid Messages request. Throwing answers HTTP 500 api_error with the error's message. */
export type FakeAnthropicHandler = (
  request: AnthropicRecordedRequest & { body: FakeAnthropicBody },
) => FakeAnthropicReply | Promise<FakeAnthropicReply>;

export interface FakeAnthropicServer {
  /** e.g. `http://127.0.0.1:40123`, ready for an Anthropic client's `baseURL` (the SDK appends `/v1/messages`). */
  baseUrl: string;
  /** Every request received (messages, unknown paths, rejected ones), live. */
  requests: AnthropicRecordedRequest[];
  /** `POST /v1/messages` requests with a parsed body only. */
  messageRequests(): (AnthropicRecordedRequest & { body: FakeAnthropicBody })[];
  /** Stops listening and destroys open connections, so nothing keeps the process alive. */
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  /**
   * Check request bodies as API version 2026-10-21 does and answer 400 invalid_request_error on a violation
   * (default true). See `validateBody`.
   */
  validate?: boolean;
  /**
   * Simulate prompt caching (default false): each `cache_control` breakpoint's prefix (tools → system → messages,
   * per model) is written on first sight and read afterwards, and the default usage reports
   * cache_creation_input_tokens / cache_read_input_tokens accordingly (≈ chars / 4). Explicit `usage` figures win.
   */
  cache?: boolean;
}

/** Starts a fake server on 127.0.0.1 with an ephemeral port. */
export async function startFakeAnthropic(handler: FakeAnthropicHandler, options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const requests: AnthropicRecordedRequest[] = [];
  const cachedPrefixes = new Set<string>();

  const { port, close } = await startFakeHttp((exchange) => {
    const { res, settle } = exchange;
    const { record, json } = recordExchange<FakeAnthropicBody>(requests.length, exchange);
    requests.push(record);
    if (!json) {
      sendError(res, record.index, { status: 400, type: 'invalid_request_error', message: 'There was an issue with the format of your request: invalid JSON body' }, settle);
      return;
    }
    void route(record, res, settle);
  });

  async function route(record: AnthropicRecordedRequest, res: ServerResponse, settle: (o: AnthropicReplyOutcome) => void): Promise<void> {
    if (record.method !== 'POST' || record.path !== '/v1/messages') {
      sendError(res, record.index, { status: 404, type: 'not_found_error', message: `Not found: ${record.method} ${record.path}` }, settle);
      return;
    }
    if (!record.headers['anthropic-version']) {
      sendError(res, record.index, { status: 400, type: 'invalid_request_error', message: 'anthropic-version: header is required' }, settle);
      return;
    }
    const body = record.body;
    const problem = !body ? 'request body is required' : options.validate === false ? undefined : validateBody(body);
    if (problem || !body) {
      sendError(res, record.index, { status: 400, type: 'invalid_request_error', message: problem ?? 'request body is required' }, settle);
      return;
    }
    if (body.stream !== true) {
      sendError(res, record.index, { status: 400, type: 'invalid_request_error', message: 'This fake server only implements streaming (stream: true).' }, settle);
      return;
    }
    let reply: FakeAnthropicReply;
    try {
      reply = await handler(record as AnthropicRecordedRequest & { body: FakeAnthropicBody });
    } catch (error) {
      sendError(res, record.index, { status: 500, type: 'api_error', message: `fake handler threw: ${(error as Error).message}` }, settle);
      return;
    }
    if ('error' in reply) {
      sendError(res, record.index, reply.error, settle);
      return;
    }
    const cache = options.cache ? simulateCache(body, cachedPrefixes) : { read: 0, creation: 0 };
    await stream(record.index, body, reply, cache, res, settle);
  }

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    messageRequests: () =>
      requests.filter((r): r is AnthropicRecordedRequest & { body: FakeAnthropicBody } => r.path === '/v1/messages' && r.body !== undefined),
    close,
  };
}

function sendError(res: ServerResponse, requestIndex: number, error: FakeAnthropicErrorReply['error'], settle: (o: AnthropicReplyOutcome) => void): void {
  const requestId = `req_fake_${requestIndex}`;
  const body = { type: 'error', error: { type: error.type, message: error.message }, request_id: requestId };
  res.writeHead(error.status, { 'content-type': 'application/json', 'request-id': requestId, ...error.headers }).end(JSON.stringify(body));
  settle('error');
}

/** Writes the reply as the API does: message_start, ping, one start/delta.../stop run per block, message_delta, message_stop. */
async function stream(
  requestIndex: number,
  body: FakeAnthropicBody,
  reply: FakeAnthropicStreamReply,
  cache: { read: number; creation: number },
  res: ServerResponse,
  settle: (o: AnthropicReplyOutcome) => void,
): Promise<void> {
  const size = Math.max(1, reply.chunkSize ?? 8);
  const toolCalls = (reply.toolCalls ?? []).map((call, n) => ({
    id: call.id ?? `toolu_fake_${requestIndex}_${n}`,
    name: call.name,
    input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
  }));
  const output = (reply.thinking ?? '') + (reply.text ?? '') + toolCalls.map((c) => c.name + c.input).join('');
  const promptTokens = Math.ceil(JSON.stringify({ system: body.system, tools: body.tools, messages: body.messages }).length / 4);
  const usage = {
    input_tokens: reply.usage?.inputTokens ?? Math.max(0, promptTokens - cache.read - cache.creation),
    cache_creation_input_tokens: reply.usage?.cacheCreationInputTokens ?? cache.creation,
    cache_read_input_tokens: reply.usage?.cacheReadInputTokens ?? cache.read,
    output_tokens: reply.usage?.outputTokens ?? Math.max(1, Math.ceil(output.length / 4)),
  };

  const events: [name: string, data: unknown][] = [];
  events.push([
    'message_start',
    {
      type: 'message_start',
      message: {
        id: `msg_fake_${requestIndex}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens,
          cache_read_input_tokens: usage.cache_read_input_tokens,
          output_tokens: 1,
        },
      },
    },
  ]);
  if (reply.ping !== false) events.push(['ping', { type: 'ping' }]);

  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: start }]);
    for (const delta of deltas) events.push(['content_block_delta', { type: 'content_block_delta', index, delta }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  };
  if (reply.thinking) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...split(reply.thinking, size).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: `sig_fake_${requestIndex}` },
    ]);
  }
  if (reply.webSearch) {
    const id = `srvtoolu_fake_${requestIndex}`;
    block({ type: 'server_tool_use', id, name: 'web_search', input: {} }, split(JSON.stringify({ query: reply.webSearch.query }), size).map((partial_json) => ({ type: 'input_json_delta', partial_json })));
    block({
      type: 'web_search_tool_result',
      tool_use_id: id,
      content: reply.webSearch.results.map((r) => ({ type: 'web_search_result', url: r.url, title: r.title, encrypted_content: 'enc_fake', page_age: null })),
    }, []);
  }
  if (reply.text) block({ type: 'text', text: '', citations: null }, split(reply.text, size).map((text) => ({ type: 'text_delta', text })));
  for (const call of toolCalls) {
    block(
      { type: 'tool_use', id: call.id, name: call.name, input: {}, caller: { type: 'direct' } },
      split(call.input, size).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  }
  const errorAt = reply.streamError ? Math.min(reply.streamError.afterEvents ?? events.length, events.length) : -1;
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: reply.stopReason ?? (toolCalls.length ? 'tool_use' : 'end_turn'), stop_sequence: null, stop_details: null, container: null },
      usage: { output_tokens: usage.output_tokens },
    },
  ]);
  if (!reply.endWithoutStop) events.push(['message_stop', { type: 'message_stop' }]);

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': `req_fake_${requestIndex}` });
  res.flushHeaders();
  if (reply.ttftMs) await sleep(reply.ttftMs);
  const cut = async () => {
    if (reply.cut?.afterMs !== 0) await sleep(reply.cut?.afterMs ?? 10);
    settle('cut');
    res.socket?.destroy();
  };
  for (const [n, [name, data]] of events.entries()) {
    if (res.destroyed) return;
    if (reply.cut && n >= reply.cut.afterEvents) return cut();
    if (n === errorAt && reply.streamError) {
      const error = { type: 'error', error: { type: reply.streamError.type, message: reply.streamError.message }, request_id: `req_fake_${requestIndex}` };
      res.end(sse('error', error));
      return;
    }
    if (n > 0 && reply.delayMsPerChunk) await sleep(reply.delayMsPerChunk);
    if (res.destroyed) return;
    res.write(sse(name, data));
  }
  if (reply.cut) return cut();
  res.end();
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * What API version 2026-10-21 would reject in a body our provider builds, with messages modelled on the API's:
 * missing fields, sampling parameters (400 even at default values), empty text blocks, a tool_use not answered by
 * tool_result blocks at the start of the next user turn, a tool_result answering no tool_use, non-object tool input,
 * more than 4 cache breakpoints. Returns undefined when the body passes.
 */
export function validateBody(body: FakeAnthropicBody): string | undefined {
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  for (const param of ['temperature', 'top_p', 'top_k']) {
    if (param in body) return `${param}: Extra inputs are not permitted`;
  }
  let breakpoints = 0;
  const count = (block: { cache_control?: unknown }) => {
    if (block.cache_control) breakpoints++;
  };
  (body.tools ?? []).forEach(count);
  if (Array.isArray(body.system)) {
    for (const block of body.system) {
      count(block);
      if (block.type === 'text' && !block.text) return 'system: text content blocks must be non-empty';
    }
  }
  for (const [m, message] of body.messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') return `messages.${m}.role: Input should be 'user' or 'assistant'`;
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (!Array.isArray(blocks) || blocks.length === 0) return `messages.${m}: all messages must have non-empty content`;
    for (const [b, block] of blocks.entries()) {
      count(block);
      if (block.type === 'text' && !block.text) return `messages.${m}.content.${b}: text content blocks must be non-empty`;
      if (block.type === 'tool_use' && (typeof block.input !== 'object' || block.input === null || Array.isArray(block.input))) {
        return `messages.${m}.content.${b}.tool_use.input: Input should be a valid dictionary`;
      }
    }
    const previous = body.messages[m - 1];
    const offered = new Set(
      previous?.role === 'assistant' && Array.isArray(previous.content) ? previous.content.filter((b) => b.type === 'tool_use').map((b) => b.id) : [],
    );
    const results = blocks.filter((b) => b.type === 'tool_result');
    for (const result of results) {
      if (message.role !== 'user') return `messages.${m}: tool_result blocks are only allowed in user messages`;
      if (!offered.has(result.tool_use_id)) {
        return (
          `messages.${m}.content.${blocks.indexOf(result)}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${result.tool_use_id}. ` +
          'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
        );
      }
    }
    const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
    if (firstOther !== -1 && blocks.slice(firstOther).some((b) => b.type === 'tool_result')) {
      return `messages.${m}: \`tool_result\` blocks must come first in the content of a user message, before any other blocks`;
    }
    if (message.role === 'assistant') {
      const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
      const next = body.messages[m + 1];
      const answered = new Set(
        next && Array.isArray(next.content) ? next.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [],
      );
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length) {
        return (
          `messages.${m + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
          'Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
        );
      }
    }
  }
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  return undefined;
}

/**
 * Prompt-cache bookkeeping for `cache: true`. The prompt is the sequence tools → system blocks → message blocks; a
 * breakpoint's prefix is everything up to and including its block (cache_control left out of the key). The longest
 * cached breakpoint prefix is read; from there to the last breakpoint is written.
 */
function simulateCache(body: FakeAnthropicBody, cached: Set<string>): { read: number; creation: number } {
  const strip = (block: object) => JSON.stringify({ ...block, cache_control: undefined });
  const sequence: { key: string; breakpoint: boolean }[] = [];
  for (const tool of body.tools ?? []) sequence.push({ key: `tool:${strip(tool)}`, breakpoint: !!tool.cache_control });
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const block of system) sequence.push({ key: `system:${strip(block)}`, breakpoint: !!block.cache_control });
  for (const message of body.messages) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of blocks) sequence.push({ key: `${message.role}:${strip(block)}`, breakpoint: !!(block as FakeAnthropicBlock).cache_control });
  }
  let prefix = body.model;
  let read = 0;
  let last = 0;
  const written: string[] = [];
  for (const item of sequence) {
    prefix += `\n${item.key}`;
    if (!item.breakpoint) continue;
    const tokens = Math.ceil(prefix.length / 4);
    if (cached.has(prefix)) read = tokens;
    else written.push(prefix);
    last = tokens;
  }
  written.forEach((p) => cached.add(p));
  return { read, creation: Math.max(0, last - read) };
}

// ---------------------------------------------------------------------------------------------------------------
// A scripted MassGen agent, the Anthropic twin of the OpenAI fake's `coordinationScript`.

/** How one agent (identified by the request's `model`) behaves under `coordinationScript`. */
export interface AnthropicAgentScript {
  /** The `content` of its `new_answer`, and its plain-text reply when no coordination tool is offered. */
  answer?: string;
  /** The `agent_id` it votes for (default 'agent1'). */
  voteFor?: string;
  reason?: string;
  /** Replies used, one per request, before the default behaviour (e.g. a 529 first, then normal play). Per model. */
  first?: FakeAnthropicReply[];
  /** Merged into every generated reply (usage, chunkSize, thinking, delays, ...). */
  reply?: Partial<FakeAnthropicStreamReply>;
}

/**
 * A handler that plays MassGen agents, stateless apart from `first`, exactly as the OpenAI fake's one:
 * - `new_answer` offered and the agent's answer text appears in no message yet → calls `new_answer {content}`;
 * - otherwise, `vote` offered → calls `vote {agent_id, reason}`;
 * - no coordination tool offered (e.g. the final presentation) → answers with its answer text.
 * "Has answered" is read from the messages (text, tool_use input and tool_result content), so one server can serve
 * many runs. The default answer is `Answer from <model>.`. Models missing from `agents` use `defaults`.
 */
export function coordinationScript(agents: Record<string, AnthropicAgentScript> = {}, defaults: AnthropicAgentScript = {}): FakeAnthropicHandler {
  const pending = new Map<string, FakeAnthropicReply[]>();
  return ({ body }) => {
    const script = { ...defaults, ...agents[body.model] };
    if (!pending.has(body.model)) pending.set(body.model, [...(script.first ?? [])]);
    const queued = pending.get(body.model)?.shift();
    if (queued) return queued;

    const answer = script.answer ?? `Answer from ${body.model}.`;
    const offered = new Set((body.tools ?? []).map((t) => t.name));
    const answered = body.messages.some((m) => messageText(m).includes(answer));
    if (offered.has('new_answer') && !answered) {
      return { ...script.reply, toolCalls: [{ name: 'new_answer', input: { content: answer } }] };
    }
    if (offered.has('vote')) {
      const vote = { agent_id: script.voteFor ?? 'agent1', reason: script.reason ?? `${body.model} finds this answer the best.` };
      return { ...script.reply, toolCalls: [{ name: 'vote', input: vote }] };
    }
    return { ...script.reply, text: answer };
  };
}

/** Everything in a message an answer could be quoted in: text, tool_use input, tool_result content. */
function messageText(message: FakeAnthropicMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((b) => (typeof b.text === 'string' ? b.text : '') + (b.input !== undefined ? JSON.stringify(b.input) : '') + (b.content !== undefined ? JSON.stringify(b.content) : ''))
    .join('');
}

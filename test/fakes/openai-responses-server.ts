// A fake OpenAI Responses API server for tests. It speaks the real `POST /v1/responses` SSE format: named events
// (`event: response.output_text.delta` + `data: {"type": …, "sequence_number": n, …}`) from response.created through
// output_item.added/done, output_text and function_call_arguments deltas, reasoning summary deltas, the built-in
// tools' web_search_call / code_interpreter_call items, to response.completed with usage (input_tokens_details.
// cached_tokens, output_tokens_details.reasoning_tokens), or response.incomplete / response.failed / an `error` event.
// It misbehaves on purpose: HTTP errors with OpenAI's error body and retry-after, cut connections, streams that end
// before response.completed, slow streams.
//
//   const server = await startFakeResponses(() => ({ text: 'hello' }));
//   // point a provider at server.baseUrl (ends in /v1), then assert on server.requests
//   await server.close();
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordExchange, split, startFakeHttp, type RecordedHttpRequest, type ReplyOutcome } from './http-fake';

/** The parts of a Responses request body tests look at. */
export interface FakeResponsesBody {
  model: string;
  input: Record<string, unknown>[] | string;
  instructions?: string;
  tools?: Record<string, unknown>[];
  tool_choice?: unknown;
  stream?: boolean;
  store?: boolean;
  reasoning?: Record<string, unknown>;
  text?: Record<string, unknown>;
  [key: string]: unknown;
}

export type ResponsesReplyOutcome = ReplyOutcome;

export type ResponsesRecordedRequest = RecordedHttpRequest<FakeResponsesBody>;

export interface FakeResponsesCall {
  name: string;
  /** An object is sent as JSON; a string verbatim (malformed JSON can be produced). */
  arguments: string | Record<string, unknown>;
  /** The call_id (default `call_fake_<request>_<n>`). */
  callId?: string;
  /** A tool of a namespace tool (Codex offers an MCP server's tools as namespace `mcp__<server>`): its name. */
  namespace?: string;
}

export interface FakeResponsesStreamReply {
  text?: string;
  /** A reasoning item whose summary parts stream as reasoning_summary_text deltas. */
  reasoningSummary?: string[];
  toolCalls?: FakeResponsesCall[];
  /** Built-in tool items streamed before the message (as OpenAI runs them itself). */
  builtinCalls?: ('web_search' | 'code_interpreter')[];
  usage?: { inputTokens?: number; cachedTokens?: number; outputTokens?: number; reasoningTokens?: number };
  /** Characters per text, summary and argument delta (default 8). */
  chunkSize?: number;
  delayMsPerChunk?: number;
  /** Destroy the socket after this many events (response.created is the first). */
  cut?: { afterEvents: number };
  /** Send every item, then end the response cleanly without response.completed. */
  endWithoutCompleted?: boolean;
  /** End with response.incomplete for this reason instead of response.completed. */
  incomplete?: string;
  /** End with response.failed carrying this error. */
  failed?: { code: string; message: string };
  /** An `error` event after the items (the stream ends after it); `nested` sends its details under `error`, as some servers do. */
  streamError?: { code: string; message: string; nested?: boolean };
}

/** An HTTP error with OpenAI's body `{error: {message, type, param, code}}`. */
export interface FakeResponsesErrorReply {
  error: { status: number; message: string; type?: string; code?: string | null; headers?: Record<string, string> };
}

export type FakeResponsesReply = FakeResponsesStreamReply | FakeResponsesErrorReply;

export type FakeResponsesHandler = (request: ResponsesRecordedRequest & { body: FakeResponsesBody }) => FakeResponsesReply | Promise<FakeResponsesReply>;

export interface FakeResponsesServer {
  /** e.g. `http://127.0.0.1:40123/v1` */
  baseUrl: string;
  requests: ResponsesRecordedRequest[];
  responseRequests(): (ResponsesRecordedRequest & { body: FakeResponsesBody })[];
  close(): Promise<void>;
}

export async function startFakeResponses(handler: FakeResponsesHandler): Promise<FakeResponsesServer> {
  const requests: ResponsesRecordedRequest[] = [];
  const { port, close } = await startFakeHttp((exchange) => {
    const { res, settle } = exchange;
    const { record, json } = recordExchange<FakeResponsesBody>(requests.length, exchange);
    requests.push(record);
    if (!json) {
      sendError(res, { status: 400, message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' }, settle);
      return;
    }
    void answer(record, res, settle);
  });

  async function answer(record: ResponsesRecordedRequest, res: ServerResponse, settle: (o: ResponsesReplyOutcome) => void): Promise<void> {
    if (record.method !== 'POST' || record.path !== '/v1/responses') {
      sendError(res, { status: 404, message: `Invalid URL (${record.method} ${record.path})`, type: 'invalid_request_error' }, settle);
      return;
    }
    const body = record.body;
    const problem = body ? validateBody(body) : "Missing required parameter: 'model'.";
    if (problem || !body) {
      sendError(res, { status: 400, message: problem ?? 'empty body', type: 'invalid_request_error' }, settle);
      return;
    }
    let reply: FakeResponsesReply;
    try {
      reply = await handler(record as ResponsesRecordedRequest & { body: FakeResponsesBody });
    } catch (error) {
      sendError(res, { status: 500, message: `fake handler threw: ${(error as Error).message}`, type: 'server_error' }, settle);
      return;
    }
    if ('error' in reply) {
      sendError(res, reply.error, settle);
      return;
    }
    await stream(record.index, body, reply, res, settle);
  }

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    responseRequests: () => requests.filter((r): r is ResponsesRecordedRequest & { body: FakeResponsesBody } => r.path === '/v1/responses' && r.body !== undefined),
    close,
  };
}

function sendError(res: ServerResponse, error: FakeResponsesErrorReply['error'], settle: (o: ResponsesReplyOutcome) => void): void {
  const body = { error: { message: error.message, type: error.type ?? 'invalid_request_error', param: null, code: error.code ?? null } };
  res.writeHead(error.status, { 'content-type': 'application/json', 'x-request-id': 'req_fake', ...error.headers }).end(JSON.stringify(body));
  settle('error');
}

/**
 * What the Responses API refuses in a body our provider could get wrong: missing model or input, a streaming-only
 * fake asked not to stream, a function_call_output whose call_id no earlier function_call has, messages with roles
 * the API does not take in `input`, function tools without a name.
 */
export function validateBody(body: FakeResponsesBody): string | undefined {
  if (typeof body.model !== 'string' || !body.model) return "Missing required parameter: 'model'.";
  if (body.stream !== true) return 'This fake server only implements streaming (stream: true).';
  if (!Array.isArray(body.input)) return typeof body.input === 'string' ? undefined : "Missing required parameter: 'input'.";
  const calls = new Set<unknown>();
  for (const [i, item] of body.input.entries()) {
    if (item.type === 'function_call') calls.add(item.call_id);
    if (item.type === 'function_call_output' && !calls.has(item.call_id)) return `No tool call found for function call output with call_id ${String(item.call_id)}.`;
    if (item.role !== undefined && !['user', 'assistant', 'system', 'developer'].includes(String(item.role))) return `Invalid value: '${String(item.role)}'. input[${i}].role`;
  }
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (tool.type === 'function' && !tool.name) return `Missing required parameter: 'tools[${i}].name'.`;
  }
  return undefined;
}

type Event = Record<string, unknown> & { type: string };

async function stream(requestIndex: number, body: FakeResponsesBody, reply: FakeResponsesStreamReply, res: ServerResponse, settle: (o: ResponsesReplyOutcome) => void): Promise<void> {
  const size = Math.max(1, reply.chunkSize ?? 8);
  const id = `resp_fake_${requestIndex}`;
  const events: Event[] = [];
  const output: Record<string, unknown>[] = [];
  const base = { id, object: 'response', created_at: 1_700_000_000, model: body.model, output: [] as unknown[], usage: null };
  events.push({ type: 'response.created', response: { ...base, status: 'in_progress' } });
  events.push({ type: 'response.in_progress', response: { ...base, status: 'in_progress' } });

  let index = 0;
  if (reply.reasoningSummary?.length) {
    const item = { id: `rs_fake_${requestIndex}`, type: 'reasoning', summary: [] as unknown[] };
    events.push({ type: 'response.output_item.added', output_index: index, item });
    reply.reasoningSummary.forEach((summary, s) => {
      events.push({ type: 'response.reasoning_summary_part.added', item_id: item.id, output_index: index, summary_index: s, part: { type: 'summary_text', text: '' } });
      for (const delta of split(summary, size)) events.push({ type: 'response.reasoning_summary_text.delta', item_id: item.id, output_index: index, summary_index: s, delta });
      events.push({ type: 'response.reasoning_summary_text.done', item_id: item.id, output_index: index, summary_index: s, text: summary });
    });
    const done = { ...item, summary: reply.reasoningSummary.map((text) => ({ type: 'summary_text', text })) };
    events.push({ type: 'response.output_item.done', output_index: index, item: done });
    output.push(done);
    index++;
  }
  for (const kind of reply.builtinCalls ?? []) {
    const item = kind === 'web_search'
      ? { id: `ws_fake_${requestIndex}_${index}`, type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'fake query' } }
      : { id: `ci_fake_${requestIndex}_${index}`, type: 'code_interpreter_call', status: 'completed', code: 'print(2+2)', container_id: 'cntr_fake', outputs: null };
    events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress' } });
    events.push({ type: kind === 'web_search' ? 'response.web_search_call.completed' : 'response.code_interpreter_call.completed', item_id: item.id, output_index: index });
    events.push({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
    index++;
  }
  if (reply.text) {
    const itemId = `msg_fake_${requestIndex}`;
    events.push({ type: 'response.output_item.added', output_index: index, item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
    events.push({ type: 'response.content_part.added', item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of split(reply.text, size)) events.push({ type: 'response.output_text.delta', item_id: itemId, output_index: index, content_index: 0, delta, logprobs: [] });
    events.push({ type: 'response.output_text.done', item_id: itemId, output_index: index, content_index: 0, text: reply.text, logprobs: [] });
    const part = { type: 'output_text', text: reply.text, annotations: [] };
    events.push({ type: 'response.content_part.done', item_id: itemId, output_index: index, content_index: 0, part });
    const done = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
    events.push({ type: 'response.output_item.done', output_index: index, item: done });
    output.push(done);
    index++;
  }
  for (const [n, call] of (reply.toolCalls ?? []).entries()) {
    const itemId = `fc_fake_${requestIndex}_${n}`;
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const item = { id: itemId, type: 'function_call', status: 'in_progress', call_id: call.callId ?? `call_fake_${requestIndex}_${n}`, ...(call.namespace ? { namespace: call.namespace } : {}), name: call.name, arguments: '' };
    events.push({ type: 'response.output_item.added', output_index: index, item });
    for (const delta of split(args, size)) events.push({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: index, delta });
    events.push({ type: 'response.function_call_arguments.done', item_id: itemId, output_index: index, arguments: args });
    const done = { ...item, status: 'completed', arguments: args };
    events.push({ type: 'response.output_item.done', output_index: index, item: done });
    output.push(done);
    index++;
  }

  const prompt = Math.ceil(JSON.stringify({ instructions: body.instructions, input: body.input, tools: body.tools }).length / 4);
  const u = reply.usage ?? {};
  const usage = {
    input_tokens: u.inputTokens ?? prompt,
    input_tokens_details: { cached_tokens: u.cachedTokens ?? 0 },
    output_tokens: u.outputTokens ?? Math.max(1, Math.ceil(((reply.text ?? '') + (reply.reasoningSummary ?? []).join('')).length / 4)),
    output_tokens_details: { reasoning_tokens: u.reasoningTokens ?? 0 },
    total_tokens: 0,
  };
  usage.total_tokens = usage.input_tokens + usage.output_tokens;
  if (reply.streamError) {
    const { code, message, nested } = reply.streamError;
    events.push(nested ? { type: 'error', error: { type: 'invalid_request_error', code, message, param: null } } : { type: 'error', code, message, param: null });
  } else if (reply.failed) {
    events.push({ type: 'response.failed', response: { ...base, status: 'failed', output, error: reply.failed, usage: null } });
  } else if (reply.incomplete) {
    events.push({ type: 'response.incomplete', response: { ...base, status: 'incomplete', output, incomplete_details: { reason: reply.incomplete }, usage } });
  } else if (!reply.endWithoutCompleted) {
    events.push({ type: 'response.completed', response: { ...base, status: 'completed', output, usage } });
  }

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': `req_fake_${requestIndex}` });
  res.flushHeaders();
  for (const [n, event] of events.entries()) {
    if (res.destroyed) return;
    if (reply.cut && n >= reply.cut.afterEvents) {
      await sleep(10);
      settle('cut');
      res.socket?.destroy();
      return;
    }
    if (n > 0 && reply.delayMsPerChunk) await sleep(reply.delayMsPerChunk);
    if (res.destroyed) return;
    res.write(`event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: n })}\n\n`);
  }
  if (reply.cut) {
    await sleep(10);
    settle('cut');
    res.socket?.destroy();
    return;
  }
  res.end();
}

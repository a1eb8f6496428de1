// A fake OpenAI-compatible server for tests and benchmarks. It speaks the real chat.completions SSE wire format, so
// the official SDK (and anything else that talks to OpenAI) runs against it unmodified, and it can misbehave on
// purpose: HTTP errors, cut connections, streams without a finish_reason, malformed tool arguments, slow streams, and
// the deviations of other servers (plain JSON answers, odd SSE framing, tool-call and usage layouts, error pages).
//
//   const server = await startFakeOpenAI(() => ({ text: 'hello' }));
//   // point a provider at server.baseUrl, then assert on server.requests
//   await server.close();
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordExchange, split, startFakeHttp, type RecordedHttpRequest, type ReplyOutcome } from './http-fake';

/** The parts of a chat.completions request body tests look at (the full parsed JSON is there too). */
export interface FakeChatBody {
  model: string;
  messages: FakeMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export interface FakeMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export type { ReplyOutcome };

/** One HTTP request the server received, in arrival order. */
export type RecordedRequest = RecordedHttpRequest<FakeChatBody>;

export interface FakeToolCall {
  name: string;
  /** An object is sent as JSON; a string is sent verbatim, so malformed JSON can be produced. */
  arguments: string | Record<string, unknown>;
  /** Defaults to `call_fake_<request>_<n>`. */
  id?: string;
}

/** A normal streamed answer, optionally with injected faults. */
export interface FakeStreamReply {
  text?: string;
  /** Streamed before the text in `reasoningField` (DeepSeek/vLLM `reasoning_content` by default, Ollama `reasoning`). */
  reasoning?: string;
  reasoningField?: 'reasoning_content' | 'reasoning';
  toolCalls?: FakeToolCall[];
  /** Defaults: prompt ≈ request body chars / 4, completion ≈ output chars / 4, cached 0. */
  usage?: { promptTokens?: number; completionTokens?: number; cachedTokens?: number };
  /** Defaults to 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: string;
  /** Characters per text, reasoning and tool-argument fragment (default 8), so arguments arrive in pieces. */
  chunkSize?: number;
  delayMsPerChunk?: number;
  /** Delay after the response headers, before the first chunk. */
  ttftMs?: number;
  /** Leave the `id` out of tool-call fragments, as some local servers do. */
  omitToolCallIds?: boolean;
  /**
   * Destroy the socket after this many `data:` events (the role chunk is the first), `afterMs` (default 10) after the
   * last write. With 0 the client may lose chunks still in flight: undici drops unread body data when the socket dies.
   */
  cut?: { afterChunks: number; afterMs?: number };
  /** Send every content chunk and `[DONE]`, but no finish_reason and no usage. */
  endWithoutFinish?: boolean;
  /**
   * After the content chunks, an `{ error }` event instead of the finish, usage and `[DONE]` (how llama.cpp reports a
   * failure once a stream has begun, e.g. a reply its chat parser could not read).
   */
  errorEvent?: { message: string; type?: string; code?: number };

  // Deviations seen in real OpenAI-compatible servers (Ollama, vLLM, LM Studio, llama.cpp, LiteLLM, hand-written fakes).

  /** Ignore `stream: true` and answer with one plain `chat.completion` JSON body. */
  nonStreaming?: boolean;
  /** Replaces the response's content-type (text/event-stream, or application/json when `nonStreaming`); null sends none. */
  contentType?: string | null;
  /**
   * Where usage goes: 'final' (default, OpenAI) in a chunk of its own after the finish chunk, only when
   * `stream_options.include_usage` asks; 'none' never; 'every_chunk' a running total in every chunk, the final one
   * last; 'with_finish' in the last content chunk, which also carries the finish_reason (no finish chunk of its own).
   */
  usageIn?: 'final' | 'none' | 'every_chunk' | 'with_finish';
  /** How tool calls are laid out; the default is OpenAI's: indexed fragments, id on the first, arguments a string. */
  toolCallStyle?: {
    /** Each call in a single fragment with its complete arguments. */
    whole?: boolean;
    /** No `index` on any fragment; the `id` (unless `omitToolCallIds`) goes on every fragment instead. */
    omitIndex?: boolean;
    /** Arguments sent as a JSON object, whole, in the call's first fragment. */
    argumentsAsObject?: boolean;
    /** The pre-tools API: the first call only, as `function_call` deltas, finish_reason 'function_call'. */
    legacyFunctionCall?: boolean;
  };
  /** Text sent as `[{ type: 'text', text }]` content parts instead of strings. */
  contentAsParts?: boolean;
  /** `content: null` in every chunk that carries no text. */
  nullContent?: boolean;
  /** SSE framing deviations. */
  sse?: {
    /** `data:{...}` without the space. */
    noSpace?: boolean;
    /** CRLF line endings. */
    crlf?: boolean;
    /** A `: keep-alive` comment before every event. */
    keepAlive?: boolean;
    /** An `event: <name>` line before every `data:` line. */
    event?: string;
    /** End without `data: [DONE]`. */
    omitDone?: boolean;
    /** The last event ends with a single newline instead of a blank line. */
    unterminated?: boolean;
  };
}

/** An HTTP error, by default with OpenAI's error body `{ error: { message, type, code } }`. */
export interface FakeErrorReply {
  error: {
    status: number;
    /** OpenAI's `error.message`; may be left out when `body` is given. */
    message?: string;
    type?: string;
    code?: string | null;
    headers?: Record<string, string>;
    /** Sent instead of OpenAI's error shape: a string verbatim (proxy HTML pages, plain text), an object as JSON (vLLM, FastAPI). */
    body?: string | Record<string, unknown>;
    /** Defaults to application/json. */
    contentType?: string;
  };
}

export type FakeReply = FakeStreamReply | FakeErrorReply;

/** Decides the reply to one chat.completions request. Throwing answers HTTP 500 with the error's message. */
export type FakeHandler = (request: RecordedRequest & { body: FakeChatBody }) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAIServer {
  /** e.g. `http://127.0.0.1:40123/v1`, ready for an OpenAI client's `baseURL`. */
  baseUrl: string;
  /** Every request received (chat completions, model listings, unknown paths), live. */
  requests: RecordedRequest[];
  /** Chat-completion requests only. */
  chatRequests(): (RecordedRequest & { body: FakeChatBody })[];
  /** Stops listening and destroys open connections, so nothing keeps the process alive. */
  close(): Promise<void>;
}

export interface FakeServerOptions {
  /** Ids listed by `GET /v1/models` (default `['fake-model']`). */
  models?: string[];
}

/** Starts a fake server on 127.0.0.1 with an ephemeral port. */
export async function startFakeOpenAI(handler: FakeHandler, options: FakeServerOptions = {}): Promise<FakeOpenAIServer> {
  const requests: RecordedRequest[] = [];
  const models = options.models ?? ['fake-model'];

  const { port, close } = await startFakeHttp((exchange) => {
    const { res, settle } = exchange;
    const { record, json } = recordExchange<FakeChatBody>(requests.length, exchange);
    requests.push(record);
    if (!json) {
      sendError(res, { status: 400, message: 'We could not parse the JSON body of your request.' }, settle);
      return;
    }
    void route(record, res, settle);
  });

  async function route(record: RecordedRequest, res: ServerResponse, settle: (o: ReplyOutcome) => void): Promise<void> {
    if (record.method === 'GET' && record.path === '/v1/models') {
      const data = models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
      return;
    }
    if (record.method !== 'POST' || record.path !== '/v1/chat/completions') {
      sendError(res, { status: 404, message: `Unknown request URL: ${record.method} ${record.path}.`, code: 'unknown_url' }, settle);
      return;
    }
    const body = record.body;
    if (!body || typeof body.model !== 'string' || !Array.isArray(body.messages)) {
      sendError(res, { status: 400, message: "'model' and 'messages' are required." }, settle);
      return;
    }
    if (body.stream !== true) {
      sendError(res, { status: 400, message: 'This fake server only implements streaming (stream: true).' }, settle);
      return;
    }
    let reply: FakeReply;
    try {
      reply = await handler(record as RecordedRequest & { body: FakeChatBody });
    } catch (error) {
      sendError(res, { status: 500, message: `fake handler threw: ${(error as Error).message}`, type: 'server_error' }, settle);
      return;
    }
    if ('error' in reply) sendError(res, reply.error, settle);
    else await stream(record.index, body, reply, res, settle);
  }

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r): r is RecordedRequest & { body: FakeChatBody } => r.path === '/v1/chat/completions' && r.body !== undefined),
    close,
  };
}

function sendError(res: ServerResponse, error: FakeErrorReply['error'], settle: (o: ReplyOutcome) => void): void {
  const body = error.body ?? { error: { message: error.message ?? '', type: error.type ?? 'invalid_request_error', param: null, code: error.code ?? null } };
  res
    .writeHead(error.status, { 'content-type': error.contentType ?? 'application/json', ...error.headers })
    .end(typeof body === 'string' ? body : JSON.stringify(body));
  settle('error');
}

/**
 * Writes the reply as OpenAI does: role chunk, reasoning, text, tool-call fragments, finish chunk, usage chunk, [DONE];
 * or with the deviations the reply asks for.
 */
async function stream(requestIndex: number, body: FakeChatBody, reply: FakeStreamReply, res: ServerResponse, settle: (o: ReplyOutcome) => void): Promise<void> {
  const id = `chatcmpl-fake-${requestIndex}`;
  const created = Math.floor(Date.now() / 1000);
  const usageIn = reply.usageIn ?? 'final';
  const includeUsage = body.stream_options?.include_usage === true;
  const size = Math.max(1, reply.chunkSize ?? 8);
  const style = reply.toolCallStyle ?? {};
  const whole = style.whole || style.argumentsAsObject;
  const toolCalls = (reply.toolCalls ?? []).map((call, n) => {
    const text = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    return { id: call.id ?? `call_fake_${requestIndex}_${n}`, name: call.name, text, value: style.argumentsAsObject ? (JSON.parse(text) as unknown) : text };
  });
  const finishReason = reply.finishReason ?? (toolCalls.length ? (style.legacyFunctionCall ? 'function_call' : 'tool_calls') : 'stop');

  const output = (reply.text ?? '') + (reply.reasoning ?? '') + toolCalls.map((c) => c.name + c.text).join('');
  const prompt = reply.usage?.promptTokens ?? Math.ceil(JSON.stringify(body).length / 4);
  const completion = reply.usage?.completionTokens ?? Math.ceil(output.length / 4);
  const usage = (completionTokens: number) => ({
    prompt_tokens: prompt,
    completion_tokens: completionTokens,
    total_tokens: prompt + completionTokens,
    prompt_tokens_details: { cached_tokens: reply.usage?.cachedTokens ?? 0 },
  });
  const contentType = (standard: string) => (reply.contentType === null ? {} : { 'content-type': reply.contentType ?? standard });
  const reasoningField = reply.reasoningField ?? 'reasoning_content';
  const content = (text: string) => (reply.contentAsParts ? [{ type: 'text', text }] : text);
  const ref = (call: (typeof toolCalls)[number], index: number, first: boolean) => ({
    ...(style.omitIndex ? {} : { index }),
    ...(reply.omitToolCallIds || (!first && !style.omitIndex) ? {} : { id: call.id }),
  });

  if (reply.nonStreaming) {
    // A whole message's tool calls carry no `index`, as OpenAI's own.
    const calls = toolCalls.map((call) => ({ ...(reply.omitToolCallIds ? {} : { id: call.id }), type: 'function', function: { name: call.name, arguments: call.value } }));
    const message = {
      role: 'assistant',
      content: reply.text ? content(reply.text) : null,
      ...(reply.reasoning ? { [reasoningField]: reply.reasoning } : {}),
      ...(calls.length ? (style.legacyFunctionCall ? { function_call: calls[0].function } : { tool_calls: calls }) : {}),
    };
    const choice = { index: 0, message, logprobs: null, finish_reason: finishReason };
    const completionBody = { id, object: 'chat.completion', created, model: body.model, choices: [choice], ...(usageIn === 'none' ? {} : { usage: usage(completion) }) };
    if (reply.ttftMs) await sleep(reply.ttftMs);
    res.writeHead(200, { ...contentType('application/json'), 'x-request-id': `req_fake_${requestIndex}` }).end(JSON.stringify(completionBody));
    return;
  }

  type Chunk = { choices: { finish_reason: string | null; [key: string]: unknown }[]; usage?: unknown; [key: string]: unknown };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): Chunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    choices: [{ index: 0, delta: reply.nullContent ? { content: null, ...delta } : delta, logprobs: null, finish_reason: finish }],
    // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
    ...(usageIn === 'final' && includeUsage ? { usage: null } : {}),
  });

  const events: Chunk[] = [chunk({ role: 'assistant', content: reply.nullContent ? null : '' })];
  for (const piece of split(reply.reasoning ?? '', size)) events.push(chunk({ [reasoningField]: piece }));
  for (const piece of split(reply.text ?? '', size)) events.push(chunk({ content: content(piece) }));
  if (style.legacyFunctionCall) {
    for (const call of toolCalls.slice(0, 1)) {
      events.push(chunk({ function_call: { name: call.name, arguments: whole ? call.value : '' } }));
      if (!whole) for (const piece of split(call.text, size)) events.push(chunk({ function_call: { arguments: piece } }));
    }
  } else if (whole && toolCalls.length) {
    events.push(chunk({ tool_calls: toolCalls.map((call, index) => ({ ...ref(call, index, true), type: 'function', function: { name: call.name, arguments: call.value } })) }));
  } else {
    toolCalls.forEach((call, index) => {
      events.push(chunk({ tool_calls: [{ ...ref(call, index, true), type: 'function', function: { name: call.name, arguments: '' } }] }));
      for (const piece of split(call.text, size)) events.push(chunk({ tool_calls: [{ ...ref(call, index, false), function: { arguments: piece } }] }));
    });
  }
  if (!reply.endWithoutFinish && !reply.errorEvent) {
    const last = events[events.length - 1];
    if (usageIn === 'with_finish') Object.assign(last, { usage: usage(completion) }).choices[0].finish_reason = finishReason;
    else events.push(chunk({}, finishReason));
    if (usageIn === 'final' && includeUsage) events.push({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: usage(completion) });
  }
  if (usageIn === 'every_chunk') events.forEach((event, n) => (event.usage = usage(n === events.length - 1 ? completion : n)));

  const sse = reply.sse ?? {};
  const nl = sse.crlf ? '\r\n' : '\n';
  const frame = (data: string, last: boolean) =>
    (sse.keepAlive ? `: keep-alive${nl}${nl}` : '') +
    (sse.event ? `event: ${sse.event}${nl}` : '') +
    `data:${sse.noSpace ? '' : ' '}${data}${nl}` +
    (last && sse.unterminated ? '' : nl);

  res.writeHead(200, { ...contentType('text/event-stream; charset=utf-8'), 'cache-control': 'no-cache', 'x-request-id': `req_fake_${requestIndex}` });
  res.flushHeaders();
  if (reply.ttftMs) await sleep(reply.ttftMs);
  const cut = async () => {
    if (reply.cut?.afterMs !== 0) await sleep(reply.cut?.afterMs ?? 10);
    settle('cut');
    res.socket?.destroy();
  };
  for (const [n, event] of events.entries()) {
    if (res.destroyed) return;
    if (reply.cut && n >= reply.cut.afterChunks) return cut();
    if (n > 0 && reply.delayMsPerChunk) await sleep(reply.delayMsPerChunk);
    if (res.destroyed) return;
    res.write(frame(JSON.stringify(event), n === events.length - 1 && sse.omitDone === true));
  }
  if (reply.cut) return cut();
  if (reply.errorEvent) {
    const { message, type = 'server_error', code = 500 } = reply.errorEvent;
    res.end(frame(JSON.stringify({ error: { code, message, type } }), true));
    return;
  }
  res.end(sse.omitDone ? '' : frame('[DONE]', true));
}

// ---------------------------------------------------------------------------------------------------------------
// A scripted MassGen agent.

/** How one agent (identified by the request's `model`) behaves under `coordinationScript`. */
export interface AgentScript {
  /** The `content` of its `new_answer`, and its plain-text reply when no coordination tool is offered. */
  answer?: string;
  /** The `agent_id` it votes for (default 'agent1'). */
  voteFor?: string;
  reason?: string;
  /**
   * Replies used, one per request, before the default behaviour (e.g. a 429 first, then normal play).
   * This is the only state the handler keeps, per model.
   */
  first?: FakeReply[];
  /** Merged into every generated reply (usage, chunkSize, delays, ...). */
  reply?: Partial<FakeStreamReply>;
}

/**
 * A handler that plays MassGen agents, stateless apart from `first`:
 * - `new_answer` offered and the agent's answer text appears in no message yet → calls `new_answer {content}`;
 * - otherwise, `vote` offered → calls `vote {agent_id, reason}`;
 * - no coordination tool offered (e.g. the final presentation) → answers with its answer text.
 * "Has answered" is read from the messages (the engine shows current answers to the agents), so one server can serve
 * many runs; give each agent a distinctive answer that the engine will show verbatim. The default answer is
 * `Answer from <model>.`. Models missing from `agents` use `defaults`.
 */
export function coordinationScript(agents: Record<string, AgentScript> = {}, defaults: AgentScript = {}): FakeHandler {
  const pending = new Map<string, FakeReply[]>();
  return ({ body }) => {
    const script = { ...defaults, ...agents[body.model] };
    if (!pending.has(body.model)) pending.set(body.model, [...(script.first ?? [])]);
    const queued = pending.get(body.model)?.shift();
    if (queued) return queued;

    const answer = script.answer ?? `Answer from ${body.model}.`;
    const offered = new Set((body.tools ?? []).map((t) => t.function.name));
    const answered = body.messages.some((m) => messageText(m).includes(answer));
    if (offered.has('new_answer') && !answered) {
      return { ...script.reply, toolCalls: [{ name: 'new_answer', arguments: { content: answer } }] };
    }
    if (offered.has('vote')) {
      const vote = { agent_id: script.voteFor ?? 'agent1', reason: script.reason ?? `${body.model} finds this answer the best.` };
      return { ...script.reply, toolCalls: [{ name: 'vote', arguments: vote }] };
    }
    return { ...script.reply, text: answer };
  };
}

/** Everything in a message an answer could be quoted in: its content (string or parts) and tool-call arguments. */
function messageText(message: FakeMessage): string {
  const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
  return content + (message.tool_calls ?? []).map((c) => c.function.arguments).join('');
}

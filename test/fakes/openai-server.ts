// A fake OpenAI-compatible server for tests and benchmarks. It speaks the real chat.completions SSE wire format, so
// the official SDK (and anything else that talks to OpenAI) runs against it unmodified, and it can misbehave on
// purpose: HTTP errors, cut connections, streams without a finish_reason, malformed tool arguments, slow streams.
//
//   const server = await startFakeOpenAI(() => ({ text: 'hello' }));
//   // point a provider at server.baseUrl, then assert on server.requests
//   await server.close();
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export type ReplyOutcome = 'completed' | 'error' | 'cut' | 'client_closed';

/** One HTTP request the server received, in arrival order. */
export interface RecordedRequest {
  /** 0-based arrival order across all paths. */
  index: number;
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; `undefined` for bodiless requests (GET). */
  body: FakeChatBody | undefined;
  /** Settles when the reply ended: written out, sent as an HTTP error, cut by the fake, or closed by the client. */
  outcome: Promise<ReplyOutcome>;
}

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
}

/** An HTTP error with OpenAI's error body `{ error: { message, type, code } }`. */
export interface FakeErrorReply {
  error: { status: number; message: string; type?: string; code?: string | null; headers?: Record<string, string> };
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

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let settle: (outcome: ReplyOutcome) => void = () => {};
      const outcome = new Promise<ReplyOutcome>((resolve) => (settle = resolve));
      res.on('close', () => settle(res.writableFinished ? 'completed' : 'client_closed'));
      const raw = Buffer.concat(chunks).toString('utf8');
      const record: RecordedRequest = {
        index: requests.length,
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0],
        headers: req.headers,
        body: undefined,
        outcome,
      };
      requests.push(record);
      try {
        record.body = raw ? (JSON.parse(raw) as FakeChatBody) : undefined;
      } catch {
        sendError(res, { status: 400, message: 'We could not parse the JSON body of your request.' }, settle);
        return;
      }
      void route(record, res, settle);
    });
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

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r): r is RecordedRequest & { body: FakeChatBody } => r.path === '/v1/chat/completions' && r.body !== undefined),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function sendError(res: ServerResponse, error: FakeErrorReply['error'], settle: (o: ReplyOutcome) => void): void {
  const body = { error: { message: error.message, type: error.type ?? 'invalid_request_error', param: null, code: error.code ?? null } };
  res.writeHead(error.status, { 'content-type': 'application/json', ...error.headers }).end(JSON.stringify(body));
  settle('error');
}

/** Writes the reply as OpenAI does: role chunk, reasoning, text, tool-call fragments, finish chunk, usage chunk, [DONE]. */
async function stream(requestIndex: number, body: FakeChatBody, reply: FakeStreamReply, res: ServerResponse, settle: (o: ReplyOutcome) => void): Promise<void> {
  const id = `chatcmpl-fake-${requestIndex}`;
  const created = Math.floor(Date.now() / 1000);
  const includeUsage = body.stream_options?.include_usage === true;
  const size = Math.max(1, reply.chunkSize ?? 8);
  const toolCalls = (reply.toolCalls ?? []).map((call, n) => ({
    id: call.id ?? `call_fake_${requestIndex}_${n}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));

  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
    ...(includeUsage ? { usage: null } : {}),
  });

  const events: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(reply.reasoning ?? '', size)) events.push(chunk({ [reply.reasoningField ?? 'reasoning_content']: piece }));
  for (const piece of split(reply.text ?? '', size)) events.push(chunk({ content: piece }));
  toolCalls.forEach((call, index) => {
    const head = { index, ...(reply.omitToolCallIds ? {} : { id: call.id }), type: 'function', function: { name: call.name, arguments: '' } };
    events.push(chunk({ tool_calls: [head] }));
    for (const piece of split(call.arguments, size)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  if (!reply.endWithoutFinish) {
    events.push(chunk({}, reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop')));
    if (includeUsage) {
      const output = (reply.text ?? '') + (reply.reasoning ?? '') + toolCalls.map((c) => c.name + c.arguments).join('');
      const prompt = reply.usage?.promptTokens ?? Math.ceil(JSON.stringify(body).length / 4);
      const completion = reply.usage?.completionTokens ?? Math.ceil(output.length / 4);
      const cached = reply.usage?.cachedTokens ?? 0;
      events.push({
        id,
        object: 'chat.completion.chunk',
        created,
        model: body.model,
        choices: [],
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached } },
      });
    }
  }

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': `req_fake_${requestIndex}` });
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
    res.write(`data: ${JSON.stringify(event)}\n\n`);
  }
  if (reply.cut) return cut();
  res.end('data: [DONE]\n\n');
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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

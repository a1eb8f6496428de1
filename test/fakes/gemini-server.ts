// A fake Gemini API server for tests. It speaks the real `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`
// wire format — `data: {GenerateContentResponse}` events separated by CRLF CRLF, each with candidates[0].content.parts
// (text, `thought: true` parts, whole functionCall parts with a thoughtSignature), finishReason on the last one and
// usageMetadata (promptTokenCount, cachedContentTokenCount, candidatesTokenCount, thoughtsTokenCount) — so the
// official @google/genai SDK runs against it unmodified. It misbehaves on purpose: HTTP errors in Google's error body
// format (with RetryInfo / ErrorInfo details and Retry-After), an error object inside the stream, cut connections,
// streams without a finishReason, a blocked prompt.
//
//   const server = await startFakeGemini(() => ({ text: 'hello' }));
//   // point a provider at server.baseUrl (the SDK appends /v1beta/models/...), then assert on server.requests
//   await server.close();
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordExchange, split, startFakeHttp, type RecordedHttpRequest, type ReplyOutcome } from './http-fake';

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
  [key: string]: unknown;
}

export interface GeminiContent {
  role?: string;
  parts: GeminiPart[];
}

/** The parts of a generateContent body tests look at (the SDK's camelCase REST shape). */
export interface FakeGeminiBody {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: { functionDeclarations?: { name: string; description?: string; parametersJsonSchema?: unknown; parameters?: unknown }[]; googleSearch?: object; codeExecution?: object }[];
  toolConfig?: { functionCallingConfig?: { mode?: string } };
  generationConfig?: { temperature?: number; topP?: number; maxOutputTokens?: number; thinkingConfig?: { includeThoughts?: boolean } };
  [key: string]: unknown;
}

export type GeminiReplyOutcome = ReplyOutcome;

/** `path` is e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent`. */
export interface GeminiRecordedRequest extends RecordedHttpRequest<FakeGeminiBody> {
  /** The model named in the path. */
  model: string;
  query: URLSearchParams;
}

export interface FakeGeminiCall {
  name: string;
  args: Record<string, unknown>;
  /** Sent as functionCall.id (the API leaves it out unless set). */
  id?: string;
  /** Sent as the part's thoughtSignature (default `sig_<request>_<n>`; null: none). */
  signature?: string | null;
}

export interface FakeGeminiUsage {
  promptTokens?: number;
  cachedTokens?: number;
  candidatesTokens?: number;
  thoughtsTokens?: number;
  toolUsePromptTokens?: number;
}

export interface FakeGeminiStreamReply {
  text?: string;
  /** Thought-summary parts (`thought: true`) before the text. */
  thinking?: string;
  toolCalls?: FakeGeminiCall[];
  usage?: FakeGeminiUsage;
  /** Default STOP. */
  finishReason?: string;
  /** Characters per text and thought part (default 8); function calls always arrive whole. */
  chunkSize?: number;
  delayMsPerChunk?: number;
  /** Destroy the socket after this many events. */
  cut?: { afterChunks: number };
  /** Send every part, then end the response cleanly without a finishReason. */
  endWithoutFinish?: boolean;
  /** An error object as the last event after this many chunks (the stream ends after it). */
  streamError?: { code: number; status: string; message: string; afterChunks?: number };
  /** promptFeedback.blockReason and no candidates. */
  blockReason?: string;
  /** Delay after the response headers, before the first event. */
  ttftMs?: number;
}

/** An HTTP error with Google's body `{error: {code, message, status, details}}`. */
export interface FakeGeminiErrorReply {
  error: {
    httpStatus: number;
    status: string;
    message: string;
    headers?: Record<string, string>;
    /** A google.rpc.RetryInfo detail, e.g. "7s". */
    retryDelay?: string;
    /** A google.rpc.ErrorInfo detail reason, e.g. API_KEY_INVALID. */
    reason?: string;
  };
}

export type FakeGeminiReply = FakeGeminiStreamReply | FakeGeminiErrorReply;

export type FakeGeminiHandler = (request: GeminiRecordedRequest & { body: FakeGeminiBody }) => FakeGeminiReply | Promise<FakeGeminiReply>;

export interface FakeGeminiServer {
  /** e.g. `http://127.0.0.1:40123` (no API version: the SDK appends it). */
  baseUrl: string;
  requests: GeminiRecordedRequest[];
  /** The streamGenerateContent requests with a body. */
  streamRequests(): (GeminiRecordedRequest & { body: FakeGeminiBody })[];
  close(): Promise<void>;
}

const ROUTE = /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+):streamGenerateContent$/;

/** Starts a fake server on 127.0.0.1 with an ephemeral port. */
export async function startFakeGemini(handler: FakeGeminiHandler): Promise<FakeGeminiServer> {
  const requests: GeminiRecordedRequest[] = [];
  const { port, close } = await startFakeHttp((exchange) => {
    const { req, res, settle } = exchange;
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = ROUTE.exec(url.pathname);
    const { record: common, json } = recordExchange<FakeGeminiBody>(requests.length, exchange);
    const record: GeminiRecordedRequest = { ...common, model: route ? decodeURIComponent(route[2]) : '', query: url.searchParams };
    requests.push(record);
    if (!json) {
      sendError(res, { httpStatus: 400, status: 'INVALID_ARGUMENT', message: 'Invalid JSON payload received.' }, settle);
      return;
    }
    void answer(record, res, settle);
  });

  async function answer(record: GeminiRecordedRequest, res: ServerResponse, settle: (o: GeminiReplyOutcome) => void): Promise<void> {
    if (record.method !== 'POST' || !ROUTE.test(record.path)) {
      sendError(res, { httpStatus: 404, status: 'NOT_FOUND', message: `models/${record.model || '?'} is not found, or ${record.path} is not supported.` }, settle);
      return;
    }
    if (record.query.get('alt') !== 'sse') {
      sendError(res, { httpStatus: 400, status: 'INVALID_ARGUMENT', message: 'This fake server only streams (alt=sse).' }, settle);
      return;
    }
    if (!record.headers['x-goog-api-key']) {
      sendError(res, { httpStatus: 403, status: 'PERMISSION_DENIED', message: 'Method doesn\'t allow unregistered callers. Please use API Key or other form of API consumer identity to call this API.' }, settle);
      return;
    }
    const body = record.body;
    const problem = body ? validateBody(body) : 'Request contains an invalid argument: contents is required.';
    if (problem || !body) {
      sendError(res, { httpStatus: 400, status: 'INVALID_ARGUMENT', message: problem ?? 'empty body' }, settle);
      return;
    }
    let reply: FakeGeminiReply;
    try {
      reply = await handler(record as GeminiRecordedRequest & { body: FakeGeminiBody });
    } catch (error) {
      sendError(res, { httpStatus: 500, status: 'INTERNAL', message: `fake handler threw: ${(error as Error).message}` }, settle);
      return;
    }
    if ('error' in reply) {
      sendError(res, reply.error, settle);
      return;
    }
    await stream(record, body, reply, res, settle);
  }

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    streamRequests: () => requests.filter((r): r is GeminiRecordedRequest & { body: FakeGeminiBody } => ROUTE.test(r.path) && r.body !== undefined),
    close,
  };
}

function errorBody(error: FakeGeminiErrorReply['error']): object {
  const details = [
    ...(error.reason ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: error.reason, domain: 'googleapis.com' }] : []),
    ...(error.retryDelay ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: error.retryDelay }] : []),
  ];
  return { error: { code: error.httpStatus, message: error.message, status: error.status, ...(details.length ? { details } : {}) } };
}

function sendError(res: ServerResponse, error: FakeGeminiErrorReply['error'], settle: (o: GeminiReplyOutcome) => void): void {
  res.writeHead(error.httpStatus, { 'content-type': 'application/json; charset=UTF-8', ...error.headers }).end(JSON.stringify(errorBody(error), null, 2));
  settle('error');
}

/**
 * What the Gemini API refuses in a body our provider could get wrong: roles other than user/model, empty parts, a
 * functionResponse without its functionCall in the turn before, function calls and responses that do not pair up.
 */
export function validateBody(body: FakeGeminiBody): string | undefined {
  if (!Array.isArray(body.contents) || body.contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified';
  for (const [i, content] of body.contents.entries()) {
    if (content.role !== 'user' && content.role !== 'model') return `* GenerateContentRequest.contents[${i}].role: Please use a valid role: user, model.`;
    if (!Array.isArray(content.parts) || content.parts.length === 0) return `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`;
    for (const [p, part] of content.parts.entries()) {
      if (part.text === '') return `* GenerateContentRequest.contents[${i}].parts[${p}].data: required oneof field 'data' must have one initialized field`;
    }
    const responses = content.parts.filter((p) => p.functionResponse);
    if (responses.length) {
      const previous = body.contents[i - 1];
      const calls = previous?.role === 'model' ? previous.parts.filter((p) => p.functionCall) : [];
      if (calls.length !== responses.length) {
        return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
      }
    }
  }
  return undefined;
}

interface Chunk {
  parts: GeminiPart[];
  finish?: boolean;
}

async function stream(record: GeminiRecordedRequest, body: FakeGeminiBody, reply: FakeGeminiStreamReply, res: ServerResponse, settle: (o: GeminiReplyOutcome) => void): Promise<void> {
  const size = Math.max(1, reply.chunkSize ?? 8);
  const chunks: Chunk[] = [];
  for (const piece of split(reply.thinking ?? '', size)) chunks.push({ parts: [{ text: piece, thought: true }] });
  for (const piece of split(reply.text ?? '', size)) chunks.push({ parts: [{ text: piece }] });
  const calls = (reply.toolCalls ?? []).map((call, n): GeminiPart => ({
    functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.args },
    ...(call.signature === null ? {} : { thoughtSignature: call.signature ?? Buffer.from(`sig_${record.index}_${n}`).toString('base64') }),
  }));
  if (calls.length) chunks.push({ parts: calls });
  if (chunks.length === 0) chunks.push({ parts: [{ text: '' }] });
  if (!reply.endWithoutFinish) chunks[chunks.length - 1].finish = true;

  const prompt = Math.ceil(JSON.stringify(body.contents).length / 4);
  const u = reply.usage ?? {};
  const usage = {
    promptTokenCount: u.promptTokens ?? prompt,
    candidatesTokenCount: u.candidatesTokens ?? Math.max(1, Math.ceil((reply.text ?? '').length / 4)),
    ...(u.cachedTokens !== undefined ? { cachedContentTokenCount: u.cachedTokens } : {}),
    ...(u.toolUsePromptTokens !== undefined ? { toolUsePromptTokenCount: u.toolUsePromptTokens } : {}),
    ...(reply.thinking || u.thoughtsTokens !== undefined ? { thoughtsTokenCount: u.thoughtsTokens ?? Math.ceil((reply.thinking ?? '').length / 4) } : {}),
    totalTokenCount: 0,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: u.promptTokens ?? prompt }],
  };
  usage.totalTokenCount = usage.promptTokenCount + usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0);

  const model = record.model;
  const events = chunks.map((chunk, n) => ({
    candidates: [{
      content: { parts: chunk.parts, role: 'model' },
      ...(chunk.finish ? { finishReason: reply.finishReason ?? 'STOP' } : {}),
      index: 0,
    }],
    // Gemini sends a running usage with every chunk; the last one is the total.
    usageMetadata: n === chunks.length - 1 ? usage : { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount },
    modelVersion: model,
    responseId: `resp_fake_${record.index}`,
  }));
  if (reply.blockReason) {
    events.splice(0, events.length, { promptFeedback: { blockReason: reply.blockReason }, usageMetadata: usage, modelVersion: model, responseId: `resp_fake_${record.index}` } as never);
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'x-content-type-options': 'nosniff', vary: 'Origin' });
  res.flushHeaders();
  if (reply.ttftMs) await sleep(reply.ttftMs);
  const errorAt = reply.streamError ? Math.min(reply.streamError.afterChunks ?? events.length, events.length) : -1;
  for (const [n, event] of events.entries()) {
    if (res.destroyed) return;
    if (reply.cut && n >= reply.cut.afterChunks) {
      await sleep(10);
      settle('cut');
      res.socket?.destroy();
      return;
    }
    if (n === errorAt && reply.streamError) {
      const { code, status, message } = reply.streamError;
      res.end(`data: ${JSON.stringify({ error: { code, message, status } })}\r\n\r\n`);
      return;
    }
    if (n > 0 && reply.delayMsPerChunk) await sleep(reply.delayMsPerChunk);
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
  }
  if (reply.streamError && errorAt === events.length) {
    const { code, status, message } = reply.streamError;
    res.end(`data: ${JSON.stringify({ error: { code, message, status } })}\r\n\r\n`);
    return;
  }
  if (reply.cut) {
    await sleep(10);
    settle('cut');
    res.socket?.destroy();
    return;
  }
  res.end();
}

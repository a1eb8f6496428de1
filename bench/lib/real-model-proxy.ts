// A recording HTTP proxy in front of the real inference server, for the real-model scenario: each system sends to
// its own path prefix (`/<tag>/v1/...`, the tag naming the system and the question), the proxy strips the prefix,
// forwards the request (unchanged, or rewritten by the `rewrite` option, the same for every client) and streams the
// response back, and records per request the body as forwarded, the token
// counts the server reported (usage in the last SSE chunk, else llama-server's `timings`) and start/end times.
// (test/real-model/lib/recording-proxy.ts serves one client and keeps no times; this one tells runs apart by path.)

import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseSse } from '../../test/real-model/lib/sse';

export interface ProxyRecord {
  /** The path prefix the client used (which system, which question). */
  tag: string;
  method: string;
  /** The path as forwarded (prefix removed). */
  path: string;
  /** The parsed JSON body as forwarded (after the rewrite, if any), or the raw text when it is not JSON. */
  body: unknown;
  /** The `rewrite` option changed this request. */
  rewritten: boolean;
  status: number | null;
  /** As the server reported them; null when it did not (an aborted or failed request). */
  promptTokens: number | null;
  completionTokens: number | null;
  finishReason: string | null;
  /** Names of the tools the model called in this response. */
  toolCalls: string[];
  /** performance.now() of the request's arrival and of the response's end (or the client's abort). */
  start: number;
  end: number | null;
  /** The client closed the connection before the response ended (the server request is aborted too). */
  aborted: boolean;
  error?: string;
}

export interface RecordingProxy {
  /** http://127.0.0.1:PORT; a system's base URL is `${origin}/${tag}/v1`. */
  origin: string;
  records: ProxyRecord[];
  close(): Promise<void>;
}

interface Usage {
  promptTokens: number | null;
  completionTokens: number | null;
  finishReason: string | null;
  toolCalls: string[];
}

type Json = Record<string, unknown>;

export interface ProxyOptions {
  /**
   * Rewrites a chat-completions request body (JSON) before it is forwarded; undefined leaves it unchanged. Applied
   * to every client alike, so both systems meet the same server behaviour.
   */
  rewrite?: (body: Json) => Json | undefined;
}

/** Reads usage, finish reason and called tools out of a chat-completions response: one JSON, or SSE chunks. */
export function readUsage(text: string): Usage {
  const out: Usage = { promptTokens: null, completionTokens: null, finishReason: null, toolCalls: [] };
  let chunks: Json[];
  if (/^\s*data:/m.test(text)) chunks = parseSse(text).map((e) => e.data).filter((d): d is Json => typeof d === 'object' && d !== null);
  else {
    try {
      chunks = [JSON.parse(text) as Json];
    } catch {
      return out;
    }
  }
  for (const c of chunks) {
    const usage = c.usage as Json | undefined;
    if (usage && typeof usage.prompt_tokens === 'number') {
      out.promptTokens = usage.prompt_tokens;
      out.completionTokens = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : null;
    }
    const timings = c.timings as Json | undefined;
    // llama-server's own counts: prompt_n excludes the tokens it reused from its cache, so usage wins when present.
    if (timings && out.promptTokens === null && typeof timings.prompt_n === 'number') {
      out.promptTokens = timings.prompt_n + (typeof timings.cache_n === 'number' ? timings.cache_n : 0);
      out.completionTokens = typeof timings.predicted_n === 'number' ? timings.predicted_n : null;
    }
    for (const choice of (c.choices as Json[] | undefined) ?? []) {
      if (typeof choice.finish_reason === 'string') out.finishReason = choice.finish_reason;
      const msg = (choice.delta ?? choice.message) as Json | undefined;
      for (const call of (msg?.tool_calls as Json[] | undefined) ?? []) {
        const name = (call.function as Json | undefined)?.name;
        if (typeof name === 'string' && name) out.toolCalls.push(name);
      }
    }
  }
  return out;
}

function parseBody(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Starts the proxy on a free loopback port, forwarding to `target` (e.g. llama-server's origin). */
export async function startRecordingProxy(target: string, options: ProxyOptions = {}): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const records: ProxyRecord[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const m = /^\/([^/]+)(\/.*)?$/.exec(req.url ?? '/');
    const tag = m?.[1] ?? '';
    const path = m?.[2] ?? '/';
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      let raw = Buffer.concat(parts);
      let body = parseBody(raw.toString('utf8'));
      let rewritten = false;
      if (options.rewrite && req.method === 'POST' && path.endsWith('/chat/completions') && typeof body === 'object' && body !== null) {
        const changed = options.rewrite(body as Json);
        if (changed) [body, raw, rewritten] = [changed, Buffer.from(JSON.stringify(changed)), true];
      }
      const rec: ProxyRecord = { tag, method: req.method ?? 'GET', path, body, rewritten, status: null, promptTokens: null, completionTokens: null, finishReason: null, toolCalls: [], start: performance.now(), end: null, aborted: false };
      records.push(rec);
      const headers = { ...req.headers, host: upstream.host, 'content-length': String(raw.length), connection: 'close' };
      // A fresh connection per request: a pooled keep-alive socket the server had already closed failed as
      // "socket hang up" (seen with llama-server between a run's calls), which the client then saw as a 502.
      const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers, agent: false }, (up) => {
        rec.status = up.statusCode ?? null;
        res.writeHead(up.statusCode ?? 502, up.headers);
        let text = '';
        up.on('data', (d: Buffer) => {
          text += d.toString('utf8');
          res.write(d);
        });
        up.on('end', () => {
          Object.assign(rec, readUsage(text), { end: rec.end ?? performance.now() });
          res.end();
        });
        up.on('error', (err) => {
          rec.error = err.message;
          res.destroy();
        });
      });
      out.on('error', (err) => {
        rec.error = err.message;
        rec.end ??= performance.now();
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      // A client that gives up (its timeout, a cancelled run) must free the server's one slot for the next run.
      res.on('close', () => {
        if (res.writableFinished) return;
        rec.aborted = true;
        rec.end ??= performance.now();
        out.destroy();
      });
      out.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    records,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// What every fake model server shares: an HTTP server on 127.0.0.1 at an ephemeral port that reads each request
// whole, tracks how its reply ended, and closes with every connection it holds (a test never waits for a stream).

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a reply ended: `completed` and `client_closed` are seen on the connection, `error` and `cut` set by the fake. */
export type ReplyOutcome = 'completed' | 'error' | 'cut' | 'client_closed';

export interface FakeExchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The request body as text. */
  raw: string;
  outcome: Promise<ReplyOutcome>;
  settle: (outcome: ReplyOutcome) => void;
}

export interface FakeHttpServer {
  port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1; `onRequest` gets each request once its body has arrived. */
export async function startFakeHttp(onRequest: (exchange: FakeExchange) => void): Promise<FakeHttpServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let settle: (outcome: ReplyOutcome) => void = () => {};
      const outcome = new Promise<ReplyOutcome>((resolve) => (settle = resolve));
      res.on('close', () => settle(res.writableFinished ? 'completed' : 'client_closed'));
      onRequest({ req, res, raw: Buffer.concat(chunks).toString('utf8'), outcome, settle });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One HTTP request a fake received, in arrival order. */
export interface RecordedHttpRequest<Body> {
  /** 0-based arrival order across all paths. */
  index: number;
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; `undefined` for bodiless requests (GET). */
  body: Body | undefined;
  /** Settles when the reply ended: written out, sent as an HTTP error, cut by the fake, or closed by the client. */
  outcome: Promise<ReplyOutcome>;
}

/** The exchange as the `index`-th request a fake records, its body parsed; `json: false` when the body is not JSON. */
export function recordExchange<Body>(index: number, { req, raw, outcome }: FakeExchange): { record: RecordedHttpRequest<Body>; json: boolean } {
  const record: RecordedHttpRequest<Body> = { index, method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0], headers: req.headers, body: undefined, outcome };
  try {
    record.body = raw ? (JSON.parse(raw) as Body) : undefined;
    return { record, json: true };
  } catch {
    return { record, json: false };
  }
}

/** `text` in pieces of `size` characters, as a stream sends it. */
export function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

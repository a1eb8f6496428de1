// What every fake model server shares: an HTTP server on 127.0.0.1 at an ephemeral port that reads each request
// whole, tracks how its reply ended, and closes with every connection it holds (a test never waits for a stream).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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

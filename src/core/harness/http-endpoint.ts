// The `massgen` MCP server over streamable HTTP on the loopback interface, for a program that starts its MCP servers
// itself (Codex): a port of its own and a bearer token that only the program's environment carries, so no other
// process on the machine can call the coordination tools. Stateless: each request gets its own server.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { coordinationServer } from './coordination-server';
import type { CoordinationEndpoint } from './driver';

export interface HttpEndpoint {
  url: string;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request too large');
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw ? JSON.parse(raw) : undefined;
}

export async function serveOverHttp(endpoint: CoordinationEndpoint): Promise<HttpEndpoint> {
  const token = randomBytes(24).toString('hex');
  const http = createServer((req, res) => {
    void (async () => {
      if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end();
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let body: unknown;
      try {
        body = await readBody(req);
      } catch {
        return void res.writeHead(400).end();
      }
      const server = coordinationServer(endpoint);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        transport.close().catch(() => undefined);
        server.close().catch(() => undefined);
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

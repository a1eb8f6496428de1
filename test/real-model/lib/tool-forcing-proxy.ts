// A loopback proxy in front of llama-server that makes SmolLM2-135M call a tool on every request that offers tools.
// Why: the 135M model has no tool training; asked with tool_choice "auto" (what the engine sends) it only echoes the
// prompt, so every agent fails and a run shows nothing of the engine's answer/vote/workspace paths (measured: 3 of 3
// agents, 4 replies each, no call). The proxy does what the real-model study found reliable with this server: it sets
// tool_choice "required" and ends the conversation with the assistant prefill "<tool_call>\n", so the server's grammar
// makes the reply one well-formed call of an offered tool. Forced so, the model calls `vote` before any answer exists
// every time (measured: 9 of 9 first calls), so while the prompt's latest board says there are no answers `vote` is
// left out of the offer. Which of the other tools, and every argument, are still the model's.

import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forceToolCall, type ChatBody } from '../../helpers/tool-forcing';
import type { LlamaServer } from '../../helpers/llama-server';

export interface ToolForcingProxy {
  /** Use in place of the server's origin (OpenAI-compatible under /v1). */
  origin: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startToolForcingProxy(server: LlamaServer): Promise<ToolForcingProxy> {
  const target = new URL(server.origin);
  const proxy: ToolForcingProxy = { origin: '', close: async () => undefined };
  const http: Server = createServer((req, res) => {
    void (async () => {
      let body = await readBody(req);
      if (req.method === 'POST' && (req.url ?? '').endsWith('/chat/completions')) {
        const forced = forceToolCall(JSON.parse(body.toString('utf8')) as ChatBody);
        if (forced) body = Buffer.from(JSON.stringify(forced));
      }
      const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `proxy: ${err.message}` } }));
      });
      // The engine cancelling a call closes its connection: cancel the server's generation too.
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    })().catch((err: unknown) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `proxy: ${String(err)}` } }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  proxy.origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return proxy;
}

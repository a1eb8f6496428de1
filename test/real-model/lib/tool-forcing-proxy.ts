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
import { BOARD, EMPTY_BOARD } from '../../../src/core/engine/prompts';
import type { LlamaServer } from '../../helpers/llama-server';

export interface ToolForcingProxy {
  /** Use in place of the server's origin (OpenAI-compatible under /v1). */
  origin: string;
  close(): Promise<void>;
}

const PREFILL = '<tool_call>\n';

/** Whether the latest board the conversation shows is empty (no answer to vote for yet). */
function boardIsEmpty(messages: NonNullable<ChatBody['messages']>): boolean {
  const text = messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))).join('\n');
  const at = text.lastIndexOf(BOARD);
  return at >= 0 && text.slice(at + BOARD.length).trimStart().startsWith(EMPTY_BOARD);
}

const toolName = (tool: unknown) => (tool as { function?: { name?: string } }).function?.name;

interface ChatBody {
  messages?: { role: string; content?: unknown }[];
  tools?: unknown[];
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
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
        const chat = JSON.parse(body.toString('utf8')) as ChatBody;
        if (chat.tools?.length && chat.messages) {
          if (boardIsEmpty(chat.messages)) chat.tools = chat.tools.filter((t) => toolName(t) !== 'vote');
          chat.tool_choice = 'required';
          // One call per reply: SmolLM2 otherwise repeats the call, and two answers in one reply are refused.
          chat.parallel_tool_calls = false;
          chat.messages.push({ role: 'assistant', content: PREFILL });
          body = Buffer.from(JSON.stringify(chat));
        }
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

// The real inference server for the real-model tests and bench rows: llama.cpp's llama-server with SmolLM2-135M or
// Qwen2.5-Coder-0.5B, all from the peers cache (`npm run real-model:setup`). One server per caller, on a free
// loopback port.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { peerPaths } from './peers';

export interface LlamaServer {
  /** http://127.0.0.1:PORT (OpenAI-compatible under /v1, Anthropic Messages at /v1/messages). */
  origin: string;
  /** The model name to send (llama-server serves one model whatever the name). */
  model: string;
  /** The server's own log so far (stderr), for failure messages. */
  log(): string;
  /** Resolves when the server process has ended, however. */
  ended: Promise<void>;
  close(): Promise<void>;
}

/**
 * The models served. SmolLM2's GGUF has no tool template (tools would be dropped silently): it is served with the
 * Qwen2.5 one, which uses the same ChatML tokens. Qwen2.5-Coder's own template renders tools.
 */
export type RealModel = 'smollm2' | 'qwen-coder';

const MODEL_NAMES: Record<RealModel, string> = { smollm2: 'smollm2-135m-instruct', 'qwen-coder': 'qwen2.5-coder-0.5b-instruct' };

export interface LlamaServerOptions {
  /** Default smollm2. */
  model?: RealModel;
  /** Default: a free port. */
  port?: number;
  /** CPU threads; default MASSGEN_LLAMA_THREADS or 1 (2 threads collapse when the other core is busy). */
  threads?: number;
  /** Context per slot; default 8192. */
  contextTokens?: number;
  /** Parallel slots (requests served at once); default 1. */
  slots?: number;
  /** Failure guard for the start, not a measured time. */
  startGuardMs?: number;
  /** More llama-server arguments, e.g. GREEDY_SAMPLING. */
  extraArgs?: readonly string[];
  /** Also hands the server's log on as it comes (npm run real-model:serve shows it). */
  onLog?: (text: string) => void;
}

/**
 * The server's sampling defaults for requests that set none (the Anthropic provider never sends a temperature):
 * greedy, with a fixed seed, so runs repeat.
 */
export const GREEDY_SAMPLING: readonly string[] = ['--temp', '0', '--seed', '42'];

/** How long close() waits after SIGTERM before it sends SIGKILL. */
const CLOSE_GRACE_MS = 5000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts llama-server and resolves once /health answers ok; throws with the server's log if it ends or never does. */
export async function startLlamaServer(options: LlamaServerOptions = {}): Promise<LlamaServer> {
  const paths = peerPaths();
  const model = options.model ?? 'smollm2';
  const modelArgs = model === 'smollm2' ? ['-m', paths.smollm2, '--chat-template-file', paths.chatTemplate] : ['-m', paths.qwenCoder, '--jinja'];
  for (const file of [paths.llamaServer, ...modelArgs.filter((a) => a.startsWith('/'))]) {
    if (!existsSync(file)) throw new Error(`${file} is missing; run npm run real-model:setup`);
  }
  const threads = options.threads ?? (Number(process.env.MASSGEN_LLAMA_THREADS) || 1);
  const slots = options.slots ?? 1;
  const port = options.port ?? (await freePort());
  const args = [...modelArgs, '--host', '127.0.0.1', '--port', String(port), '-t', String(threads), '-c', String((options.contextTokens ?? 8192) * slots), '-np', String(slots), '--no-warmup', ...(options.extraArgs ?? [])];
  const child: ChildProcess = spawn(paths.llamaServer, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
    options.onLog?.(chunk.toString('utf8'));
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  // The test process ending any way (a failure, Ctrl-C, mocha's exit) must not leave the server running.
  const killNow = () => {
    if (!exited) child.kill('SIGKILL');
  };
  const onSignal = (signal: NodeJS.Signals) => {
    killNow();
    unhook();
    process.kill(process.pid, signal);
  };
  process.once('exit', killNow);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const unhook = () => {
    process.off('exit', killNow);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  void exit.then(unhook);
  const origin = `http://127.0.0.1:${port}`;
  const server: LlamaServer = {
    origin,
    model: MODEL_NAMES[model],
    log: () => log,
    ended: exit,
    async close() {
      if (exited) return;
      child.kill('SIGTERM');
      // A server stuck in a generation may not stop on SIGTERM: a few seconds, then SIGKILL.
      const guard = setTimeout(killNow, CLOSE_GRACE_MS);
      await exit;
      clearTimeout(guard);
    },
  };
  const giveUpAt = Date.now() + (options.startGuardMs ?? 120_000);
  for (;;) {
    if (exited) throw new Error(`llama-server ended before it was ready:\n${log.slice(-2000)}`);
    const ok = await fetch(`${origin}/health`).then((r) => r.ok, () => false);
    if (ok) return server;
    if (Date.now() > giveUpAt) {
      await server.close();
      throw new Error(`llama-server did not become ready:\n${log.slice(-2000)}`);
    }
    await sleep(100);
  }
}

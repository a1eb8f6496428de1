// One client connected to one MCP server (stdio or streamable HTTP): connect with a timeout, list the tools, call
// them with a per-call timeout and retries for transient failures, reconnect after a crash, and close for good.
// Errors are classified so the toolbox can tell a model what happened and decide whether to retry.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../config/types';
import { CircuitBreaker, DEFAULT_BREAKER, type CircuitBreakerOptions } from './circuit-breaker';
import type { ToolResultLike } from './content';
import { ProcessGroupStdioTransport, serverEnvironment } from './stdio-transport';

export type McpLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What the MCP layer reports for logs (never the UI): lifecycle, failures, and each stdio server's stderr lines. */
export interface McpLogEntry {
  level: McpLogLevel;
  server: string;
  /** Absent for a shared server (it serves every agent). */
  agentId?: string;
  /** 'stderr' for a line the server wrote to stderr. */
  source: 'lifecycle' | 'stderr' | 'call';
  message: string;
}
export type McpLogger = (entry: McpLogEntry) => void;

export type McpErrorKind =
  /** Transport trouble worth retrying: connection refused/reset, HTTP 429/5xx. */
  | 'transient'
  /** The server process ended or the connection dropped; a reconnect may help. */
  | 'disconnected'
  | 'timeout'
  | 'aborted'
  /** The server refused the request (bad arguments, unknown tool, auth): retrying cannot help. */
  | 'rejected';

export class McpCallError extends Error {
  /** 'connect' when the call failed because (re)connecting to the server failed. */
  phase: 'connect' | 'call' = 'call';

  constructor(readonly kind: McpErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpCallError';
  }
}

const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'ENETUNREACH', 'EHOSTUNREACH']);

function causeCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Classifies anything the SDK or a transport throws. */
export function classifyError(err: unknown, signal?: AbortSignal): McpCallError {
  if (err instanceof McpCallError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (signal?.aborted || (err instanceof Error && err.name === 'AbortError')) return new McpCallError('aborted', 'cancelled', { cause: err });
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) return new McpCallError('timeout', message, { cause: err });
    if (err.code === ErrorCode.ConnectionClosed) return new McpCallError('disconnected', 'the server closed the connection', { cause: err });
    return new McpCallError('rejected', message, { cause: err });
  }
  if (err instanceof StreamableHTTPError) {
    const status = err.code;
    if (status === 404 && /session/i.test(message)) return new McpCallError('disconnected', message, { cause: err });
    if (status === undefined || status === 408 || status === 429 || status >= 500) return new McpCallError('transient', message, { cause: err });
    return new McpCallError('rejected', message, { cause: err });
  }
  if (/^Not connected$/i.test(message)) return new McpCallError('disconnected', 'not connected to the server', { cause: err });
  const code = causeCode(err);
  if ((code && TRANSIENT_CODES.has(code)) || /fetch failed|socket hang up|network/i.test(message)) {
    return new McpCallError('transient', code && !message.includes(code) ? `${message} (${code})` : message, { cause: err });
  }
  return new McpCallError('rejected', message, { cause: err });
}

export interface ConnectionOptions {
  /** For log entries; absent for a shared connection. */
  agentId?: string;
  log?: McpLogger;
  /** Where the stdio base environment (PATH, HOME…) comes from; default process.env. */
  processEnv?: NodeJS.ProcessEnv;
  connectTimeoutMs: number;
  breaker?: CircuitBreakerOptions;
  /** stdin-close and SIGTERM grace when ending a stdio server (ms). */
  closeGraceMs?: number;
  clientName?: string;
  clientVersion?: string;
}

type State = 'idle' | 'connecting' | 'ready' | 'disconnected' | 'failed' | 'closed';

export class McpConnection {
  private client: Client | undefined;
  private transport: Transport | undefined;
  private state: State = 'idle';
  private connecting: Promise<void> | undefined;
  private readonly lifetime = new AbortController();
  readonly breaker: CircuitBreaker;
  /** The server's tools as last listed. */
  tools: Tool[] = [];
  /** Why the last connect failed, for messages. */
  lastError: string | undefined;
  /** Pids of every process this connection started (a reconnect starts a new one). */
  readonly pids: number[] = [];

  constructor(readonly server: McpServerConfig, private readonly options: ConnectionOptions) {
    this.breaker = new CircuitBreaker(options.breaker ?? DEFAULT_BREAKER);
  }

  get status(): State {
    return this.state;
  }

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  /** The pid of the running stdio server, if any. */
  get pid(): number | undefined {
    return this.transport instanceof ProcessGroupStdioTransport ? this.transport.pid : undefined;
  }

  private log(level: McpLogLevel, source: McpLogEntry['source'], message: string): void {
    this.options.log?.({ level, server: this.server.name, ...(this.options.agentId ? { agentId: this.options.agentId } : {}), source, message });
  }

  private makeTransport(): Transport {
    const s = this.server;
    if (s.type === 'stdio') {
      return new ProcessGroupStdioTransport({
        command: s.command!,
        args: s.args,
        env: serverEnvironment(s.env, this.options.processEnv ?? process.env),
        cwd: s.cwd,
        closeGraceMs: this.options.closeGraceMs,
        onStderr: (line) => this.log('info', 'stderr', line),
      });
    }
    return new StreamableHTTPClientTransport(new URL(s.url!), { requestInit: s.headers ? { headers: { ...s.headers } } : undefined });
  }

  /** Connects and lists the tools; concurrent callers share one attempt. Throws McpCallError. */
  connect(signal?: AbortSignal): Promise<void> {
    if (this.state === 'ready') return Promise.resolve();
    if (this.state === 'closed') return Promise.reject(new McpCallError('aborted', 'the MCP connection was closed'));
    this.connecting ??= this.doConnect(signal).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async doConnect(signal?: AbortSignal): Promise<void> {
    const reconnect = this.state === 'disconnected';
    this.state = 'connecting';
    await this.dropClient();
    if (this.lifetime.signal.aborted || signal?.aborted) throw new McpCallError('aborted', 'cancelled');
    const timeoutMs = this.options.connectTimeoutMs;
    const attempt = new AbortController();
    const abort = () => attempt.abort();
    this.lifetime.signal.addEventListener('abort', abort, { once: true });
    signal?.addEventListener('abort', abort, { once: true });
    const timer = setTimeout(abort, timeoutMs);
    const transport = this.makeTransport();
    const client = new Client({ name: this.options.clientName ?? 'massgen-vscode', version: this.options.clientVersion ?? '0' }, { capabilities: {} });
    this.transport = transport;
    this.client = client;
    const started = Date.now();
    try {
      if (attempt.signal.aborted) throw new McpCallError('aborted', 'cancelled');
      await client.connect(transport, { signal: attempt.signal, timeout: timeoutMs });
      this.notePid(transport);
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { signal: attempt.signal, timeout: Math.max(1, timeoutMs - (Date.now() - started)) });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && tools.length < 10_000);
      if (this.state !== 'connecting') throw new McpCallError('aborted', 'the MCP connection was closed');
      this.tools = tools;
      this.state = 'ready';
      this.lastError = undefined;
      const where = this.pid ? ` (pid ${this.pid})` : '';
      this.log('info', 'lifecycle', `${reconnect ? 'reconnected' : 'connected'}${where} in ${Date.now() - started} ms; ${tools.length} tools`);
      // After this, the transport closing on its own means the server died or dropped us.
      client.onclose = () => {
        if (this.client !== client || this.state !== 'ready') return;
        this.state = 'disconnected';
        const status = transport instanceof ProcessGroupStdioTransport && transport.exitStatus ? ` (${transport.exitStatus})` : '';
        this.log('warn', 'lifecycle', `the server went away${status}; the next call reconnects`);
      };
    } catch (err) {
      this.notePid(transport);
      let e = classifyError(err, attempt.signal);
      if (attempt.signal.aborted && !this.lifetime.signal.aborted && !signal?.aborted) {
        e = new McpCallError('timeout', `did not connect within ${timeoutMs / 1000} s`, { cause: err });
      } else if (e.kind === 'disconnected' && transport instanceof ProcessGroupStdioTransport) {
        e = new McpCallError('disconnected', `the server exited during startup (${transport.exitStatus ?? 'no exit status'}); see its stderr in the MCP log`, { cause: err });
      }
      this.lastError = e.message;
      if (this.state === 'connecting') this.state = reconnect ? 'disconnected' : 'failed';
      this.log('error', 'lifecycle', `${reconnect ? 'reconnect' : 'connect'} failed: ${e.message}`);
      await this.dropClient();
      throw e;
    } finally {
      clearTimeout(timer);
      this.lifetime.signal.removeEventListener('abort', abort);
      signal?.removeEventListener('abort', abort);
    }
  }

  /** Calls one tool once (no retries here). Reconnects first when the server went away. Throws McpCallError. */
  async callTool(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number }): Promise<ToolResultLike> {
    if (this.state === 'closed') throw new McpCallError('aborted', 'the MCP connection was closed');
    if (this.state !== 'ready') {
      try {
        await this.connect(options.signal);
      } catch (err) {
        const e = classifyError(err, options.signal);
        e.phase = 'connect';
        throw e;
      }
    }
    const client = this.client!;
    // The SDK never removes the abort listener it adds to the signal it is given, so it gets one of its own per
    // call: a turn's signal would otherwise collect a listener per call (and Node's MaxListeners warning).
    const own = new AbortController();
    const forward = () => own.abort(options.signal.reason);
    options.signal.addEventListener('abort', forward, { once: true });
    if (options.signal.aborted) own.abort(options.signal.reason);
    try {
      return (await client.callTool({ name, arguments: args }, undefined, { signal: own.signal, timeout: options.timeoutMs })) as ToolResultLike;
    } catch (err) {
      const e = classifyError(err, own.signal);
      if (e.kind === 'timeout') throw new McpCallError('timeout', `no result within ${options.timeoutMs / 1000} s`, { cause: err });
      if (e.kind === 'disconnected' && this.client === client && this.state === 'ready') this.state = 'disconnected';
      throw e;
    } finally {
      options.signal.removeEventListener('abort', forward);
    }
  }

  private notePid(transport: Transport): void {
    const pid = transport instanceof ProcessGroupStdioTransport ? transport.pid : undefined;
    if (pid !== undefined && !this.pids.includes(pid)) this.pids.push(pid);
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    if (!client && !transport) return;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      // Tell the server the session is over; a server that does not answer in a second is not waited for.
      await Promise.race([transport.terminateSession().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
    }
    try {
      await client?.close();
    } catch {
      // ignore
    }
    // Client.close closes the transport only when it got as far as connecting it.
    try {
      await transport?.close();
    } catch {
      // ignore
    }
  }

  /** Ends the connection for good (the process and everything it started, for stdio). Idempotent. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.lifetime.abort();
    await this.connecting?.catch(() => undefined);
    await this.dropClient();
    this.log('debug', 'lifecycle', 'closed');
  }
}

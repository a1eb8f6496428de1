// MCP servers as an agent's toolbox (the engine's AgentToolbox): servers start in `start()` (in parallel, each with
// a connect timeout; one that fails is reported and the others stay usable), their tools are offered as
// `mcp__<server>__<tool>` after the configured filters, calls go through planning mode, approval, the server's
// circuit breaker, a per-call timeout and retries for transient failures, and results come back as text cut to a
// size limit. `close()` ends every server process, whatever happened before. `execute` never throws.

import type { AgentConfig, BackendConfig, McpServerConfig, PlanningModeConfig } from '../config/types';
import type { AgentToolbox } from '../engine/ports';
import type { ToolCall, ToolSpec } from '../providers/types';
import { sleep } from '../util/sleep';
import { DEFAULT_BREAKER, type CircuitBreakerOptions } from './circuit-breaker';
import { resultToText, truncateResult } from './content';
import { McpCallError, McpConnection, type McpLogger } from './connection';
import { exposedToolName, isSideEffecting, listMatches, toolAllowed } from './names';

type Result = { ok: boolean; content: string };

/** What the host is asked before a tool that needs approval runs. */
export interface ApprovalRequest {
  agentId: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  /** The name the model called (`mcp__<server>__<tool>`). */
  toolName: string;
  /** The arguments, shortened for a prompt (long strings cut, at most ~600 characters). */
  argumentsSummary: string;
  /** 'configured': listed in require_approval; 'side-effecting': the default for tools that change things. */
  reason: 'configured' | 'side-effecting';
}

/** The approval port: resolve true to run the tool. The signal aborts when the turn or run ends (dismiss the prompt). */
export type ApprovalHandler = (request: ApprovalRequest, signal: AbortSignal) => Promise<boolean>;

export interface McpDefaults {
  /** Per tool call, when the server sets no `timeout` (upstream's backends: 400 s; MCPClient: 30 s). */
  callTimeoutMs: number;
  connectTimeoutMs: number;
  maxResultChars: number;
  /** Attempts per call for transient failures, the first included (only for tools that are safe to repeat). */
  maxAttempts: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  breaker: CircuitBreakerOptions;
  /** stdin-close and SIGTERM grace when ending a stdio server. */
  closeGraceMs: number;
}

export const DEFAULT_MCP: McpDefaults = {
  callTimeoutMs: 120_000,
  connectTimeoutMs: 30_000,
  maxResultChars: 20_000,
  maxAttempts: 3,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 8_000,
  breaker: DEFAULT_BREAKER,
  closeGraceMs: 1_000,
};

export interface McpToolboxOptions {
  /** The agent this toolbox belongs to (approval requests, logs). */
  agentId: string;
  /** Backend-level filters and approval list (raw or prefixed names). */
  allowedTools?: string[];
  excludeTools?: string[];
  requireApproval?: string[];
  planningMode?: PlanningModeConfig;
  /** Asked before tools that need approval run; without it they are all denied. */
  approve?: ApprovalHandler;
  /** Logs and every stdio server's stderr; never shown to the model. */
  log?: McpLogger;
  /** Where `shared: true` servers come from; without a pool they are per agent like the rest. */
  pool?: McpServerPool;
  /** Where the stdio base environment (PATH, HOME…) is read from; default process.env. */
  processEnv?: NodeJS.ProcessEnv;
  defaults?: Partial<McpDefaults>;
  random?: () => number;
}

export interface McpServerStatus {
  name: string;
  state: 'idle' | 'connecting' | 'ready' | 'disconnected' | 'failed' | 'closed';
  /** Names offered to the model. */
  tools: string[];
  shared: boolean;
  error?: string;
  pid?: number;
}

export interface McpToolbox extends AgentToolbox {
  start(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
  /**
   * Planning mode's switch: true (the initial state when planning mode is configured) blocks the listed or
   * side-effecting tools; false lets them run, as upstream does for the final presenter.
   */
  setPlanningMode(active: boolean): void;
  readonly planningModeActive: boolean;
  servers(): McpServerStatus[];
  /** Pids of every stdio server process this toolbox's connections started (restarts included). */
  processIds(): number[];
}

interface Entry {
  spec: ToolSpec;
  server: McpServerConfig;
  connection: McpConnection;
  tool: string;
  sideEffecting: boolean;
  repeatable: boolean;
  approval: ApprovalRequest['reason'] | null;
  blockedInPlanning: boolean;
}

interface Lease {
  connection: McpConnection;
  release(): Promise<void>;
}

function connectionOptions(defaults: McpDefaults, server: McpServerConfig, extra: { agentId?: string; log?: McpLogger; processEnv?: NodeJS.ProcessEnv }) {
  return {
    ...extra,
    connectTimeoutMs: (server.connectTimeoutSeconds ?? 0) * 1000 || defaults.connectTimeoutMs,
    breaker: defaults.breaker,
    closeGraceMs: defaults.closeGraceMs,
  };
}

/**
 * Connections for `shared: true` servers: agents that list an identical server get one client and one process,
 * which closes when the last of them releases it (or when the pool closes).
 */
export class McpServerPool {
  private readonly entries = new Map<string, { connection: McpConnection; users: number }>();
  private readonly defaults: McpDefaults;

  constructor(private readonly options: { log?: McpLogger; processEnv?: NodeJS.ProcessEnv; defaults?: Partial<McpDefaults> } = {}) {
    this.defaults = { ...DEFAULT_MCP, ...options.defaults };
  }

  acquire(server: McpServerConfig): Lease {
    const key = JSON.stringify(server);
    let entry = this.entries.get(key);
    if (!entry || entry.connection.isClosed) {
      entry = { connection: new McpConnection(server, connectionOptions(this.defaults, server, { log: this.options.log, processEnv: this.options.processEnv })), users: 0 };
      this.entries.set(key, entry);
    }
    entry.users++;
    const held = entry;
    let released = false;
    return {
      connection: held.connection,
      release: async () => {
        if (released) return;
        released = true;
        if (--held.users > 0) return;
        if (this.entries.get(key) === held) this.entries.delete(key);
        await held.connection.close();
      },
    };
  }

  /** Closes every shared connection (a safety net for hosts; toolboxes release theirs on close). */
  async close(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.connection.close()));
  }
}

/** A short, prompt-friendly rendering of tool arguments: long strings cut, the whole capped. */
export function summarizeArguments(args: Record<string, unknown>, max = 600): string {
  const parts = Object.entries(args).map(([k, v]) => {
    if (typeof v === 'string') return `${k}: ${JSON.stringify(v.length > 120 ? `${v.slice(0, 120)}…` : v)}${v.length > 120 ? ` (${v.length} chars)` : ''}`;
    const json = JSON.stringify(v) ?? String(v);
    return `${k}: ${json.length > 160 ? `${json.slice(0, 160)}…` : json}`;
  });
  const text = parts.join(', ') || '(no arguments)';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function jsonSchemaObject(schema: unknown): Record<string, unknown> {
  const s = schema && typeof schema === 'object' && !Array.isArray(schema) ? { ...(schema as Record<string, unknown>) } : {};
  s.type = 'object';
  if (!s.properties || typeof s.properties !== 'object') s.properties = {};
  delete s.$schema;
  return s;
}

/** The MCP toolbox for one agent. Nothing starts until the engine calls `start`. */
export function createMcpToolbox(servers: McpServerConfig[], options: McpToolboxOptions): McpToolbox {
  const defaults: McpDefaults = { ...DEFAULT_MCP, ...options.defaults };
  const { agentId } = options;
  const random = options.random ?? Math.random;
  const lifetime = new AbortController();
  const leases = new Map<string, Lease>();
  const failures = new Map<string, string>();
  let entries = new Map<string, Entry>();
  let tools: ToolSpec[] = [];
  let planningActive = options.planningMode?.enabled ?? false;
  let starting: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const log: McpLogger = (e) => options.log?.(e);
  const note = (level: 'info' | 'warn' | 'error', server: string, message: string) => log({ level, server, agentId, source: 'call', message });

  function leaseFor(server: McpServerConfig): Lease {
    if (server.shared && options.pool) return options.pool.acquire(server);
    const connection = new McpConnection(server, connectionOptions(defaults, server, { agentId, log: options.log, processEnv: options.processEnv }));
    return { connection, release: () => connection.close() };
  }

  function buildEntries(ready: McpServerConfig[]): void {
    const next = new Map<string, Entry>();
    for (const server of ready) {
      const connection = leases.get(server.name)!.connection;
      let offered = 0;
      for (const tool of connection.tools) {
        const allowed = toolAllowed(server.name, tool.name, {
          serverAllowed: server.allowedTools,
          serverExcluded: server.excludeTools,
          backendAllowed: options.allowedTools,
          backendExcluded: options.excludeTools,
        });
        if (!allowed) continue;
        offered++;
        let name = exposedToolName(server.name, tool.name);
        for (let i = 2; next.has(name); i++) name = `${exposedToolName(server.name, tool.name).slice(0, 60)}_${i}`;
        const sideEffecting = isSideEffecting(tool.name, tool.annotations);
        const configured = server.requireApproval === true || (Array.isArray(server.requireApproval) && listMatches(server.requireApproval, server.name, tool.name)) || listMatches(options.requireApproval, server.name, tool.name);
        const approval = configured ? 'configured' : sideEffecting && server.requireApproval !== false ? 'side-effecting' : null;
        const blockList = options.planningMode?.blockedTools;
        const blockedInPlanning = blockList?.length ? listMatches(blockList, server.name, tool.name) : sideEffecting || configured;
        const notes: string[] = [];
        if (approval) notes.push('Runs only if the user approves the call.');
        if (options.planningMode?.enabled && blockedInPlanning) notes.push('Blocked during coordination (planning mode): describe its use in your answer instead.');
        const base = (tool.description ?? tool.title ?? '').trim() || `The ${tool.name} tool of the ${server.name} MCP server.`;
        const description = `${base.length > 2000 ? `${base.slice(0, 2000)}…` : base}${notes.length ? `\n\n${notes.join(' ')}` : ''}`;
        next.set(name, {
          spec: { name, description, parameters: jsonSchemaObject(tool.inputSchema) },
          server,
          connection,
          tool: tool.name,
          sideEffecting,
          repeatable: !sideEffecting || tool.annotations?.idempotentHint === true,
          approval,
          blockedInPlanning,
        });
      }
      for (const listed of server.allowedTools ?? []) {
        if (!connection.tools.some((t) => listMatches([listed], server.name, t.name))) note('warn', server.name, `allowed_tools names "${listed}", which the server does not have`);
      }
      note('info', server.name, `${offered} of ${connection.tools.length} tools offered to ${agentId}`);
    }
    entries = next;
    tools = [...next.values()].map((e) => e.spec);
  }

  async function doStart(signal: AbortSignal): Promise<void> {
    const onAbort = () => lifetime.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) lifetime.abort();
    try {
      for (const server of servers) leases.set(server.name, leaseFor(server));
      const outcomes = await Promise.allSettled(servers.map((s) => leases.get(s.name)!.connection.connect(lifetime.signal)));
      const ready: McpServerConfig[] = [];
      outcomes.forEach((o, i) => {
        if (o.status === 'fulfilled') ready.push(servers[i]);
        else failures.set(servers[i].name, o.reason instanceof Error ? o.reason.message : String(o.reason));
      });
      if (closing) return;
      buildEntries(ready);
      if (failures.size > 0) {
        const list = [...failures].map(([name, why]) => `MCP server "${name}" failed to start: ${why}`);
        throw new Error(list.join('; '));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  function fail(name: string, message: string): Result {
    return { ok: false, content: `${name} failed: ${message}` };
  }

  async function run(entry: Entry, args: Record<string, unknown>, signal: AbortSignal): Promise<Result> {
    const { spec, server, connection } = entry;
    const timeoutMs = (server.timeoutSeconds ?? 0) * 1000 || defaults.callTimeoutMs;
    const maxChars = server.maxResultChars ?? defaults.maxResultChars;
    for (let attempt = 1; ; attempt++) {
      const wait = connection.breaker.blockedForMs();
      if (wait > 0) {
        return { ok: false, content: `MCP server "${server.name}" is paused after repeated failures (${connection.lastError ?? 'errors'}); it is tried again in ${Math.ceil(wait / 1000)} s. Use other tools or answer without it.` };
      }
      try {
        const result = await connection.callTool(entry.tool, args, { signal, timeoutMs });
        connection.breaker.success();
        const text = truncateResult(resultToText(result), maxChars);
        return result.isError ? { ok: false, content: `${spec.name} returned an error: ${text}` } : { ok: true, content: text };
      } catch (err) {
        const e = err instanceof McpCallError ? err : new McpCallError('rejected', String(err));
        if (e.kind === 'aborted' || signal.aborted) return fail(spec.name, 'the call was cancelled');
        const reconnectFailed = e.phase === 'connect';
        const counts = e.kind === 'transient' || e.kind === 'disconnected' || e.kind === 'timeout' || reconnectFailed;
        if (counts && connection.breaker.failure()) note('warn', server.name, `circuit breaker open for ${Math.ceil(connection.breaker.blockedForMs() / 1000)} s after: ${e.message}`);
        const retry = (e.kind === 'transient' || e.kind === 'disconnected') && entry.repeatable && attempt < defaults.maxAttempts && !connection.breaker.isOpen;
        const what = e.kind === 'timeout' ? `${e.message} (the call was cancelled)` : e.kind === 'disconnected' ? `${e.message}; the server is restarted on the next call` : e.message;
        if (!retry) return fail(spec.name, reconnectFailed && e.kind !== 'disconnected' ? `could not reconnect to MCP server "${server.name}": ${e.message}` : what);
        const delay = Math.min(defaults.retryMaxDelayMs, defaults.retryBaseDelayMs * 2 ** (attempt - 1)) * (1.1 + 0.2 * random());
        note('info', server.name, `retrying ${entry.tool} in ${Math.round(delay)} ms (attempt ${attempt + 1}): ${e.message}`);
        try {
          await sleep(delay, signal);
        } catch {
          return fail(spec.name, 'the call was cancelled');
        }
      }
    }
  }

  const toolbox: McpToolbox = {
    get tools() {
      return tools;
    },
    get planningModeActive() {
      return planningActive;
    },
    setPlanningMode(active: boolean) {
      planningActive = active && (options.planningMode?.enabled ?? false);
    },
    start(signal: AbortSignal) {
      if (closing) return Promise.reject(new Error('the MCP toolbox was closed'));
      starting ??= doStart(signal);
      return starting;
    },
    async execute(call: ToolCall, signal: AbortSignal): Promise<Result> {
      const name = String(call?.name);
      const entry = entries.get(name);
      if (!entry) {
        const known = [...entries.keys()];
        return { ok: false, content: `unknown tool "${name}"; the MCP tools are ${known.length ? known.slice(0, 30).join(', ') : '(none available)'}` };
      }
      if (signal?.aborted || closing) return fail(name, 'the run was cancelled');
      let args: unknown;
      try {
        args = call.arguments === undefined || call.arguments === '' ? {} : JSON.parse(call.arguments);
      } catch (err) {
        return fail(name, `the arguments are not valid JSON (${(err as Error).message}); send a JSON object`);
      }
      if (args === null || typeof args !== 'object' || Array.isArray(args)) return fail(name, 'the arguments must be a JSON object');
      const record = args as Record<string, unknown>;
      if (planningActive && entry.blockedInPlanning) {
        note('info', entry.server.name, `${agentId}: ${entry.tool} blocked by planning mode`);
        return {
          ok: false,
          content: `🚫 [MCP] Tool '${name}' blocked during coordination (planning mode active). Do not call it again now: describe in your answer what you would do with it, with the exact arguments.`,
        };
      }
      if (entry.approval) {
        let approved = false;
        let why = '';
        if (options.approve) {
          try {
            approved = await options.approve(
              { agentId, server: entry.server.name, tool: entry.tool, toolName: name, argumentsSummary: summarizeArguments(record), reason: entry.approval },
              signal,
            );
          } catch (err) {
            why = ` (the approval request failed: ${(err as Error)?.message ?? String(err)})`;
          }
        }
        if (signal.aborted) return fail(name, 'the run was cancelled');
        if (!approved) {
          note('info', entry.server.name, `${agentId}: ${entry.tool} denied${why}`);
          const kind = entry.approval === 'configured' ? 'it is configured to need approval' : 'tools that change things need approval';
          return { ok: false, content: `${name} was not run: the user did not approve it (${kind})${why}. Do not call it again; continue without it, for example by describing the change in your answer.` };
        }
      }
      try {
        return await run(entry, record, signal);
      } catch (err) {
        return fail(name, (err as Error)?.message ?? String(err));
      }
    },
    close() {
      closing ??= (async () => {
        lifetime.abort();
        await Promise.all([...leases.values()].map((l) => l.release().catch(() => undefined)));
        await starting?.catch(() => undefined);
        // A lease taken while closing began (start racing close) is released too.
        await Promise.all([...leases.values()].map((l) => l.release().catch(() => undefined)));
      })();
      return closing;
    },
    servers(): McpServerStatus[] {
      return servers.map((s) => {
        const c = leases.get(s.name)?.connection;
        const error = failures.get(s.name) ?? c?.lastError;
        return {
          name: s.name,
          state: c?.status ?? 'idle',
          tools: [...entries.values()].filter((e) => e.server === s).map((e) => e.spec.name),
          shared: Boolean(s.shared && options.pool),
          ...(error ? { error } : {}),
          ...(c?.pid ? { pid: c.pid } : {}),
        };
      });
    },
    processIds(): number[] {
      return [...new Set([...leases.values()].flatMap((l) => l.connection.pids))];
    },
  };
  return toolbox;
}

/** The MCP keys of a backend as toolbox options (spread them into `createMcpToolbox`'s options). */
export function mcpOptionsFromBackend(backend: BackendConfig): Pick<McpToolboxOptions, 'allowedTools' | 'excludeTools' | 'requireApproval' | 'planningMode'> {
  return {
    ...(backend.allowedTools ? { allowedTools: backend.allowedTools } : {}),
    ...(backend.excludeTools ? { excludeTools: backend.excludeTools } : {}),
    ...(backend.requireApproval ? { requireApproval: backend.requireApproval } : {}),
    ...(backend.planningMode ? { planningMode: backend.planningMode } : {}),
  };
}

/** The MCP toolbox for a configured agent, or undefined when it has no MCP servers. */
export function mcpToolboxForAgent(agent: AgentConfig, options: Omit<McpToolboxOptions, 'agentId' | 'allowedTools' | 'excludeTools' | 'requireApproval' | 'planningMode'>): McpToolbox | undefined {
  const servers = agent.backend.mcpServers ?? [];
  if (servers.length === 0) return undefined;
  return createMcpToolbox(servers, { ...options, ...mcpOptionsFromBackend(agent.backend), agentId: agent.id });
}

// MCP servers as an agent's toolbox (the engine's AgentToolbox): servers start in `start()` (in parallel, each with
// a connect timeout; one that fails is reported and the others stay usable), their tools are offered as
// `mcp__<server>__<tool>` after the configured filters, calls go through planning mode, approval, the server's
// circuit breaker, a per-call timeout and retries for transient failures, and results come back as text cut to a
// size limit. `close()` ends every server process, whatever happened before. The pieces: offer.ts (which tools,
// how each is treated), permission.ts (planning mode, approval), call.ts (breaker, timeout, retries); the tool kit
// (core/tools) does the rest of every call, with the server's own JSON Schema as the arguments' schema.

import type { AgentConfig, BackendConfig, McpServerConfig, PlanningModeConfig } from '../config/types';
import type { AgentToolbox } from '../engine/ports';
import { ANY_OBJECT } from '../tools/arguments';
import { defineToolbox, tool, type ToolDef } from '../tools/kit';
import { errorMessage } from '../util/errors';
import { callTool, type CallContext } from './call';
import { DEFAULT_BREAKER, type CircuitBreakerOptions } from './circuit-breaker';
import { McpConnection, type McpLogger } from './connection';
import { offerTools, type Entry } from './offer';
import { refusal, type PermissionContext } from './permission';

export { summarizeArguments } from './permission';

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

/** The MCP toolbox for one agent. Nothing starts until the engine calls `start`. */
export function createMcpToolbox(servers: McpServerConfig[], options: McpToolboxOptions): McpToolbox {
  const defaults: McpDefaults = { ...DEFAULT_MCP, ...options.defaults };
  const { agentId } = options;
  const lifetime = new AbortController();
  const leases = new Map<string, Lease>();
  const failures = new Map<string, string>();
  let entries = new Map<string, Entry>();
  let tools: ToolDef[] = [];
  let planningActive = options.planningMode?.enabled ?? false;
  let starting: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const note = (level: 'info' | 'warn' | 'error', server: string, message: string) => options.log?.({ level, server, agentId, source: 'call', message });
  const calls: CallContext = { defaults, random: options.random ?? Math.random, note };
  const permission: PermissionContext = { agentId, planningActive: () => planningActive, approve: options.approve, note: (server, message) => note('info', server, message) };
  const asTool = (entry: Entry) =>
    tool({
      spec: entry.spec,
      args: ANY_OBJECT,
      maxOutputChars: entry.server.maxResultChars ?? defaults.maxResultChars,
      run: async (args, signal) => (await refusal(entry, args, signal, permission)) ?? callTool(entry, args, signal, calls),
    });

  function offer(ready: McpServerConfig[]): void {
    const next = new Map<string, Entry>();
    for (const server of ready) {
      const { connection } = leases.get(server.name)!;
      const before = next.size;
      for (const warning of offerTools(server, connection, options, next)) note('warn', server.name, warning);
      note('info', server.name, `${next.size - before} of ${connection.tools.length} tools offered to ${agentId}`);
    }
    entries = next;
    tools = [...next.values()].map(asTool);
  }

  async function start(signal: AbortSignal): Promise<void> {
    for (const server of servers) leases.set(server.name, lease(server, options, defaults));
    const ready = await connectAll(servers, leases, failures, signal, lifetime);
    if (closing) return;
    offer(ready);
    if (failures.size > 0) throw new Error([...failures].map(([name, why]) => `MCP server "${name}" failed to start: ${why}`).join('; '));
  }

  const kit = defineToolbox({
    family: 'MCP tools',
    tools: () => tools,
    refusal: () => (closing ? 'the run was cancelled' : undefined),
  });

  return {
    get tools() {
      return kit.tools;
    },
    execute: kit.execute,
    get planningModeActive() {
      return planningActive;
    },
    setPlanningMode(active: boolean) {
      planningActive = active && (options.planningMode?.enabled ?? false);
    },
    start(signal: AbortSignal) {
      if (closing) return Promise.reject(new Error('the MCP toolbox was closed'));
      starting ??= start(signal);
      return starting;
    },
    close() {
      closing ??= releaseAll(leases, lifetime, () => starting);
      return closing;
    },
    servers: () => servers.map((s) => serverStatus(s, leases.get(s.name)?.connection, failures.get(s.name), entries, Boolean(s.shared && options.pool))),
    processIds: () => [...new Set([...leases.values()].flatMap((l) => l.connection.pids))],
  };
}

/** The server's connection: shared through the pool when it says so, else the agent's own. */
function lease(server: McpServerConfig, options: McpToolboxOptions, defaults: McpDefaults): Lease {
  if (server.shared && options.pool) return options.pool.acquire(server);
  const connection = new McpConnection(server, connectionOptions(defaults, server, { agentId: options.agentId, log: options.log, processEnv: options.processEnv }));
  return { connection, release: () => connection.close() };
}

/** Connects every server in parallel; returns those that are ready and records why the others failed. */
async function connectAll(servers: McpServerConfig[], leases: Map<string, Lease>, failures: Map<string, string>, signal: AbortSignal, lifetime: AbortController): Promise<McpServerConfig[]> {
  // The run's cancel ends the connection attempts; close() ends them through `lifetime` too.
  const onAbort = () => lifetime.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) lifetime.abort();
  try {
    const outcomes = await Promise.allSettled(servers.map((s) => leases.get(s.name)!.connection.connect(lifetime.signal)));
    const ready: McpServerConfig[] = [];
    outcomes.forEach((o, i) => {
      if (o.status === 'fulfilled') ready.push(servers[i]);
      else failures.set(servers[i].name, errorMessage(o.reason));
    });
    return ready;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

async function releaseAll(leases: Map<string, Lease>, lifetime: AbortController, starting: () => Promise<void> | undefined): Promise<void> {
  lifetime.abort();
  await Promise.all([...leases.values()].map((l) => l.release().catch(() => undefined)));
  await starting()?.catch(() => undefined);
  // A lease taken while closing began (start racing close) is released too.
  await Promise.all([...leases.values()].map((l) => l.release().catch(() => undefined)));
}

function serverStatus(server: McpServerConfig, connection: McpConnection | undefined, failure: string | undefined, entries: Map<string, Entry>, shared: boolean): McpServerStatus {
  const error = failure ?? connection?.lastError;
  return {
    name: server.name,
    state: connection?.status ?? 'idle',
    tools: [...entries.values()].filter((e) => e.server === server).map((e) => e.spec.name),
    shared,
    ...(error ? { error } : {}),
    ...(connection?.pid ? { pid: connection.pid } : {}),
  };
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

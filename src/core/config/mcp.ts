// MCP configuration as upstream MassGen writes it (`backend.mcp_servers`, `allowed_tools`, `exclude_tools`) plus
// our keys (`require_approval`, `planning_mode`, `max_result_chars`, `connect_timeout`, `shared`, `cwd`). The YAML
// loader (config/load.ts) validates the shapes with the zod schemas here and calls `normalizeMcpBackend` for the
// rest; hosts that take MCP servers from elsewhere (VS Code settings) call `parseMcpSettings`, which does both.
// `${VAR}` (upper case, as upstream) is expanded in args, env and headers; the values may then be secrets, so no
// message here ever contains a value, only key paths and variable names.

import { z } from 'zod';
import { seconds } from './seconds';
import type { McpServerConfig, McpTransportType, PlanningModeConfig } from './types';

const scalar = z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v));
const names = z.array(z.string().min(1));
const httpUrl = z.string().refine((s) => /^https?:\/\/[^/\s]+/.test(s), 'must be an http(s) URL, e.g. http://127.0.0.1:8080/mcp');

/** One server entry; `name` is optional here because the dict form takes it from the key. */
export const McpServerSchema = z.object({
  name: z.string().min(1).nullish(),
  type: z.string().min(1).nullish(),
  command: z.string().min(1).nullish(),
  args: z.array(scalar).nullish(),
  env: z.record(z.string(), scalar).nullish(),
  cwd: z.string().min(1).nullish(),
  url: httpUrl.nullish(),
  headers: z.record(z.string(), scalar).nullish(),
  allowed_tools: names.nullish(),
  exclude_tools: names.nullish(),
  timeout: seconds.nullish(),
  connect_timeout: seconds.nullish(),
  require_approval: z.union([z.boolean(), names]).nullish(),
  max_result_chars: z.int().min(200).nullish(),
  shared: z.boolean().nullish(),
});

/** Keys upstream accepts in a server entry that we ignore (warned about). */
export const MCP_SERVER_UPSTREAM_ONLY = ['security', 'http_read_timeout', 'description'] as const;

const PlanningModeSchema = z.union([
  z.boolean(),
  z.object({ enabled: z.boolean().nullish(), blocked_tools: names.nullish() }),
]);

/** The MCP keys of a backend block. `mcp_servers` is a list, or (Claude Code style) a mapping from name to entry. */
export const McpBackendKeys = {
  mcp_servers: z.union([z.array(McpServerSchema), z.record(z.string(), McpServerSchema)]).nullish(),
  allowed_tools: names.nullish(),
  exclude_tools: names.nullish(),
  require_approval: names.nullish(),
  planning_mode: PlanningModeSchema.nullish(),
};
const McpBackendSchema = z.object(McpBackendKeys);
export type McpBackendInput = z.infer<typeof McpBackendSchema>;

/** The typed MCP settings of one backend (the same fields as on BackendConfig). */
export interface McpSettings {
  mcpServers?: McpServerConfig[];
  allowedTools?: string[];
  excludeTools?: string[];
  requireApproval?: string[];
  planningMode?: PlanningModeConfig;
}

export interface McpConfigIssue {
  /** Path inside the backend block, e.g. ['mcp_servers', 0, 'command']. */
  path: (string | number)[];
  message: string;
  severity: 'error' | 'warning';
}

const ENV_REF = /\$\{([A-Z_][A-Z0-9_]*)\}/g;

/**
 * Expands `${VAR}` (upper-case names only, as upstream; `${cwd}` and other lower-case forms stay as written).
 * Unset variables become '' and are listed in `unset`.
 */
export function expandEnvRefs(text: string, env: NodeJS.ProcessEnv): { value: string; unset: string[] } {
  const unset: string[] = [];
  const value = text.replace(ENV_REF, (_, name: string) => {
    const v = env[name];
    if (v === undefined) {
      if (!unset.includes(name)) unset.push(name);
      return '';
    }
    return v;
  });
  return { value, unset };
}

function showPath(path: (string | number)[]): string {
  return path.reduce<string>((s, seg) => (typeof seg === 'number' ? `${s}[${seg}]` : s ? `${s}.${seg}` : seg), '');
}

const SECRET_NAME = /key|token|secret|password|passwd|credential|auth/i;

export interface NormalizeOptions {
  /** Unset `${VAR}` references are errors (a run) rather than warnings (validate, or a host filling them in later). */
  requireEnv?: boolean;
}

/** Turns validated MCP keys into typed settings, with every remaining problem as an issue. */
export function normalizeMcpBackend(input: McpBackendInput, env: NodeJS.ProcessEnv, options: NormalizeOptions = {}): { settings: McpSettings; issues: McpConfigIssue[] } {
  const issues: McpConfigIssue[] = [];
  const settings: McpSettings = {};
  const problem = (path: (string | number)[], message: string, severity: 'error' | 'warning' = 'error') => issues.push({ path, message, severity });

  const raw = input.mcp_servers;
  const entries: { path: (string | number)[]; name: string | undefined; entry: z.infer<typeof McpServerSchema> }[] = [];
  if (Array.isArray(raw)) {
    raw.forEach((entry, i) => entries.push({ path: ['mcp_servers', i], name: entry.name ?? undefined, entry }));
  } else if (raw) {
    for (const [key, entry] of Object.entries(raw)) entries.push({ path: ['mcp_servers', key], name: entry.name ?? key, entry });
  }

  const servers: McpServerConfig[] = [];
  const seen = new Map<string, string>();
  for (const { path, name, entry } of entries) {
    if (!name) {
      problem(path, 'an MCP server needs a name (its tools are called mcp__<name>__<tool>)');
      continue;
    }
    const who = `MCP server "${name}"`;
    const key = name.toLowerCase();
    if (seen.has(key)) {
      problem([...path, 'name'], `${who}: duplicate name (also used by ${seen.get(key)}); names must be unique per agent`);
      continue;
    }
    seen.set(key, typeof path[1] === 'number' ? `mcp_servers[${path[1]}]` : `mcp_servers.${path[1]}`);
    let type: McpTransportType;
    const given = entry.type?.toLowerCase().replace(/_/g, '-');
    if (given === 'stdio' || given === 'streamable-http') type = given;
    else if (given === 'http' || given === 'streamablehttp') type = 'streamable-http';
    else if (given === 'sse') {
      problem([...path, 'type'], `${who}: type sse (the old HTTP+SSE transport) is not supported; use type: streamable-http with the server's /mcp endpoint`);
      continue;
    } else if (given) {
      problem([...path, 'type'], `${who}: type must be stdio or streamable-http, got "${entry.type}"`);
      continue;
    } else if (entry.command) type = 'stdio';
    else if (entry.url) type = 'streamable-http';
    else {
      problem(path, `${who}: give either command: (a stdio server) or url: (a streamable-http server)`);
      continue;
    }
    if (type === 'stdio' && !entry.command) {
      problem(path, `${who} has type stdio and needs command: (e.g. command: npx, args: ["-y", "@modelcontextprotocol/server-filesystem", "."])`);
      continue;
    }
    if (type === 'streamable-http' && !entry.url) {
      problem(path, `${who} has type streamable-http and needs url: (e.g. url: http://127.0.0.1:8080/mcp)`);
      continue;
    }
    const unset: { at: (string | number)[]; names: string[] }[] = [];
    const expand = (value: string, at: (string | number)[]) => {
      const r = expandEnvRefs(value, env);
      if (r.unset.length) unset.push({ at, names: r.unset });
      return r.value;
    };
    const expandRecord = (rec: Record<string, string> | null | undefined, field: string, literalSecretHint: boolean) => {
      if (!rec) return undefined;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(rec)) {
        out[k] = expand(v, [...path, field, k]);
        if (literalSecretHint && SECRET_NAME.test(k) && v.length > 0 && !v.includes('${')) {
          problem([...path, field, k], `${who}: ${field}.${k} looks like a secret written in the file; prefer ${k}: \${${field === 'env' ? k : 'MY_TOKEN'}} to keep it out of the file`, 'warning');
        }
      }
      return out;
    };
    const server: McpServerConfig = { name, type };
    if (type === 'stdio') {
      server.command = entry.command!;
      if (entry.args) server.args = entry.args.map((a, i) => expand(a, [...path, 'args', i]));
      const envOut = expandRecord(entry.env, 'env', true);
      if (envOut) server.env = envOut;
      if (entry.cwd) server.cwd = entry.cwd;
      for (const k of ['url', 'headers'] as const) if (entry[k]) problem([...path, k], `${who}: ${k} is for streamable-http servers and is ignored for stdio`, 'warning');
    } else {
      server.url = entry.url!;
      const headers = expandRecord(entry.headers, 'headers', true);
      if (headers) server.headers = headers;
      for (const k of ['command', 'args', 'env', 'cwd'] as const) if (entry[k]) problem([...path, k], `${who}: ${k} is for stdio servers and is ignored for streamable-http`, 'warning');
    }
    for (const u of unset) {
      const vars = u.names.map((n) => `\${${n}}`).join(', ');
      problem(u.at, `${who}: ${showPath(u.at.slice(path.length))} refers to ${vars}: set ${u.names.join(' and ')}`, options.requireEnv ? 'error' : 'warning');
    }
    if (entry.allowed_tools) server.allowedTools = entry.allowed_tools;
    if (entry.exclude_tools) server.excludeTools = entry.exclude_tools;
    if (entry.timeout != null) server.timeoutSeconds = entry.timeout;
    if (entry.connect_timeout != null) server.connectTimeoutSeconds = entry.connect_timeout;
    if (entry.require_approval != null) server.requireApproval = entry.require_approval;
    if (entry.max_result_chars != null) server.maxResultChars = entry.max_result_chars;
    if (entry.shared != null) server.shared = entry.shared;
    servers.push(server);
  }
  if (entries.length > 0) settings.mcpServers = servers;
  if (input.allowed_tools) settings.allowedTools = input.allowed_tools;
  if (input.exclude_tools) settings.excludeTools = input.exclude_tools;
  if (input.require_approval) settings.requireApproval = input.require_approval;
  const pm = input.planning_mode;
  if (pm != null) {
    settings.planningMode = typeof pm === 'boolean'
      ? { enabled: pm }
      : { enabled: pm.enabled ?? true, ...(pm.blocked_tools?.length ? { blockedTools: pm.blocked_tools } : {}) };
  }
  return { settings, issues };
}

/**
 * Validates and normalizes MCP settings from any source shaped like a backend block (for example VS Code settings
 * `{ mcp_servers: [...], require_approval: [...] }`). Paths in issues are dotted, relative to that block.
 */
export function parseMcpSettings(raw: unknown, env: NodeJS.ProcessEnv = process.env, options: NormalizeOptions = {}): { settings: McpSettings; issues: McpConfigIssue[] } {
  const parsed = McpBackendSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    return {
      settings: {},
      issues: parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'number' ? p : String(p))), message: i.message, severity: 'error' as const })),
    };
  }
  return normalizeMcpBackend(parsed.data, env, options);
}

// Which of a server's tools an agent is offered, and how each is treated: the configured filters, a unique
// `mcp__<server>__<tool>` name, whether it needs approval or is blocked in planning mode, and a description that
// says so. The server's JSON Schema for the arguments is passed through: the server validates its own arguments.

import type { McpServerConfig } from '../config/types';
import type { ToolSpec } from '../providers/types';
import type { McpConnection } from './connection';
import { exposedToolName, isSideEffecting, listMatches, toolAllowed } from './names';
import type { ApprovalRequest, McpToolboxOptions } from './toolbox';

/** One offered tool: its spec and how calls to it are handled. */
export interface Entry {
  spec: ToolSpec;
  server: McpServerConfig;
  connection: McpConnection;
  /** The tool's own name on its server. */
  tool: string;
  sideEffecting: boolean;
  /** Safe to call again after a transient failure. */
  repeatable: boolean;
  approval: ApprovalRequest['reason'] | null;
  blockedInPlanning: boolean;
}

type OfferOptions = Pick<McpToolboxOptions, 'allowedTools' | 'excludeTools' | 'requireApproval' | 'planningMode'>;

/** A server's tools as offered, added to `offered` (whose names are taken). Returns the warnings to log. */
export function offerTools(server: McpServerConfig, connection: McpConnection, options: OfferOptions, offered: Map<string, Entry>): string[] {
  for (const tool of connection.tools) {
    const allowed = toolAllowed(server.name, tool.name, {
      serverAllowed: server.allowedTools,
      serverExcluded: server.excludeTools,
      backendAllowed: options.allowedTools,
      backendExcluded: options.excludeTools,
    });
    if (!allowed) continue;
    let name = exposedToolName(server.name, tool.name);
    for (let i = 2; offered.has(name); i++) name = `${exposedToolName(server.name, tool.name).slice(0, 60)}_${i}`;
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
    offered.set(name, {
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
  return (server.allowedTools ?? [])
    .filter((listed) => !connection.tools.some((t) => listMatches([listed], server.name, t.name)))
    .map((listed) => `allowed_tools names "${listed}", which the server does not have`);
}

/** The server's input schema as the object schema every provider accepts. */
function jsonSchemaObject(schema: unknown): Record<string, unknown> {
  const s = schema && typeof schema === 'object' && !Array.isArray(schema) ? { ...(schema as Record<string, unknown>) } : {};
  s.type = 'object';
  if (!s.properties || typeof s.properties !== 'object') s.properties = {};
  delete s.$schema;
  return s;
}

// The `massgen` MCP server a coding agent's program calls the coordination tools on: the engine's own tool specs
// (JSON Schema, as every model agent sees them) listed as they are, and each call handed to the session's endpoint,
// which answers at once. Its arguments are the engine's to check, as for any agent's call. Beside them, the
// read-only file tools over the run's shared folders, run when called.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CoordinationEndpoint } from './driver';

export const COORDINATION_SERVER = 'massgen';

/**
 * A new server for one connection (an MCP server instance serves one transport). `alwaysLoad` marks the tools so
 * Claude Code offers them from its first request rather than deferring them behind its ToolSearch tool.
 */
export function coordinationServer(endpoint: CoordinationEndpoint, { alwaysLoad = false } = {}): McpServer {
  // The high-level server (what the Claude SDK takes), with the low-level handlers: the tools are JSON Schema as is.
  const mcp = new McpServer({ name: COORDINATION_SERVER, version: '1.0.0' }, { capabilities: { tools: {} } });
  const { server } = mcp;
  const reading = endpoint.reading?.tools ?? [];
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...endpoint.tools, ...reading].map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: { type: 'object' as const, ...t.parameters },
      ...(alwaysLoad ? { _meta: { 'anthropic/alwaysLoad': true } } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    if (endpoint.reading && reading.some((t) => t.name === name)) {
      const { ok, content } = await endpoint.reading.call(name, args ?? {});
      return { ...(ok ? {} : { isError: true }), content: [{ type: 'text', text: content }] };
    }
    if (!endpoint.tools.some((t) => t.name === name)) {
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}; this server has ${[...endpoint.tools, ...reading].map((t) => t.name).join(', ')}` }] };
    }
    return { content: [{ type: 'text', text: endpoint.onCall(name, args ?? {}) }] };
  });
  return mcp;
}

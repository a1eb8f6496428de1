// MCP for MassGen agents on @modelcontextprotocol/sdk. See README.md in this folder.

export { McpBackendKeys, McpServerSchema, MCP_SERVER_UPSTREAM_ONLY, expandEnvRefs, normalizeMcpBackend, parseMcpSettings, type McpConfigIssue, type McpSettings } from '../config/mcp';
export { McpCallError, type McpLogEntry, type McpLogger, type McpLogLevel } from './connection';
export { resultToText } from './content';
export { exposedToolName, isSideEffecting, MCP_PREFIX, nameMatches, toolAllowed } from './names';
export { BASE_ENV_VARS, liveServerPids, serverEnvironment } from './stdio-transport';
export {
  createMcpToolbox, DEFAULT_MCP, mcpOptionsFromBackend, mcpToolboxForAgent, McpServerPool, summarizeArguments,
  type ApprovalHandler, type ApprovalRequest, type McpDefaults, type McpServerStatus, type McpToolbox, type McpToolboxOptions,
} from './toolbox';

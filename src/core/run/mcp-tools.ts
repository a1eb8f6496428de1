// MCP servers for a run: each agent's own (`backend.mcp_servers`) plus the servers every agent gets (VS Code's
// `massgen.mcp.servers`), one pool for the shared ones, closed when the run ends. The MCP SDK is loaded only for a
// team that uses it: its schemas take longer to set up than the rest of the start-up.

import type { AgentConfig } from '../config/types';
import type { McpSettings } from '../config/mcp';
import type { ApprovalHandler, McpLogger } from '../mcp';
import type { AgentToolbox } from '../engine/ports';
import { combineToolboxes } from '../tools/combine';

export interface McpWiring {
  /** Asked before a side-effecting tool runs; absent = such calls are denied (the model is told why). */
  approve?: ApprovalHandler;
  /** Server logs and stderr (the CLI: <log dir>/mcp.log; VS Code: the log channel). */
  log?: McpLogger;
  /** The environment servers inherit their allowed variables from. */
  processEnv?: NodeJS.ProcessEnv;
  /** Servers every agent gets besides its own. */
  shared?: McpSettings;
}

export interface RunMcpTools {
  /** The agent's MCP toolbox, or undefined when it has no servers. */
  toolboxFor(agent: AgentConfig): AgentToolbox | undefined;
  close(): Promise<void>;
}

const deny: ApprovalHandler = async () => false;

export function usesMcp(agents: readonly AgentConfig[], wiring: McpWiring | undefined): boolean {
  return Boolean(wiring?.shared?.mcpServers?.length) || agents.some((a) => a.backend.mcpServers?.length);
}

export async function openMcpTools(wiring: McpWiring): Promise<RunMcpTools> {
  const mcp = await import('../mcp/toolbox.js');
  const log = wiring.log ?? (() => undefined);
  const processEnv = wiring.processEnv ?? process.env;
  const pool = new mcp.McpServerPool({ log, processEnv });
  const options = { approve: wiring.approve ?? deny, log, pool, processEnv };
  const shared = wiring.shared;
  return {
    toolboxFor(agent) {
      const own = mcp.mcpToolboxForAgent(agent, options);
      const common = shared?.mcpServers?.length
        ? mcp.createMcpToolbox(shared.mcpServers, { ...options, agentId: agent.id, requireApproval: shared.requireApproval })
        : undefined;
      return own && common ? combineToolboxes(own, common) : (own ?? common);
    },
    // The engine closes every toolbox when the run ends; the pool is the safety net for shared servers.
    close: () => pool.close(),
  };
}

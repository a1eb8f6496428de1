// MCP servers for agents inside VS Code: the `massgen.mcp.servers` setting (every agent; a YAML config's
// `backend.mcp_servers` are that agent's own), approval of side-effecting tools in a notification, and server
// output to the log channel. The run session opens and closes the servers. The setting is window-scoped, so it is read
// from the User settings in remote windows too, and restricted: an untrusted workspace cannot start servers.

import * as vscode from 'vscode';
import { parseMcpSettings, type McpSettings } from '../core/config/mcp';
import type { ApprovalHandler, McpLogger } from '../core/mcp';
import { askUnlessAborted } from './ask';

/** The `massgen.mcp.*` settings, validated; problems are thrown as one message naming the setting. */
export function readMcpSettings(): McpSettings {
  const c = vscode.workspace.getConfiguration('massgen.mcp');
  const raw = { mcp_servers: c.get<unknown[]>('servers', []), require_approval: c.get<string[]>('requireApproval', []) };
  const { settings, issues } = parseMcpSettings(raw, process.env, { requireEnv: true });
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length) throw new Error(`massgen.mcp.servers: ${errors.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return settings;
}

/**
 * Asks before a side-effecting tool runs. "Allow for this run" remembers the tool until the run ends; a cancelled run
 * answers "deny" for prompts still open (the notification itself cannot be withdrawn).
 */
export function notificationApprover(): ApprovalHandler {
  const allowed = new Set<string>();
  return async (req, signal) => {
    if (allowed.has(req.toolName)) return true;
    const once = vscode.l10n.t('Allow');
    const always = vscode.l10n.t('Allow for this run');
    const choice = await askUnlessAborted(
      vscode.l10n.t('MassGen: {0} wants to run {1} (MCP server "{2}") with {3}', req.agentId, req.tool, req.server, req.argumentsSummary),
      req.reason === 'configured' ? vscode.l10n.t('This tool is listed as needing approval.') : vscode.l10n.t('This tool can change things outside MassGen.'),
      [once, always, vscode.l10n.t('Deny')],
      signal,
    );
    if (choice === always) allowed.add(req.toolName);
    return choice === once || choice === always;
  };
}

/** MCP server output in the log channel: errors as errors, server stderr at debug level. */
export function mcpLogger(channel: vscode.LogOutputChannel): McpLogger {
  return (entry) => {
    const line = `[mcp ${entry.server}${entry.agentId ? ` ${entry.agentId}` : ''}] ${entry.message}`;
    if (entry.level === 'error') channel.error(line);
    else if (entry.source === 'stderr') channel.debug(line);
    else channel.info(line);
  };
}

// Whether a run in VS Code gets commands, and how: never in an untrusted workspace (whatever a config says), only in
// workspace runs (commands run in the agents' copies), for every agent when `massgen.commands.enabled` is on or for
// the agents a config enables, and always with an approval prompt. `massgen.commands.network` also reaches the
// commands Claude Code and Codex agents run themselves (unprompted, in their own sandboxes), in the same runs only.
// No `vscode` here, so the rule is tested in Node.

import type { MassGenConfig } from '../../core/config/types';
import type { CommandsOption } from '../../core/run/command-tools';

export interface CommandsContext {
  trusted: boolean;
  /** The run works on copies of a workspace folder (Run on Workspace, /edit without attachments). */
  workspaceRun: boolean;
  /** `massgen.commands.enabled` and `massgen.commands.network`. */
  enabled: boolean;
  network: boolean;
}

/**
 * The run's command option; agents' config-enabled commands are removed from `config` where they may not run.
 * `note` says why, when a config's commands were switched off.
 */
export function commandsForRun(context: CommandsContext, config: MassGenConfig, approve: NonNullable<CommandsOption['approve']>): { option?: CommandsOption; note?: string } {
  const configured = config.agents.some((a) => a.backend.commands);
  const off = (why: string) => {
    for (const a of config.agents) delete a.backend.commands;
    return configured ? { note: `commands are off ${why}; the config's enable_mcp_command_line is ignored` } : {};
  };
  if (!context.trusted) return off('in an untrusted workspace');
  if (!context.workspaceRun) return off('outside workspace runs (they run in the agents\' copies of the folder)');
  return { option: { everyAgent: context.enabled, network: context.network, approve, askEveryCommand: true } };
}

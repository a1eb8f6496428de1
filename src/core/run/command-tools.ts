// Commands for a run's agents: off unless the user turned them on (for every agent, or per agent in the config as
// upstream writes it), always in the agent's own copy, in the sandbox this machine has (or, with none, only after
// the user's approval of each command). No API key the run knows reaches a command.

import type { AgentConfig } from '../config/types';
import type { AgentToolbox } from '../engine/ports';
import { compileCommandPolicy, createCommandToolbox, detectSandbox, type ApprovalRequest, type SandboxInfo } from '../sandbox';
import { SessionSetupError } from './errors';
import type { WorkArea } from './work-area';

export interface CommandsOption {
  /** Every agent may run commands (CLI --allow-commands, VS Code's setting); else only those whose config enables them. */
  everyAgent: boolean;
  /** Commands may use the network; an agent's config (upstream's Docker network mode) may allow it too. */
  network: boolean;
  /** Asked before a command runs: always without a sandbox, and for every command when `askEveryCommand`. */
  approve?: (request: CommandApprovalRequest, signal: AbortSignal) => Promise<boolean>;
  askEveryCommand?: boolean;
}

/** What the user is asked to approve: the command, where and why, and which agent asks. */
export interface CommandApprovalRequest extends ApprovalRequest {
  /** The agent's id as the user configured it (e.g. "claude"). */
  agentId: string;
  /** Its anonymous label, agentK (the name of its copy). */
  label: string;
}

/** Whether any agent of the run gets commands. */
export function wantsCommands(agents: readonly AgentConfig[], option: CommandsOption | undefined): boolean {
  return Boolean(option?.everyAgent) || agents.some((a) => a.backend.commands?.enabled);
}

export interface RunCommandTools {
  sandbox: SandboxInfo;
  /** The agent's command toolbox, or undefined when it may not run commands. */
  toolboxFor(index: number, label: string): AgentToolbox | undefined;
  /** For the run record: where commands run and what they may do. */
  note: string;
}

export async function openCommandTools(agents: readonly AgentConfig[], option: CommandsOption | undefined, area: WorkArea): Promise<RunCommandTools> {
  const rootOf = area.rootOf;
  if (!rootOf) throw new SessionSetupError('config', 'commands need a workspace run: agents run them in their own copy of the folder');
  const policies = agents.map((agent) => {
    const compiled = compileCommandPolicy({ allowed: agent.backend.commands?.allowed, blocked: agent.backend.commands?.blocked });
    if (!compiled.ok) throw new SessionSetupError('config', `agent '${agent.id}': ${compiled.error}`);
    return compiled.policy;
  });
  const sandbox = await detectSandbox();
  const knownSecrets = agents.flatMap((a) => (a.backend.apiKey ? [a.backend.apiKey] : []));
  const approve = option?.approve;
  const network = (i: number) => Boolean(option?.network || agents[i].backend.commands?.network);
  return {
    sandbox,
    note: sandbox.requiresApproval
      ? `commands need your approval one by one: ${sandbox.description}`
      : `commands run in ${sandbox.description}, in each agent's copy${agents.some((_, i) => network(i)) ? '' : ', without network'}`,
    toolboxFor(index, label) {
      if (!option?.everyAgent && !agents[index].backend.commands?.enabled) return undefined;
      return createCommandToolbox({
        cwd: rootOf(label),
        sandbox,
        policy: policies[index],
        network: network(index),
        approve: approve && ((request, signal) => approve({ ...request, agentId: agents[index].id, label }, signal)),
        requireApproval: option?.askEveryCommand,
        knownSecrets,
        readOnlyPaths: area.readOnlyPaths,
      });
    },
  };
}

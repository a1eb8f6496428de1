// Approval of agents' commands inside VS Code: a notification per command with Allow, Allow for this run and Deny.
// "Allow for this run" holds until the run ends (one approver per run); a cancelled run answers "deny" for prompts
// still open (the notification itself cannot be withdrawn).

import type { CommandsOption } from '../../core/run/command-tools';
import { askUnlessAborted } from '../ask';

const MAX_SHOWN = 300;

export function commandApprover(): NonNullable<CommandsOption['approve']> {
  let allowRun = false;
  return async (request, signal) => {
    // Without a sandbox every command is asked for on its own.
    const sandboxed = request.reason !== 'no-sandbox';
    if (allowRun && sandboxed) return true;
    const once = 'Allow';
    const always = 'Allow for this run';
    const shown = request.command.length > MAX_SHOWN ? `${request.command.slice(0, MAX_SHOWN)}…` : request.command;
    const choice = await askUnlessAborted(
      `MassGen: an agent wants to run “${shown}” in its copy of the workspace.`,
      sandboxed ? 'It runs sandboxed: it can change only the agent\'s copy, and no API key is in its environment.' : 'No sandbox is available on this machine: the command would run with your permissions.',
      [once, ...(sandboxed ? [always] : []), 'Deny'],
      signal,
    );
    if (choice === always) allowRun = true;
    return choice === once || choice === always;
  };
}

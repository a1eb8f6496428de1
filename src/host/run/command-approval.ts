// Approval of agents' commands inside VS Code: each command an agent wants to run waits in the window's approval
// queue (approval-queue.ts), answered in its notification or in the vote viewer with Allow, Allow for this run or
// Deny. "Allow for this run" holds until the run ends (one approver per run) and only for sandboxed commands:
// unsandboxed ones are asked for one by one. A cancelled run or agent takes its requests out of the queue ("deny").

import type { CommandsOption } from '../../core/run/command-tools';
import type { ApprovalQueue } from './approval-queue';

const MAX_SHOWN = 300;

/** `folder`: the name of the workspace folder the run's agents have copies of. */
export function commandApprover(queue: ApprovalQueue, run: { runId: string; folder: string }): NonNullable<CommandsOption['approve']> {
  let allowRun = false;
  return async (request, signal) => {
    // Without a sandbox every command is asked for on its own.
    const sandboxed = request.reason !== 'no-sandbox';
    if (allowRun && sandboxed) return true;
    const command = request.command.length > MAX_SHOWN ? `${request.command.slice(0, MAX_SHOWN)}…` : request.command;
    const choice = await queue.ask({ runId: run.runId, agentId: request.agentId, label: request.label, command, folder: run.folder, copy: request.cwd, sandboxed }, signal);
    if (choice === 'allowRun') {
      allowRun = true;
      // The run's other sandboxed commands waiting now are allowed with it.
      queue.answerAll((p) => p.runId === run.runId && p.sandboxed, 'allow');
    }
    return choice === 'allow' || choice === 'allowRun';
  };
}

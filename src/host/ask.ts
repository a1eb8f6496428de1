// Warning notifications with buttons. `askUnlessAborted`: one a run can stop waiting for: when the signal aborts (the
// run ended or was cancelled) the answer is undefined, read as "deny" (VS Code cannot withdraw the notification
// itself). `approvalToast`: the notification of the command approval queue's head (approval-queue.ts).

import * as vscode from 'vscode';
import type { ApprovalChoice, ApprovalToast, PendingApproval } from './run/approval-queue';
import { agentName } from '../protocol/agent-name';

export async function askUnlessAborted(message: string, detail: string, buttons: string[], signal: AbortSignal): Promise<string | undefined> {
  const answer = vscode.window.showWarningMessage(message, { detail }, ...buttons);
  let onAbort = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([answer, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

export function approvalToast(): ApprovalToast {
  return {
    show: async (head: PendingApproval, more: number): Promise<ApprovalChoice | undefined> => {
      const buttons: [string, ApprovalChoice][] = [
        [vscode.l10n.t('Allow'), 'allow'],
        ...(head.sandboxed ? [[vscode.l10n.t('Allow for this run'), 'allowRun'] as [string, ApprovalChoice]] : []),
        [vscode.l10n.t('Deny'), 'deny'],
      ];
      const message = vscode.l10n.t('MassGen: {0} wants to run “{1}” in its copy of “{2}”.', agentName({ id: head.agentId, label: head.label }), head.command, head.folder);
      const waiting = more === 0 ? '' : more === 1 ? vscode.l10n.t(' 1 more approval waits (see the vote viewer).') : vscode.l10n.t(' {0} more approvals wait (see the vote viewer).', more);
      const sandbox = head.sandboxed
        ? vscode.l10n.t("It runs sandboxed: it can change only the agent's copy, and no API key is in its environment.")
        : vscode.l10n.t('No sandbox is available on this machine: the command would run with your permissions.');
      const picked = await vscode.window.showWarningMessage(message + waiting, { detail: `${sandbox}\n${vscode.l10n.t('Copy: {0}', head.copy)}` }, ...buttons.map(([b]) => b));
      return buttons.find(([b]) => b === picked)?.[1];
    },
  };
}

// A warning notification with buttons that a run can stop waiting for: when the signal aborts (the run ended or
// was cancelled) the answer is undefined, read as "deny" (VS Code cannot withdraw the notification itself).

import * as vscode from 'vscode';

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

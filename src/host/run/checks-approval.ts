// Where no command sandbox exists, the project's checks run on the agents' code with the user's permissions: asked
// once per run, before it starts (a modal, so a hidden notification cannot hold the run back). No = the run goes on
// unchecked, and its notes say so.

import * as vscode from 'vscode';
import type { ChecksOption } from '../../core/run/checks';

export function checksApprover(): NonNullable<ChecksOption['approveUnsandboxed']> {
  return async ({ commands, sandbox }) => {
    const run = vscode.l10n.t('Run Unsandboxed');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('MassGen: run the checks ({0}) without a sandbox?', commands.join(', ')),
      { modal: true, detail: vscode.l10n.t("{0}. The checks would run on the agents' changes with your permissions. Otherwise the run goes on without checks.", sandbox) },
      run,
    );
    return choice === run;
  };
}

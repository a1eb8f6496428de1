// A run that ended without an answer, told as a notification. When every agent's server was down the message is one
// line with the URLs, and its buttons open where those URLs are set (the team's file or the massgen.agents setting)
// and the log.

import * as vscode from 'vscode';
import type { RunResult } from '../../core/engine/ports';
import type { RunState } from '../../core/engine/run-state';
import { teamSource } from './config';
import { noAnswer } from './outcome';

/** Opens where the team's servers are set: its YAML file, or the massgen.agents setting. */
function openTeamSettings(): Thenable<unknown> {
  return teamSource().source === 'file'
    ? vscode.commands.executeCommand('massgen.openConfig')
    : vscode.commands.executeCommand('workbench.action.openSettings', 'massgen.agents');
}

export async function showNoAnswer(result: Pick<RunResult, 'reason' | 'error'>, agents: RunState['agents']): Promise<void> {
  const { text, isError, serverDown } = noAnswer(result.reason, result.error ?? undefined, agents, vscode.l10n);
  if (!isError) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: {0}', text));
    return;
  }
  if (!serverDown) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}', text));
    return;
  }
  const settings = vscode.l10n.t('Open Settings');
  const log = vscode.l10n.t('Show Log');
  const choice = await vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}', text), settings, log);
  if (choice === settings) await openTeamSettings();
  else if (choice === log) await vscode.commands.executeCommand('massgen.showLog');
}

// What stops a run from starting (no chat model, a missing key, a broken config), told with the actions that fix
// it: asked before Run on Selection or Run on Workspace asks for an instruction, and when a run could not start.

import * as vscode from 'vscode';
import type { Setup } from '../../protocol/messages';
import { teamSource } from './config';

export type TeamProblem = NonNullable<Setup['problem']>;

interface Fix {
  label: () => string;
  run: (p: TeamProblem) => Thenable<unknown>;
}

const setApiKey: Fix = { label: () => vscode.l10n.t('Set API Key'), run: (p) => vscode.commands.executeCommand('massgen.setApiKey', p.envVar) };
const configureAgents: Fix = { label: () => vscode.l10n.t('Configure Agents'), run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'massgen.agents') };
const openConfig: Fix = { label: () => vscode.l10n.t('Open Config'), run: () => vscode.commands.executeCommand('massgen.openConfig') };

/**
 * The notification's buttons for each kind of fix. A problem in the settings is a problem in massgen.agents (a key
 * cannot fix it) unless no agent is set there at all: then agents with keys, or a chat model, are what is missing.
 */
function fixesFor(problem: TeamProblem): Fix[] {
  switch (problem.fix) {
    case 'setApiKey':
      return [setApiKey];
    case 'openConfig':
      return [openConfig];
    case 'settings':
      return teamSource().source === 'chat-models' ? [configureAgents, setApiKey] : [configureAgents];
  }
}

/** Shows the problem as an error with its fixes; resolves once the user picked one (or closed it). */
export async function offerFix(problem: TeamProblem): Promise<void> {
  const fixes = fixesFor(problem);
  const choice = await vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}', problem.text), ...fixes.map((f) => f.label()));

  await fixes.find((f) => f.label() === choice)?.run(problem);
}

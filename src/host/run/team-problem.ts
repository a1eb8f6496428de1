// What stops a run from starting (no chat model, a missing key, a broken config), told with the actions that fix
// it: asked before Run on Selection or Run on Workspace asks for an instruction, and when a run could not start.

import * as vscode from 'vscode';
import type { Setup } from '../../protocol/messages';

export type TeamProblem = NonNullable<Setup['problem']>;

/** The notification's buttons for each kind of fix, and what each opens. */
const FIXES: Record<TeamProblem['fix'], { label: string; run: (p: TeamProblem) => Thenable<unknown> }[]> = {
  setApiKey: [{ label: 'Set API Key', run: (p) => vscode.commands.executeCommand('massgen.setApiKey', p.envVar) }],
  openConfig: [{ label: 'Open Config', run: () => vscode.commands.executeCommand('massgen.openConfig') }],
  settings: [
    { label: 'Configure Agents', run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'massgen.agents') },
    { label: 'Set API Key', run: () => vscode.commands.executeCommand('massgen.setApiKey') },
  ],
};

/** Shows the problem as an error with its fixes; resolves once the user picked one (or closed it). */
export async function offerFix(problem: TeamProblem): Promise<void> {
  const fixes = FIXES[problem.fix];
  const choice = await vscode.window.showErrorMessage(`MassGen: ${problem.text}`, ...fixes.map((f) => f.label));
  await fixes.find((f) => f.label === choice)?.run(problem);
}

// Extension entry point. The engine lives in src/core; this host layer only wires it to VS Code. The commands,
// chat participant and vote viewer arrive with the VS Code surface work; activation stays cheap meanwhile.

import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('MassGen', { log: true });
  context.subscriptions.push(log);
  log.info('MassGen activated');
}

export function deactivate(): void {}

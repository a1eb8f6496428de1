// Activation: compose the host services and register the commands, the chat participant and the vote viewer.
// Cheap by design: no network, no file reads, no model listing until the user starts something.

import * as vscode from 'vscode';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { registerChatParticipant } from './chat';
import { CONFIG_TEMPLATE } from './config-template';
import { KeyStore, setApiKeyCommand } from './keys';
import { PreviewManager } from './preview';
import { configFilePath, readSettings } from './run-config';
import { runOnSelection } from './run-on-selection';
import { RunPreviews } from './run-previews';
import { RunManager } from './runs';
import { registerVoteViewer } from './viewer';

/** What the extension returns from activate(): used by the end-to-end tests. */
export interface MassGenApi {
  runs: RunManager;
  preview: PreviewManager;
  previews: RunPreviews;
  keys: KeyStore;
  /** Folder of the "MassGen" log channel's file, so tests can check what was logged. */
  logUri: vscode.Uri;
}

async function openConfig(): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const file = configFilePath(readSettings().configFile) ?? (root ? join(root, '.massgen', 'config.yaml') : undefined);
  if (!file) {
    void vscode.window.showInformationMessage('MassGen: open a folder first; the config lives in .massgen/config.yaml of the workspace.');
    return;
  }
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, CONFIG_TEMPLATE);
  }
  await vscode.window.showTextDocument(vscode.Uri.file(file));
}

export function activate(context: vscode.ExtensionContext): MassGenApi {
  const log = vscode.window.createOutputChannel('MassGen', { log: true });
  const keys = new KeyStore(context.secrets);
  const runs = new RunManager(keys, log);
  const preview = new PreviewManager();
  const previews = new RunPreviews(runs, preview);

  const updateRunning = () => void vscode.commands.executeCommand('setContext', 'massgen.running', runs.active.length > 0);
  context.subscriptions.push(
    log,
    runs,
    preview,
    runs.onDidStart((run) => {
      updateRunning();
      void run.result.finally(updateRunning);
    }),
  );

  const register = (id: string, fn: (...args: never[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  register('massgen.runOnSelection', (args?: { instruction?: string }) => runOnSelection({ runs, previews, memento: context.globalState }, args?.instruction));
  register('massgen.setApiKey', (envVar?: string) => setApiKeyCommand(keys, typeof envVar === 'string' ? envVar : undefined));
  register('massgen.cancelRun', () => {
    if (runs.cancelAll() === 0) void vscode.window.showInformationMessage('MassGen: no run in progress.');
  });
  register('massgen.applyWinner', () => preview.apply());
  register('massgen.discardWinner', () => preview.discard());
  register('massgen.previewRun', (runId: string) => previews.show(runId));
  register('massgen.applyRun', (runId: string) => previews.apply(runId));
  register('massgen.showLog', () => log.show());
  register('massgen.openConfig', () => openConfig());

  const scratchDir = join((context.storageUri ?? context.globalStorageUri).fsPath, 'scratch');
  registerChatParticipant(context, { runs, keys, previews, scratchDir });
  context.subscriptions.push(registerVoteViewer(context, runs, log));
  return { runs, preview, previews, keys, logUri: context.logUri };
}

export function deactivate(): void {}

// Everything the extension does once the user starts something: the run manager (engine, SDKs, config parsing),
// previews, the chat handler and the vote viewer. Bundled apart as dist/runtime.js and loaded by extension.ts on
// the first command, chat request or viewer, so activation does not pay for loading it.

import * as vscode from 'vscode';
import { join } from 'node:path';
import { createChatHandler } from './chat';
import type { CommandId, ShowVoteViewerArgs } from './ids';
import { KeyStore, setApiKeyCommand } from './keys';
import { createMassGenTool } from './lm-tool/tool';
import type { MassGenToolInput } from './lm-tool/plan';
import { openConfig } from './open-config';
import { runStatusItem } from './status-item';
import { PreviewManager } from './run/selection-diff';
import { runOnSelection } from './run/on-selection';
import { runOnWorkspace } from './run/on-workspace';
import { RunPreviews } from './run/previews';
import { RunManager } from './run/manager';
import { createVoteViewer, type VoteViewer } from './viewer';

export interface Runtime {
  runs: RunManager;
  preview: PreviewManager;
  previews: RunPreviews;
  keys: KeyStore;
  viewer: VoteViewer;
  chat: vscode.ChatRequestHandler;
  lmTool: vscode.LanguageModelTool<MassGenToolInput>;
  commands: Record<CommandId, (...args: never[]) => unknown>;
}

export function createRuntime(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Runtime {
  const keys = new KeyStore(context.secrets);
  const runs = new RunManager(keys, log);
  const preview = new PreviewManager();
  const previews = new RunPreviews(runs, preview);
  const viewer = createVoteViewer(context, { runs, previews, keys }, log);
  const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
  const scratchDir = join(storage, 'scratch');
  const copiesDir = join(storage, 'workspaces');

  const updateRunning = () => void vscode.commands.executeCommand('setContext', 'massgen.running', runs.active.length > 0);
  context.subscriptions.push(
    runs,
    preview,
    previews,
    viewer,
    runStatusItem(runs),
    runs.onDidStart((run) => {
      updateRunning();
      void run.result.then(updateRunning, updateRunning);
    }),
  );

  return {
    runs,
    preview,
    previews,
    keys,
    viewer,
    lmTool: createMassGenTool({ runs, keys, previews, copiesDir }),
    chat: createChatHandler({ runs, keys, previews, scratchDir, copiesDir }),
    commands: {
      'massgen.runOnSelection': (args?: { instruction?: string }) => runOnSelection({ runs, previews, memento: context.globalState }, args?.instruction),
      // From the explorer's menu the argument is the folder; from tests and chat, { instruction, folder }.
      'massgen.runOnWorkspace': (args?: vscode.Uri | { instruction?: string; folder?: vscode.Uri }) =>
        runOnWorkspace({ runs, previews, copiesDir }, args instanceof vscode.Uri ? { folder: args } : args),
      'massgen.setApiKey': (envVar?: string) => setApiKeyCommand(keys, typeof envVar === 'string' ? envVar : undefined),
      'massgen.cancelRun': () => {
        if (runs.cancelAll() === 0) void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: no run in progress.'));
      },
      // From the chat's button, the run it is about; from the palette, the latest run going.
      'massgen.answerNow': (runId?: string) => {
        const done = runs.answerNow(typeof runId === 'string' ? runId : undefined);
        if ('refused' in done) void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: Answer now: {0}.', done.refused));
      },
      'massgen.showVoteViewer': (args?: ShowVoteViewerArgs) => viewer.show(args),
      'massgen.openVoteViewerPanel': (args?: { runId?: string; preserveFocus?: boolean }) => viewer.openPanel(args),
      'massgen.showLog': () => log.show(),
      'massgen.openConfig': () => openConfig(() => viewer.refreshSetup()),
      'massgen.applyWinner': () => previews.applyPending(),
      'massgen.discardWinner': () => preview.discard(),
      'massgen.previewRun': (runId: string) => previews.show(runId),
      'massgen.applyRun': (runId: string) => previews.apply(runId),
      'massgen.undoRun': (runId: string) => previews.undo(runId),
    },
  };
}

// Activation: registers the commands, the chat participant, the language-model tool and the vote viewer, and
// nothing more. What they run (the engine, the SDKs, config parsing, the viewer's host side) is dist/runtime.js,
// loaded on first use: VS Code counts the time to load and run this file as the extension's activation time, so it
// imports only `vscode` and the identifiers (and types, which vanish at build time).

import * as vscode from 'vscode';
import { COMMAND_IDS, FOLLOWUPS, isChatResultMeta, LM_TOOL_NAME, PANEL_VIEW_TYPE, PARTICIPANT_ID, VIEW_ID } from './ids';
import type { KeyStore } from './keys';
import type { MassGenToolInput } from './lm-tool/plan';
import type { PreviewManager } from './run/selection-diff';
import type { RunPreviews } from './run/previews';
import type { RunManager } from './run/manager';
import type { Runtime } from './runtime';

/** What the extension returns from activate(): used by the end-to-end tests (reading it loads the runtime). */
export interface MassGenApi {
  runs: RunManager;
  preview: PreviewManager;
  previews: RunPreviews;
  keys: KeyStore;
  /** The massgen_run language-model tool, so tests can check what its confirmation says. */
  lmTool: vscode.LanguageModelTool<MassGenToolInput>;
  /** Folder of the "MassGen" log channel's file, so tests can check what was logged. */
  logUri: vscode.Uri;
}

/** Follow-ups offered under a finished @massgen run; the prompt stays English: the chat handler matches it. */
function followups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const meta = result.metadata;
  if (!isChatResultMeta(meta) || !meta.runId) return [];
  return [
    { prompt: FOLLOWUPS.explainVote, label: vscode.l10n.t('Explain the vote') },
    { prompt: FOLLOWUPS.agentsThatRan, label: vscode.l10n.t('Which agents ran?') },
  ];
}

/** Loaded on first use; `deactivate` needs it to close the runs. */
let runtime: Runtime | undefined;

/** How long a window reload or shutdown waits for runs to close: VS Code does not wait long for `deactivate`. */
const CLOSE_RUNS_MS = 4_000;

export function activate(context: vscode.ExtensionContext): MassGenApi {
  const log = vscode.window.createOutputChannel('MassGen', { log: true });
  context.subscriptions.push(log);
  // A plain require of a path esbuild leaves alone (external in esbuild.mjs): the runtime is its own bundle, and a
  // synchronous load keeps the test API's getters plain properties.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (): Runtime => (runtime ??= (require('./runtime.js') as typeof import('./runtime')).createRuntime(context, log));

  for (const id of COMMAND_IDS) {
    context.subscriptions.push(vscode.commands.registerCommand(id, (...args: never[]) => load().commands[id](...args)));
  }
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, chatContext, stream, token) => load().chat(request, chatContext, stream, token));
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = { provideFollowups: followups };
  context.subscriptions.push(
    participant,
    vscode.window.registerWebviewViewProvider(VIEW_ID, { resolveWebviewView: (view, state, token) => load().viewer.resolveWebviewView(view, state, token) }),
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, { deserializeWebviewPanel: (panel, state) => load().viewer.deserializeWebviewPanel(panel, state) }),
    vscode.lm.registerTool<MassGenToolInput>(LM_TOOL_NAME, {
      prepareInvocation: (options, token) => load().lmTool.prepareInvocation?.(options, token),
      invoke: (options, token) => load().lmTool.invoke(options, token),
    }),
  );

  return {
    get runs() {
      return load().runs;
    },
    get preview() {
      return load().preview;
    },
    get previews() {
      return load().previews;
    },
    get keys() {
      return load().keys;
    },
    get lmTool() {
      return load().lmTool;
    },
    logUri: context.logUri,
  };
}

/** Cancels the runs going and waits (bounded) until they have removed their copies and finished their logs. */
export function deactivate(): Promise<void> | undefined {
  return runtime?.runs.closeAll(CLOSE_RUNS_MS);
}

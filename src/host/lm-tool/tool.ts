// The `massgen_run` language-model tool (package.json `languageModelTools`): Copilot's agent mode, or any chat
// participant, asks the MassGen team through vscode.lm.invokeTool. `prepareInvocation` says what will run and asks
// first when it spends money or works on copies of the workspace; `invoke` starts the run through the RunManager
// (so the vote viewer follows it), reports progress in a notification, stops on cancellation, and returns the
// answer and the tally. A workspace run's change is returned and registered for the viewer's Apply, never applied.

import * as vscode from 'vscode';
import { describeEvent } from '../../core/status/describe';
import { errorMessage } from '../../core/util/errors';
import { oneLine } from '../../core/util/text';
import type { RunSession } from '../../core/run/session';
import type { KeyStore } from '../keys';
import { resolveRunConfig } from '../run/config';
import type { RunManager } from '../run/manager';
import { workspaceInstructions } from '../run/copy-instructions';
import type { RunPreviews } from '../run/previews';
import { teamFor } from '../run/team';
import { escapeMarkdown, planInvocation, type MassGenToolInput } from './plan';
import { resultTexts } from './result';

export interface MassGenToolDeps {
  runs: RunManager;
  keys: KeyStore;
  previews: RunPreviews;
  /** Where the agents' copies of the workspace live (the extension's storage). */
  copiesDir: string;
}

/** The folder a workspace run works on: the only one, the active editor's, else the first (no prompt: a tool runs unattended). */
function toolFolder(): vscode.WorkspaceFolder {
  if (!vscode.workspace.isTrusted) throw new Error(vscode.l10n.t('A workspace run needs a trusted workspace (the agents read the whole folder).'));
  const folders = vscode.workspace.workspaceFolders ?? [];
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = (active && vscode.workspace.getWorkspaceFolder(active)) ?? folders[0];
  if (!folder) throw new Error(vscode.l10n.t('A workspace run needs an open folder: the agents work on copies of it.'));
  return folder;
}

function checkInput(input: MassGenToolInput | undefined): asserts input is MassGenToolInput {
  if (typeof input?.question !== 'string' || !input.question.trim()) throw new Error('massgen_run needs a question: { "question": "..." }.');
}

function invocationMessage(question: string, agents: number | undefined): vscode.MarkdownString {
  const team = agents ? vscode.l10n.t('{0} agents', agents) : vscode.l10n.t('the team');
  const message = new vscode.MarkdownString(
    vscode.l10n.t('MassGen: {0} on “{1}” — [open the vote viewer]({2})', team, escapeMarkdown(oneLine(question, 80)), 'command:massgen.showVoteViewer'),
  );
  message.isTrusted = { enabledCommands: ['massgen.showVoteViewer'] };
  return message;
}

export function createMassGenTool(deps: MassGenToolDeps): vscode.LanguageModelTool<MassGenToolInput> {
  return {
    async prepareInvocation({ input }) {
      try {
        checkInput(input);
        const folder = input.workspace ? toolFolder() : undefined;
        const { config } = await teamFor(await resolveRunConfig(deps.keys));
        const commands = Boolean(folder) && vscode.workspace.getConfiguration('massgen.commands').get<boolean>('enabled', false);
        const plan = planInvocation(config, input, folder, commands, vscode.l10n);
        const title = folder ? vscode.l10n.t('Run a MassGen team on copies of {0}?', folder.name) : vscode.l10n.t('Run a MassGen team? It spends money.');
        return {
          invocationMessage: invocationMessage(input.question, plan.team.length),
          confirmationMessages: plan.confirm ? { title, message: new vscode.MarkdownString(plan.message) } : undefined,
        };
      } catch (err) {
        // `invoke` reports the same problem as its error; here it only labels the call.
        return { invocationMessage: vscode.l10n.t('MassGen cannot start: {0}', errorMessage(err)) };
      }
    },

    async invoke({ input }, token) {
      checkInput(input);
      const folder = input.workspace ? toolFolder() : undefined;
      const abort = new AbortController();
      const onCancel = token.onCancellationRequested(() => abort.abort());
      try {
        const title = vscode.l10n.t('MassGen: {0}', oneLine(input.question, 60));
        return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, stop) => {
          const onStop = stop.onCancellationRequested(() => abort.abort());
          try {
            let run: RunSession;
            try {
              run = await deps.runs.start({
                task: folder ? `${input.question}\n\n${workspaceInstructions(folder.name)}` : input.question,
                title: oneLine(input.question, 60),
                prompt: input.question,
                signal: abort.signal,
                files: folder && { kind: 'workspace', source: folder.uri.fsPath, baseDir: deps.copiesDir },
                onEvent: (event, state) => {
                  // The notification's title already says MassGen.
                  const line = describeEvent(event, state)?.replace(/^MassGen: /, '');
                  if (line) progress.report({ message: oneLine(line, 120) });
                },
              });
            } catch (err) {
              if (token.isCancellationRequested) throw new vscode.CancellationError();
              throw new Error(vscode.l10n.t('MassGen could not start: {0}', errorMessage(err)));
            }
            if (folder) deps.previews.registerFiles(run.id, (path) => vscode.Uri.joinPath(folder.uri, ...path.split('/')));
            const result = await run.result;
            if (token.isCancellationRequested) throw new vscode.CancellationError();
            return new vscode.LanguageModelToolResult(resultTexts(result, run.state, run.id).map((text) => new vscode.LanguageModelTextPart(text)));
          } finally {
            onStop.dispose();
          }
        });
      } finally {
        onCancel.dispose();
      }
    },
  };
}

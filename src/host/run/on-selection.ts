// MassGen: Run on selection — the selection (or the whole file), an instruction, a run with progress and Cancel,
// and the winner as a diff preview. Nothing touches the file until the user applies it.

import * as vscode from 'vscode';
import { ConfigError } from '../../core/config/load';
import { buildSelectionTask } from '../../core/edit/selection-task';
import type { RunEvent } from '../../core/engine/events';
import type { RunState } from '../../core/engine/run-state';
import type { RunSession } from '../../core/run/session';
import { errorMessage } from '../../core/util/errors';
import { NoChatModelsError } from '../lm/models';
import { MissingKeyError, teamSource } from './config';
import { showNoAnswer } from './no-answer';
import { consensusOf, endingNote } from './outcome';
import { captureTarget, type RunPreviews } from './previews';
import { offerFix } from './team-problem';
import type { RunManager } from './manager';

const HISTORY_KEY = 'massgen.instructionHistory';
const HISTORY_SIZE = 20;

/** An input box that also offers the recent instructions (VS Code's input box has no history). */
async function askInstruction(memento: vscode.Memento): Promise<string | undefined> {
  const history = memento.get<string[]>(HISTORY_KEY, []);
  const pick = vscode.window.createQuickPick();
  pick.title = vscode.l10n.t('MassGen: Run on selection');
  pick.placeholder = vscode.l10n.t('What should the agents do with the selection? (e.g. "Add input validation")');
  const recent = vscode.l10n.t('recent');
  pick.items = history.map((label) => ({ label, description: recent }));
  pick.ignoreFocusOut = true;
  const value = await new Promise<string | undefined>((resolve) => {
    pick.onDidAccept(() => resolve((pick.selectedItems[0]?.label ?? pick.value).trim() || undefined));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (value) await memento.update(HISTORY_KEY, [value, ...history.filter((h) => h !== value)].slice(0, HISTORY_SIZE));
  return value;
}

/** Shows why a run could not start as a notification whose buttons fix it (a button that cannot help is left out). */
export async function reportStartError(err: unknown): Promise<void> {
  if (err instanceof MissingKeyError) {
    const set = vscode.l10n.t('Set API Key');
    if ((await vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}', err.message), set)) === set) await vscode.commands.executeCommand('massgen.setApiKey', err.envVar);
    return;
  }
  if (err instanceof NoChatModelsError) return offerFix({ text: err.message, fix: 'settings' });
  if (err instanceof ConfigError) return offerFix({ text: err.message, fix: teamSource().source === 'file' ? 'openConfig' : 'settings' });
  const log = vscode.l10n.t('Show Log');
  if ((await vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}', errorMessage(err)), log)) === log) await vscode.commands.executeCommand('massgen.showLog');
}

function progressMessage(event: RunEvent, s: RunState): string | undefined {
  switch (event.type) {
    case 'run_started':
      return vscode.l10n.t('{0} agents starting…', event.agents.length);
    case 'round_started':
      return event.agentIds.length === 1
        ? vscode.l10n.t('Round {0}: 1 agent working…', event.round)
        : vscode.l10n.t('Round {0}: {1} agents working…', event.round, event.agentIds.length);
    case 'answer_added':
      return s.answers.length === 1 ? vscode.l10n.t('{0} in (1 answer)', event.label) : vscode.l10n.t('{0} in ({1} answers)', event.label, s.answers.length);
    case 'vote_cast':
      return vscode.l10n.t('{0}/{1} agents voted', s.agents.filter((a) => a.currentVote).length, s.agents.filter((a) => a.status !== 'failed').length);
    case 'retry':
      return vscode.l10n.t('{0} retrying in {1} s', event.agentId, (event.delayMs / 1000).toFixed(0));
    case 'final_started':
      return vscode.l10n.t('Preparing the winner…');
    default:
      return undefined;
  }
}

/** Where the run works, for its task as the views show it: "sample.py lines 1–2", "the whole of sample.py". */
function where(path: string, range: vscode.Range, wholeFile: boolean): string {
  return wholeFile ? `the whole of ${path}` : `${path} lines ${range.start.line + 1}–${range.end.line + 1}`;
}

/** `instruction` skips the prompt (keybindings and tests pass it as the command argument). */
export async function runOnSelection(deps: { runs: RunManager; previews: RunPreviews; memento: vscode.Memento }, given?: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: open a file and select the code to work on.'));
    return;
  }
  const doc = editor.document;
  const wholeFile = editor.selection.isEmpty;
  const range = wholeFile ? new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)) : editor.selection;
  const captured = captureTarget(doc, range);
  const code = captured.text.slice(captured.start, captured.end);
  if (!code.trim()) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: the selection is empty. Select some code, or clear the selection to use the whole file.'));
    return;
  }
  // Before asking what to do: can anything run at all?
  const problem = await deps.runs.problem();
  if (problem) {
    await offerFix(problem);
    return;
  }
  const instruction = given?.trim() || (await askInstruction(deps.memento));
  if (!instruction) return;
  const path = vscode.workspace.asRelativePath(doc.uri);
  const task = buildSelectionTask({ instruction, path, languageId: doc.languageId, startLine: range.start.line + 1, endLine: range.end.line + 1, code, wholeFile });

  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('MassGen'), cancellable: true }, async (progress, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      let run: RunSession;
      try {
        const onEvent = (event: RunEvent, state: RunState) => {
          const message = progressMessage(event, state);
          if (message) progress.report({ message });
        };
        run = await deps.runs.start({ task, title: `${instruction} (${path})`, prompt: `${instruction} (${where(path, range, wholeFile)})`, signal: abort.signal, onEvent });
      } catch (err) {
        void reportStartError(err);
        return;
      }
      void vscode.commands.executeCommand('massgen.showVoteViewer', { preserveFocus: true });
      deps.previews.register(run.id, captured);
      const result = await run.result;
      if (result.finalAnswer === null) {
        void showNoAnswer(result, run.state.agents);
        return;
      }
      // Says itself why when there is no code for the file (the answer stays in the vote viewer).
      const shown = await deps.previews.show(run.id);
      if (!shown) return;
      const ending = endingNote(result.reason, consensusOf(run.state), vscode.l10n);
      // No Apply/Discard buttons here: a notification cannot be withdrawn, and would offer them after the diff was
      // applied or discarded elsewhere. The diff's title bar and the vote viewer follow the winner's state.
      const won = ending
        ? vscode.l10n.t('MassGen: {0} won ({1}). Review the diff, then apply it with ✓ in its title bar (Ctrl+Alt+Enter) or discard it.', result.winnerLabel ?? '', ending)
        : vscode.l10n.t('MassGen: {0} won. Review the diff, then apply it with ✓ in its title bar (Ctrl+Alt+Enter) or discard it.', result.winnerLabel ?? '');
      void vscode.window.showInformationMessage(shown.note ? `${won} ${shown.note}` : won);
    } finally {
      sub.dispose();
    }
  });
}

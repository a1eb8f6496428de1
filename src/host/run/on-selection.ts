// MassGen: Run on selection — the selection (or the whole file), an instruction, a run with progress and Cancel,
// and the winner as a diff preview. Nothing touches the file until the user applies it.

import * as vscode from 'vscode';
import { ConfigError } from '../../core/config/load';
import { buildSelectionTask } from '../../core/edit/selection-task';
import type { RunEvent } from '../../core/engine/events';
import type { RunState } from '../../core/engine/run-state';
import type { RunSession } from '../../core/run/session';
import { errorMessage } from '../../core/util/errors';
import { MissingKeyError } from './config';
import { captureTarget, type RunPreviews } from './previews';
import type { RunManager } from './manager';

const HISTORY_KEY = 'massgen.instructionHistory';
const HISTORY_SIZE = 20;

/** An input box that also offers the recent instructions (VS Code's input box has no history). */
async function askInstruction(memento: vscode.Memento): Promise<string | undefined> {
  const history = memento.get<string[]>(HISTORY_KEY, []);
  const pick = vscode.window.createQuickPick();
  pick.title = 'MassGen: Run on selection';
  pick.placeholder = 'What should the agents do with the selection? (e.g. "Add input validation")';
  pick.items = history.map((label) => ({ label, description: 'recent' }));
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

/** Shows a run error as an actionable notification. */
export async function reportStartError(err: unknown): Promise<void> {
  if (err instanceof MissingKeyError) {
    const set = 'Set API Key';
    if ((await vscode.window.showErrorMessage(`MassGen: ${err.message}`, set)) === set) await vscode.commands.executeCommand('massgen.setApiKey', err.envVar);
    return;
  }
  if (err instanceof ConfigError) {
    const open = 'Open Settings';
    if ((await vscode.window.showErrorMessage(`MassGen configuration: ${err.message}`, open)) === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'massgen');
    return;
  }
  void vscode.window.showErrorMessage(`MassGen: ${errorMessage(err)}`);
}

function progressMessage(event: RunEvent, s: RunState): string | undefined {
  switch (event.type) {
    case 'run_started':
      return `${event.agents.length} agents starting…`;
    case 'round_started':
      return `Round ${event.round}: ${event.agentIds.length} agent(s) working…`;
    case 'answer_added':
      return `${event.label} in (${s.answers.length} answer(s))`;
    case 'vote_cast':
      return `${s.agents.filter((a) => a.currentVote).length}/${s.agents.filter((a) => a.status !== 'failed').length} agents voted`;
    case 'retry':
      return `${event.agentId} retrying in ${(event.delayMs / 1000).toFixed(0)} s`;
    case 'final_started':
      return 'Preparing the winner…';
    default:
      return undefined;
  }
}

/** `instruction` skips the prompt (keybindings and tests pass it as the command argument). */
export async function runOnSelection(deps: { runs: RunManager; previews: RunPreviews; memento: vscode.Memento }, given?: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('MassGen: open a file and select the code to work on.');
    return;
  }
  const doc = editor.document;
  const wholeFile = editor.selection.isEmpty;
  const range = wholeFile ? new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)) : editor.selection;
  const captured = captureTarget(doc, range);
  const code = captured.text.slice(captured.start, captured.end);
  if (!code.trim()) {
    void vscode.window.showInformationMessage('MassGen: the selection is empty. Select some code, or clear the selection to use the whole file.');
    return;
  }
  const instruction = given?.trim() || (await askInstruction(deps.memento));
  if (!instruction) return;
  const path = vscode.workspace.asRelativePath(doc.uri);
  const task = buildSelectionTask({ instruction, path, languageId: doc.languageId, startLine: range.start.line + 1, endLine: range.end.line + 1, code, wholeFile });

  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'MassGen', cancellable: true }, async (progress, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      let run: RunSession;
      try {
        const onEvent = (event: RunEvent, state: RunState) => {
          const message = progressMessage(event, state);
          if (message) progress.report({ message });
        };
        run = await deps.runs.start({ task, title: `${instruction} (${path})`, signal: abort.signal, onEvent });
      } catch (err) {
        void reportStartError(err);
        return;
      }
      void vscode.commands.executeCommand('massgen.showVoteViewer', { preserveFocus: true });
      deps.previews.register(run.id, captured);
      const result = await run.result;
      if (result.finalAnswer === null) {
        void vscode.window.showErrorMessage(`MassGen: no answer (${result.reason}). ${result.error ?? ''}`.trim());
        return;
      }
      const shown = await deps.previews.show(run.id);
      if (!shown) return;
      const ending = result.reason === 'consensus' ? '' : ` (ended by ${result.reason.replace('_', ' ')})`;
      void vscode.window.showInformationMessage(`MassGen: ${result.winnerLabel} won${ending}. Review the diff, then Apply or Discard.${shown.note ? ` ${shown.note}` : ''}`, 'Apply', 'Discard').then((choice) => {
        if (choice === 'Apply') void vscode.commands.executeCommand('massgen.applyWinner');
        if (choice === 'Discard') void vscode.commands.executeCommand('massgen.discardWinner');
      });
    } finally {
      sub.dispose();
    }
  });
}

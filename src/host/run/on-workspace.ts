// MassGen: Run on Workspace — every agent works on its own copy of a workspace folder (a git worktree when it is a
// repository) with file tools; the winner's change opens in VS Code's refactor preview, where each file is accepted
// or rejected. Nothing touches the folder until the user applies the change. Without checks set, the project's own
// test command is offered as one first (suggest-checks.ts).

import * as vscode from 'vscode';
import type { RunEvent } from '../../core/engine/events';
import type { RunState } from '../../core/engine/run-state';
import type { RunSession } from '../../core/run/session';
import { errorMessage } from '../../core/util/errors';
import { verificationInWords } from '../../protocol/checks';
import { loadTeamConfig, teamSource } from './config';
import { reportStartError } from './on-selection';
import { folderFiles, suggestCheck } from './suggest-checks';
import { showNoAnswer } from './no-answer';
import { consensusOf, endingNote } from './outcome';
import { offerFix } from './team-problem';
import type { RunManager } from './manager';
import { firstAnswer, type PendingRuns } from './pending-run';
import type { RunPreviews } from './previews';
import { workspaceInstructions } from './copy-instructions';

/** The folder to run on: the one given (explorer menu), the only one, the active file's, or the user's pick. */
export async function pickWorkspaceFolder(given?: vscode.Uri): Promise<vscode.WorkspaceFolder | vscode.Uri | undefined> {
  if (given) return given;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  const owner = active && vscode.workspace.getWorkspaceFolder(active);
  if (owner) return owner;
  return vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('MassGen: which folder should the agents work on?') });
}

/**
 * The copies are made from the files on disk: unsaved editors in the folder are saved first, or left out, as the user
 * says. False when the user cancelled.
 */
export async function settleUnsavedFiles(folder: vscode.Uri, name: string): Promise<boolean> {
  const inside = (uri: vscode.Uri) => uri.scheme === folder.scheme && (uri.path === folder.path || uri.path.startsWith(`${folder.path.replace(/\/$/, '')}/`));
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && inside(d.uri));
  if (dirty.length === 0) return true;
  const save = vscode.l10n.t('Save All and Run');
  const skip = vscode.l10n.t('Run on the Saved Files');
  const names = dirty.slice(0, 3).map((d) => vscode.workspace.asRelativePath(d.uri)).join(', ') + (dirty.length > 3 ? ', …' : '');
  const choice = await vscode.window.showWarningMessage(
    dirty.length === 1
      ? vscode.l10n.t('MassGen: 1 file in {0} has unsaved changes ({1}). The agents copy the files as they are on disk.', name, names)
      : vscode.l10n.t('MassGen: {0} files in {1} have unsaved changes ({2}). The agents copy the files as they are on disk.', dirty.length, name, names),
    { modal: true },
    save,
    skip,
  );
  if (choice === save) return (await Promise.all(dirty.map((d) => d.save()))).every(Boolean);
  return choice === skip;
}

function progressMessage(event: RunEvent, s: RunState): string | undefined {
  switch (event.type) {
    case 'run_started':
      return vscode.l10n.t('{0} agents working on their copies…', event.agents.length);
    case 'tool_call':
      return vscode.l10n.t('{0}: {1}', s.agents.find((a) => a.id === event.agentId)?.label ?? event.agentId, event.name);
    case 'answer_added':
      if (!event.change) return vscode.l10n.t('{0} in', event.label);
      return event.change.files.length === 1 ? vscode.l10n.t('{0} in (1 file changed)', event.label) : vscode.l10n.t('{0} in ({1} files changed)', event.label, event.change.files.length);
    case 'checks_started':
      return vscode.l10n.t('Checking {0}: {1}…', event.label, event.names.join(', '));
    case 'vote_cast':
      return vscode.l10n.t('{0}/{1} agents voted', s.agents.filter((a) => a.currentVote).length, s.agents.filter((a) => a.status !== 'failed').length);
    case 'final_started':
      return vscode.l10n.t('Preparing the winner…');
    default:
      return undefined;
  }
}

/** Suggestions shown in this window (folder and command): each is offered once until VS Code restarts. */
const offered = new Set<string>();

/** How long a run waits for the answer to the suggestion before it starts without checks. */
const SUGGESTION_WAIT_MS = 20_000;

export interface CheckOffer {
  /** Where the coming run shows at once, waiting for the answer (the vote viewer), and its title there. */
  pending?: { runs: PendingRuns; title: string };
}

async function saveCheck(folder: vscode.Uri, command: string): Promise<boolean> {
  const target = (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;
  try {
    await vscode.workspace.getConfiguration('massgen', folder).update('checks', [command], target);
    return true;
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: massgen.checks could not be saved: {0}', errorMessage(err)));
    return false;
  }
}

/**
 * A workspace run without checks: offers the project's own test command as one. "Use it" saves it as massgen.checks
 * in the workspace settings (a trusted workspace only: runs on the workspace need one anyway), so this run and the
 * next ones check every answer. Asked in the vote viewer (the coming run shows there at once, with the question) and
 * in a notification; the run waits for the first answer a little, then starts without checks. A notification cannot
 * be withdrawn: its late "Use it" saves the setting for the next runs and says so. Returns what to call once the run
 * has started (or failed to): the viewer then shows the run instead of the question.
 */
export async function offerCheck(folder: vscode.Uri, offer: CheckOffer = {}): Promise<() => void> {
  const nothing = () => undefined;
  if (!vscode.workspace.isTrusted) return nothing;
  try {
    const run = loadTeamConfig(teamSource(), folder);
    // Checks set already, or turned off on purpose.
    if (run.checksFrom || run.config.orchestrator.verification === 'off') return nothing;
  } catch {
    // A config problem: starting the run reports it.
    return nothing;
  }
  const suggestion = suggestCheck(folderFiles(folder.fsPath));
  const key = `${folder.toString()}\n${suggestion?.command}`;
  if (!suggestion || offered.has(key)) return nothing;
  offered.add(key);
  const use = vscode.l10n.t('Use it');
  const notNow = vscode.l10n.t('Not now');
  const toast = Promise.resolve(
    vscode.window.showInformationMessage(
      vscode.l10n.t(
        'MassGen: use “{0}” as a check? Found {1}: MassGen would run it on every answer\'s change (in the sandbox where this machine has one, else asking you first) and show the results next to the votes (saved as massgen.checks in the workspace settings).',
        suggestion.command,
        suggestion.why,
      ),
      use,
      notNow,
    ),
  ).then((choice) => (choice === use ? true : choice === notNow ? false : undefined));
  let fromViewer: (use: boolean) => void = nothing;
  const viewerAnswer = new Promise<boolean>((resolve) => (fromViewer = resolve));
  const card = offer.pending?.runs.ask({ title: offer.pending.title, command: suggestion.command, why: suggestion.why }, (answer) => fromViewer(answer));
  if (card) void vscode.commands.executeCommand('massgen.showVoteViewer', { preserveFocus: true });
  let timer: NodeJS.Timeout | undefined;
  const answer = await firstAnswer([toast, viewerAnswer], new Promise<void>((resolve) => (timer = setTimeout(resolve, SUGGESTION_WAIT_MS))));
  clearTimeout(timer);
  card?.settled();
  if (answer) await saveCheck(folder, suggestion.command);
  void toast.then(async (late) => {
    if (late !== true || answer === true) return;
    if (await saveCheck(folder, suggestion.command)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: “{0}” is saved as a check (massgen.checks) for the next runs; the run that already started goes on without it.', suggestion.command));
    }
  });
  return () => card?.dispose();
}

export interface WorkspaceRunDeps {
  runs: RunManager;
  previews: RunPreviews;
  /** Where the agents' copies live (the extension's storage). */
  copiesDir: string;
}

/** Starts a workspace run; `instruction` and `folder` skip the prompts (tests, the explorer menu, chat). */
export async function runOnWorkspace(deps: WorkspaceRunDeps, given?: { instruction?: string; folder?: vscode.Uri }): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: Run on Workspace needs a trusted workspace (agents read the whole folder and its settings).'));
    return;
  }
  const picked = await pickWorkspaceFolder(given?.folder);
  if (!picked) {
    if (!vscode.workspace.workspaceFolders?.length) void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: open a folder first; the agents work on copies of it.'));
    return;
  }
  const problem = await deps.runs.problem();
  if (problem) {
    await offerFix(problem);
    return;
  }
  const folderUri = picked instanceof vscode.Uri ? picked : picked.uri;
  const name = picked instanceof vscode.Uri ? (folderUri.path.split('/').pop() ?? 'workspace') : picked.name;
  const instruction =
    given?.instruction?.trim() ||
    (
      await vscode.window.showInputBox({
        title: vscode.l10n.t('MassGen: Run on {0}', name),
        prompt: vscode.l10n.t('What should the agents change?'),
        placeHolder: vscode.l10n.t('e.g. "Add input validation to the CSV parser, with tests"'),
        ignoreFocusOut: true,
      })
    )?.trim();
  if (!instruction) return;
  if (!(await settleUnsavedFiles(folderUri, name))) return;
  const title = `${instruction} (${name})`;
  const started = await offerCheck(folderUri, { pending: { runs: deps.runs.pending, title } });
  const task = `${instruction}\n\n${workspaceInstructions(name)}`;
  const done = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('MassGen on {0}', name), cancellable: true }, async (progress, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      progress.report({ message: vscode.l10n.t('Preparing a copy of the folder for each agent…') });
      let run: RunSession;
      try {
        const onEvent = (event: RunEvent, state: RunState) => {
          const message = progressMessage(event, state);
          if (message) progress.report({ message });
        };
        run = await deps.runs.start({
          task,
          title,
          prompt: instruction,
          signal: abort.signal,
          files: { kind: 'workspace', source: folderUri.fsPath, baseDir: deps.copiesDir },
          onEvent,
        });
      } catch (err) {
        if (!abort.signal.aborted) void reportStartError(err);
        return undefined;
      } finally {
        started();
      }
      void vscode.commands.executeCommand('massgen.showVoteViewer', { preserveFocus: true, runId: run.id });
      deps.previews.registerFiles(run.id, (path) => vscode.Uri.joinPath(folderUri, ...path.split('/')));
      return { run, result: await run.result };
    } finally {
      sub.dispose();
    }
  });
  if (!done) return;
  const { run, result } = done;
  if (result.finalAnswer === null) {
    void showNoAnswer(result, run.state.agents);
    return;
  }
  const files = result.change?.files.length ?? 0;
  const ending = endingNote(result.reason, consensusOf(run.state), vscode.l10n);
  if (files === 0) {
    void vscode.window.showInformationMessage(
      ending
        ? vscode.l10n.t('MassGen: {0} won ({1}) without changing any file. Its answer is in the vote viewer.', result.winnerLabel ?? '', ending)
        : vscode.l10n.t('MassGen: {0} won without changing any file. Its answer is in the vote viewer.', result.winnerLabel ?? ''),
    );
    return;
  }
  // A winner that failed a required check is still offered (inform mode, or nothing passed): said before the review.
  const verification = run.state.winner && verificationInWords(run.state.winner.verification, run.state.winner.label);
  if (verification?.kind === 'unverified') void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: {0}', verification.text));

  // The refactor preview opens at once: there each file is accepted or rejected, and nothing is written before.
  await deps.previews.apply(run.id);
}

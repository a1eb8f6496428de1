// The @massgen chat participant: runs the team on the prompt (plus attached files and selections; a follow-up
// continues the last answered exchange, its change included, through the session's continuation), streams the
// coordination into the response with an Answer now button, and ends with the winner, the tally, usage and buttons.
// A plain prompt while a run is going becomes a note to that run instead (chat-followup.ts). The follow-ups about
// the last run ("Explain the vote", "Which agents ran?") are answered from its record. With no agents configured it
// uses the chat view's selected model and the other available chat models.

import * as vscode from 'vscode';
import { fenceFor } from '../core/edit/selection-task';
import { costText } from '../core/status/describe';
import { errorMessage } from '../core/util/errors';
import { oneLine } from '../core/util/text';
import type { RunEvent } from '../core/engine/events';
import type { RunState } from '../core/engine/run-state';
import { resolveRunConfig, MissingKeyError } from './run/config';
import type { KeyStore } from './keys';
import type { RunManager } from './run/manager';
import { captureTarget, codeForTarget, type ApplyTarget, type RunPreviews } from './run/previews';
import type { SeedFile } from '../core/workspace/scratch';
import { ConfigError } from '../core/config/load';
import { agentsThatRan, explainVote } from './chat-record';
import { NoChatModelsError } from './lm/models';
import { FOLLOWUPS, isChatResultMeta, PARTICIPANT_ID, type ChatResultMeta, type CommandId } from './ids';
import { consensusOf, endingNote, noAnswer } from './run/outcome';
import { failureInWords } from '../protocol/failure-words';
import { checksSummaryLine } from '../protocol/checks';
import { escapeMarkdown } from './lm-tool/plan';
import { editInstructions, workspaceInstructions } from './run/copy-instructions';
import { offerCheck, pickWorkspaceFolder, settleUnsavedFiles, type CheckOffer } from './run/on-workspace';
import type { PreviousRun } from '../core/run/continuation';
import { isNoteRequest, noteSentMarkdown, previousRunOf } from './chat-followup';
import { agentName } from '../protocol/agent-name';

const MAX_REFERENCE_CHARS = 100_000;

async function referenceBlock(ref: vscode.ChatPromptReference): Promise<{ text: string; target?: ApplyTarget } | undefined> {
  const value = ref.value;
  const location = value instanceof vscode.Location ? value : undefined;
  const uri = location?.uri ?? (value instanceof vscode.Uri ? value : undefined);
  if (!uri) return typeof value === 'string' ? { text: value } : undefined;
  const doc = await vscode.workspace.openTextDocument(uri);
  const range = location?.range ?? new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
  const code = doc.getText(range).slice(0, MAX_REFERENCE_CHARS);
  const fence = fenceFor(code);
  const where = location ? `${vscode.workspace.asRelativePath(uri)} lines ${range.start.line + 1}–${range.end.line + 1}` : vscode.workspace.asRelativePath(uri);
  return { text: `${where}:\n${fence}${doc.languageId}\n${code}\n${fence}`, target: captureTarget(doc, range) };
}

/** The final answer kept in a result's metadata (what a follow-up continues) at most. */
const MAX_HISTORY_CHARS = 8_000;

/** The files attached to an /edit request, to seed every agent's scratch folder with. */
async function filesToEdit(refs: readonly vscode.ChatPromptReference[]): Promise<{ seed: SeedFile[]; uris: Map<string, vscode.Uri> }> {
  const uris = new Map<string, vscode.Uri>();
  for (const ref of refs) {
    const uri = ref.value instanceof vscode.Location ? ref.value.uri : ref.value instanceof vscode.Uri ? ref.value : undefined;
    if (uri) uris.set(vscode.workspace.asRelativePath(uri, false), uri);
  }
  const seed = await Promise.all([...uris].map(async ([relativePath, uri]) => ({ relativePath, content: (await vscode.workspace.openTextDocument(uri)).getText() })));
  return { seed, uris };
}

/**
 * The folder an /edit without attachments works on; undefined (having said why in the chat) when there is none.
 * `started` is to be called once the run has started (or failed to): the vote viewer then shows the run in place of
 * the check suggestion it asked there.
 */
async function workspaceToEdit(stream: vscode.ChatResponseStream, offer: CheckOffer): Promise<{ uri: vscode.Uri; name: string; started: () => void } | undefined> {
  if (!vscode.workspace.isTrusted) {
    stream.markdown(vscode.l10n.t('`/edit` on the whole workspace needs a trusted workspace. Attach the files to change instead, e.g. `@massgen /edit rename parse #file:util.ts`.'));
    return undefined;
  }
  const folder = await pickWorkspaceFolder();
  if (!folder) {
    stream.markdown(vscode.l10n.t('Open a folder first (the agents work on copies of it), or attach the files to change, e.g. `@massgen /edit rename parse #file:util.ts`.'));
    return undefined;
  }
  const picked = folder instanceof vscode.Uri ? { uri: folder, name: folder.path.split('/').pop() ?? 'workspace' } : { uri: folder.uri, name: folder.name };
  if (!(await settleUnsavedFiles(picked.uri, picked.name))) {
    stream.markdown(vscode.l10n.t('Cancelled: nothing ran.'));
    return undefined;
  }
  return { ...picked, started: await offerCheck(picked.uri, offer) };
}

/**
 * The last exchange with @massgen that has an answer, so a follow-up ("explain the vote", "now add tests") continues
 * it. Turns without one (an error, a cancel, no agent answered, a note to a run) are skipped: their text is not an
 * answer.
 */
function previousExchange(history: vscode.ChatContext['history']): { question: string; answer: string; runId?: string } | undefined {
  for (let i = history.length - 1; i > 0; i--) {
    const turn = history[i];
    const ask = history[i - 1];
    if (!(turn instanceof vscode.ChatResponseTurn) || turn.participant !== PARTICIPANT_ID || !(ask instanceof vscode.ChatRequestTurn)) continue;
    const meta = turn.result.metadata;
    if (turn.result.errorDetails || !isChatResultMeta(meta) || !meta.answer) continue;
    return { question: ask.prompt, answer: meta.answer, runId: meta.runId };
  }
  return undefined;
}

/** The follow-up's previous run, with the winner's change when that run is still in this window's memory. */
async function continuationOf(exchange: { question: string; answer: string; runId?: string }, runs: RunManager): Promise<PreviousRun> {
  const run = exchange.runId ? runs.find(exchange.runId) : undefined;
  const result = run && !run.running ? await run.result.catch(() => undefined) : undefined;
  return previousRunOf(exchange, result?.change?.patch);
}

/** A plain prompt while a run is going becomes a note to it (the run of this chat first); false when none took it. */
function sendAsNote(request: vscode.ChatRequest, history: vscode.ChatContext['history'], runs: RunManager, stream: vscode.ChatResponseStream): boolean {
  const run = runs.goingRun(lastRunId(history)) ?? runs.goingRun();
  if (!isNoteRequest(request, run !== undefined) || !run) return false;
  try {
    runs.note(request.prompt, { runId: run.id });
  } catch (err) {
    // The run ended (or lost its agents) a moment ago: the message starts a run of its own instead.
    stream.markdown(`${vscode.l10n.t('The run going could not take a note ({0}), so this starts a new run.', errorMessage(err))}\n\n`);
    return false;
  }
  // The agents were done already (the final answer is being written): the note is recorded as reaching no one.
  if (run.state.notes.at(-1)?.undelivered) {
    stream.markdown(vscode.l10n.t('MassGen is writing the final answer of **{0}**: its agents are done, so this note reached none of them. Send it again once the answer is in to continue from it, or use **Continue with this note** in the vote viewer.', oneLine(run.title, 80)));
    button(stream, 'massgen.showVoteViewer', vscode.l10n.t('Open vote viewer'), { runId: run.id });
    return true;
  }
  stream.markdown(noteSentMarkdown({ title: run.title, agents: run.state.agents.filter((a) => a.status !== 'failed').length || run.state.agents.length }));
  button(stream, 'massgen.answerNow', vscode.l10n.t('Answer now'), run.id);
  button(stream, 'massgen.showVoteViewer', vscode.l10n.t('Open vote viewer'), { runId: run.id });
  return true;
}

function activeSelectionTarget(): ApplyTarget | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor && !editor.selection.isEmpty ? captureTarget(editor.document, editor.selection) : undefined;
}

/** The tally as a list, not a table: a table's four columns are unreadable in a narrow chat pane. */
function tallyMarkdown(state: RunState): string {
  const rows = state.agents
    .filter((a) => a.latestAnswerLabel)
    .map((a) => {
      const voters = state.agents.filter((v) => v.currentVote?.targetId === a.id).map((v) => v.label);
      const win = state.winner?.agentId === a.id ? ' ★' : '';
      const votes = voters.length === 1 ? vscode.l10n.t('1 vote') : vscode.l10n.t('{0} votes', voters.length);
      return `- **${a.latestAnswerLabel}**${win}: ${votes}${voters.length ? ` (${voters.join(', ')})` : ''} · ${a.model}`;
    });
  return [...rows, '', `_${vscode.l10n.t("agentK.M is agentK's M-th answer.")}_`].join('\n');
}

/** The run the last @massgen answer in this chat was about (from its result's metadata). */
function lastRunId(history: vscode.ChatContext['history']): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (turn instanceof vscode.ChatResponseTurn && turn.participant === PARTICIPANT_ID && isChatResultMeta(turn.result.metadata) && turn.result.metadata.runId) return turn.result.metadata.runId;
  }
  return undefined;
}

/** A follow-up about the last run ("Explain the vote", "Which agents ran?"), answered from its record. */
function answerFollowup(followup: string, history: vscode.ChatContext['history'], runs: RunManager, stream: vscode.ChatResponseStream): vscode.ChatResult {
  const runId = lastRunId(history);
  const run = runId ? runs.find(runId) : undefined;
  if (!run) {
    stream.markdown(
      runId
        ? vscode.l10n.t("That run is no longer in memory (VS Code was reloaded since it ran); its record is in the vote viewer's runs list.")
        : vscode.l10n.t('There is no MassGen run in this chat yet. Ask `@massgen` something first.'),
    );
    if (runId) button(stream, 'massgen.showVoteViewer', vscode.l10n.t('Open vote viewer'));
    return {};
  }
  stream.markdown(followup === FOLLOWUPS.explainVote ? explainVote(run.state, vscode.l10n) : agentsThatRan(run.state, runs.agentsOf(run.id), vscode.l10n));
  button(stream, 'massgen.showVoteViewer', vscode.l10n.t('Open vote viewer'), { runId: run.id });
  return { metadata: { runId: run.id } satisfies ChatResultMeta };
}

/** The chat lines for one event; progress for phases, markdown for answers and votes. */
function narrate(event: RunEvent, state: RunState, stream: vscode.ChatResponseStream): void {
  const who = (id: string) => {
    const a = state.agents.find((x) => x.id === id);
    return a ? agentName(a) : id;
  };
  switch (event.type) {
    case 'run_started':
      stream.markdown(new vscode.MarkdownString(`${vscode.l10n.t('Team: {0}', event.agents.map((a) => `${agentName(a)} · ${a.model}`).join(', '))}\n`));
      break;
    case 'round_started':
      stream.progress(
        event.round === 1
          ? vscode.l10n.t('{0} agents are working on it…', event.agentIds.length)
          : event.agentIds.length === 1
            ? vscode.l10n.t('Round {0}: 1 agent reviewing the answers…', event.round)
            : vscode.l10n.t('Round {0}: {1} agents reviewing the answers…', event.round, event.agentIds.length),
      );
      break;
    case 'answer_added':
      stream.markdown(new vscode.MarkdownString(`\n\n${vscode.l10n.t('**{0}** answered: {1}', event.label, oneLine(event.content, 160))}\n`));
      break;
    case 'vote_cast':
      stream.markdown(new vscode.MarkdownString(`\n- ${vscode.l10n.t('{0} voted for **{1}**: {2}', who(event.vote.voterId), event.vote.targetLabel, oneLine(event.vote.reason, 160))}\n`));
      break;
    case 'vote_invalidated':
      stream.markdown(new vscode.MarkdownString(`\n- ${vscode.l10n.t("{0}'s vote for {1} no longer counts ({2})", who(event.voterId), event.targetLabel, event.reason)}\n`));
      break;
    case 'retry':
      stream.progress(vscode.l10n.t('{0} retrying in {1} s…', who(event.agentId), (event.delayMs / 1000).toFixed(0)));
      break;
    case 'agent_failed':
      stream.markdown(new vscode.MarkdownString(`\n- ⚠️ ${vscode.l10n.t('{0} failed: {1}', who(event.agentId), oneLine(failureInWords(event.error), 200))}\n`));
      break;
    case 'final_started':
      stream.progress(vscode.l10n.t('Preparing the final answer…'));
      break;
  }
}

async function describeTeam(keys: KeyStore, stream: vscode.ChatResponseStream, command: 'config' | 'agents'): Promise<void> {
  const run = await resolveRunConfig(keys);
  if (run.kind === 'chat-models') {
    stream.markdown(
      `${vscode.l10n.t('No agents are configured, so MassGen uses your VS Code chat models: the model selected in this chat first, then others that are available (or one model with three personas).')}\n`,
    );
  } else {
    stream.markdown(`${vscode.l10n.t('Agents from **{0}**:', run.config.source)}\n\n${run.config.agents.map((a) => `- \`${a.id}\`: ${a.backend.type} ${a.backend.model}`).join('\n')}\n`);
  }
  if (command === 'config') {
    const o = run.config.orchestrator;
    const answers = o.maxNewAnswersPerAgent ?? vscode.l10n.t('unlimited');
    stream.markdown(`\n${vscode.l10n.t('Voting: {0}; answers per agent: {1}; rounds: {2}; final answer: {3}.', o.votingSensitivity, answers, o.maxRounds, o.finalAnswer)}\n`);
    button(stream, 'massgen.openConfig', vscode.l10n.t('Open Config'));
    button(stream, 'workbench.action.openSettings', vscode.l10n.t('Settings'), 'massgen');
  }
}

/** A chat button for one of our commands (typed, so a renamed command fails the typecheck) or VS Code's settings. */
function button(stream: vscode.ChatResponseStream, command: CommandId | 'workbench.action.openSettings', title: string, ...args: unknown[]): void {
  stream.button({ command, title, ...(args.length ? { arguments: args } : {}) });
}

/** The @massgen request handler (extension.ts creates the participant and hands requests to it). */
export function createChatHandler(deps: { runs: RunManager; keys: KeyStore; previews: RunPreviews; scratchDir: string; copiesDir: string }): vscode.ChatRequestHandler {
  return async (request, chatContext, stream, token): Promise<vscode.ChatResult> => {
    if (request.command === 'config' || request.command === 'agents') {
      try {
        await describeTeam(deps.keys, stream, request.command);
      } catch (err) {
        stream.markdown(vscode.l10n.t('Configuration problem: {0}', errorMessage(err)));
      }
      return { metadata: { command: request.command } satisfies ChatResultMeta };
    }
    if (!request.prompt.trim()) {
      stream.markdown(vscode.l10n.t('Tell me what to do, e.g. `@massgen refactor #selection to use async/await`.'));
      return {};
    }
    const followup = request.command ? undefined : Object.values(FOLLOWUPS).find((f) => f === request.prompt.trim());
    if (followup) return answerFollowup(followup, chatContext.history, deps.runs, stream);
    if (sendAsNote(request, chatContext.history, deps.runs, stream)) return { metadata: { command: 'note' } satisfies ChatResultMeta };
    const attached = request.command === 'edit' ? await filesToEdit(request.references) : undefined;
    const files = attached?.seed.length ? attached : undefined;
    const title = oneLine(request.prompt, 60);
    // /edit with nothing attached works on the whole workspace folder, each agent in its own copy.
    const workspace = attached && !files ? await workspaceToEdit(stream, { pending: { runs: deps.runs.pending, title } }) : undefined;
    if (attached && !files && !workspace) return {};
    // An /edit run gets the files in its own folders; quoting them in the prompt too would read them twice.
    const blocks = attached ? [] : (await Promise.all(request.references.map(referenceBlock))).filter((b) => b !== undefined);
    const previous = previousExchange(chatContext.history);
    const continues = previous && (await continuationOf(previous, deps.runs));
    const context = files
      ? editInstructions(files.seed.map((f) => f.relativePath))
      : workspace
        ? workspaceInstructions(workspace.name)
        : blocks.length
          ? `Context:\n\n${blocks.map((b) => b.text).join('\n\n')}`
          : undefined;
    const task = [request.prompt, context].filter(Boolean).join('\n\n');
    const target = attached ? undefined : (blocks.find((b) => b.target)?.target ?? activeSelectionTarget());

    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      let run;
      try {
        run = await deps.runs.start({
          task,
          title,
          prompt: request.prompt,
          signal: abort.signal,
          preferredModel: request.model,
          continues,
          files: files
            ? { kind: 'scratch', baseDir: deps.scratchDir, seed: files.seed }
            : workspace && { kind: 'workspace', source: workspace.uri.fsPath, baseDir: deps.copiesDir },
          onEvent: (event, state) => narrate(event, state, stream),
        });
      } catch (err) {
        stream.markdown(vscode.l10n.t('MassGen could not start: {0}', errorMessage(err)));
        if (err instanceof MissingKeyError) button(stream, 'massgen.setApiKey', vscode.l10n.t('Set {0}', err.envVar), err.envVar);
        if (err instanceof ConfigError) button(stream, 'workbench.action.openSettings', vscode.l10n.t('Open Settings'), 'massgen');
        if (err instanceof NoChatModelsError) {
          button(stream, 'workbench.action.openSettings', vscode.l10n.t('Configure agents'), 'massgen.agents');
          button(stream, 'massgen.setApiKey', vscode.l10n.t('Set API Key'));
        }
        return { errorDetails: { message: errorMessage(err) } };
      } finally {
        workspace?.started();
      }

      button(stream, 'massgen.answerNow', vscode.l10n.t('Answer now'), run.id);
      if (target) deps.previews.register(run.id, target);
      const root = vscode.workspace.workspaceFolders?.[0]?.uri;
      if (files) deps.previews.registerFiles(run.id, (path) => files.uris.get(path) ?? (root && vscode.Uri.joinPath(root, path)));
      if (workspace) deps.previews.registerFiles(run.id, (path) => vscode.Uri.joinPath(workspace.uri, ...path.split('/')));
      const result = await run.result;
      const state = run.state;
      if (result.finalAnswer === null) {
        // One failure per line, as a list (markdown would run the lines together).
        stream.markdown(`\n\n${noAnswer(result.reason, result.error, state.agents, vscode.l10n).text.replace(/\n\s+/g, '\n- ')}`);
        // A cancelled run proposes nothing, but its answers so far can still be read (and copied) in the viewer.
        if (state.answers.length > 0) button(stream, 'massgen.showVoteViewer', vscode.l10n.t('Open vote viewer'), { runId: run.id });
        return { metadata: { runId: run.id, winner: null } satisfies ChatResultMeta };
      }
      const winner = state.agents.find((a) => a.id === result.winnerId);
      const ending = endingNote(result.reason, consensusOf(state), vscode.l10n);
      const wins = ending
        ? vscode.l10n.t('{0} wins ({1}): {2}', result.winnerLabel ?? '', winner?.model ?? '', ending)
        : vscode.l10n.t('{0} wins ({1})', result.winnerLabel ?? '', winner?.model ?? '');
      stream.markdown(new vscode.MarkdownString(`\n\n---\n\n### ${wins}\n\n`));
      stream.markdown(new vscode.MarkdownString(result.finalAnswer));
      const calls = state.usage.calls === 1 ? vscode.l10n.t('1 model call') : vscode.l10n.t('{0} model calls', state.usage.calls);
      const tokens = vscode.l10n.t('{0} tokens', state.usage.inputTokens + state.usage.outputTokens);
      stream.markdown(new vscode.MarkdownString(`\n\n${tallyMarkdown(state)}\n\n${calls} · ${tokens} · ${costText(state.usage)}\n`));
      // Workspace runs with checks: how each version and the winner stood against them (check names are the user's: text).
      const checks = checksSummaryLine(state);
      if (checks) stream.markdown(new vscode.MarkdownString(`\n${escapeMarkdown(checks)}\n`));
      if (files || (workspace && result.change?.files.length)) button(stream, 'massgen.applyRun', vscode.l10n.t('Review and apply the changes…'), run.id);
      else if (target && codeForTarget(result.finalAnswer, target).code !== null) button(stream, 'massgen.previewRun', vscode.l10n.t('Apply to editor…'), run.id);
      button(stream, 'massgen.showVoteViewer', vscode.l10n.t('Open vote viewer'), { runId: run.id });

      return { metadata: { runId: run.id, winner: result.winnerId, answer: result.finalAnswer.slice(0, MAX_HISTORY_CHARS) } satisfies ChatResultMeta };
    } finally {
      sub.dispose();
    }
  };
}

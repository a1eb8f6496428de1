// Identifiers shared by the activation shell (extension.ts) and the modules it loads on first use; kept apart so
// activation does not load those modules to learn a name.

export const VIEW_ID = 'massgen.voteViewer';
export const PANEL_VIEW_TYPE = 'massgen.voteViewerPanel';
export const PARTICIPANT_ID = 'massgen.chat';
/** The language-model tool of package.json's `languageModelTools` (lm-tool/tool.ts). */
export const LM_TOOL_NAME = 'massgen_run';

export interface ShowVoteViewerArgs {
  preserveFocus?: boolean;
  runId?: string;
}

/** The follow-ups under a finished @massgen run; the chat answers them from the run's record, without a new run. */
export const FOLLOWUPS = { explainVote: 'Explain the vote', agentsThatRan: 'Which agents ran?' } as const;

/** Metadata of a @massgen chat result (read back by the follow-up provider). */
export interface ChatResultMeta {
  runId?: string;
  winner?: string | null;
  command?: string;
  /** The final answer (clipped), which a follow-up gets as the previous exchange. */
  answer?: string;
}

/** Chat history hands metadata back untyped: read it only through this check. */
export function isChatResultMeta(value: unknown): value is ChatResultMeta {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const optionalString = (x: unknown) => x === undefined || typeof x === 'string';
  return optionalString(v.runId) && optionalString(v.command) && optionalString(v.answer) && (v.winner === undefined || v.winner === null || typeof v.winner === 'string');
}

/** Every command of package.json's `contributes.commands`, registered at activation (ids.test.ts keeps them equal). */
export const COMMAND_IDS = [
  'massgen.runOnSelection',
  'massgen.runOnWorkspace',
  'massgen.setApiKey',
  'massgen.cancelRun',
  'massgen.answerNow',
  'massgen.showVoteViewer',
  'massgen.openVoteViewerPanel',
  'massgen.showLog',
  'massgen.openConfig',
  'massgen.applyWinner',
  'massgen.discardWinner',
  'massgen.previewRun',
  'massgen.applyRun',
  'massgen.undoRun',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];

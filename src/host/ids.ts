// Identifiers shared by the activation shell (extension.ts) and the modules it loads on first use; kept apart so
// activation does not load those modules to learn a name.

export const VIEW_ID = 'massgen.voteViewer';
export const PANEL_VIEW_TYPE = 'massgen.voteViewerPanel';
export const PARTICIPANT_ID = 'massgen.chat';

export interface ShowVoteViewerArgs {
  preserveFocus?: boolean;
  runId?: string;
}

/** Metadata of a @massgen chat result (read back by the follow-up provider). */
export interface ChatResultMeta {
  runId?: string;
  winner?: string | null;
  command?: string;
}

/** Every command of package.json's `contributes.commands`, registered at activation (ids.test.ts keeps them equal). */
export const COMMAND_IDS = [
  'massgen.runOnSelection',
  'massgen.setApiKey',
  'massgen.cancelRun',
  'massgen.showVoteViewer',
  'massgen.openVoteViewerPanel',
  'massgen.showLog',
  'massgen.openConfig',
  'massgen.applyWinner',
  'massgen.discardWinner',
  'massgen.previewRun',
  'massgen.applyRun',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];

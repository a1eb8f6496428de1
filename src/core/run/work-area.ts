// Where agents work with files, for runs that have any: a scratch folder per agent seeded with attached files (chat
// `/edit`), or a copy of the user's workspace per agent (workspace runs). Either gives each agent its file tools,
// and the winner's change at the end; a workspace also snapshots each answer version. Opened by the session before
// the engine starts and disposed when the run ends, however it ends.

import type { AnswerChange, ChangedFile, WorkspaceInfo } from '../engine/events';
import type { VersionCheckout } from '../checks/answer-checks';
import type { AgentToolbox, AgentWorkspace } from '../engine/ports';
import type { FileChange } from '../workspace/changes';
import type { SeedFile } from '../workspace/scratch';

/** What the agents get to work on. */
export type FilesOption =
  /** Copies of a few files (chat `/edit`), one scratch folder per agent under `baseDir`. */
  | { kind: 'scratch'; baseDir: string; seed: SeedFile[] }
  /**
   * A copy of `source` per agent under `baseDir` (a git worktree when `source` is in a repository; null: an empty
   * folder each, for agents that only create files). `references`:
   * folders agents may read, never write (upstream's `context_paths` with `permission: read`), shown as
   * `context/<name>/`.
   */
  | { kind: 'workspace'; source: string | null; baseDir: string; references?: { name: string; path: string }[] };

/** The change the winning answer carries, kept after the copies are gone. */
export interface WinnerChange {
  /** The winning version, agentK.M. */
  version: string;
  files: ChangedFile[];
  /** Unified git-style patch relative to the workspace folder (binary-safe); empty for scratch runs. */
  patch: string;
  /** Per file, the text before and after, for an editor's reviewed edit. */
  fileChanges: FileChange[];
}

export interface WorkArea {
  /** For the run record: the workspace folder and what to know about the copies. */
  readonly info?: WorkspaceInfo;
  /** The file tools of the agent with this label. */
  toolbox(label: string): AgentToolbox;
  /** Workspace runs: the agent's copy, where its commands run. */
  rootOf?(label: string): string;
  /** Runs on a few files: the agent's scratch folder (where a coding agent's program works). */
  scratchOf?(label: string): string;
  /** Workspace runs: folders a command in a copy may read for git to work there. */
  readonly readOnlyPaths?: readonly string[];
  /** Workspace runs: the agent's copy, snapshotted at each answer. */
  workspace?(label: string): AgentWorkspace;
  /** An answer was accepted: `peers/agentK/` now shows this version. */
  answerAccepted(agentLabel: string, versionLabel: string, change: AnswerChange | undefined): void;
  /** Workspace runs: a fresh checkout of an answer version for the project's checks, linked to its dependencies. */
  checkout?(versionLabel: string, signal: AbortSignal): Promise<VersionCheckout>;
  /** Workspace runs: the patch of an answer version, made when it was snapshotted; kept after `dispose`, bounded (patch-store.ts). */
  patchOf?(versionLabel: string): string | undefined;
  /** The change of the winning version. */
  winnerChange(versionLabel: string): Promise<WinnerChange | undefined>;
  /** Removes every folder and object made for the run. Idempotent; never throws. */
  dispose(): Promise<void>;
}

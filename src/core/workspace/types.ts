// The shapes shared by workspace runs: agents' copies of the user's folder, the snapshot bound to each answer
// version, read-only views of a snapshot (what a peer reads under peers/agentK/), and text search.

import type { AnswerChange } from '../engine/events';
import type { FileChange } from './changes';

/** One entry of a folder listing. */
export interface TreeEntry {
  name: string;
  kind: 'file' | 'directory' | 'symlink' | 'submodule';
  /** Bytes, for files; 0 otherwise. */
  size: number;
}

export interface GrepOptions {
  /** Folder (or file) to search, relative to the view's root, POSIX; default the whole root. */
  path?: string;
  /** Only files matching this glob (`*.ts`, `src/**\/*.test.ts`), relative to the root. */
  glob?: string;
  /** Stop after this many matching lines (the result says it was cut). */
  maxMatches: number;
  /** Case-insensitive match. */
  ignoreCase?: boolean;
  signal?: AbortSignal;
  /** Give up after this long (a hostile pattern must not hold a turn). */
  timeoutMs?: number;
}

export interface GrepMatch {
  /** POSIX path relative to the view's root. */
  path: string;
  line: number;
  text: string;
}

export type GrepResult =
  | { ok: true; matches: GrepMatch[]; truncated: boolean }
  /** The pattern is not a valid regular expression, or the search timed out / was cancelled: said in words. */
  | { ok: false; reason: string };

/** Read-only view of one snapshot (an answer version's files). Paths are POSIX, relative, already guarded. */
export interface TreeView {
  /** Content of a regular file; null when there is none (missing, a folder, a symlink, a submodule). */
  readFile(path: string): Promise<Buffer | null>;
  /** What is at `path` ("." = the root); null when nothing. */
  stat(path: string): Promise<TreeEntry | null>;
  /** Entries of a folder, sorted by name; null when `path` is not a folder. */
  list(path: string): Promise<TreeEntry[] | null>;
  grep(pattern: string, options: GrepOptions): Promise<GrepResult>;
}

/** The agents' copies of one folder for one run. Created per run; `dispose` removes everything it made. */
export interface WorkspaceCopies {
  /** The user's folder (absolute, real path). Never written by anything here. */
  readonly source: string;
  /** `git`: the folder is in a git repository (copies start at HEAD plus the user's uncommitted and untracked files); `folder`: a plain folder copied with .gitignore-style excludes. */
  readonly kind: 'git' | 'folder';
  /** Things the user should know, in words (submodules left out, LFS pointers, files over the size limit skipped…). */
  readonly notes: readonly string[];
  /** Labels in config order (agent1…agentN). */
  readonly labels: readonly string[];
  /** The folder agent `label` works in (its copy of `source`). */
  rootOf(label: string): string;
  /**
   * What git needs to read for commands in a copy to work there (`git status`, `git diff`): the private repository
   * and the object store it borrows. A command sandbox shows them read-only.
   */
  readonly gitPaths: readonly string[];
  /** Records the agent's copy as answer version `version` (agentK.M); cost ∝ what changed. */
  snapshot(label: string, version: string, signal?: AbortSignal): Promise<AnswerChange>;
  /** Files of a recorded version; undefined for an unknown version. */
  view(version: string): TreeView | undefined;
  /** Unified git-style patch (binary-safe) from the starting state to `version`, paths relative to `source`. */
  patch(version: string): Promise<string>;
  /** Per changed file, the text before and after (for VS Code's WorkspaceEdit); binary files flagged. */
  fileChanges(version: string): Promise<FileChange[]>;
  /**
   * A fresh checkout of a recorded version in a folder of its own (for the project's checks): `folder` is where the
   * user's folder is in it; `dispose` removes it (the copies' dispose removes any left).
   */
  checkout(version: string, signal?: AbortSignal): Promise<{ folder: string; dispose(): Promise<void> }>;
  /**
   * Links each of `folders` (the user's installed dependencies) into every agent's copy under its name, where the copy
   * has nothing of that name, and leaves the links out of every snapshot. Returns the names linked.
   */
  linkIntoCopies(folders: readonly string[]): Promise<string[]>;
  /** Removes the copies and every git object or ref made for them. Idempotent; never throws. */
  dispose(): Promise<void>;
}

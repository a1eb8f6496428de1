// The agents' folders: one detached git worktree of the shadow per label, made all at once.

import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { copyIndex } from './baseline';
import { git } from './git';
import { INDEX_DIR, shadowEnv } from './shadow-repo';

function worktreeEnv(gitDir: string, runDir: string, label: string): Record<string, string> {
  return shadowEnv(path.join(gitDir, 'worktrees', label), { GIT_WORK_TREE: path.join(runDir, label) });
}

/**
 * Adds a detached worktree `<runDir>/<label>` at `commit` for every label. The worktree entries are made one at a
 * time (a `git worktree add` reads every other entry and fails on one that is half made); the checkouts, the
 * part that costs, then run in parallel.
 */
export async function addWorktrees(gitDir: string, runDir: string, labels: readonly string[], commit: string, signal?: AbortSignal): Promise<void> {
  for (const label of labels) {
    await git(['worktree', 'add', '--detach', '--no-checkout', '--quiet', path.join(runDir, label), commit], { env: shadowEnv(gitDir), cwd: runDir, signal });
  }
  await Promise.all(
    labels.map((label) => git(['reset', '--hard', '--quiet', '--no-recurse-submodules'], { env: worktreeEnv(gitDir, runDir, label), cwd: path.join(runDir, label), signal })),
  );
}

/** Moves every worktree to `commit`; git writes only the files that differ. */
export async function moveWorktrees(gitDir: string, runDir: string, labels: readonly string[], commit: string, signal?: AbortSignal): Promise<void> {
  await Promise.all(
    labels.map((label) => git(['checkout', '--quiet', '--detach', commit], { env: worktreeEnv(gitDir, runDir, label), cwd: path.join(runDir, label), signal })),
  );
}

/**
 * Readies each copy for snapshots: the user's folder exists in it (an empty folder is not in git), and the
 * copy's private index starts as a copy of the checkout's, whose stat cache spares hashing unchanged files.
 */
export async function prepareCopies(gitDir: string, runDir: string, labels: readonly string[], sub: string): Promise<void> {
  await Promise.all(
    labels.map(async (label) => {
      if (sub !== '') await mkdir(path.join(runDir, label, ...sub.split('/')), { recursive: true });
      await copyIndex(path.join(gitDir, 'worktrees', label, 'index'), path.join(gitDir, INDEX_DIR, label)).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // nothing was checked out: git makes an index
      });
    }),
  );
}

// A clean checkout of one recorded answer version, for the project's checks: its files exactly as the snapshot
// recorded them, in a folder of its own (never the agent's copy, which the agent may still change, and never the
// user's folder). A private index, so nothing else's index or lock is touched.

import { mkdir, rm } from 'node:fs/promises';
import { git } from './git';
import { shadowEnv } from './shadow-repo';

export async function checkoutTree(gitDir: string, tree: string, dir: string, signal?: AbortSignal): Promise<void> {
  await mkdir(dir, { recursive: true });
  const index = `${dir}.index`;
  const env = shadowEnv(gitDir, { GIT_INDEX_FILE: index, GIT_WORK_TREE: dir });
  try {
    await git(['read-tree', tree], { env, cwd: dir, signal });
    await git(['checkout-index', '--all', '--force'], { env, cwd: dir, signal });
  } finally {
    await rm(index, { force: true });
  }
}

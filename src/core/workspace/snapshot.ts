// Records an agent's copy as an answer version: `git add -A` into the agent's private index (its stat cache makes
// the cost proportional to what changed), a tree, a commit whose parent is the baseline, and a private ref so the
// commit survives. The index is ours, not the worktree's, so git commands the agent runs in its copy (add, stash,
// checkout, a held index.lock) neither disturb a snapshot nor are disturbed by one.

import { mkdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { AnswerChange } from '../engine/events';
import { git, gitText } from './git';
import { IDENTITY_ENV, REF_PREFIX, shadowEnv } from './shadow-repo';
import { changedFiles, diffTrees } from './tree-diff';

export interface SnapshotTarget {
  gitDir: string;
  label: string;
  /** The agent's worktree (the top of its copy of the repository). */
  workTree: string;
  indexFile: string;
  /** The user's folder inside the repository, POSIX; '' at the top. */
  sub: string;
  baseline: { commit: string; tree: string };
}

export interface RecordedVersion {
  label: string;
  commit: string;
  /** Root tree of the commit. */
  tree: string;
  /** Tree of the user's folder in it; null when the agent removed the folder's every file. */
  subTree: string | null;
}

/** Answer versions become ref names: agent1.2 and the like; nothing git would refuse or read as a range. Pure. */
export function isValidVersion(version: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(version) && !version.includes('..') && !version.endsWith('.lock') && !version.endsWith('.');
}

/** Sum of on-disk sizes of the objects `tree` and `commit` brought that none of `known` (earlier trees) has. */
async function bytesAdded(gitDir: string, tree: string, commit: string, known: readonly string[], signal?: AbortSignal): Promise<number> {
  const env = shadowEnv(gitDir);
  const listed = await git(['rev-list', '--objects', '--stdin'], { env, cwd: gitDir, input: [tree, ...known.map((t) => `^${t}`)].join('\n') + '\n', signal });
  const oids = listed.stdout
    .toString('utf8')
    .split('\n')
    .map((l) => l.slice(0, l.indexOf(' ') < 0 ? l.length : l.indexOf(' ')))
    .filter((oid) => oid !== '');
  oids.push(commit);
  const sizes = await git(['cat-file', '--batch-check=%(objectsize:disk)'], { env, cwd: gitDir, input: `${oids.join('\n')}\n`, signal });
  return sizes.stdout
    .toString('utf8')
    .split('\n')
    .map(Number)
    .filter((n) => Number.isFinite(n))
    .reduce((a, b) => a + b, 0);
}

async function emptyTree(gitDir: string, signal?: AbortSignal): Promise<string> {
  return gitText(['hash-object', '-t', 'tree', '--stdin'], { env: shadowEnv(gitDir), cwd: gitDir, input: '', signal });
}

/**
 * Snapshots the agent's copy as `version`. `earlierTrees` are the trees of versions recorded before, so that
 * bytesWritten counts only what this snapshot added.
 */
export async function takeSnapshot(
  target: SnapshotTarget,
  version: string,
  earlierTrees: readonly string[],
  signal?: AbortSignal,
): Promise<{ recorded: RecordedVersion; change: AnswerChange }> {
  const isDir = await stat(target.workTree).then((st) => st.isDirectory(), () => false);
  if (!isDir) throw new Error(`${target.label}'s working copy is gone (its folder was deleted during the run), so answer ${version} cannot carry a change`);
  const { gitDir, sub } = target;
  // git refuses a pathspec naming a folder that is not there; an agent may have removed the user's folder whole.
  if (sub !== '') await mkdir(path.join(target.workTree, ...sub.split('/')), { recursive: true });
  const env = shadowEnv(gitDir, { GIT_WORK_TREE: target.workTree, GIT_INDEX_FILE: target.indexFile });
  await git(['add', '-A', '--', ...(sub === '' ? [] : [`:(literal)${sub}`])], { cwd: target.workTree, env, signal });
  const tree = await gitText(['write-tree'], { env, signal });
  const commit = await gitText(['commit-tree', '--no-gpg-sign', '-p', target.baseline.commit, '-m', `MassGen: answer ${version}`, tree], { env: { ...env, ...IDENTITY_ENV }, signal });
  await git(['update-ref', `${REF_PREFIX}${version}`, commit], { env, signal });

  const subTree = sub === ''
    ? tree
    : (await git(['rev-parse', '-q', '--verify', `${tree}:${sub}`], { env, cwd: gitDir, okCodes: [0, 1], signal })).stdout.toString('utf8').trim() || null;
  const [entries, bytesWritten, id] = await Promise.all([
    diffTrees(gitDir, target.baseline.tree, tree, sub, signal),
    bytesAdded(gitDir, tree, commit, [target.baseline.tree, ...earlierTrees], signal),
    subTree ?? emptyTree(gitDir, signal),
  ]);
  return {
    recorded: { label: target.label, commit, tree, subTree },
    change: { id, files: changedFiles(entries), bytesWritten },
  };
}

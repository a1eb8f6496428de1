// The starting state of a run (the baseline): exactly what the user sees. For a repository that is HEAD plus the
// uncommitted and untracked, not ignored, files; for a plain folder it is its files minus what its .gitignore files,
// version-control folders and secret files exclude. It is recorded as one commit in the shadow.
//
// In a repository the user's index is copied to a private index first: its stat cache lets `git add -A` skip every
// unchanged file, so the cost is that of a `git status`. git runs with GIT_DIR = the shadow, so new objects land
// there; the user's work tree is only read.

import { copyFile, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { checkCopyLimits, type CopyLimits, type SkippedFile } from './copy-limits';
import { literalExcludeLine, noAccessExcludeLines } from './exclude-patterns';
import { git, gitText } from './git';
import { IDENTITY_ENV, INDEX_DIR, REF_PREFIX, shadowEnv } from './shadow-repo';
import type { RepoInfo } from './repo-probe';
import { formatBytes, listSome } from './wording';

export interface Baseline {
  commit: string;
  /** Root tree of the baseline commit. */
  tree: string;
  /** Things the user should know about the copies, in words. */
  notes: string[];
}

export const BASELINE_REF = `${REF_PREFIX}baseline`;

function nulList(out: Buffer): string[] {
  return out.toString('utf8').split('\0').filter((s) => s !== '');
}

/** Paths of submodules (and nested repositories) in an index: git records them as links, so copies hold empty folders. */
async function gitlinks(env: Record<string, string>, cwd: string, pathspec: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const out = await git(['ls-files', '--stage', '-z', '--', ...pathspec], { cwd, env, signal });
  return nulList(out.stdout)
    .filter((record) => record.startsWith('160000 '))
    .map((record) => record.slice(record.indexOf('\t') + 1));
}

/** Copies an index keeping its modification time: git's "racily clean" check compares file times with it. */
export async function copyIndex(from: string, to: string): Promise<void> {
  const st = await stat(from);
  await copyFile(from, to);
  await utimes(to, st.atime, st.mtime);
}

/** Adds lines to the shadow's info/exclude (never the user's): what the copies' snapshots leave out. */
export async function appendExcludes(gitDir: string, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return;
  const file = path.join(gitDir, 'info', 'exclude');
  const before = await readFile(file, 'utf8').catch(() => '');
  const sep = before === '' || before.endsWith('\n') ? '' : '\n';
  await writeFile(file, `${before}${sep}# left out by MassGen\n${lines.join('\n')}\n`);
}

function skippedNote(skipped: readonly SkippedFile[], limits: CopyLimits): string | null {
  if (skipped.length === 0) return null;
  const names = skipped.map((f) => `${f.path} (${formatBytes(f.bytes)})`);
  return `Files larger than ${formatBytes(limits.maxFileBytes)} were not copied (agents do not see them, and they stay as they are): ${listSome(names)}.`;
}

function gitlinkNote(links: readonly string[]): string | null {
  if (links.length === 0) return null;
  return `Submodules and nested git repositories are not copied (their folders are empty in the agents' copies): ${listSome(links)}.`;
}

/** Makes the baseline commit from an index and keeps it under a private ref. */
async function commitIndex(gitDir: string, indexFile: string, parent: string | null, signal?: AbortSignal): Promise<{ commit: string; tree: string }> {
  const env = shadowEnv(gitDir, { GIT_INDEX_FILE: indexFile });
  const tree = await gitText(['write-tree'], { env, signal });
  const parents = parent === null ? [] : ['-p', parent];
  const commit = await gitText(['commit-tree', '--no-gpg-sign', ...parents, '-m', 'MassGen: starting state', tree], { env: { ...env, ...IDENTITY_ENV }, signal });
  await git(['update-ref', BASELINE_REF, commit], { env, signal });
  return { commit, tree };
}

/** Filter drivers named in the top-level .gitattributes files (the shadow runs none of them). */
async function filtersInAttributes(files: readonly string[]): Promise<string[]> {
  const names = new Set<string>();
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const m of text.matchAll(/(?:^|\s)filter=([^\s]+)/g)) names.add(m[1]);
  }
  return [...names].sort();
}

function filterNote(filters: readonly string[]): string | null {
  if (filters.length === 0) return null;
  const lfs = filters.includes('lfs') ? ' Git LFS files appear as their small pointer files, and a change to one cannot be applied.' : '';
  return `Files handled by git filters (${filters.join(', ')}) are shown to agents as git stores them, without running the filter.${lfs}`;
}

/**
 * Files with staged changes that were edited again afterwards: the copies hold what is on disk (the work tree
 * wins), which is what the user sees. Read from a pristine copy of the user's index, before `git add`.
 */
async function stagedThenEdited(env: Record<string, string>, cwd: string, head: string | null, pathspec: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const staged = head === null
    ? await git(['ls-files', '-z', '--', ...pathspec], { cwd, env, signal })
    : await git(['diff-index', '--cached', '--name-only', '--no-renames', '-z', head, '--', ...pathspec], { cwd, env, signal });
  const stagedSet = new Set(nulList(staged.stdout));
  if (stagedSet.size === 0) return [];
  const edited = await git(['diff-files', '--name-only', '-z', '--', ...pathspec], { cwd, env, signal });
  return nulList(edited.stdout).filter((p) => stagedSet.has(p));
}

/** Repository paths under `sub`, made relative to it (what the user's folder calls them). */
function relativeTo(sub: string, paths: readonly string[]): string[] {
  return sub === '' ? [...paths] : paths.map((p) => p.slice(sub.length + 1));
}

function relativeToSkipped(sub: string, skipped: readonly SkippedFile[]): SkippedFile[] {
  return skipped.map((f) => ({ ...f, path: relativeTo(sub, [f.path])[0] }));
}

/** Baseline of a folder in a git repository (the user's folder may be a subfolder: only it is recorded anew). */
export async function buildRepoBaseline(gitDir: string, repo: RepoInfo, limits: CopyLimits, signal?: AbortSignal): Promise<Baseline> {
  const indexFile = path.join(gitDir, INDEX_DIR, 'baseline');
  const env = shadowEnv(gitDir, { GIT_WORK_TREE: repo.top, GIT_INDEX_FILE: indexFile });
  const pathspec = repo.sub === '' ? [] : [`:(literal)${repo.sub}`];
  const notes: string[] = [];

  await copyFile(repo.excludeFile, path.join(gitDir, 'info', 'exclude')).catch(() => undefined);
  await copyFile(repo.attributesFile, path.join(gitDir, 'info', 'attributes')).catch(() => undefined);
  let usable = await copyIndex(repo.indexFile, indexFile).then(() => true, () => false);
  if (usable) {
    try {
      const edited = await stagedThenEdited(env, repo.top, repo.head, pathspec, signal);
      if (edited.length > 0) {
        notes.push(`Some files have staged changes and were edited again afterwards; the copies start from the files as they are on disk: ${listSome(relativeTo(repo.sub, edited))}.`);
      }
    } catch (err) {
      if (signal?.aborted) throw err;
      // A split index (its other half stays in the user's .git), or one another git version wrote, cannot be
      // read from a copy: start from HEAD instead, without the stat cache (every file is hashed once).
      usable = false;
      await rm(indexFile, { force: true });
    }
  }
  if (!usable && repo.head !== null) await git(['read-tree', repo.head], { cwd: repo.top, env, signal });

  const what = `The folder ${repo.top}${repo.sub === '' ? '' : `/${repo.sub}`}`;
  const skipped = await checkCopyLimits(repo.top, env, pathspec, limits, what, signal);
  await appendExcludes(gitDir, skipped.map((f) => literalExcludeLine(f.path)));
  await git(['add', '-A', '--', ...pathspec], { cwd: repo.top, env, signal });
  const links = await gitlinks(env, repo.top, pathspec, signal);
  const { commit, tree } = await commitIndex(gitDir, indexFile, repo.head, signal);

  const attributeFiles = [path.join(repo.top, '.gitattributes'), ...(repo.sub === '' ? [] : [path.join(repo.top, repo.sub, '.gitattributes')])];
  for (const note of [
    skippedNote(relativeToSkipped(repo.sub, skipped), limits),
    gitlinkNote(relativeTo(repo.sub, links)),
    filterNote(await filtersInAttributes(attributeFiles)),
  ]) {
    if (note !== null) notes.push(note);
  }
  return { commit, tree, notes };
}

/** Baseline of a plain folder: its files, honouring the .gitignore files in it, without version-control folders or secrets. */
export async function buildFolderBaseline(gitDir: string, folder: string, limits: CopyLimits, signal?: AbortSignal): Promise<Baseline> {
  const indexFile = path.join(gitDir, INDEX_DIR, 'baseline');
  const env = shadowEnv(gitDir, { GIT_WORK_TREE: folder, GIT_INDEX_FILE: indexFile });
  await writeFile(path.join(gitDir, 'info', 'exclude'), `# never copied from a plain folder\n${noAccessExcludeLines().join('\n')}\n`);
  const skipped = await checkCopyLimits(folder, env, [], limits, `The folder ${folder} (not a git repository)`, signal);
  await appendExcludes(gitDir, skipped.map((f) => literalExcludeLine(f.path)));
  await git(['add', '-A'], { cwd: folder, env, signal });
  const links = await gitlinks(env, folder, [], signal);
  const { commit, tree } = await commitIndex(gitDir, indexFile, null, signal);
  const notes = [
    `${path.basename(folder)} is not a git repository: the agents' copies hold its files except those its .gitignore files exclude, version-control folders and secret files (.env and the like).`,
  ];
  for (const note of [skippedNote(skipped, limits), gitlinkNote(links)]) if (note !== null) notes.push(note);
  return { commit, tree, notes };
}

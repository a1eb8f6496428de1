// The agents' working copies for one workspace run: `<baseDir>/<runId>/agentK/`, one git worktree each, checked
// out from the run's baseline in a private shadow repository (shadow-repo.ts). Nothing is written to the user's
// folder or its .git: no worktree entry, ref, object or index change (see shadow-repo.ts on object file times).
// Removing the run folder removes everything,
// so `dispose` is an rm -rf and a crashed run's folder is swept by the next start (sweep.ts).
//
// Folders are named by the anonymous label only, so nothing an agent sees names a peer's model or config id.

import { existsSync } from 'node:fs';
import { mkdir, realpath, rm, stat, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { isInside } from '../util/paths';
import type { AnswerChange } from '../engine/events';
import { appendExcludes, buildFolderBaseline, buildRepoBaseline, type Baseline } from './baseline';
import { literalExcludeLine } from './exclude-patterns';
import type { FileChange } from './changes';
import { CopyLimitError, DEFAULT_COPY_LIMITS, type CopyLimits } from './copy-limits';
import { ObjectReader } from './object-reader';
import { fileChangesOf, renderPatch } from './patch';
import { checkPathSyntax } from './path-guard';
import { probeFolder, type Probe, type RepoInfo } from './repo-probe';
import { grepTree } from './search';
import { checkoutTree } from './checkout';
import { createShadow, INDEX_DIR, missingObjectStore, readUserGitSettings, SHADOW_DIR } from './shadow-repo';
import { isValidVersion, takeSnapshot, type RecordedVersion, type SnapshotTarget } from './snapshot';
import { writeOwnerFile } from './sweep';
import { diffTrees } from './tree-diff';
import { createTreeView } from './tree-view';
import type { TreeView, WorkspaceCopies } from './types';
import { addWorktrees, moveWorktrees, prepareCopies } from './worktrees';

export interface WorkspaceCopiesOptions {
  /** Where run folders live (created if missing); must be outside the user's folder and repository. */
  baseDir: string;
  /** Names the run folder `<baseDir>/<runId>`, which must not exist yet. */
  runId: string;
  /** Anonymous agent labels (agent1…), in config order: one copy each. */
  labels: readonly string[];
  limits?: Partial<CopyLimits>;
  signal?: AbortSignal;
}

// As in scratch.ts: names that are safe as folder names on every platform (and, for labels, contain no dot).
const SAFE_RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const SAFE_LABEL = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** Where checkouts for the project's checks go in the run folder (a name no agent label can have). */
const CHECKOUTS_DIR = '.checks';

function assertSafeName(kind: string, name: string, pattern: RegExp): void {
  if (typeof name !== 'string' || !pattern.test(name) || !checkPathSyntax(name).ok) {
    throw new Error(`unsafe ${kind} ${JSON.stringify(name)}: use letters, digits, "-" and "_" (and "." in a run id), starting with a letter or digit`);
  }
}

function validate(options: WorkspaceCopiesOptions): void {
  assertSafeName('run id', options.runId, SAFE_RUN_ID);
  if (options.labels.length === 0) throw new Error('a workspace run needs at least one agent');
  const seen = new Set<string>();
  for (const label of options.labels) {
    assertSafeName('agent label', label, SAFE_LABEL);
    const key = label.toLowerCase(); // case-insensitive file systems would merge "Agent1" and "agent1"
    if (seen.has(key)) throw new Error(`duplicate agent label ${JSON.stringify(label)}`);
    seen.add(key);
  }
}

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** A file-system failure while making run files, in words the user can act on. Pure. */
export function runFolderError(dir: string, err: unknown): Error {
  const code = errCode(err);
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return new Error(`cannot make the agents' working copies in ${dir}: the folder is not writable (${code === 'EROFS' ? 'read-only disk' : 'no permission'}). Choose a writable folder for run files.`);
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') return new Error(`cannot make the agents' working copies in ${dir}: the disk is full. Free some space and try again.`);
  if (code === 'ENOTDIR' || code === 'EEXIST') return new Error(`cannot make the agents' working copies in ${dir}: a file is in the way of that folder.`);
  return new Error(`cannot make the agents' working copies in ${dir}: ${(err as Error).message}`);
}

async function realFolder(source: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(source);
  } catch {
    throw new Error(`the folder ${source} does not exist`);
  }
  if (!(await stat(real)).isDirectory()) throw new Error(`${source} is a file, not a folder; give the project's folder`);
  return real;
}

async function makeRunDir(baseDir: string, runId: string, outside: readonly string[]): Promise<string> {
  const base = path.resolve(baseDir);
  try {
    await mkdir(base, { recursive: true, mode: 0o700 }); // the copies hold the user's files: theirs to read only
  } catch (err) {
    throw runFolderError(base, err);
  }
  const realBase = await realpath(base);
  for (const folder of outside) {
    if (isInside(folder, realBase)) throw new Error(`the folder for run files (${base}) is inside ${folder}, whose files are being copied; choose a folder outside it`);
  }
  const runDir = path.join(realBase, runId);
  try {
    await mkdir(runDir, { mode: 0o700 });
  } catch (err) {
    if (errCode(err) === 'EEXIST') throw new Error(`a run folder named ${JSON.stringify(runId)} already exists in ${realBase}; use a new run id`);
    throw runFolderError(realBase, err);
  }
  return runDir;
}

/** A failure while making the copies, in words: limits pass through; file-system errors name the run folder. */
function creationError(err: unknown, source: string, runDir: string | null, signal?: AbortSignal): Error {
  if (signal?.aborted) return new Error('making the working copies was cancelled');
  if (err instanceof CopyLimitError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/no space left on device/i.test(message)) return runFolderError(runDir ?? source, Object.assign(new Error(message), { code: 'ENOSPC' }));
  if (runDir !== null && errCode(err) !== undefined) return runFolderError(runDir, err);
  return new Error(`cannot make the agents' working copies of ${source}: ${message}`);
}

/**
 * Records the starting state and checks it out for every label. With a HEAD, the worktrees are checked out from
 * HEAD while the starting state is being recorded, then moved to it: only the user's uncommitted and untracked
 * files are written twice, and the setup costs little more than plain `git worktree add`.
 */
async function startingState(gitDir: string, runDir: string, labels: readonly string[], repo: RepoInfo | null, folder: string, limits: CopyLimits, signal?: AbortSignal): Promise<Baseline> {
  if (repo?.head) {
    const [built, added] = await Promise.allSettled([buildRepoBaseline(gitDir, repo, limits, signal), addWorktrees(gitDir, runDir, labels, repo.head, signal)]);
    if (built.status === 'rejected') throw built.reason;
    if (added.status === 'rejected') throw added.reason;
    await moveWorktrees(gitDir, runDir, labels, built.value.commit, signal);
    return built.value;
  }
  const baseline = repo ? await buildRepoBaseline(gitDir, repo, limits, signal) : await buildFolderBaseline(gitDir, folder, limits, signal);
  await addWorktrees(gitDir, runDir, labels, baseline.commit, signal);
  return baseline;
}

class Copies implements WorkspaceCopies {
  readonly labels: readonly string[];
  private readonly versions = new Map<string, RecordedVersion>();
  private readonly reserved = new Set<string>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly reader: ObjectReader;
  private disposed = false;
  private checkouts = 0;

  constructor(
    readonly source: string,
    readonly kind: 'git' | 'folder',
    readonly notes: readonly string[],
    labels: readonly string[],
    private readonly runDir: string,
    private readonly sub: string,
    private readonly baseline: Baseline,
    borrowedObjects: string | null,
  ) {
    this.labels = [...labels];
    this.reader = new ObjectReader(this.gitDir);
    this.gitPaths = [this.gitDir, ...(borrowedObjects ? [borrowedObjects] : [])];
  }

  readonly gitPaths: readonly string[];

  private get gitDir(): string {
    return path.join(this.runDir, SHADOW_DIR);
  }

  private label(label: string): string {
    if (!this.labels.includes(label)) throw new Error(`unknown agent label ${JSON.stringify(label)}`);
    return label;
  }

  private live(): void {
    if (this.disposed) throw new Error('the run has ended; its working copies were removed');
  }

  private version(version: string): RecordedVersion {
    this.live();
    const v = this.versions.get(version);
    if (!v) throw new Error(`no change was recorded for answer ${JSON.stringify(version)}`);
    return v;
  }

  rootOf(label: string): string {
    return path.join(this.runDir, this.label(label), ...(this.sub === '' ? [] : this.sub.split('/')));
  }

  // async, so every refusal is a rejected promise; the checks and the reservation still happen synchronously.
  async snapshot(label: string, version: string, signal?: AbortSignal): Promise<AnswerChange> {
    this.live();
    this.label(label);
    if (!isValidVersion(version)) throw new Error(`unusable answer version ${JSON.stringify(version)}`);
    if (this.reserved.has(version)) throw new Error(`answer ${version} was already recorded`);
    this.reserved.add(version);
    const target: SnapshotTarget = {
      gitDir: this.gitDir,
      label,
      workTree: path.join(this.runDir, label),
      indexFile: path.join(this.gitDir, INDEX_DIR, label),
      sub: this.sub,
      baseline: this.baseline,
    };
    // One snapshot at a time per copy: two `git add` on one index would collide on its lock.
    const run = async (): Promise<AnswerChange> => {
      this.live();
      try {
        const earlier = [...this.versions.values()].map((v) => v.tree);
        const { recorded, change } = await takeSnapshot(target, version, earlier, signal);
        this.versions.set(version, recorded);
        return change;
      } catch (err) {
        this.reserved.delete(version);
        throw await this.explain(err);
      }
    };
    const next = (this.queues.get(label) ?? Promise.resolve()).then(run, run);
    this.queues.set(label, next.catch(() => undefined));
    return next;
  }

  view(version: string): TreeView | undefined {
    const v = this.disposed ? undefined : this.versions.get(version);
    if (!v) return undefined;
    return createTreeView(this.reader, v.subTree, (tree, pattern, options) => grepTree(this.gitDir, tree, pattern, options));
  }

  async patch(version: string): Promise<string> {
    const v = this.version(version);
    try {
      const entries = await diffTrees(this.gitDir, this.baseline.tree, v.tree, this.sub);
      return await renderPatch(this.gitDir, this.baseline.tree, v.tree, this.sub, entries);
    } catch (err) {
      throw await this.explain(err);
    }
  }

  async fileChanges(version: string): Promise<FileChange[]> {
    const v = this.version(version);
    try {
      return await fileChangesOf(this.reader, await diffTrees(this.gitDir, this.baseline.tree, v.tree, this.sub));
    } catch (err) {
      throw await this.explain(err);
    }
  }

  async linkIntoCopies(folders: readonly string[]): Promise<string[]> {
    this.live();
    const linked = new Set<string>();
    for (const label of this.labels) {
      for (const folder of folders) {
        const name = path.basename(folder);
        const link = path.join(this.rootOf(label), name);
        if (existsSync(link)) continue;
        await symlink(folder, link, 'dir');
        linked.add(name);
      }
    }
    // An ignore rule such as `node_modules/` matches directories only, and git sees a symlink as a file: excluded here.
    await appendExcludes(this.gitDir, [...linked].map((name) => literalExcludeLine(this.sub === '' ? name : `${this.sub}/${name}`)));
    return [...linked];
  }

  async checkout(version: string, signal?: AbortSignal): Promise<{ folder: string; dispose(): Promise<void> }> {
    const v = this.version(version);
    const dir = path.join(this.runDir, CHECKOUTS_DIR, `${version}-${++this.checkouts}`);
    const dispose = () => rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    try {
      await checkoutTree(this.gitDir, v.tree, dir, signal);
    } catch (err) {
      await dispose();
      throw await this.explain(err);
    }
    return { folder: path.join(dir, ...(this.sub === '' ? [] : this.sub.split('/'))), dispose };
  }

  /** A git failure explained by what happened around it: the run ended, or the user's repository vanished. */
  private async explain(err: unknown): Promise<unknown> {
    if (this.disposed) return new Error('the run has ended; its working copies were removed');
    const gone = await missingObjectStore(this.gitDir);
    if (gone !== null) return new Error(`the repository's object store (${gone}) was removed during the run, so the files of the starting state can no longer be read`);
    return err;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.reader.close();
    // The user's repository holds nothing of ours, so removing the run folder removes everything.
    await rm(this.runDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

/**
 * Makes one working copy of `source` per label, in parallel, starting from exactly what the user sees there.
 * Throws an Error in words (not a git repository and too large, read-only disk, cancelled…); on failure nothing
 * is left behind.
 */
export async function createWorkspaceCopies(source: string, options: WorkspaceCopiesOptions): Promise<WorkspaceCopies> {
  validate(options);
  const { signal } = options;
  const limits: CopyLimits = { ...DEFAULT_COPY_LIMITS, ...options.limits };
  const folder = await realFolder(source);
  let probe: Probe;
  let settings: Awaited<ReturnType<typeof readUserGitSettings>>;
  try {
    [probe, settings] = await Promise.all([probeFolder(folder, signal), readUserGitSettings(folder, signal)]);
  } catch (err) {
    throw creationError(err, folder, null, signal);
  }
  const repo = probe.kind === 'git' ? probe.repo : null;
  const runDir = await makeRunDir(options.baseDir, options.runId, repo ? [folder, repo.top] : [folder]);
  try {
    await writeOwnerFile(runDir, options.runId);
    const gitDir = path.join(runDir, SHADOW_DIR);
    await createShadow(gitDir, settings, repo?.objects ?? null, signal);
    const baseline = await startingState(gitDir, runDir, options.labels, repo, folder, limits, signal);
    const sub = repo?.sub ?? '';
    await prepareCopies(gitDir, runDir, options.labels, sub);
    const notes = [...(probe.kind === 'folder' ? probe.notes : []), ...baseline.notes];
    return new Copies(folder, repo ? 'git' : 'folder', notes, options.labels, runDir, sub, baseline, repo?.objects ?? null);
  } catch (err) {
    await rm(runDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    throw creationError(err, folder, runDir, signal);
  }
}

// Finds out what the user's folder is: a folder in a git repository (possibly a subfolder, possibly a linked
// worktree) or a plain folder. Read-only: rev-parse and check-ignore write nothing.

import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { git, GitError } from './git';

export interface RepoInfo {
  /** Real path of the repository's work tree top. */
  top: string;
  /** The user's folder relative to `top`, POSIX; '' when it is the top. */
  sub: string;
  /** The repository's object store (the main repository's, when the folder is a linked worktree). */
  objects: string;
  /** This work tree's index, info/exclude and info/attributes (may not exist). */
  indexFile: string;
  excludeFile: string;
  attributesFile: string;
  /** HEAD's commit; null when HEAD is unborn (no commit yet). */
  head: string | null;
}

export type Probe = { kind: 'git'; repo: RepoInfo } | { kind: 'folder'; notes: string[] };

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** Explains why git refuses the folder, or null when it is simply not in a repository. */
function refusal(err: GitError, source: string): Error | null {
  if (/not a git repository/i.test(err.stderr)) return null;
  if (/dubious ownership/i.test(err.stderr)) {
    return new Error(`git refuses to read the repository of ${source}: it belongs to another user (git's safe.directory check). If you trust it, run: git config --global --add safe.directory <the repository's folder>`);
  }
  if (/must be run in a work tree/i.test(err.stderr)) {
    return new Error(`${source} is inside a repository's .git folder or a bare repository; open the project's folder instead`);
  }
  return new Error(`${source} could not be read as a git repository: ${err.message}`);
}

/** `source` must be a real path (realpath'd by the caller). */
export async function probeFolder(source: string, signal?: AbortSignal): Promise<Probe> {
  let lines: string[];
  try {
    const out = await git(['rev-parse', '--show-toplevel', '--git-path', 'objects', '--git-path', 'index', '--git-path', 'info/exclude', '--git-path', 'info/attributes'], { cwd: source, signal });
    lines = out.stdout.toString('utf8').replace(/\n$/, '').split('\n');
  } catch (err) {
    if (!(err instanceof GitError) || signal?.aborted) throw err;
    const why = refusal(err, source);
    if (why) throw why;
    return { kind: 'folder', notes: [] };
  }
  const [topLine, objects, indexFile, excludeFile, attributesFile] = lines.map((l) => path.resolve(source, l));
  const top = await realpath(topLine);
  const sub = toPosix(path.relative(top, source));
  const head = (await git(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { cwd: source, okCodes: [0, 1], signal })).stdout.toString('utf8').trim();

  if (sub !== '') {
    // An ignored folder (a build output folder opened on its own) has nothing git would copy: treat it as plain.
    const ignored = await git(['check-ignore', '-q', '--', sub], { cwd: top, okCodes: [0, 1], signal });
    if (ignored.exitCode === 0) {
      return { kind: 'folder', notes: [`${path.basename(source)} is ignored by its repository's .gitignore, so it is copied as a plain folder.`] };
    }
  }
  return {
    kind: 'git',
    repo: { top, sub, objects, indexFile, excludeFile, attributesFile, head: head === '' ? null : head },
  };
}

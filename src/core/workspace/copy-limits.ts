// How much a run may copy that is not already in git: every file of a plain folder, or the untracked files of a
// repository (tracked content is borrowed from the user's object store and costs nothing). A folder that is
// mostly generated files (a forgotten node_modules, a data set) is refused with a message saying what to do;
// a single huge file is left out and named in the run's notes.

import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { GitError } from './git';
import { streamGit } from './git-stream';
import { formatBytes } from './wording';

export interface CopyLimits {
  /** Most files copied that git does not already hold. */
  maxFiles: number;
  /** Most bytes copied that git does not already hold. */
  maxTotalBytes: number;
  /** Files larger than this are left out of the copies (and named in the notes). */
  maxFileBytes: number;
}

export const DEFAULT_COPY_LIMITS: CopyLimits = { maxFiles: 20_000, maxTotalBytes: 500 * 1024 * 1024, maxFileBytes: 50 * 1024 * 1024 };

/** A copy refused because of a limit; `limit` names the setting that raises it. */
export class CopyLimitError extends Error {
  constructor(
    message: string,
    readonly limit: keyof CopyLimits,
  ) {
    super(message);
    this.name = 'CopyLimitError';
  }
}

export interface SkippedFile {
  /** POSIX, relative to the work tree. */
  path: string;
  bytes: number;
}

/** Splits NUL-terminated output into names, keeping an unfinished tail (maybe half a character) for the next chunk. Pure. */
export function splitNul(pending: Buffer, chunk: Buffer): { names: string[]; rest: Buffer } {
  const data = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  const names: string[] = [];
  let start = 0;
  for (let nul = data.indexOf(0); nul >= 0; nul = data.indexOf(0, start)) {
    names.push(data.subarray(start, nul).toString('utf8'));
    start = nul + 1;
  }
  return { names, rest: data.subarray(start) };
}

/**
 * Lists the files `git add -A` would copy that git does not hold yet (untracked, not ignored), checks them
 * against the limits and returns the ones too large to copy. `what` describes the folder in messages.
 */
export async function checkCopyLimits(
  workTree: string,
  env: Record<string, string>,
  pathspec: readonly string[],
  limits: CopyLimits,
  what: string,
  signal?: AbortSignal,
): Promise<SkippedFile[]> {
  const files: string[] = [];
  let pending: Buffer = Buffer.alloc(0);
  let over = false;
  const end = await streamGit(
    ['ls-files', '--others', '--exclude-standard', '-z', '--', ...pathspec],
    (chunk) => {
      const { names, rest } = splitNul(pending, chunk);
      pending = rest;
      // A trailing "/" is a nested repository, which git records as a link and does not copy.
      for (const name of names) if (!name.endsWith('/')) files.push(name);
      over = files.length > limits.maxFiles;
      return over;
    },
    { cwd: workTree, env, signal },
  );
  if (end.cancelled) throw new Error('making the working copies was cancelled');
  if (over) {
    throw new CopyLimitError(
      `${what} has more than ${limits.maxFiles.toLocaleString('en-US')} files that git does not already hold (not ignored by .gitignore), too many to copy for every agent. ` +
        'Add a .gitignore for generated or downloaded folders (node_modules, build output, data), or raise the limit (maxFiles).',
      'maxFiles',
    );
  }
  if (end.exitCode !== 0) throw new GitError(`git ls-files failed: ${end.stderr.trim().split('\n')[0] ?? ''}`, ['ls-files'], end.stderr, end.exitCode);

  const skipped: SkippedFile[] = [];
  let total = 0;
  for (let i = 0; i < files.length; i += 64) {
    const batch = files.slice(i, i + 64);
    const sizes = await Promise.all(batch.map((f) => lstat(path.join(workTree, f)).then((st) => (st.isFile() ? st.size : 0), () => 0)));
    sizes.forEach((bytes, j) => {
      if (bytes > limits.maxFileBytes) skipped.push({ path: batch[j], bytes });
      else total += bytes;
    });
    if (signal?.aborted) throw new Error('making the working copies was cancelled');
  }
  if (total > limits.maxTotalBytes) {
    throw new CopyLimitError(
      `${what} holds ${formatBytes(total)} in files that git does not already hold, more than the limit of ${formatBytes(limits.maxTotalBytes)} for copying to every agent. ` +
        'Add a .gitignore for generated or downloaded folders, or raise the limit (maxTotalBytes).',
      'maxTotalBytes',
    );
  }
  return skipped;
}

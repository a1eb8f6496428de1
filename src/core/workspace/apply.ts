// `--apply`: puts the winner's change into the user's folder, all or nothing. The patch goes from the run's
// starting state to the winner's answer, so the user's own uncommitted edits (already in the starting state) are
// never applied twice, and a file the user changed since in a conflicting way makes the whole apply refuse.
//
// git apply runs against a throwaway empty repository whose work tree is the target folder. That keeps git from
// discovering an enclosing repository (in a repository's subfolder, plain `git apply` reads paths from the top and
// silently skips everything outside the current folder), keeps the user's index untouched, and still applies the
// user's line-ending settings and .gitattributes, so a CRLF checkout takes an LF patch.
//
// A patch that adds a symbolic link pointing outside the folder is refused before git sees it (patch-symlinks.ts).

import { mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { git, GitError } from './git';
import { symlinksLeaving } from './patch-symlinks';
import { createShadow, readUserGitSettings } from './shadow-repo';
import { listSome } from './wording';

export type ApplyResult =
  | { ok: true; /** Changed paths, relative to the folder. */ files: string[] }
  | { ok: false; message: string; /** Paths that no longer fit the change. */ conflicts: string[] };

export interface ApplyOptions {
  signal?: AbortSignal;
}

/** Paths among `files` that git's error lines name (`error: p: …`, `error: patch failed: p:12`). Pure. */
export function conflictingPaths(stderr: string, files: readonly string[]): string[] {
  const lines = stderr.split('\n').filter((l) => l.startsWith('error: '));
  return files.filter((p) => lines.some((l) => l.startsWith(`error: ${p}: `) || l.startsWith(`error: patch failed: ${p}:`) || l.includes(`'${p}'`)));
}

function firstError(stderr: string): string {
  return (stderr.split('\n').find((l) => l.startsWith('error: ') || l.startsWith('fatal: ')) ?? stderr.trim()).replace(/^(error|fatal): /, '');
}

/** Applies `patch` (git format, paths relative to `targetDir`) to `targetDir`; touches nothing unless all of it fits. */
export async function applyPatch(targetDir: string, patch: string, options: ApplyOptions = {}): Promise<ApplyResult> {
  const { signal } = options;
  const target = await realpath(targetDir).catch(() => null);
  if (target === null || !(await stat(target)).isDirectory()) {
    return { ok: false, message: `${targetDir} does not exist any more; nothing was applied.`, conflicts: [] };
  }
  if (patch.trim() === '') return { ok: true, files: [] };
  const leaving = symlinksLeaving(patch, target);
  if (leaving.length > 0) {
    const names = leaving.map((l) => (l.target === null ? l.path : `${l.path} -> ${l.target}`));
    return {
      ok: false,
      message:
        `The change was not applied: it adds symbolic links that point outside ${targetDir}: ${listSome(names)}. Nothing was modified. ` +
        'Links like these would expose files outside the folder to whatever follows them; review the change and copy the parts you want by hand.',
      conflicts: leaving.map((l) => l.path),
    };
  }

  const tmp = await mkdtemp(path.join(tmpdir(), 'massgen-apply-'));
  try {
    const gitDir = path.join(tmp, 'git');
    await createShadow(gitDir, await readUserGitSettings(target, signal), null, signal);
    const run = (args: string[], okCodes?: number[]): ReturnType<typeof git> =>
      git(['-c', 'apply.ignoreWhitespace=no', 'apply', '--whitespace=nowarn', ...args, '-'], {
        cwd: target,
        env: { GIT_DIR: gitDir, GIT_WORK_TREE: target },
        input: patch,
        okCodes,
        signal,
      });

    let files: string[];
    try {
      const numstat = await run(['--numstat', '-z']);
      files = numstat.stdout.toString('utf8').split('\0').filter((r) => r !== '').map((r) => r.split('\t').slice(2).join('\t'));
    } catch (err) {
      const why = err instanceof GitError ? firstError(err.stderr) : String(err);
      return { ok: false, message: `The change could not be read as a patch (${why}); nothing was applied.`, conflicts: [] };
    }

    const check = await run(['--check'], [0, 1, 128]);
    if (check.exitCode !== 0) {
      const conflicts = conflictingPaths(check.stderr, files);
      const which = conflicts.length > 0 ? `: ${listSome(conflicts)}` : ` (${firstError(check.stderr)})`;
      return {
        ok: false,
        message:
          `The change was not applied: files in ${targetDir} changed since the run started in a way that conflicts with it${which}. ` +
          'Nothing was modified. Undo your edits to those files and apply again, or merge the change by hand.',
        conflicts,
      };
    }
    await run([]);
    return { ok: true, files };
  } finally {
    await rm(tmp, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

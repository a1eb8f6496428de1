// Real git repositories for the integration tests: git with a fixed identity, and a fingerprint of a repository to
// prove a run left it untouched.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });

/** Everything that makes the repository what it is: every file's bytes (.git included), status, refs, worktrees. */
export function fingerprint(dir: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else files.push(`${relative(dir, p)} ${readFileSync(p).toString('base64')}`);
    }
  };
  walk(dir);
  return [files.join('\n'), git(dir, 'status', '--porcelain', '--untracked-files=all'), git(dir, 'for-each-ref'), git(dir, 'worktree', 'list', '--porcelain')].join('\n--\n');
}

// Where the CLI and the MCP server keep the agents' working copies: a folder of the current user's own under the
// temporary folder, `<tmp>/massgen-<uid>/workspaces`. A shared, predictable /tmp/massgen-workspaces let another
// local user create that folder first and then rename or replace the run folders in it (CWE-377). So the per-user
// folder is made with mode 0700, and one that already exists is used only when it is a real folder (not a link)
// owned by this user that nobody else can write to.

import type { Stats } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** Why `st` (lstat of a folder meant to be private) may not be used by user `uid`, or null when it may. Pure. */
export function privateFolderProblem(st: Pick<Stats, 'uid' | 'mode' | 'isDirectory' | 'isSymbolicLink'>, uid: number): string | null {
  if (st.isSymbolicLink()) return 'it is a symbolic link';
  if (!st.isDirectory()) return 'it is not a folder';
  if (st.uid !== uid) return `it belongs to another user (uid ${st.uid}, not ${uid})`;
  if ((st.mode & 0o022) !== 0) return `others can write to it (mode ${(st.mode & 0o777).toString(8).padStart(3, '0')})`;
  return null;
}

/**
 * Makes (or checks) the current user's folder for run files under `parent` and returns the folder for the
 * working copies inside it. Throws, in words, when the existing folder is not safe to use.
 */
export async function privateRunBase(parent: string = tmpdir(), uid: number | undefined = process.getuid?.()): Promise<string> {
  // Windows has no uids here, and its temporary folder is already per user.
  if (uid === undefined) return path.join(parent, 'massgen-workspaces');
  const own = path.join(parent, `massgen-${uid}`);
  await mkdir(own, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw new Error(`cannot make the folder for run files ${own}: ${err.message}`);
  });
  const problem = privateFolderProblem(await lstat(own), uid);
  if (problem) {
    throw new Error(`refusing to keep the agents' working copies in ${own}: ${problem}. Another user may have made it; remove it (or set TMPDIR to a folder of your own) and try again.`);
  }
  return path.join(own, 'workspaces');
}

// The project's installed dependencies, for checks: git copies and checkouts hold only what git tracks, so a
// `node_modules` or a virtualenv the user installed is missing from them. A checkout gets a link to each one at the
// top of the user's folder, shown read-only in the sandbox, so `npm test` or `pytest` find what they import.

import { existsSync, statSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import * as path from 'node:path';

export const DEPENDENCY_FOLDERS = ['node_modules', '.venv', 'venv'] as const;

/** The dependency folders at the top of `source` (absolute paths). */
export function findDependencyFolders(source: string): string[] {
  return DEPENDENCY_FOLDERS.map((name) => path.join(source, name)).filter((p) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  });
}

/** Links each folder into `checkout` under its name, unless the version itself has something there. */
export async function linkDependencies(checkout: string, folders: readonly string[]): Promise<void> {
  for (const folder of folders) {
    const link = path.join(checkout, path.basename(folder));
    if (!existsSync(link)) await symlink(folder, link, 'dir');
  }
}

// Whether a path is a program this process may run: the sandbox plan (Node on PATH) and the coding agents' program
// locator ask the same question.

import { accessSync, constants, statSync } from 'node:fs';

/** A regular file with the execute permission for us; false for anything missing, unreadable or a folder. */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

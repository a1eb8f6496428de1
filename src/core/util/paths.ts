// Path containment, in one place: the security checks (path guard, run folders, sandbox plan) all ask the same
// question, and three helpers with swapped argument orders made a wrong call easy to write and hard to see.

import * as path from 'node:path';

/**
 * Whether `p` is `root` itself or lies inside it, by path text only (no file system; resolve links first).
 * Both should be absolute; they are normalised here. A sibling sharing a prefix ("/a/bc" for "/a/b") and a
 * name that merely starts with two dots ("/a/b/..x") are told apart correctly.
 */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

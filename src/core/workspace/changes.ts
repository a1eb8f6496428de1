// What the winner changed: its scratch folder compared with the files it was seeded with. The host turns the list
// into one WorkspaceEdit (with preview); unchanged files are left out. Symbolic links are never followed or
// reported (agents cannot create them), and protected names (.git, .env…, node_modules…) are skipped while
// walking, since agents can never have written there; a seeded file among them is still compared directly.

import { lstat, readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { checkPathSyntax, isNoAccessName, isWriteProtectedName } from './path-guard';
import type { SeedFile } from './scratch';
import { decodeText } from './file-tools';

export interface FileChange {
  /** POSIX path relative to the folder. */
  relativePath: string;
  kind: 'added' | 'modified' | 'deleted';
  /** Seeded content (modified, deleted). */
  before?: string;
  /** Content now (added, modified); absent when `binary`. */
  after?: string;
  /** The file now is not UTF-8 text, so `after` is omitted. */
  binary?: boolean;
}

export interface DiffLimits {
  /** Files walked before giving up (a runaway folder is a host error, not a silent partial diff). */
  maxFiles: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxFiles: 10_000 };

async function walk(root: string, rel: string, out: string[], limits: DiffLimits): Promise<void> {
  const dir = rel === '' ? root : path.join(root, ...rel.split('/'));
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (isNoAccessName(entry.name) || isWriteProtectedName(entry.name)) continue;
    const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) await walk(root, childRel, out, limits);
    else if (entry.isFile()) {
      out.push(childRel);
      if (out.length > limits.maxFiles) throw new Error(`diffFolder: more than ${limits.maxFiles} files in the folder`);
    }
    // symlinks, pipes, sockets, devices: ignored
  }
}

/** Reads a regular file (never through a symlink); null when there is no regular file there. */
async function readRegular(root: string, rel: string): Promise<Buffer | null> {
  const abs = path.join(root, ...rel.split('/'));
  try {
    // Refuse any symlinked component: the path is built from the seed list, not from the walk.
    let cur = root;
    for (const seg of rel.split('/')) {
      cur = path.join(cur, seg);
      const st = await lstat(cur);
      if (st.isSymbolicLink()) return null;
    }
    if (!(await lstat(abs)).isFile()) return null;
    return await readFile(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

/**
 * Compares `agentFolder` with the files it was seeded with and returns the changed files, sorted by path:
 * `added` (not seeded), `modified` (content differs byte-wise), `deleted` (seeded, now gone).
 */
export async function diffFolder(agentFolder: string, seededFiles: readonly SeedFile[], limits: Partial<DiffLimits> = {}): Promise<FileChange[]> {
  const lim: DiffLimits = { ...DEFAULT_DIFF_LIMITS, ...limits };
  const seeded = new Map<string, string>();
  for (const file of seededFiles) {
    const syntax = checkPathSyntax(file.relativePath);
    if (!syntax.ok) throw new Error(`diffFolder: invalid seeded path ${JSON.stringify(file.relativePath)}: ${syntax.reason}`);
    seeded.set(syntax.relative, file.content);
  }
  const present: string[] = [];
  await walk(agentFolder, '', present, lim);
  const all = new Set<string>([...present, ...seeded.keys()]);

  const changes: FileChange[] = [];
  for (const rel of [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const before = seeded.get(rel);
    const now = await readRegular(agentFolder, rel);
    if (now === null) {
      if (before !== undefined) changes.push({ relativePath: rel, kind: 'deleted', before });
      continue;
    }
    if (before !== undefined && now.equals(Buffer.from(before, 'utf8'))) continue;
    const after = decodeText(now);
    const change: FileChange = { relativePath: rel, kind: before === undefined ? 'added' : 'modified' };
    if (before !== undefined) change.before = before;
    if (after === null) change.binary = true;
    else change.after = after;
    changes.push(change);
  }
  return changes;
}

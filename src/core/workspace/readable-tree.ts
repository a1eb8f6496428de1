// The read side of every tree the file tools show, behind one interface so read_file, list_directory and
// search_files have one code path whatever they read: a real folder (the agent's own, a live peer folder in a chat
// /edit, a reference folder) goes through the path guard; a peer's answer is a `TreeView` of its snapshot.

import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { resolveInRoot } from './path-guard';
import { searchFolder } from './search';
import type { GrepOptions, GrepResult, TreeEntry, TreeView } from './types';

/** What is at a path, or why the path may not be used, in words (no host paths). */
export type Lookup = { ok: true; entry: TreeEntry | null } | { ok: false; reason: string };

/** Paths are normalised, relative, POSIX ("." = the root); the caller has already checked the name policy. */
export interface ReadableTree {
  /** What is at `inner`; null when nothing is. A real folder follows in-root links and refuses links out. */
  lookup(inner: string): Promise<Lookup>;
  /** Content of the file at `inner`; null when there is no regular file there (any more). */
  readFile(inner: string): Promise<Buffer | null>;
  /** Entries of the folder at `inner`, sorted by name, protected names included; null when it is not a folder. */
  list(inner: string): Promise<TreeEntry[] | null>;
  grep(pattern: string, options: GrepOptions): Promise<GrepResult>;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Reads a whole file without following a symlink swapped in after the guard's check. */
async function readWhole(absolute: string): Promise<Buffer> {
  const handle = await open(absolute, constants.O_RDONLY | NOFOLLOW);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function kindOf(st: Stats): TreeEntry['kind'] | null {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return 'directory';
  if (st.isFile()) return 'file';
  return null; // devices, pipes, sockets: unreadable, so not shown
}

/** A real folder, every access through the path guard. */
export function folderTree(root: string): ReadableTree {
  return {
    async lookup(inner) {
      const target = await resolveInRoot(root, inner, { access: 'read', allowRoot: true });
      if (!target.ok) return target;
      if (!target.exists || !target.kind) return { ok: true, entry: null };
      const size = target.kind === 'file' ? (await lstat(target.absolute)).size : 0;
      return { ok: true, entry: { name: path.posix.basename(inner), kind: target.kind, size } };
    },
    async readFile(inner) {
      const target = await resolveInRoot(root, inner, { access: 'read' });
      return target.ok && target.kind === 'file' ? readWhole(target.absolute) : null;
    },
    async list(inner) {
      const target = await resolveInRoot(root, inner, { access: 'read', allowRoot: true });
      if (!target.ok || target.kind !== 'directory') return null;
      const names = (await readdir(target.absolute)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const entries: TreeEntry[] = [];
      for (const name of names) {
        let st: Stats;
        try {
          st = await lstat(path.join(target.absolute, name));
        } catch {
          continue; // removed meanwhile
        }
        const kind = kindOf(st);
        if (kind) entries.push({ name, kind, size: kind === 'file' ? st.size : 0 });
      }
      return entries;
    },
    grep: (pattern, options) => searchFolder(root, pattern, options),
  };
}

/** A snapshot (a peer's answer version). Its paths come from git, so there is nothing to resolve. */
export function snapshotTree(view: TreeView): ReadableTree {
  return {
    lookup: async (inner) => ({ ok: true, entry: await view.stat(inner) }),
    readFile: (inner) => view.readFile(inner),
    list: (inner) => view.list(inner),
    grep: (pattern, options) => view.grep(pattern, options),
  };
}

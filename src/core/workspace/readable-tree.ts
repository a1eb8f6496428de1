// The read side of every tree the file tools show, behind one interface so read_file, list_directory and
// search_files have one code path whatever they read: a real folder (the agent's own, a live peer folder in a chat
// /edit, a reference folder) goes through the path guard; a peer's answer is a `TreeView` of its snapshot.

import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { resolveInRoot } from './path-guard';
import { listDirInRoot, readFileInRoot, UnsafePathError } from './safe-fs';
import { searchFolder } from './search';
import type { GrepOptions, GrepResult, TreeEntry, TreeView } from './types';

/** What is at a path, or why the path may not be used, in words (no host paths). */
export type Lookup = { ok: true; entry: TreeEntry | null } | { ok: false; reason: string };

/** Paths are normalised, relative, POSIX ("." = the root); the caller has already checked the name policy. */
export interface ReadableTree {
  /** What is at `inner`; null when nothing is. A real folder follows in-root links and refuses links out. */
  lookup(inner: string): Promise<Lookup>;
  /**
   * Content of the file at `inner`; null when there is no regular file there (any more). A real folder reads at
   * most `maxBytes + 1` bytes, so a longer result means the file is over the cap (whatever `lookup` said).
   */
  readFile(inner: string, maxBytes: number): Promise<Buffer | null>;
  /** Entries of the folder at `inner`, sorted by name, protected names included; null when it is not a folder. */
  list(inner: string): Promise<TreeEntry[] | null>;
  grep(pattern: string, options: GrepOptions): Promise<GrepResult>;
}

/** Null for "no regular file there (any more)"; a link or a swap on the way is an error the caller words. */
async function readRegular(root: string, absolute: string, maxBytes: number): Promise<Buffer | null> {
  try {
    return await readFileInRoot(root, absolute, maxBytes);
  } catch (err) {
    if ((err instanceof UnsafePathError && err.code === 'ENOTREG') || (err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
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
    async readFile(inner, maxBytes) {
      const target = await resolveInRoot(root, inner, { access: 'read' });
      return target.ok && target.kind === 'file' ? readRegular(root, target.absolute, maxBytes) : null;
    },
    async list(inner) {
      const target = await resolveInRoot(root, inner, { access: 'read', allowRoot: true });
      if (!target.ok || target.kind !== 'directory') return null;
      const found = (await listDirInRoot(root, target.absolute)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const entries: TreeEntry[] = [];
      for (const { name, stats } of found) {
        const kind = kindOf(stats);
        if (kind) entries.push({ name, kind, size: kind === 'file' ? stats.size : 0 });
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

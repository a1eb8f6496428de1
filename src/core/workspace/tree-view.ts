// A read-only view of one snapshot, read straight from git objects: what a peer sees under peers/agentK/. Symlinks
// and submodules are reported by kind and never followed; protected names (.git, .env…) are invisible, like to
// the file tools.

import { isNoAccessName } from './path-guard';
import { parseTree, type ObjectReader, type RawTreeEntry } from './object-reader';
import type { GrepOptions, GrepResult, TreeEntry, TreeView } from './types';

/** Tree listings kept per view (trees are immutable, so a cached one never goes stale). */
const MAX_CACHED_TREES = 2000;

/** The kind git's mode stands for. Pure. */
export function kindOfMode(mode: string): TreeEntry['kind'] {
  if (mode === '40000' || mode === '040000') return 'directory';
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  return 'file';
}

/** Path segments of a view path ("." and "" are the root); null when it climbs out or names a protected name. Pure. */
export function viewSegments(p: string): string[] | null {
  const segments = p.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..' || isNoAccessName(s))) return null;
  return segments;
}

export type TreeGrep = (tree: string, pattern: string, options: GrepOptions) => Promise<GrepResult>;

/** A view of the tree `root` (null: an empty folder, e.g. the agent removed everything). */
export function createTreeView(reader: ObjectReader, root: string | null, grep: TreeGrep): TreeView {
  const trees = new Map<string, RawTreeEntry[]>();

  const listTree = async (oid: string): Promise<RawTreeEntry[]> => {
    const cached = trees.get(oid);
    if (cached) return cached;
    const obj = await reader.read(oid);
    if (!obj || obj.type !== 'tree') throw new Error('the snapshot is damaged (a folder of it cannot be read)');
    const entries = parseTree(obj.data, oid.length / 2).filter((e) => !isNoAccessName(e.name));
    if (trees.size >= MAX_CACHED_TREES) trees.clear();
    trees.set(oid, entries);
    return entries;
  };

  /** The entry at `segments`; for the root, a synthetic directory entry. */
  const lookup = async (segments: readonly string[]): Promise<RawTreeEntry | null> => {
    if (root === null) return segments.length === 0 ? { mode: '40000', name: '', oid: '' } : null;
    let entry: RawTreeEntry = { mode: '40000', name: '', oid: root };
    for (const seg of segments) {
      if (kindOfMode(entry.mode) !== 'directory') return null;
      const next = (await listTree(entry.oid)).find((e) => e.name === seg);
      if (!next) return null;
      entry = next;
    }
    return entry;
  };

  const toEntry = async (raw: RawTreeEntry, name: string): Promise<TreeEntry> => {
    const kind = kindOfMode(raw.mode);
    const size = kind === 'file' ? ((await reader.info(raw.oid))?.size ?? 0) : 0;
    return { name, kind, size };
  };

  return {
    async readFile(p) {
      const segments = viewSegments(p);
      const entry = segments && (await lookup(segments));
      if (!entry || kindOfMode(entry.mode) !== 'file') return null;
      const obj = await reader.read(entry.oid);
      return obj && obj.type === 'blob' ? obj.data : null;
    },
    async stat(p) {
      const segments = viewSegments(p);
      const entry = segments && (await lookup(segments));
      if (!segments || !entry) return null;
      return toEntry(entry, segments.length === 0 ? '.' : segments[segments.length - 1]);
    },
    async list(p) {
      const segments = viewSegments(p);
      const entry = segments && (await lookup(segments));
      if (!entry || kindOfMode(entry.mode) !== 'directory') return null;
      if (entry.oid === '') return [];
      const entries = await Promise.all((await listTree(entry.oid)).map((e) => toEntry(e, e.name)));
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async grep(pattern, options) {
      if (root === null) return { ok: true, matches: [], truncated: false };
      return grep(root, pattern, options);
    },
  };
}

// What changed between two trees of the shadow, per file: status, modes, blob ids and line counts, from one
// `git diff-tree --raw --numstat`. Renames are a deletion plus an addition (--no-renames), so every path in a
// change is simply "now" or "before". Paths are relative to the user's folder (`--relative`).

import { git } from './git';
import { shadowEnv } from './shadow-repo';
import type { ChangedFile } from '../engine/events';

export interface DiffEntry {
  /** POSIX, relative to the user's folder. */
  path: string;
  status: ChangedFile['status'];
  oldMode: string;
  newMode: string;
  oldOid: string;
  newOid: string;
  /** Line counts; null for binary files. */
  added: number | null;
  removed: number | null;
}

function statusOf(letter: string): ChangedFile['status'] {
  if (letter === 'A') return 'added';
  if (letter === 'D') return 'deleted';
  return 'modified'; // M, T (type change: file ↔ symlink)
}

/**
 * Parses `git diff-tree -r -z --raw --numstat` output: raw records (`:old new oldOid newOid S NUL path NUL`) for
 * every file, then numstat records (`added TAB removed TAB path NUL`), in the same order. Pure.
 */
export function parseRawNumstat(out: Buffer): DiffEntry[] {
  const fields = out.toString('utf8').split('\0');
  const entries: DiffEntry[] = [];
  let i = 0;
  while (i < fields.length && fields[i].startsWith(':')) {
    const [oldMode, newMode, oldOid, newOid, status] = fields[i].slice(1).split(' ');
    entries.push({ path: fields[i + 1], status: statusOf(status[0]), oldMode, newMode, oldOid, newOid, added: null, removed: null });
    i += 2;
  }
  for (const entry of entries) {
    const [added, removed] = (fields[i++] ?? '').split('\t');
    entry.added = added === '-' || added === undefined ? null : Number(added);
    entry.removed = removed === '-' || removed === undefined ? null : Number(removed);
  }
  return entries;
}

/** `--relative=<sub>/` limits a diff to the user's folder and makes paths relative to it; none at the top. */
export function relativeArgs(sub: string): string[] {
  return sub === '' ? [] : [`--relative=${sub}/`];
}

/** Changed files between trees `from` and `to`, sorted as git sorts them. */
export async function diffTrees(gitDir: string, from: string, to: string, sub: string, signal?: AbortSignal): Promise<DiffEntry[]> {
  const out = await git(['diff-tree', '-r', '-z', '--raw', '--numstat', '--no-renames', ...relativeArgs(sub), from, to], { env: shadowEnv(gitDir), cwd: gitDir, signal });
  return parseRawNumstat(out.stdout);
}

/** The AnswerChange file list. Pure. */
export function changedFiles(entries: readonly DiffEntry[]): ChangedFile[] {
  return entries.map((e) => ({ path: e.path, status: e.status, added: e.added, removed: e.removed }));
}

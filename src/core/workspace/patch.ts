// A version's change as a patch (what --apply and changes.patch use) and as per-file texts (what VS Code's
// WorkspaceEdit uses). The patch is git's own, binary-safe (--binary, --full-index), with paths relative to the
// user's folder, so `git apply` there reproduces the change exactly. Plumbing diff-tree is used, not `git diff`:
// the user's diff settings (noprefix, external diff tools, textconv) then cannot change or run anything.

import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { FileChange } from './changes';
import { decodeText } from './file-tools';
import { git } from './git';
import type { ObjectReader } from './object-reader';
import { shadowEnv } from './shadow-repo';
import { relativeArgs, type DiffEntry } from './tree-diff';

const NULL_OID = /^0+$/;

function isUtf8(buf: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

/**
 * Paths whose section of a patch is not UTF-8 (a Latin-1 text file): as a JavaScript string such a section would
 * be damaged, so those files are diffed as binary instead. `paths` are the patch's files, in order. Pure.
 */
export function nonUtf8Sections(patch: Buffer, paths: readonly string[]): string[] {
  // A line starting "diff --git " is always a file header: hunk lines start with " ", "+", "-" or "\\".
  const starts: number[] = patch.subarray(0, 11).toString('latin1') === 'diff --git ' ? [0] : [];
  for (let at = patch.indexOf('\ndiff --git '); at >= 0; at = patch.indexOf('\ndiff --git ', at + 1)) starts.push(at + 1);
  const bad: string[] = [];
  starts.forEach((start, i) => {
    const end = i + 1 < starts.length ? starts[i + 1] : patch.length;
    if (!isUtf8(patch.subarray(start, end)) && paths[i] !== undefined) bad.push(paths[i]);
  });
  return bad;
}

/** A gitattributes line matching exactly one path (quoted; glob characters escaped). Pure. */
export function literalAttributesLine(p: string, attrs: string): string {
  const escaped = p.replace(/[\\*?[]/g, (c) => `\\${c}`).replace(/"/g, '\\"');
  return `"/${escaped}" ${attrs}`;
}

async function diffPatch(gitDir: string, from: string, to: string, sub: string, attributesFile: string | null, signal?: AbortSignal): Promise<Buffer> {
  // quotePath: non-ASCII file names as octal escapes, so only file contents can be other than UTF-8.
  const config = ['-c', 'core.quotePath=true', ...(attributesFile === null ? [] : ['-c', `core.attributesFile=${attributesFile}`])];
  const out = await git(
    [...config, 'diff-tree', '-r', '-p', '--binary', '--full-index', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', ...relativeArgs(sub), from, to],
    { env: shadowEnv(gitDir), cwd: gitDir, signal },
  );
  return out.stdout;
}

/** Unified git patch from tree `from` to tree `to`, limited to the user's folder `sub` and relative to it. */
export async function renderPatch(gitDir: string, from: string, to: string, sub: string, entries: readonly DiffEntry[], signal?: AbortSignal): Promise<string> {
  const first = await diffPatch(gitDir, from, to, sub, null, signal);
  if (isUtf8(first)) return first.toString('utf8');
  const bad = nonUtf8Sections(first, entries.map((e) => e.path));
  const attributesFile = path.join(gitDir, `massgen-attributes-${randomBytes(6).toString('hex')}`);
  const prefix = sub === '' ? '' : `${sub}/`;
  await writeFile(attributesFile, `${bad.map((p) => literalAttributesLine(prefix + p, '-diff')).join('\n')}\n`);
  try {
    return (await diffPatch(gitDir, from, to, sub, attributesFile, signal)).toString('utf8');
  } finally {
    await rm(attributesFile, { force: true });
  }
}

async function blobText(reader: ObjectReader, mode: string, oid: string): Promise<{ text: string | null } | null> {
  if (NULL_OID.test(oid)) return null;
  // Symlinks and submodules are not text a WorkspaceEdit could write: reported as binary (use the patch).
  if (!mode.startsWith('100')) return { text: null };
  const obj = await reader.read(oid);
  if (!obj) throw new Error('the snapshot is damaged (a file of it cannot be read)');
  return { text: decodeText(obj.data) };
}

/** Per changed file, the text before and after; `binary` (and no text) when either side is not UTF-8 text. */
export async function fileChangesOf(reader: ObjectReader, entries: readonly DiffEntry[]): Promise<FileChange[]> {
  return Promise.all(
    entries.map(async (e) => {
      const [before, after] = await Promise.all([blobText(reader, e.oldMode, e.oldOid), blobText(reader, e.newMode, e.newOid)]);
      const change: FileChange = { relativePath: e.path, kind: e.status };
      if ((before && before.text === null) || (after && after.text === null)) {
        change.binary = true;
        return change;
      }
      if (typeof before?.text === 'string') change.before = before.text;
      if (typeof after?.text === 'string') change.after = after.text;
      return change;
    }),
  );
}

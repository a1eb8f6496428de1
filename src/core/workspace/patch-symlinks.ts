// Symbolic links a patch would create, and which of them point outside the folder it is applied to. Agents cannot
// make links with the file tools, but their commands can, and the winner's patch then carries the link into the
// user's folder (git apply writes it as a link). A link that leaves the folder ("../../.ssh", "/etc") would hand
// whatever it points at to the next tool that follows it there, so applying refuses such a patch; a link that
// stays inside is an ordinary part of a project and is fine. Pure: reads only the patch text.

import * as path from 'node:path';
import { isInside } from '../util/paths';

export interface PatchSymlink {
  /** Path of the link, relative to the folder (POSIX). */
  path: string;
  /** What it points at, as written in the patch; null when the patch does not show it as text. */
  target: string | null;
}

const SYMLINK_MODE = '120000';
const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A path as git writes it in a header: plain, or C-quoted with octal bytes (core.quotePath). Pure. */
export function unquoteGitPath(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const bytes: number[] = [];
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = raw[++i];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(raw.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(C_ESCAPES[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The path after the "a/" or "b/" prefix of a ---/+++ line, or null for /dev/null. */
function sidePath(rest: string): string | null {
  const p = unquoteGitPath(rest.trim());
  return p === '/dev/null' ? null : p.replace(/^[ab]\//, '');
}

/** Every symlink the patch leaves behind (added, or changed to point elsewhere), with its new target. Pure. */
export function patchSymlinks(patch: string): PatchSymlink[] {
  const links: PatchSymlink[] = [];
  const sections = patch.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  for (const section of sections) {
    const lines = section.split('\n');
    const header = lines.findIndex((l) => l.startsWith('@@') || l.startsWith('GIT binary patch'));
    // git reads a header line ending in "\r" as the same header, so it is read here that way too.
    const meta = (header === -1 ? lines : lines.slice(0, header)).map((l) => l.replace(/\r$/, ''));
    const newMode = meta.map((l) => /^(?:new file mode|new mode) (\d+)$/.exec(l)?.[1] ?? /^index [0-9a-f]+\.\.[0-9a-f]+ (\d+)$/.exec(l)?.[1]).find((m) => m !== undefined);
    if (newMode !== SYMLINK_MODE) continue;
    const plus = meta.find((l) => l.startsWith('+++ '));
    const names = meta[0].slice('diff --git '.length);
    const linkPath = (plus && sidePath(plus.slice(4))) ?? /^a\/(.*) b\/\1$/.exec(names)?.[1] ?? names;
    if (header === -1 || !lines[header].startsWith('@@')) {
      links.push({ path: linkPath, target: null });
      continue;
    }
    // The new side of the hunks: context and added lines, in order; "\ No newline" ends the last one without "\n".
    const content: string[] = [];
    for (const l of lines.slice(header + 1)) {
      if (l.startsWith('+') || l.startsWith(' ')) content.push(l.slice(1));
    }
    links.push({ path: linkPath, target: content.join('\n') });
  }
  return links;
}

/**
 * The links of `patch` that point outside `folder` (the real path of the folder it will be applied to): absolute
 * targets not inside it, relative ones climbing above it, and any whose target cannot be read. Pure.
 *
 * Targets are judged as text, so a `..` after a name is refused outright: that name may itself be a link (one this
 * patch adds, `s -> .` then `t -> s/..`, or one already in the folder), and the kernel climbs from where the link
 * leads, not from where the text says. Leading `..` climb from the link's own folder, which git never writes
 * through a link.
 */
export function symlinksLeaving(patch: string, folder: string): PatchSymlink[] {
  return patchSymlinks(patch).filter(({ path: at, target }) => {
    if (target === null || target === '') return true;
    if (climbsAfterName(target)) return true;
    if (/^([A-Za-z]:|[\\/])/.test(target)) return !(target.startsWith('/') && isInside(folder, path.posix.normalize(target)));
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(at), target));
    return resolved === '..' || resolved.startsWith('../');
  });
}

/** True when `target` has a `..` after a name (an absolute target has names from its root on). */
function climbsAfterName(target: string): boolean {
  const parts = target.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  const first = target.startsWith('/') ? 0 : parts.findIndex((p) => p !== '..');
  return first !== -1 && parts.slice(first).includes('..');
}

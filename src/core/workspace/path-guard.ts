// The path guard: every path a model gives to a file tool is checked here before the file system sees it. It
// fails closed. A path is refused unless it is a plain relative path made of portable names, every existing
// component (the final one included) resolves inside the root after realpath, and no excluded name appears.
//
// Two layers:
//   * `checkPathSyntax` is pure. It rejects NUL/control characters, absolute paths (POSIX, Windows drive, UNC,
//     `~`), backslashes, characters Windows forbids, Windows device names, trailing dots/spaces, 8.3 short
//     names, bidi controls, over-long paths, and `..` that climbs above the root. It returns the normalised
//     segments.
//   * `resolveInRoot` adds the name policy and the file system: realpath of the root, then every component in
//     turn (lstat; a symlink must realpath inside the root, a dangling one is refused), so a symlinked parent
//     folder is caught as well as a symlinked file. Paths that do not exist yet are allowed below the longest
//     existing prefix (writes create them). FIFOs, sockets and devices are refused (a read would block), and so
//     are files with more than one hard link (the other link may live outside the root).
//
// Reasons never contain absolute host paths: they are shown to the model, and the host path would reveal the
// run layout (and the agent's own anonymous label).

import type { Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { isInside } from '../util/paths';

/** Longest path accepted, in characters. */
export const MAX_PATH_CHARS = 1024;
/** Longest single name accepted, in UTF-8 bytes (the common file-system limit). */
export const MAX_SEGMENT_BYTES = 255;
/** Deepest path accepted, in segments after normalisation. */
export const MAX_PATH_DEPTH = 64;

/**
 * Names agents may neither read nor write, anywhere in a path (case-insensitive):
 * version-control internals (hooks there run code on the user's machine) and files that usually hold secrets.
 */
export const NO_ACCESS_NAMES: readonly string[] = ['.git', '.hg', '.svn', '.env', '.env.*', '.envrc', '.npmrc', '.netrc', '.pypirc', '.ssh'];
/**
 * Names agents may read but never write (case-insensitive): installed dependencies and caches, which are not
 * part of an answer and which the user's tooling regenerates.
 */
export const WRITE_PROTECTED_NAMES: readonly string[] = ['node_modules', '__pycache__', '.venv', 'venv'];

const NO_ACCESS_EXACT = new Set(['.git', '.hg', '.svn', '.envrc', '.npmrc', '.netrc', '.pypirc', '.ssh']);
const WRITE_PROTECTED_EXACT = new Set(WRITE_PROTECTED_NAMES);

/** True for a name agents may never read or write. `.env` matches `.env`, `.env.local`, `.env.production`, … */
export function isNoAccessName(name: string): boolean {
  const n = name.toLowerCase();
  return NO_ACCESS_EXACT.has(n) || n === '.env' || n.startsWith('.env.');
}

export function isWriteProtectedName(name: string): boolean {
  return WRITE_PROTECTED_EXACT.has(name.toLowerCase());
}

export type PathSyntaxResult = { ok: true; segments: string[]; relative: string } | { ok: false; reason: string };

export interface SyntaxOptions {
  /** Accept a path that normalises to the root itself ("." or "a/.."). Default false. */
  allowRoot?: boolean;
}

// Windows reserved device names, with or without an extension ("nul.txt" opens the NUL device on Windows).
const DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)$/i;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
const SHORT_NAME = /~[0-9]/;

function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** Checks one name; returns a reason, or null when the name is fine. */
function checkSegment(seg: string): string | null {
  if (Buffer.byteLength(seg, 'utf8') > MAX_SEGMENT_BYTES) return `the name "${seg.slice(0, 40)}…" is longer than ${MAX_SEGMENT_BYTES} bytes`;
  if (/[. ]$/.test(seg)) return `the name ${JSON.stringify(seg)} ends with a dot or a space (Windows drops them, so it would alias another name); remove it`;
  const stem = seg.split('.')[0].replace(/ +$/, '');
  if (DEVICE_NAMES.test(stem)) return `the name ${JSON.stringify(seg)} is a reserved Windows device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9), even with an extension; choose another name`;
  if (SHORT_NAME.test(seg)) return `the name ${JSON.stringify(seg)} looks like a Windows 8.3 short name ("~" followed by a digit), which can alias another file; choose another name`;
  return null;
}

/**
 * Pure syntax check and normalisation of a path a model gave. Never touches the file system.
 * `relative` is the normalised POSIX form ("." for the root).
 */
export function checkPathSyntax(input: unknown, options: SyntaxOptions = {}): PathSyntaxResult {
  if (typeof input !== 'string') return refuse('the path must be a string');
  if (input.trim() === '') return refuse('the path is empty; give a path relative to your folder, e.g. "src/index.ts" (or "." for the folder itself)');
  if (input.length > MAX_PATH_CHARS) return refuse(`the path is ${input.length} characters long; the limit is ${MAX_PATH_CHARS}`);
  if (input.includes('\0')) return refuse('the path contains a NUL byte; remove it');
  if (CONTROL_CHARS.test(input)) return refuse('the path contains a control character (tab, newline, …); remove it');
  if (BIDI_CONTROLS.test(input)) return refuse('the path contains a bidirectional-text control character, which disguises names; remove it');
  if (input.startsWith('\\\\') || input.startsWith('//')) return refuse('network (UNC) paths are not allowed; give a path relative to your folder');
  if (/^[A-Za-z]:/.test(input)) return refuse('Windows drive paths (like "C:\\…") are not allowed; give a path relative to your folder');
  if (input.startsWith('/') || input.startsWith('\\')) return refuse('absolute paths are not allowed; give a path relative to your folder, e.g. "src/index.ts"');
  if (input.startsWith('~')) return refuse('"~" is not expanded here; give a path relative to your folder');
  if (input.includes('\\')) return refuse('backslashes are not allowed in paths; use forward slashes, e.g. "src/index.ts"');
  const bad = WINDOWS_FORBIDDEN.exec(input);
  if (bad) return refuse(`the path contains ${JSON.stringify(bad[0])}, which is not allowed in file names (< > : " | ? *)`);

  const segments: string[] = [];
  for (const seg of input.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (segments.length === 0) return refuse('the path leaves your folder (too many ".."); stay inside it, e.g. "src/index.ts"');
      segments.pop();
      continue;
    }
    const problem = checkSegment(seg);
    if (problem) return refuse(problem);
    segments.push(seg);
  }
  if (segments.length > MAX_PATH_DEPTH) return refuse(`the path is ${segments.length} folders deep; the limit is ${MAX_PATH_DEPTH}`);
  if (segments.length === 0 && !options.allowRoot) return refuse('the path names your folder itself, not a file inside it; give a file path such as "src/index.ts"');
  return { ok: true, segments, relative: segments.length === 0 ? '.' : segments.join('/') };
}

/** Checks the excluded-name policy for normalised segments; returns a reason or null. Pure. */
export function checkNamePolicy(segments: readonly string[], access: 'read' | 'write'): string | null {
  for (const seg of segments) {
    if (isNoAccessName(seg)) {
      return `"${seg}" is off limits to agents (version-control internals and secret files such as .env are never read or written)`;
    }
    if (access === 'write' && isWriteProtectedName(seg)) {
      return `"${seg}" is read-only for agents (installed dependencies and caches are not part of an answer); write your files elsewhere`;
    }
  }
  return null;
}

export type GuardResult =
  | {
      ok: true;
      /** Host path to use for the file operation: the real path of the longest existing prefix plus the rest. */
      absolute: string;
      /** Normalised POSIX path relative to the root, as the model should see it ("." for the root). */
      relative: string;
      exists: boolean;
      /** What exists there now (after following an in-root symlink); undefined when nothing exists. */
      kind?: 'file' | 'directory';
    }
  | { ok: false; reason: string };

export interface GuardOptions extends SyntaxOptions {
  access: 'read' | 'write';
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
}

/**
 * Resolves a model-given path against `root` and checks it, failing closed. The root itself must exist.
 * Time-of-check/time-of-use: agents run commands in the same folder, and a command can swap any folder on the path
 * for a symlink after this check. So the returned `absolute` is only ever opened through safe-fs.ts, which walks it
 * again name by name with no link allowed and checks what it opened.
 */
export async function resolveInRoot(root: string, input: unknown, options: GuardOptions): Promise<GuardResult> {
  const syntax = checkPathSyntax(input, options);
  if (!syntax.ok) return syntax;
  const policy = checkNamePolicy(syntax.segments, options.access);
  if (policy) return refuse(policy);

  let realRoot: string;
  try {
    realRoot = await realpath(root);
    if (!(await stat(realRoot)).isDirectory()) return refuse('the folder is not available (not a directory)');
  } catch {
    return refuse('the folder is not available (it does not exist any more)');
  }

  const segs = syntax.segments;
  let current = realRoot;
  let exists = true;
  let kind: 'file' | 'directory' | undefined = 'directory';
  for (let i = 0; i < segs.length; i++) {
    const shown = segs.slice(0, i + 1).join('/');
    const candidate = path.join(current, segs[i]);
    let st: Stats;
    try {
      st = await lstat(candidate);
    } catch (err) {
      if (errCode(err) === 'ENOENT') {
        current = path.join(current, ...segs.slice(i));
        exists = false;
        kind = undefined;
        break;
      }
      return refuse(`"${shown}" cannot be checked (${errCode(err)})`);
    }
    let real = candidate;
    if (st.isSymbolicLink()) {
      try {
        real = await realpath(candidate);
      } catch {
        return refuse(`"${shown}" is a symbolic link whose target does not exist (a dangling link); it cannot be used`);
      }
      if (!isInside(realRoot, real)) return refuse(`"${shown}" is a symbolic link that points outside the folder; it cannot be used`);
      try {
        st = await stat(real);
      } catch (err) {
        return refuse(`"${shown}" cannot be checked (${errCode(err)})`);
      }
    }
    if (st.isDirectory()) kind = 'directory';
    else if (st.isFile()) kind = 'file';
    else return refuse(`"${shown}" is not a regular file or folder (device, pipe or socket); it cannot be used`);
    if (i < segs.length - 1 && kind !== 'directory') return refuse(`"${shown}" is a file, not a folder`);
    if (kind === 'file' && st.nlink > 1) return refuse(`"${shown}" has other hard links (which may live outside the folder); it cannot be used`);
    current = real;
  }

  // A symlink inside the root may still lead to an excluded name ("docs" -> ".git"): check the real path too.
  const realSegments = path.relative(realRoot, current).split(path.sep).filter((s) => s !== '');
  const realPolicy = checkNamePolicy(realSegments, options.access);
  if (realPolicy) return refuse(realPolicy);

  return { ok: true, absolute: current, relative: syntax.relative, exists, kind };
}

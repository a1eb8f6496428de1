// Every open, read and write the file tools make in an agent's folder goes through here. The path guard checks a
// path first, but agents run (background) commands in the same folder, so a command can swap a folder on the path
// for a symlink between that check and the open: O_NOFOLLOW on the last name alone would then read or write outside.
//
// So the guard's answer (a real path inside the root) is opened one name at a time, the way openat(2) would:
// each step opens `/proc/self/fd/<parent>/<name>` with O_NOFOLLOW, so the folder reached is the one the previous
// descriptor holds and a symlink anywhere on the path fails the open (ELOOP). Opens are non-blocking (a FIFO swapped
// in never hangs us), `fstat` after the open must say regular file (or folder), and the descriptor's real path
// (readlink of /proc/self/fd/N) must be the path the guard approved. Reads stop at a cap whatever an earlier stat
// said (a file may grow meanwhile); writes truncate only after those checks, so a FIFO or a hard link swapped in is
// refused before anything changes.
//
// Without /proc (macOS, Windows) each name is lstat'ed before the open and the opened file must be the one lstat
// sees after it (same device and inode): this narrows the window to the two calls but cannot close it.

import { constants, existsSync, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, realpath, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { isInside } from '../util/paths';

/** Why a path was refused after the guard's check: a file tool turns the code into words. */
export type UnsafeCode = 'ELOOP' | 'ENOTREG' | 'EMOVED';

export class UnsafePathError extends Error {
  constructor(
    readonly code: UnsafeCode,
    message: string,
  ) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

/** An entry of a listed folder; `stats` are lstat's (a symlink is reported as one, never followed). */
export interface DirEntry {
  name: string;
  stats: Stats;
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const FD_DIR = '/proc/self/fd';
/** Whether descriptors can be used as folders (Linux with /proc mounted); tests may turn it off. */
let viaProc = process.platform === 'linux' && existsSync(FD_DIR);

/** For tests: use the lstat fallback (as on macOS) even where /proc is available. Returns a restore function. */
export function useProcForTests(on: boolean): () => void {
  const before = viaProc;
  viaProc = on && process.platform === 'linux' && existsSync(FD_DIR);
  return () => {
    viaProc = before;
  };
}

function linkOnPath(): UnsafePathError {
  return new UnsafePathError('ELOOP', 'a name on the path is a symbolic link');
}

/** The names from `realRoot` to `absolute`; throws when `absolute` is not inside. */
function namesBelow(realRoot: string, absolute: string): string[] {
  if (!isInside(realRoot, absolute)) throw new UnsafePathError('EMOVED', 'the path is not inside the folder');
  return path.relative(realRoot, absolute).split(path.sep).filter((s) => s !== '');
}

async function closeQuietly(handle: FileHandle | undefined): Promise<void> {
  await handle?.close().catch(() => undefined);
}

/** Rejects a descriptor whose real path is not `expected` (something on the way was moved or swapped). */
async function checkWhere(handle: FileHandle, expected: string): Promise<void> {
  if (!viaProc) return;
  const where = await readlink(`${FD_DIR}/${handle.fd}`);
  if (where !== expected) throw new UnsafePathError('EMOVED', 'a folder on the path was moved or replaced while it was opened');
}

/**
 * Opens `absolute` (a real path inside `root`, as the path guard returns it) with no symlink anywhere on the way.
 * `create` makes missing folders and the file itself. The caller closes the handle.
 */
async function openNoLinks(root: string, absolute: string, flags: number, create = false): Promise<{ handle: FileHandle; stats: Stats; created: boolean }> {
  const realRoot = await realpath(root);
  const names = namesBelow(realRoot, absolute);
  const last = names.length - 1;
  let created = false;
  if (viaProc) {
    let dir = await open(realRoot, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    try {
      for (let i = 0; i < names.length; i++) {
        const at = `${FD_DIR}/${dir.fd}/${names[i]}`;
        const final = i === last;
        if (create && !final) await mkdir(at).catch((err: NodeJS.ErrnoException) => (err.code === 'EEXIST' ? undefined : Promise.reject(err)));
        const stepFlags = final ? flags : constants.O_RDONLY | O_DIRECTORY;
        let next: FileHandle;
        if (final && create) {
          // O_EXCL first, so "created" is true only when this call made the file.
          next = await open(at, stepFlags | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o644).then(
            (h) => ((created = true), h),
            (err: NodeJS.ErrnoException) => (err.code === 'EEXIST' ? open(at, stepFlags | O_NOFOLLOW | O_NONBLOCK) : Promise.reject(err)),
          );
        } else {
          next = await open(at, stepFlags | O_NOFOLLOW | O_NONBLOCK).catch(async (err: NodeJS.ErrnoException) => {
            // O_DIRECTORY|O_NOFOLLOW on a symlink says ENOTDIR: name the link, not "a file on the path".
            if (err.code === 'ENOTDIR' && (await lstat(at).catch(() => null))?.isSymbolicLink()) throw linkOnPath();
            throw err;
          });
        }
        await closeQuietly(dir);
        dir = next;
      }
      const opened = dir;
      const stats = await opened.stat();
      await checkWhere(opened, absolute);
      return { handle: opened, stats, created };
    } catch (err) {
      await closeQuietly(dir);
      throw err;
    }
  }
  // Fallback: no descriptor-relative opens. Check every name, open, then make sure the same file was opened.
  let current = realRoot;
  for (let i = 0; i < names.length; i++) {
    current = path.join(current, names[i]);
    const st = await lstat(current).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' && create) return null;
      throw err;
    });
    if (st === null) {
      if (i < last) await mkdir(current);
      else created = true;
      continue;
    }
    if (st.isSymbolicLink()) throw linkOnPath();
  }
  const handle = await open(absolute, flags | (create ? constants.O_CREAT : 0) | O_NOFOLLOW | O_NONBLOCK, 0o644);
  try {
    const stats = await handle.stat();
    const now = await lstat(absolute);
    if (now.dev !== stats.dev || now.ino !== stats.ino) throw new UnsafePathError('EMOVED', 'the file was replaced while it was opened');
    return { handle, stats, created };
  } catch (err) {
    await closeQuietly(handle);
    throw err;
  }
}

function requireKind(stats: Stats, want: 'file' | 'directory'): void {
  if (want === 'directory' ? !stats.isDirectory() : !stats.isFile()) {
    throw new UnsafePathError('ENOTREG', want === 'directory' ? 'not a folder' : 'not a regular file (a folder, pipe, socket or device)');
  }
}

/**
 * Reads the regular file at `absolute` (inside `root`), at most `maxBytes + 1` bytes: a result longer than
 * `maxBytes` means the file is over the cap, however large it was when the caller looked.
 */
export async function readFileInRoot(root: string, absolute: string, maxBytes: number): Promise<Buffer> {
  const { handle, stats } = await openNoLinks(root, absolute, constants.O_RDONLY);
  try {
    requireKind(stats, 'file');
    const buf = Buffer.alloc(Math.min(maxBytes + 1, Math.max(stats.size, 0) + 1));
    let filled = 0;
    let grown = buf;
    for (;;) {
      if (filled === grown.length) {
        if (grown.length > maxBytes) break;
        grown = Buffer.concat([grown, Buffer.alloc(Math.min(grown.length, maxBytes + 1 - grown.length))]);
      }
      const { bytesRead } = await handle.read(grown, filled, grown.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return grown.subarray(0, filled);
  } finally {
    await closeQuietly(handle);
  }
}

/**
 * Writes `content` as the whole file at `absolute` (inside `root`), making missing folders on the way. An existing
 * file is truncated only after it proved a regular file with one link at the approved path. True when created.
 */
export async function writeFileInRoot(root: string, absolute: string, content: string | Buffer): Promise<boolean> {
  const { handle, stats, created } = await openNoLinks(root, absolute, constants.O_WRONLY, true);
  try {
    requireKind(stats, 'file');
    if (stats.nlink > 1) throw new UnsafePathError('ENOTREG', 'the file has other hard links (which may live outside the folder)');
    await handle.truncate(0);
    await handle.writeFile(content);
    return created;
  } finally {
    await closeQuietly(handle);
  }
}

/** The entries of the folder at `absolute` (inside `root`), unsorted, each with its lstat. */
export async function listDirInRoot(root: string, absolute: string): Promise<DirEntry[]> {
  const { handle, stats } = await openNoLinks(root, absolute, constants.O_RDONLY | O_DIRECTORY);
  try {
    requireKind(stats, 'directory');
    // Through the descriptor where possible, so the folder listed is the one just checked.
    const dir = viaProc ? `${FD_DIR}/${handle.fd}` : absolute;
    const entries: DirEntry[] = [];
    for (const name of await readdir(dir)) {
      const st = await lstat(path.join(dir, name)).catch(() => null); // null: removed meanwhile
      if (st) entries.push({ name, stats: st });
    }
    return entries;
  } finally {
    await closeQuietly(handle);
  }
}

// Leftovers of crashed runs. Every run folder gets an owner file (process id, host, start time) when it is made;
// on the next start, a run folder whose owner process is gone is removed. A live run's folder, a folder owned on
// another host (a shared disk) and a folder without an owner file (not ours) are left alone.

import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import * as path from 'node:path';

export const OWNER_FILE = 'owner.json';

export interface RunOwner {
  pid: number;
  host: string;
  startedAt: string;
  runId: string;
}

/** Writes the owner file atomically (a crash mid-write must not leave a half file that protects nothing). */
export async function writeOwnerFile(runDir: string, runId: string): Promise<void> {
  const owner: RunOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), runId };
  const tmp = path.join(runDir, `${OWNER_FILE}.tmp`);
  await writeFile(tmp, `${JSON.stringify(owner)}\n`);
  await rename(tmp, path.join(runDir, OWNER_FILE));
}

/** The owner recorded in `text`, or null when it is not an owner file of ours. Pure. */
export function parseOwner(text: string): RunOwner | null {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== 'object' || v === null) return null;
    const o = v as Record<string, unknown>;
    if (!Number.isInteger(o.pid) || typeof o.host !== 'string' || typeof o.startedAt !== 'string' || typeof o.runId !== 'string') return null;
    return { pid: o.pid as number, host: o.host, startedAt: o.startedAt, runId: o.runId };
  } catch {
    return null;
  }
}

/** Whether process `pid` exists (EPERM: it exists but belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes run folders under `baseDir` left by runs whose process has ended; returns their paths. Never throws:
 * a folder that cannot be read or removed now is tried again next time.
 */
export async function sweepStaleCopies(baseDir: string): Promise<string[]> {
  const entries = await readdir(baseDir, { withFileTypes: true }).catch(() => []);
  const removed: string[] = [];
  const me = hostname();
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const runDir = path.join(baseDir, entry.name);
    const owner = parseOwner(await readFile(path.join(runDir, OWNER_FILE), 'utf8').catch(() => ''));
    if (!owner || owner.runId !== entry.name || owner.host !== me) continue;
    if (owner.pid === process.pid || processAlive(owner.pid)) continue;
    try {
      await rm(runDir, { recursive: true, force: true, maxRetries: 3 });
      removed.push(runDir);
    } catch {
      // In use (Windows) or not ours to remove: left for the next sweep.
    }
  }
  return removed;
}

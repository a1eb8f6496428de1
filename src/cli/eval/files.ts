// The eval folder on disk: eval.json (what it holds), results.jsonl (appended a line at a time, synchronously, so
// a Ctrl-C or a crash loses at most the line being written), summary.json and report.html (written whole, via a
// temporary file and a rename, so a reader never sees half a file), and runs/<item>/<system>/ with each run's log.

import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalManifest } from '../../core/eval/manifest';
import { parseResults, type ParsedResults, type ResultRow } from '../../core/eval/results';
import { createHash } from 'node:crypto';

export const FILES = { manifest: 'eval.json', results: 'results.jsonl', summary: 'summary.json', report: 'report.html', runs: 'runs' } as const;

export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function readManifest(dir: string): EvalManifest | undefined {
  const path = join(dir, FILES.manifest);
  if (!existsSync(path)) return undefined;
  try {
    const m = JSON.parse(readFileSync(path, 'utf8')) as EvalManifest;
    if (m?.format !== 'massgen-eval/1') throw new Error('not a massgen eval manifest');
    return m;
  } catch (err) {
    throw new Error(`${path} cannot be read (${(err as Error).message}); it is not an eval folder massgen can continue`);
  }
}

export function readResults(dir: string): ParsedResults {
  const path = join(dir, FILES.results);
  return existsSync(path) ? parseResults(readFileSync(path, 'utf8')) : { rows: [], skipped: [] };
}

export function appendRow(dir: string, row: ResultRow): void {
  appendFileSync(join(dir, FILES.results), `${JSON.stringify(row)}\n`);
}

export function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || (statSync(dir).isDirectory() && readdirSync(dir).length === 0);
}

/** A folder name for an id from a dataset or config: readable when it is safe, else made safe and kept distinct. */
export function folderName(id: string): string {
  if (/^[a-z0-9][a-z0-9._-]{0,80}$/.test(id) && !id.endsWith('.')) return id;
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._]+/, '').slice(0, 60) || 'item';
  // Lower case and a hash of the id: "Q1" and "q1" stay apart on case-insensitive disks.
  return `${safe.toLowerCase()}-${createHash('sha1').update(id).digest('hex').slice(0, 8)}`;
}

/** `base`, or `base-2`, `base-3`… when a run already logged there (a re-run after an error keeps both logs). */
export function freshDir(base: string): string {
  let dir = base;
  for (let i = 2; existsSync(dir); i++) dir = `${base}-${i}`;
  mkdirSync(dir, { recursive: true });
  return dir;
}

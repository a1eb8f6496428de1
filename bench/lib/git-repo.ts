// Real git repositories for the workspace benchmark: a deterministic source tree of N files (packages of a few
// folders deep, source-like text of realistic sizes) committed with one `git fast-import` and checked out, then the
// user's work on top (edits, a staged change, deletions, untracked files, ignored build output); a fingerprint of
// what the user sees of it (to prove a run changed nothing); and recursive folder sizes.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The caller's environment minus GIT_* (a hook's GIT_DIR must not redirect us), a fixed identity, no prompts. */
export function benchGitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    LC_ALL: 'C',
  };
}

/** `git args…` in `cwd`; resolves with stdout, rejects with git's message. */
export function git(cwd: string, args: readonly string[], input?: string | Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: benchGitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git ${args.join(' ')} (in ${cwd}) exited ${code}: ${err.trim()}`))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

export async function gitText(cwd: string, args: readonly string[]): Promise<string> {
  return (await git(cwd, args)).toString('utf8').trim();
}

// ---- deterministic content

/** mulberry32: a small seeded PRNG, so every run (and both repository sizes) gets the same files. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(text: string): number {
  return createHash('sha1').update(text).digest().readUInt32LE(0);
}

const WORDS = (
  'value result parser token buffer index offset length count items entry record field state config options ' +
  'request response handler client server stream chunk error message source target label agent answer vote round ' +
  'workspace snapshot change file folder path tree commit branch reader writer cache limit timeout signal event'
).split(' ');

const TYPES = ['string', 'number', 'Buffer', 'boolean', 'readonly string[]'];

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)];
}

function ident(rnd: () => number): string {
  const a = pick(rnd, WORDS);
  const b = pick(rnd, WORDS);
  return `${a}${b[0].toUpperCase()}${b.slice(1)}`;
}

/** One line of TypeScript-looking text. */
function codeLine(rnd: () => number): string {
  const r = rnd();
  const indent = '  '.repeat(Math.floor(rnd() * 3));
  if (r < 0.1) return '';
  if (r < 0.2) return `${indent}// ${pick(rnd, WORDS)} the ${pick(rnd, WORDS)} before the ${pick(rnd, WORDS)} is ${pick(rnd, WORDS)}ed`;
  if (r < 0.4) return `${indent}const ${ident(rnd)} = ${ident(rnd)}(${ident(rnd)}, ${Math.floor(rnd() * 1000)});`;
  if (r < 0.55) return `${indent}if (${ident(rnd)}.${pick(rnd, WORDS)} > ${Math.floor(rnd() * 100)}) return ${ident(rnd)};`;
  if (r < 0.7) return `${indent}export function ${ident(rnd)}(${pick(rnd, WORDS)}: ${pick(rnd, TYPES)}) {`;
  if (r < 0.85) return `${indent}${ident(rnd)}.push({ ${pick(rnd, WORDS)}: ${ident(rnd)}, ${pick(rnd, WORDS)}: '${pick(rnd, WORDS)}' });`;
  return `${indent}}`;
}

/** Size of a file: log-normal around 2.5 KB (source files), a few large ones (fixtures, generated data). */
function sizeOf(rnd: () => number): number {
  if (rnd() < 0.004) return 100_000 + Math.floor(rnd() * 150_000);
  // Box-Muller: median 2.5 KB, σ = 0.9 in log space; 120 B … 64 KB.
  const z = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  return Math.max(120, Math.min(65_536, Math.round(2500 * Math.exp(0.9 * z))));
}

/** The content of `path` (the same in every repository that has that path). */
export function fileContent(path: string): string {
  const rnd = prng(seedOf(path));
  const target = sizeOf(rnd);
  const lines: string[] = [`// ${path}`];
  let n = lines[0].length + 1;
  while (n < target) {
    const line = codeLine(rnd);
    lines.push(line);
    n += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

const ROOT_FILES = ['package.json', 'README.md', 'tsconfig.json', '.gitignore'];
const AREAS = ['core', 'io', 'ui', 'net', 'util'];
const MODULES = ['alpha', 'beta', 'gamma', 'delta', 'omega'];

/**
 * `n` paths: a few root files, then packages/pkgNN of 250 files each (src/<area>/<module>/*.ts, 5 × 5 × 9 = 225;
 * test/ 20; package.json, README.md, index.ts, CHANGELOG.md, tsconfig.json). The first packages are the same in
 * every size, so a 1,000-file and a 10,000-file repository share packages/pkg00 byte for byte.
 */
export function repoPaths(n: number): string[] {
  const out = ROOT_FILES.slice(0, n);
  for (let p = 0; out.length < n; p++) {
    const pkg = `packages/pkg${String(p).padStart(2, '0')}`;
    const files = [`${pkg}/package.json`, `${pkg}/README.md`, `${pkg}/index.ts`, `${pkg}/CHANGELOG.md`, `${pkg}/tsconfig.json`];
    for (const area of AREAS) for (const mod of MODULES) for (let f = 0; f < 9; f++) files.push(`${pkg}/src/${area}/${mod}/${ident(prng(seedOf(`${pkg}${area}${mod}${f}`)))}${f}.ts`);
    for (let t = 0; t < 20; t++) files.push(`${pkg}/test/case${t}.test.ts`);
    for (const f of files) if (out.length < n) out.push(f);
  }
  return out;
}

function contentFor(path: string): string {
  if (path === '.gitignore') return 'node_modules/\ndist/\n*.log\n';
  return fileContent(path);
}

export interface BuiltRepo {
  dir: string;
  paths: string[];
  /** Bytes of the committed files. */
  trackedBytes: number;
  /** What was done on top of HEAD (the user's uncommitted work). */
  dirty: { modified: string[]; staged: string[]; deleted: string[]; untracked: string[]; ignored: number };
}

/** Writes the stream for one commit of `paths` to git fast-import; checks it out. */
async function commitAll(dir: string, paths: readonly string[]): Promise<number> {
  const parts: Buffer[] = [Buffer.from('commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 8\nstarting\n')];
  let bytes = 0;
  for (const p of paths) {
    const body = Buffer.from(contentFor(p));
    bytes += body.length;
    parts.push(Buffer.from(`M 100644 inline ${p}\ndata ${body.length}\n`), body, Buffer.from('\n'));
  }
  parts.push(Buffer.from('\n'));
  await git(dir, ['fast-import', '--quiet'], Buffer.concat(parts));
  await git(dir, ['reset', '--hard', '--quiet', 'main']);
  return bytes;
}

/**
 * A repository of `n` files at `dir`, checked out, with the user's work on top (scaled to n: ~0.2 % edited, some
 * of it staged, a few deleted, ~0.3 % untracked files, and ignored node_modules/ and dist/). The index is
 * refreshed once after a pause, as a user's `git status` would have done long before a run starts: a fresh
 * checkout's index is "racily clean" (same second as its files) and would make any git read rehash every file.
 */
export async function buildRepo(dir: string, n: number): Promise<BuiltRepo> {
  await mkdir(dir, { recursive: true });
  await git(dir, ['init', '--quiet', '--initial-branch=main']);
  const paths = repoPaths(n);
  const trackedBytes = await commitAll(dir, paths);
  await new Promise((r) => setTimeout(r, 1100));
  await git(dir, ['update-index', '-q', '--refresh']);

  const k = Math.max(2, Math.round(n / 500));
  const src = paths.filter((p) => p.endsWith('.ts'));
  const at = (i: number) => src[(i * 7919) % src.length];
  const modified = Array.from({ length: k }, (_, i) => at(i + 1));
  const deleted = [at(k + 11), at(k + 12)];
  for (const p of modified) await writeFile(join(dir, p), `${await readFile(join(dir, p), 'utf8')}export const edited = ${JSON.stringify(p)};\n`);
  const staged = modified.slice(0, Math.max(1, Math.floor(k / 4)));
  await git(dir, ['add', '--', ...staged]);
  for (const p of deleted) await rm(join(dir, p));
  const untracked: string[] = [];
  for (let i = 0; i < Math.max(3, Math.round(n / 300)); i++) {
    const p = i % 2 ? `packages/pkg00/test/new-${i}.test.ts` : `notes/draft-${i}/todo-${i}.md`;
    await mkdir(join(dir, p, '..'), { recursive: true });
    await writeFile(join(dir, p), fileContent(`untracked/${p}`));
    untracked.push(p);
  }
  let ignored = 0;
  for (const folder of ['node_modules/left-pad', 'node_modules/lodash/fp', 'dist']) {
    await mkdir(join(dir, folder), { recursive: true });
    for (let i = 0; i < 40; i++, ignored++) await writeFile(join(dir, folder, `f${i}.js`), fileContent(`ignored/${folder}/${i}`));
  }
  return { dir, paths, trackedBytes, dirty: { modified, staged, deleted, untracked, ignored } };
}

// ---- what the user sees of a repository

/**
 * A fingerprint of the user's repository as git and the user see it: status (with untracked and ignored files),
 * HEAD, every ref, the worktree list, the stash, the index file's bytes, and the content of every changed or
 * untracked file (the diff against HEAD, binary). Equal fingerprints: a run left nothing behind and changed nothing.
 */
export async function repoFingerprint(dir: string): Promise<Record<string, string>> {
  const hash = (b: Buffer | string) => createHash('sha256').update(b).digest('hex').slice(0, 16);
  const ro = ['--no-optional-locks'];
  const [status, head, refs, worktrees, diff, untrackedList, index] = await Promise.all([
    gitText(dir, [...ro, 'status', '--porcelain=v1', '--untracked-files=all', '--ignored']),
    gitText(dir, [...ro, 'rev-parse', 'HEAD']),
    gitText(dir, [...ro, 'for-each-ref', '--format=%(refname) %(objectname)']),
    gitText(dir, [...ro, 'worktree', 'list', '--porcelain']),
    git(dir, [...ro, 'diff', 'HEAD', '--binary']),
    git(dir, [...ro, 'ls-files', '-z', '--others', '--exclude-standard']),
    readFile(join(dir, '.git', 'index')),
  ]);
  const untracked = untrackedList.toString('utf8').split('\0').filter(Boolean).sort();
  const untrackedContent = createHash('sha256');
  for (const p of untracked) untrackedContent.update(p).update('\0').update(await readFile(join(dir, p)));
  const gitEntries = (await readdir(join(dir, '.git'))).sort().join(',');
  return {
    status: hash(status),
    head,
    refs: hash(refs),
    worktrees: hash(worktrees),
    diff: hash(diff),
    untracked: untrackedContent.digest('hex').slice(0, 16),
    index: hash(index),
    gitEntries,
  };
}

/** The keys whose values differ, with both values. */
export function fingerprintDiff(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after })
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k]} → ${after[k]}`);
}

// ---- sizes

/** Files and bytes under `dir` (apparent size: what a copy writes), skipping the names in `skip` at the top. */
export async function treeSize(dir: string, skip: readonly string[] = []): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (d: string, top: boolean): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (top && skip.includes(e.name)) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p, false);
      else {
        files++;
        bytes += (await lstat(p)).size;
      }
    }
  };
  await walk(dir, true);
  return { files, bytes };
}

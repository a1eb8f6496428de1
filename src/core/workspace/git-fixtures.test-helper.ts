// Real git repositories in temp folders for the workspace tests, and a fingerprint of a folder (every file's bytes,
// including .git, plus git's own view of it) to prove that nothing was written there.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gitEnv } from './git';

const IDENTITY = ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgSign=false'];

/** Runs git in `cwd` (scrubbed environment, a fixed identity); returns stdout. Throws on failure. */
export function sh(cwd: string, args: readonly string[], input?: string | Buffer): string {
  return execFileSync('git', [...IDENTITY, ...args], { cwd, env: gitEnv(), input, stdio: ['pipe', 'pipe', 'pipe'] }).toString('utf8');
}

/** A fresh real-path temp folder; removed by `cleanup`. */
export function tempDir(prefix: string, made: string[]): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), `${prefix}-`)));
  made.push(dir);
  return dir;
}

export function cleanup(made: string[]): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function put(root: string, rel: string, content: string | Buffer): void {
  const file = path.join(root, ...rel.split('/'));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

export function read(root: string, rel: string): string {
  return readFileSync(path.join(root, ...rel.split('/')), 'utf8');
}

/** A repository at `dir` with `files` committed. */
export function makeRepo(dir: string, files: Record<string, string | Buffer>): string {
  mkdirSync(dir, { recursive: true });
  sh(dir, ['init', '-q']);
  for (const [rel, content] of Object.entries(files)) put(dir, rel, content);
  if (Object.keys(files).length > 0) {
    sh(dir, ['add', '-A']);
    sh(dir, ['commit', '-q', '-m', 'initial']);
  }
  return dir;
}

/** A repository of `dirs` × `perDir` small files, committed with one fast-import and checked out. */
export function makeWideRepo(dir: string, dirs: number, perDir: number): string {
  mkdirSync(dir, { recursive: true });
  sh(dir, ['init', '-q']);
  const lines: string[] = ['commit refs/heads/main', 'committer Test <test@example.com> 1700000000 +0000', 'data 5', 'wide', ''];
  for (let d = 0; d < dirs; d++) {
    for (let f = 0; f < perDir; f++) {
      const body = `file ${d}/${f}\nline two\n`;
      lines.push(`M 100644 inline d${d}/f${f}.txt`, `data ${Buffer.byteLength(body)}`, body);
    }
  }
  sh(dir, ['fast-import', '--quiet'], `${lines.join('\n')}\n`);
  sh(dir, ['checkout', '-q', '-f', 'main']);
  return dir;
}

function walk(root: string, rel: string, out: string[]): void {
  const dir = rel === '' ? root : path.join(root, rel);
  for (const name of readdirSync(dir).sort()) {
    const childRel = rel === '' ? name : `${rel}/${name}`;
    const st = lstatSync(path.join(root, childRel));
    if (st.isSymbolicLink()) out.push(`L ${childRel} -> ${readlinkSync(path.join(root, childRel))}`);
    else if (st.isDirectory()) {
      out.push(`D ${childRel}`);
      walk(root, childRel, out);
    } else out.push(`F ${childRel} ${st.mode.toString(8)} ${createHash('sha1').update(readFileSync(path.join(root, childRel))).digest('hex')}`);
  }
}

/**
 * Everything a run could have changed in a folder: every file's path, mode and bytes (the .git folder included:
 * index, refs, objects, config, worktrees), and for a repository git's status, refs and worktree list.
 */
export function fingerprint(dir: string): string {
  const out: string[] = [];
  walk(dir, '', out);
  let gitView = '';
  try {
    gitView = [
      sh(dir, ['status', '--porcelain=v1', '--untracked-files=all', '--ignored']),
      sh(dir, ['for-each-ref']),
      sh(dir, ['worktree', 'list', '--porcelain']),
    ].join('\n');
  } catch {
    gitView = '(not a repository)';
  }
  return `${out.join('\n')}\n---\n${gitView}`;
}

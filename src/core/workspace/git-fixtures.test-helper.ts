// Real git repositories in temp folders for the workspace tests. The git identity and the fingerprint of a folder
// (to prove that nothing was written there) are every suite's, in test/helpers/repo.ts.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { testGitEnv } from '../../../test/helpers/repo';

export { fingerprint } from '../../../test/helpers/repo';

/** Runs git in `cwd` (scrubbed environment, the test identity); returns stdout. Throws on failure. */
export function sh(cwd: string, args: readonly string[], input?: string | Buffer): string {
  return execFileSync('git', args, { cwd, env: testGitEnv(), input, stdio: ['pipe', 'pipe', 'pipe'] }).toString('utf8');
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


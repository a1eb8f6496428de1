import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { cleanup, makeRepo, put, sh, tempDir } from './git-fixtures.test-helper';
import { expandBraces, globPathspecs, GrepParser, grepFailure, grepTree, searchFolder, searchScope } from './search';
import type { GrepResult } from './types';

function paths(result: GrepResult): string[] {
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return [...new Set(result.matches.map((m) => m.path))].sort();
}

describe('workspace/search', function () {
  this.timeout(20_000);
  const made: string[] = [];
  afterEach(() => cleanup(made));

  describe('pure helpers', () => {
    it('expands braces, nested and escaped; "{x}" stays literal', () => {
      assert.deepEqual(expandBraces('*.{ts,tsx}'), ['*.ts', '*.tsx']);
      assert.deepEqual(expandBraces('{src,test}/**/*.{js,ts}'), ['src/**/*.js', 'src/**/*.ts', 'test/**/*.js', 'test/**/*.ts']);
      assert.deepEqual(expandBraces('a{b,{c,d}}e'), ['abe', 'ace', 'ade']);
      assert.deepEqual(expandBraces('a\\{b,c}'), ['a\\{b,c}']);
      assert.deepEqual(expandBraces('{x}.md'), ['{x}.md']);
      assert.equal(expandBraces('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}').length, 64);
    });

    it('turns globs into pathspecs: no "/" matches the name at any depth, with "/" it is anchored at the root', () => {
      assert.deepEqual(globPathspecs('*.ts'), [':(glob)**/*.ts']);
      assert.deepEqual(globPathspecs('src/**/*.test.ts'), [':(glob)src/**/*.test.ts']);
      assert.deepEqual(globPathspecs('/top.md'), [':(glob)top.md']);
    });

    it('scopes a search by path and glob, refusing paths that leave the root or name protected files', () => {
      const scope = searchScope({ path: 'src', glob: '*.ts' });
      assert.ok(!('reason' in scope));
      assert.equal(scope.keep('src/a.ts'), true);
      assert.equal(scope.keep('srcs/a.ts'), false);
      assert.equal(scope.keep('src/.env'), false);
      for (const bad of [{ path: '../x' }, { path: '/etc' }, { path: '.git' }, { path: 'a/.env' }, { glob: '../*.ts' }]) {
        assert.ok('reason' in searchScope(bad), JSON.stringify(bad));
      }
    });

    it('parses -z output across chunk boundaries, with newlines in names and long lines cut', () => {
      const parser = new GrepParser('abc:');
      const out = Buffer.from(`abc:a\nb.txt\x0012\x00hello\r\nabc:c.txt\x003\x00${'x'.repeat(1500)}\n`);
      const first = parser.push(out.subarray(0, 10));
      const rest = parser.push(out.subarray(10));
      assert.deepEqual(first, []);
      assert.equal(rest.length, 2);
      assert.deepEqual(rest[0], { path: 'a\nb.txt', line: 12, text: 'hello' });
      assert.equal(rest[1].text.length, 1001);
    });

    it('words git\'s complaints for the model', () => {
      assert.equal(grepFailure("fatal: -e option, 'a(': missing closing parenthesis\n"), 'the pattern is not a valid regular expression: missing closing parenthesis');
      assert.equal(grepFailure("fatal: command line, 'a(': Unmatched ( or \\(\n"), 'the pattern is not a valid regular expression: Unmatched ( or \\(');
      assert.match(grepFailure('fatal: pcre2_jit_match failed with error code -47: match limit exceeded\n'), /too costly to run \(match limit exceeded\)/);
    });
  });

  /** A repository whose HEAD tree is searched through its own .git, as a snapshot is through the shadow. */
  function treeFixture(): { gitDir: string; tree: string } {
    const repo = makeRepo(path.join(tempDir('search', made), 'r'), {
      'src/a.ts': 'const token = 1;\nconst other = 2;\n',
      'src/b.test.ts': 'token in a test\n',
      'src/deep/c.ts': 'TOKEN upper\n',
      'docs/token.md': 'token in docs\n',
      '.env': 'token=secret\n',
      'config/.env.local': 'token=secret\n',
      'bin.dat': Buffer.from('token\0binary'),
      'many.txt': Array.from({ length: 50 }, (_, i) => `token ${i}`).join('\n'),
    });
    return { gitDir: path.join(repo, '.git'), tree: sh(repo, ['rev-parse', 'HEAD^{tree}']).trim() };
  }

  it('searches a snapshot tree: regex, glob, path, case, binary files skipped, .env never shown', async () => {
    const { gitDir, tree } = treeFixture();
    const all = await grepTree(gitDir, tree, 'tok(en|EN)\\b', { maxMatches: 100 });
    assert.deepEqual(paths(all), ['docs/token.md', 'many.txt', 'src/a.ts', 'src/b.test.ts']);
    const first = all.ok ? all.matches.find((m) => m.path === 'src/a.ts') : undefined;
    assert.deepEqual(first, { path: 'src/a.ts', line: 1, text: 'const token = 1;' });
    assert.deepEqual(paths(await grepTree(gitDir, tree, 'token', { maxMatches: 100, ignoreCase: true, glob: '*.ts' })), ['src/a.ts', 'src/b.test.ts', 'src/deep/c.ts']);
    assert.deepEqual(paths(await grepTree(gitDir, tree, 'token', { maxMatches: 100, glob: 'src/**/*.test.ts' })), ['src/b.test.ts']);
    assert.deepEqual(paths(await grepTree(gitDir, tree, 'token', { maxMatches: 100, glob: '*.{md,txt}' })), ['docs/token.md', 'many.txt']);
    assert.deepEqual(paths(await grepTree(gitDir, tree, 'token', { maxMatches: 100, path: 'src', glob: '*.md' })), []);
    assert.deepEqual(paths(await grepTree(gitDir, tree, 'token', { maxMatches: 100, path: 'src/a.ts' })), ['src/a.ts']);
    assert.deepEqual(paths(await grepTree(gitDir, tree, '\\d+\\s*;', { maxMatches: 100 })), ['src/a.ts'], 'PCRE (or ERE) classes work');
  });

  it('caps the total number of matches and says it was cut', async () => {
    const { gitDir, tree } = treeFixture();
    const capped = await grepTree(gitDir, tree, 'token', { maxMatches: 7 });
    assert.ok(capped.ok);
    assert.equal(capped.matches.length, 7);
    assert.equal(capped.truncated, true);
    const exact = await grepTree(gitDir, tree, 'token 4[0-9]', { maxMatches: 10 });
    assert.ok(exact.ok);
    assert.equal(exact.matches.length, 10);
    assert.equal(exact.truncated, false, 'exactly the cap is not cut');
  });

  it('answers an invalid pattern, a timeout and a cancellation in words', async () => {
    const { gitDir, tree } = treeFixture();
    const invalid = await grepTree(gitDir, tree, 'a(', { maxMatches: 5 });
    assert.ok(!invalid.ok);
    assert.match(invalid.reason, /not a valid regular expression/);
    const slow = await grepTree(gitDir, tree, 'token', { maxMatches: 5, timeoutMs: 0 });
    assert.ok(!slow.ok);
    assert.match(slow.reason, /took longer than 0 s and was stopped/);
    const controller = new AbortController();
    controller.abort();
    const cancelled = await grepTree(gitDir, tree, 'token', { maxMatches: 5, signal: controller.signal });
    assert.deepEqual(cancelled, { ok: false, reason: 'the search was cancelled' });
    assert.deepEqual(await grepTree(gitDir, tree, 'a\0b', { maxMatches: 5 }), { ok: false, reason: 'the pattern contains a NUL byte; remove it' });
  });

  it('searches a live folder honouring .gitignore, never showing protected names or following symlinks out', async () => {
    const outside = tempDir('search-outside', made);
    put(outside, 'secret.txt', 'token outside\n');
    const dir = path.join(tempDir('search', made), 'folder');
    put(dir, '.gitignore', 'ignored/\n');
    put(dir, 'a.txt', 'token here\n');
    put(dir, 'sub/b.ts', 'token in sub\n');
    put(dir, 'ignored/c.txt', 'token ignored\n');
    put(dir, '.env', 'token=1\n');
    put(dir, 'sub/.ENV.production', 'token=2\n');
    put(dir, '.ssh/id', 'token key\n');
    mkdirSync(path.join(dir, '.git'));
    put(dir, '.git/config', 'token git\n');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'));
    symlinkSync(outside, path.join(dir, 'linkdir'));
    assert.deepEqual(paths(await searchFolder(dir, 'token', { maxMatches: 50 })), ['a.txt', 'sub/b.ts']);
    assert.deepEqual(paths(await searchFolder(dir, 'token', { maxMatches: 50, path: 'sub' })), ['sub/b.ts']);
    assert.deepEqual(paths(await searchFolder(dir, 'TOKEN', { maxMatches: 50, ignoreCase: true, glob: '*.txt' })), ['a.txt']);
    const subdir = await searchFolder(path.join(dir, 'sub'), 'token', { maxMatches: 50 });
    assert.deepEqual(paths(subdir), ['b.ts'], 'results are relative to the searched folder');
    assert.deepEqual(await searchFolder(path.join(dir, 'missing'), 'x', { maxMatches: 1 }), { ok: false, reason: 'the folder is not available any more' });
    const invalid = await searchFolder(dir, '[z-a]', { maxMatches: 1 });
    assert.ok(!invalid.ok);
    assert.match(invalid.reason, /not a valid regular expression/);
  });

  it('searches an agent\'s copy inside a repository with its own .gitignore and info/exclude', async () => {
    const repo = makeRepo(path.join(tempDir('search', made), 'r'), { '.gitignore': '*.log\n', 'a.txt': 'token\n' });
    put(repo, 'x.log', 'token\n');
    put(repo, '.git/info/exclude', 'local-only/\n');
    put(repo, 'local-only/y.txt', 'token\n');
    put(repo, 'untracked.txt', 'token\n');
    assert.deepEqual(paths(await searchFolder(repo, 'token', { maxMatches: 50 })), ['a.txt', 'untracked.txt']);
  });
});

import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkNamePolicy, checkPathSyntax, isNoAccessName, isWriteProtectedName, MAX_PATH_CHARS, resolveInRoot, type GuardResult } from './path-guard';

function refused(result: GuardResult | ReturnType<typeof checkPathSyntax>, pattern: RegExp): void {
  assert.equal(result.ok, false, `expected a refusal, got ${JSON.stringify(result)}`);
  if (!result.ok) assert.match(result.reason, pattern);
}

describe('path-guard: checkPathSyntax', () => {
  const cases: [string, unknown, RegExp][] = [
    ['parent escape', '../x', /leaves your folder/],
    ['nested escape', 'a/../../x', /leaves your folder/],
    ['deep escape', 'a/b/../../../x', /leaves your folder/],
    ['bare ..', '..', /leaves your folder/],
    ['POSIX absolute', '/etc/passwd', /absolute paths are not allowed/],
    ['Windows drive', 'C:\\x', /drive paths/],
    ['Windows drive, forward slash', 'c:/x', /drive paths/],
    ['Windows drive-relative', 'C:x', /drive paths/],
    ['UNC', '\\\\server\\share', /UNC/],
    ['UNC with slashes', '//server/share', /UNC/],
    ['backslash parent', '..\\x', /backslashes/],
    ['backslash inside', 'a\\..\\..\\x', /backslashes/],
    ['leading backslash', '\\x', /absolute/],
    ['NUL byte', 'a\0b', /NUL byte/],
    ['control char', 'a\nb', /control character/],
    ['bidi override', 'evil\u202etxt.js', /bidirectional/],
    ['device CON', 'CON', /device name/],
    ['device nul.txt', 'nul.txt', /device name/],
    ['device in a folder', 'src/com1.log', /device name/],
    ['device lpt9', 'LPT9', /device name/],
    ['device with space', 'aux .txt', /device name/],
    ['trailing dot', 'file.', /ends with a dot or a space/],
    ['trailing dot aliasing .git', '.git./config', /ends with a dot or a space/],
    ['trailing space', 'file ', /ends with a dot or a space/],
    ['8.3 short name', 'GIT~1/config', /short name/],
    ['ADS colon', 'file.txt:stream', /not allowed in file names/],
    ['wildcard', 'a*.ts', /not allowed in file names/],
    ['home', '~/x', /not expanded/],
    ['empty', '', /empty/],
    ['blank', '   ', /empty/],
    ['not a string', 42, /must be a string/],
    ['undefined', undefined, /must be a string/],
    ['too long', 'a/'.repeat(MAX_PATH_CHARS), /characters long/],
    ['too deep', Array(65).fill('d').join('/'), /folders deep/],
    ['long name', 'x'.repeat(256), /longer than 255 bytes/],
    ['root without allowRoot', '.', /names your folder itself/],
    ['root via ..', 'a/..', /names your folder itself/],
  ];
  for (const [name, input, pattern] of cases) {
    it(`refuses ${name}: ${String(JSON.stringify(input)).slice(0, 40)}`, () => refused(checkPathSyntax(input), pattern));
  }

  it('normalises plain nested paths', () => {
    assert.deepEqual(checkPathSyntax('src/a/b.ts'), { ok: true, segments: ['src', 'a', 'b.ts'], relative: 'src/a/b.ts' });
    assert.deepEqual(checkPathSyntax('./src//a/./b.ts/'), { ok: true, segments: ['src', 'a', 'b.ts'], relative: 'src/a/b.ts' });
    assert.deepEqual(checkPathSyntax('a/../b'), { ok: true, segments: ['b'], relative: 'b' });
    assert.deepEqual(checkPathSyntax('.', { allowRoot: true }), { ok: true, segments: [], relative: '.' });
  });

  it('accepts ordinary names that merely resemble risky ones', () => {
    for (const p of ['console.log', 'CONTRIBUTING.md', 'nullable.ts', 'com10', 'a..b', '..a', '.gitignore', 'environment.ts', '.github/workflows/ci.yml', 'über/naïve.txt']) {
      assert.equal(checkPathSyntax(p).ok, true, p);
    }
  });
});

describe('path-guard: name policy', () => {
  it('classifies excluded names case-insensitively', () => {
    for (const n of ['.git', '.GIT', '.env', '.env.local', '.ENV.production', '.npmrc', '.ssh']) assert.equal(isNoAccessName(n), true, n);
    for (const n of ['.gitignore', '.github', 'env', '.environment', 'src']) assert.equal(isNoAccessName(n), false, n);
    assert.equal(isWriteProtectedName('node_modules'), true);
    assert.equal(isWriteProtectedName('Node_Modules'), true);
    assert.equal(isWriteProtectedName('modules'), false);
  });

  it('refuses no-access names for reading and writing, write-protected names only for writing', () => {
    assert.match(checkNamePolicy(['.git', 'config'], 'read') ?? '', /off limits/);
    assert.match(checkNamePolicy(['sub', '.env.local'], 'write') ?? '', /off limits/);
    assert.equal(checkNamePolicy(['node_modules', 'x', 'index.js'], 'read'), null);
    assert.match(checkNamePolicy(['node_modules', 'x', 'index.js'], 'write') ?? '', /read-only/);
  });
});

describe('path-guard: resolveInRoot', () => {
  let tmp: string;
  let root: string;
  let outside: string;

  beforeEach(() => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'guard-')));
    root = join(tmp, 'root');
    outside = join(tmp, 'outside');
    mkdirSync(join(root, 'src', 'lib'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, 'src', 'lib', 'a.ts'), 'export {};\n');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('allows nested existing and new paths, returning absolute and relative', async () => {
    const existing = await resolveInRoot(root, 'src/lib/a.ts', { access: 'read' });
    assert.deepEqual(existing, { ok: true, absolute: join(root, 'src', 'lib', 'a.ts'), relative: 'src/lib/a.ts', exists: true, kind: 'file' });
    const fresh = await resolveInRoot(root, 'src/new/deep/b.ts', { access: 'write' });
    assert.deepEqual(fresh, { ok: true, absolute: join(root, 'src', 'new', 'deep', 'b.ts'), relative: 'src/new/deep/b.ts', exists: false, kind: undefined });
    const dir = await resolveInRoot(root, 'src', { access: 'read' });
    assert.equal(dir.ok && dir.kind, 'directory');
  });

  it('allows the root only with allowRoot', async () => {
    refused(await resolveInRoot(root, '.', { access: 'read' }), /names your folder itself/);
    const r = await resolveInRoot(root, '.', { access: 'read', allowRoot: true });
    assert.deepEqual(r, { ok: true, absolute: root, relative: '.', exists: true, kind: 'directory' });
  });

  it('refuses every lexical escape before touching the file system', async () => {
    for (const p of ['../outside/secret.txt', 'a/../../outside/secret.txt', '/etc/passwd', 'C:\\x', '\\\\server\\share', '..\\x', 'a\0b', 'CON', 'nul.txt']) {
      const r = await resolveInRoot(root, p, { access: 'read' });
      assert.equal(r.ok, false, p);
    }
  });

  it('refuses a symlinked file pointing outside (final component)', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    refused(await resolveInRoot(root, 'leak.txt', { access: 'read' }), /symbolic link that points outside/);
    refused(await resolveInRoot(root, 'leak.txt', { access: 'write' }), /symbolic link that points outside/);
  });

  it('refuses a symlink to /tmp (outside the root)', async () => {
    symlinkSync(tmpdir(), join(root, 'tmp'));
    refused(await resolveInRoot(root, 'tmp', { access: 'read', allowRoot: true }), /points outside/);
    refused(await resolveInRoot(root, 'tmp/anything.txt', { access: 'write' }), /points outside/);
  });

  it('refuses a symlinked parent folder pointing outside, for existing and new files', async () => {
    symlinkSync(outside, join(root, 'src', 'out'));
    refused(await resolveInRoot(root, 'src/out/secret.txt', { access: 'read' }), /"src\/out" is a symbolic link that points outside/);
    refused(await resolveInRoot(root, 'src/out/new.txt', { access: 'write' }), /points outside/);
  });

  it('refuses a dangling symlink (a write through it would create a file wherever it points)', async () => {
    symlinkSync(join(outside, 'not-yet.txt'), join(root, 'broken.txt'));
    refused(await resolveInRoot(root, 'broken.txt', { access: 'write' }), /target does not exist \(a dangling link\)/);
    symlinkSync(join(root, 'missing-dir'), join(root, 'broken-dir'));
    refused(await resolveInRoot(root, 'broken-dir/x.txt', { access: 'write' }), /target does not exist \(a dangling link\)/);
  });

  it('refuses a symlink chain that ends outside', async () => {
    symlinkSync(outside, join(root, 'hop2'));
    symlinkSync(join(root, 'hop2'), join(root, 'hop1'));
    refused(await resolveInRoot(root, 'hop1/secret.txt', { access: 'read' }), /points outside/);
  });

  it('allows a symlink that stays inside the root and returns the real path', async () => {
    symlinkSync(join(root, 'src', 'lib'), join(root, 'lib'));
    const r = await resolveInRoot(root, 'lib/a.ts', { access: 'read' });
    assert.deepEqual(r, { ok: true, absolute: join(root, 'src', 'lib', 'a.ts'), relative: 'lib/a.ts', exists: true, kind: 'file' });
  });

  it('refuses an in-root symlink that leads to an excluded name', async () => {
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), '[core]');
    symlinkSync(join(root, '.git'), join(root, 'docs'));
    refused(await resolveInRoot(root, 'docs/config', { access: 'read' }), /off limits/);
  });

  it('works when the root itself is reached through a symlink', async () => {
    symlinkSync(root, join(tmp, 'root-link'));
    const r = await resolveInRoot(join(tmp, 'root-link'), 'src/lib/a.ts', { access: 'read' });
    assert.equal(r.ok && r.absolute, join(root, 'src', 'lib', 'a.ts'));
  });

  it('refuses excluded names', async () => {
    refused(await resolveInRoot(root, '.git/config', { access: 'read' }), /off limits/);
    refused(await resolveInRoot(root, '.git/hooks/pre-commit', { access: 'write' }), /off limits/);
    refused(await resolveInRoot(root, '.env', { access: 'read' }), /off limits/);
    refused(await resolveInRoot(root, 'app/.env.local', { access: 'read' }), /off limits/);
    refused(await resolveInRoot(root, 'node_modules/x/index.js', { access: 'write' }), /read-only/);
    mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'x', 'index.js'), '');
    assert.equal((await resolveInRoot(root, 'node_modules/x/index.js', { access: 'read' })).ok, true);
  });

  it('refuses a path through a file', async () => {
    refused(await resolveInRoot(root, 'src/lib/a.ts/b', { access: 'write' }), /"src\/lib\/a.ts" is a file, not a folder/);
  });

  it('refuses files with other hard links', async () => {
    linkSync(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    refused(await resolveInRoot(root, 'hard.txt', { access: 'write' }), /hard links/);
    refused(await resolveInRoot(root, 'hard.txt', { access: 'read' }), /hard links/);
  });

  it('refuses when the root is gone', async () => {
    refused(await resolveInRoot(join(tmp, 'missing'), 'a.txt', { access: 'read' }), /not available/);
  });

  it('never puts host paths in reasons', async () => {
    symlinkSync(outside, join(root, 'out'));
    const r = await resolveInRoot(root, 'out/secret.txt', { access: 'read' });
    assert.equal(r.ok, false);
    if (!r.ok) assert.ok(!r.reason.includes(tmp), r.reason);
  });
});

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { applyPatch } from './apply';
import { createWorkspaceCopies, runFolderError } from './copies';
import { CopyLimitError } from './copy-limits';
import { cleanup, fingerprint, makeRepo, makeWideRepo, put, read, sh, tempDir } from './git-fixtures.test-helper';
import type { WorkspaceCopies } from './types';

/** Every file under `root` (not .git), with its content: what an agent sees in its copy. */
function contents(root: string, rel = '', out: Record<string, string> = {}): Record<string, string> {
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) contents(root, childRel, out);
    else out[childRel] = readFileSync(path.join(root, childRel), 'latin1');
  }
  return out;
}

describe('workspace/copies', function () {
  this.timeout(30_000);
  const made: string[] = [];
  const open: WorkspaceCopies[] = [];
  let base: string;
  let n = 0;

  const copies = async (source: string, labels = ['agent1', 'agent2'], extra: { limits?: Record<string, number> } = {}): Promise<WorkspaceCopies> => {
    const c = await createWorkspaceCopies(source, { baseDir: base, runId: `run-${++n}`, labels, ...extra });
    open.push(c);
    return c;
  };

  beforeEach(() => {
    base = path.join(tempDir('copies-runs', made), 'runs');
  });
  afterEach(async () => {
    for (const c of open.splice(0)) await c.dispose();
    cleanup(made);
  });

  /** A repository with history and every kind of uncommitted state a user has. */
  function busyRepo(): string {
    const repo = makeRepo(path.join(tempDir('copies-user', made), 'project'), {
      '.gitignore': 'node_modules/\n*.log\n',
      'src/app.ts': 'export const a = 1;\n',
      'src/util.ts': 'line 1\nline 2\nline 3\n',
      'docs/readme.md': '# Readme\n',
      'staged.txt': 'committed\n',
      'gone.txt': 'to be deleted\n',
    });
    put(repo, 'src/app.ts', 'export const a = 2; // edited, not committed\n');
    sh(repo, ['commit', '-q', '-am', 'second']);
    put(repo, 'src/util.ts', 'line 1\nline 2 (uncommitted)\nline 3\n');
    put(repo, 'staged.txt', 'staged version\n');
    sh(repo, ['add', 'staged.txt']);
    put(repo, 'staged.txt', 'on disk version\n');
    rmSync(path.join(repo, 'gone.txt'));
    put(repo, 'untracked.txt', 'new, not added\n');
    put(repo, 'node_modules/pkg/index.js', 'ignored\n');
    put(repo, 'debug.log', 'ignored too\n');
    return repo;
  }

  it('copies exactly what the user sees: HEAD, uncommitted and untracked files; not ignored or deleted ones', async () => {
    const repo = busyRepo();
    const c = await copies(repo);
    assert.equal(c.kind, 'git');
    assert.equal(c.source, repo);
    assert.deepEqual(c.labels, ['agent1', 'agent2']);
    const expected = {
      '.gitignore': 'node_modules/\n*.log\n',
      'docs/readme.md': '# Readme\n',
      'src/app.ts': 'export const a = 2; // edited, not committed\n',
      'src/util.ts': 'line 1\nline 2 (uncommitted)\nline 3\n',
      'staged.txt': 'on disk version\n',
      'untracked.txt': 'new, not added\n',
    };
    for (const label of c.labels) {
      assert.equal(c.rootOf(label), path.join(base, `run-${n}`, label)); // named by label only
      assert.deepEqual(contents(c.rootOf(label)), expected);
    }
    assert.ok(c.notes.some((note) => /staged changes/.test(note) && note.includes('staged.txt')), c.notes.join('\n'));
    assert.throws(() => c.rootOf('agent3'), /unknown agent label/);
  });

  it('leaves the user\'s repository byte-identical: files, .git (index, refs, objects, worktrees) and git status', async () => {
    const repo = busyRepo();
    const before = fingerprint(repo);
    const c = await copies(repo);
    put(c.rootOf('agent1'), 'src/app.ts', 'export const a = 3;\n');
    put(c.rootOf('agent1'), 'brand-new.ts', 'x\n');
    rmSync(path.join(c.rootOf('agent2'), 'docs'), { recursive: true });
    await c.snapshot('agent1', 'agent1.1');
    await c.snapshot('agent2', 'agent2.1');
    const view = c.view('agent1.1')!;
    await view.list('.');
    await view.readFile('src/app.ts');
    assert.ok((await view.grep('a = ', { maxMatches: 5 })).ok);
    await c.patch('agent1.1');
    await c.fileChanges('agent2.1');
    await c.dispose();
    assert.equal(fingerprint(repo), before);
  });

  it('records a snapshot as the change from the starting state: numstat, binary, added, deleted, renamed', async () => {
    const repo = busyRepo();
    const c = await copies(repo);
    const root = c.rootOf('agent1');
    put(root, 'src/util.ts', 'line 1\nline 2 (uncommitted)\nline 3\nline 4\nline 5\n');
    put(root, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255]));
    rmSync(path.join(root, 'untracked.txt'));
    writeFileSync(path.join(root, 'docs', 'guide.md'), read(root, 'docs/readme.md'));
    rmSync(path.join(root, 'docs', 'readme.md'));
    const change = await c.snapshot('agent1', 'agent1.1');
    assert.deepEqual(change.files, [
      { path: 'docs/guide.md', status: 'added', added: 1, removed: 0 },
      { path: 'docs/readme.md', status: 'deleted', added: 0, removed: 1 },
      { path: 'logo.png', status: 'added', added: null, removed: null },
      { path: 'src/util.ts', status: 'modified', added: 2, removed: 0 },
      { path: 'untracked.txt', status: 'deleted', added: 0, removed: 1 },
    ]);
    assert.match(change.id, /^[0-9a-f]{40}$/);

    // The same change by another agent is the same id; no change at all is an empty list.
    const other = c.rootOf('agent2');
    for (const f of ['src/util.ts', 'logo.png', 'docs/guide.md']) put(other, f, readFileSync(path.join(root, f)));
    rmSync(path.join(other, 'untracked.txt'));
    rmSync(path.join(other, 'docs', 'readme.md'));
    assert.equal((await c.snapshot('agent2', 'agent2.1')).id, change.id);
    const again = await c.snapshot('agent1', 'agent1.2');
    assert.equal(again.id, change.id);
    assert.ok(again.bytesWritten < 400, `an unchanged re-snapshot writes only its commit (${again.bytesWritten} bytes)`);

    const fileChanges = await c.fileChanges('agent1.1');
    assert.deepEqual(fileChanges.find((f) => f.relativePath === 'src/util.ts'), {
      relativePath: 'src/util.ts',
      kind: 'modified',
      before: 'line 1\nline 2 (uncommitted)\nline 3\n',
      after: 'line 1\nline 2 (uncommitted)\nline 3\nline 4\nline 5\n',
    });
    assert.deepEqual(fileChanges.find((f) => f.relativePath === 'logo.png'), { relativePath: 'logo.png', kind: 'added', binary: true });
    assert.deepEqual(fileChanges.find((f) => f.relativePath === 'untracked.txt'), { relativePath: 'untracked.txt', kind: 'deleted', before: 'new, not added\n' });

    const patch = await c.patch('agent1.1');
    assert.match(patch, /^diff --git a\/docs\/guide\.md b\/docs\/guide\.md$/m);
    assert.match(patch, /GIT binary patch/);
    assert.match(patch, /^index [0-9a-f]{40}\.\.[0-9a-f]{40} 100644$/m); // --full-index
    assert.doesNotMatch(patch, /rename from/);
    // The user's own uncommitted edit is in the starting state, so it is not in the patch.
    assert.doesNotMatch(patch, /^\+line 2 \(uncommitted\)$/m);
  });

  it('serialises snapshots of one copy, refuses a version twice or an unusable version name', async () => {
    const repo = makeRepo(path.join(tempDir('copies-user', made), 'p'), { 'a.txt': 'a\n' });
    const c = await copies(repo, ['agent1']);
    put(c.rootOf('agent1'), 'a.txt', 'b\n');
    const [one, two] = await Promise.all([c.snapshot('agent1', 'agent1.1'), c.snapshot('agent1', 'agent1.2')]);
    assert.equal(one.id, two.id);
    await assert.rejects(c.snapshot('agent1', 'agent1.1'), /already recorded/);
    for (const bad of ['../x', 'a..b', 'x.lock', '', 'a b']) await assert.rejects(c.snapshot('agent1', bad), /unusable answer version/, bad);
    await assert.rejects(c.patch('agent1.9'), /no change was recorded/);
    assert.equal(c.view('agent1.9'), undefined);
  });

  it('snapshot cost follows the change, not the repository: a one-line edit in a 2,000-file repository', async () => {
    const measure = async (dirs: number): Promise<number> => {
      const repo = makeWideRepo(path.join(tempDir('copies-wide', made), 'wide'), dirs, 100);
      const c = await copies(repo, ['agent1']);
      put(c.rootOf('agent1'), 'd0/f7.txt', 'file 0/7\nline two, edited\n');
      const change = await c.snapshot('agent1', 'agent1.1');
      assert.deepEqual(change.files, [{ path: 'd0/f7.txt', status: 'modified', added: 1, removed: 1 }]);
      return change.bytesWritten;
    };
    const large = await measure(20); // 2,000 files
    const small = await measure(2); // 200 files
    console.log(`      bytesWritten for a one-line edit: ${large} bytes (2,000 files), ${small} bytes (200 files)`);
    assert.ok(large < 10 * 1024, `${large} bytes`);
    assert.ok(large < small * 1.5, `${large} bytes vs ${small} bytes for a repository ten times smaller`);
  });

  it('links installed dependencies into every copy (of a subfolder too), never as part of a change', async () => {
    const repo = makeRepo(path.join(tempDir('copies-user', made), 'mono'), { 'packages/app/main.js': 'main\n', 'packages/app/.gitignore': 'node_modules/\n' });
    const source = path.join(repo, 'packages', 'app');
    put(source, 'node_modules/dep/index.js', 'dep\n');
    const c = await copies(source, ['agent1', 'agent2']);
    assert.deepEqual(await c.linkIntoCopies([path.join(source, 'node_modules')]), ['node_modules']);
    for (const label of ['agent1', 'agent2']) assert.equal(read(c.rootOf(label), 'node_modules/dep/index.js'), 'dep\n');
    put(c.rootOf('agent1'), 'main.js', 'main, changed\n');
    const change = await c.snapshot('agent1', 'agent1.1');
    assert.deepEqual(change.files.map((f) => f.path), ['main.js'], 'the link is not a change (a directory-only ignore rule does not match a symlink)');
    assert.doesNotMatch(await c.patch('agent1.1'), /node_modules/);
    assert.deepEqual(await c.linkIntoCopies([path.join(source, 'node_modules')]), [], 'a name the copy has already is left alone');
  });

  it('works on a subfolder of a repository: the copy\'s folder, changed paths and patch are relative to it', async () => {
    const repo = makeRepo(path.join(tempDir('copies-user', made), 'mono'), {
      'packages/app/src/main.ts': 'main\n',
      'packages/app/README.md': 'app\n',
      'packages/lib/lib.ts': 'lib\n',
      'root.txt': 'root\n',
    });
    put(repo, 'packages/app/untracked.ts', 'u\n');
    put(repo, 'packages/lib/elsewhere.ts', 'not part of the user\'s folder\n');
    const source = path.join(repo, 'packages', 'app');
    const before = fingerprint(repo);
    const c = await copies(source, ['agent1']);
    const root = c.rootOf('agent1');
    assert.equal(root, path.join(base, `run-${n}`, 'agent1', 'packages', 'app'));
    assert.deepEqual(contents(root), { 'README.md': 'app\n', 'src/main.ts': 'main\n', 'untracked.ts': 'u\n' });
    put(root, 'src/main.ts', 'main, changed\n');
    put(path.join(base, `run-${n}`, 'agent1'), 'root.txt', 'outside the user\'s folder\n');
    const change = await c.snapshot('agent1', 'agent1.1');
    assert.deepEqual(change.files, [{ path: 'src/main.ts', status: 'modified', added: 1, removed: 1 }]);
    const patch = await c.patch('agent1.1');
    assert.match(patch, /^diff --git a\/src\/main\.ts b\/src\/main\.ts$/m);
    assert.doesNotMatch(patch, /root\.txt/);
    assert.deepEqual(await c.view('agent1.1')!.list('.').then((l) => l?.map((e) => e.name)), ['README.md', 'src', 'untracked.ts']);
    // The agent removes the user's folder whole: every file is deleted, and the view is an empty folder.
    rmSync(root, { recursive: true });
    const removed = await c.snapshot('agent1', 'agent1.2');
    assert.deepEqual(removed.files.map((f) => `${f.status} ${f.path}`), ['deleted README.md', 'deleted src/main.ts', 'deleted untracked.ts']);
    assert.equal(removed.id, sh(repo, ['hash-object', '-t', 'tree', '--stdin'], '').trim(), 'the empty tree');
    assert.deepEqual(await c.view('agent1.2')!.list('.'), []);
    await c.dispose();
    assert.equal(fingerprint(repo), before);
  });

  it('works when the user\'s folder is a linked worktree of another repository', async () => {
    const main = makeRepo(path.join(tempDir('copies-user', made), 'main'), { 'a.txt': 'a\n' });
    const linked = path.join(path.dirname(main), 'linked');
    sh(main, ['worktree', 'add', '-q', '--detach', linked]);
    put(linked, 'a.txt', 'edited in the linked worktree\n');
    const before = fingerprint(main);
    const c = await copies(linked, ['agent1']);
    assert.equal(read(c.rootOf('agent1'), 'a.txt'), 'edited in the linked worktree\n');
    put(c.rootOf('agent1'), 'a.txt', 'agent\n');
    assert.equal((await c.snapshot('agent1', 'agent1.1')).files.length, 1);
    await c.dispose();
    assert.equal(fingerprint(main), before);
  });

  it('copies a plain folder honouring its .gitignore files, never version-control folders or secrets', async () => {
    const folder = path.join(tempDir('copies-plain', made), 'notes');
    put(folder, '.gitignore', 'build/\n');
    put(folder, 'a.md', 'a\n');
    put(folder, 'sub/.gitignore', '*.tmp\n');
    put(folder, 'sub/b.md', 'b\n');
    put(folder, 'sub/c.tmp', 'ignored\n');
    put(folder, 'build/out.js', 'ignored\n');
    put(folder, '.env', 'SECRET=1\n');
    put(folder, 'sub/.ENV.local', 'SECRET=2\n');
    put(folder, '.hg/store', 'mercurial internals\n');
    const before = fingerprint(folder);
    const c = await copies(folder, ['agent1']);
    assert.equal(c.kind, 'folder');
    assert.deepEqual(contents(c.rootOf('agent1')), { '.gitignore': 'build/\n', 'a.md': 'a\n', 'sub/.gitignore': '*.tmp\n', 'sub/b.md': 'b\n' });
    assert.ok(c.notes.some((note) => /not a git repository/.test(note)));
    put(c.rootOf('agent1'), 'a.md', 'a, edited\n');
    assert.deepEqual((await c.snapshot('agent1', 'agent1.1')).files, [{ path: 'a.md', status: 'modified', added: 1, removed: 1 }]);
    assert.match(await c.patch('agent1.1'), /^\+a, edited$/m);
    await c.dispose();
    assert.equal(fingerprint(folder), before);
  });

  it('refuses a plain folder over the file-count or size limit, naming the limit; skips single files over the per-file limit', async () => {
    const folder = path.join(tempDir('copies-plain', made), 'big');
    for (let i = 0; i < 30; i++) put(folder, `f${i}.txt`, 'x\n');
    put(folder, 'huge.bin', Buffer.alloc(5000, 1));
    await assert.rejects(copies(folder, ['agent1'], { limits: { maxFiles: 20 } }), (err: unknown) => {
      assert.ok(err instanceof CopyLimitError);
      assert.equal(err.limit, 'maxFiles');
      assert.match(err.message, /more than 20 files/);
      assert.match(err.message, /\.gitignore/);
      return true;
    });
    await assert.rejects(copies(folder, ['agent1'], { limits: { maxTotalBytes: 1000 } }), /more than the limit of 1000 bytes.*maxTotalBytes/);
    assert.deepEqual(readdirSync(base), [], 'a refused run leaves nothing behind');

    const c = await copies(folder, ['agent1'], { limits: { maxFileBytes: 1000 } });
    assert.equal(existsSync(path.join(c.rootOf('agent1'), 'huge.bin')), false);
    assert.ok(existsSync(path.join(c.rootOf('agent1'), 'f0.txt')));
    assert.ok(c.notes.some((note) => note.includes('huge.bin (4.9 KB)') && note.includes('1000 bytes')), c.notes.join('\n'));
    assert.deepEqual((await c.snapshot('agent1', 'agent1.1')).files, [], 'a skipped file is not reported as deleted');
  });

  it('applies the limits to the untracked files of a repository too', async () => {
    const repo = makeRepo(path.join(tempDir('copies-user', made), 'p'), { 'a.txt': 'a\n' });
    for (let i = 0; i < 12; i++) put(repo, `data/${i}.csv`, '1,2\n');
    await assert.rejects(copies(repo, ['agent1'], { limits: { maxFiles: 10 } }), /more than 10 files that git does not already hold/);
  });

  it('copes with an index git cannot read from a copy (a split index), starting from HEAD instead', async () => {
    const repo = busyRepo();
    sh(repo, ['update-index', '--split-index']);
    assert.ok(readdirSync(path.join(repo, '.git')).some((f) => f.startsWith('sharedindex.')));
    const before = fingerprint(repo);
    const c = await copies(repo, ['agent1']);
    assert.equal(read(c.rootOf('agent1'), 'src/util.ts'), 'line 1\nline 2 (uncommitted)\nline 3\n');
    assert.equal(read(c.rootOf('agent1'), 'staged.txt'), 'on disk version\n');
    assert.equal(existsSync(path.join(c.rootOf('agent1'), 'gone.txt')), false);
    await c.dispose();
    assert.equal(fingerprint(repo), before);
  });

  it('handles an unborn HEAD (a repository without commits)', async () => {
    const repo = makeRepo(path.join(tempDir('copies-user', made), 'fresh'), {});
    put(repo, 'staged.txt', 'staged\n');
    sh(repo, ['add', 'staged.txt']);
    put(repo, 'loose.txt', 'untracked\n');
    const before = fingerprint(repo);
    const c = await copies(repo, ['agent1']);
    assert.deepEqual(contents(c.rootOf('agent1')), { 'loose.txt': 'untracked\n', 'staged.txt': 'staged\n' });
    put(c.rootOf('agent1'), 'loose.txt', 'changed\n');
    assert.deepEqual((await c.snapshot('agent1', 'agent1.1')).files, [{ path: 'loose.txt', status: 'modified', added: 1, removed: 1 }]);
    await c.dispose();
    assert.equal(fingerprint(repo), before);
  });

  it('leaves submodules empty and names them in the notes', async () => {
    const lib = makeRepo(path.join(tempDir('copies-user', made), 'lib'), { 'lib.txt': 'lib\n' });
    const repo = makeRepo(path.join(path.dirname(lib), 'app'), { 'app.txt': 'app\n' });
    sh(repo, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', lib, 'vendor/lib']);
    sh(repo, ['commit', '-q', '-m', 'submodule']);
    const before = fingerprint(repo);
    const c = await copies(repo, ['agent1']);
    assert.ok(c.notes.some((note) => /Submodules/.test(note) && note.includes('vendor/lib')), c.notes.join('\n'));
    assert.deepEqual(readdirSync(path.join(c.rootOf('agent1'), 'vendor', 'lib')), []);
    assert.deepEqual(await c.snapshot('agent1', 'agent1.1').then((ch) => ch.files), []);
    assert.equal((await c.view('agent1.1')!.stat('vendor/lib'))?.kind, 'submodule');
    await c.dispose();
    assert.equal(fingerprint(repo), before);
  });

  it('runs no filter driver (Git LFS and the like): nothing hangs, nothing runs, LFS files stay pointers', async () => {
    const xdg = tempDir('copies-xdg', made);
    const marker = path.join(xdg, 'filter-ran');
    // A global LFS setup whose every command would leave a marker and hang.
    put(xdg, 'git/config', `[filter "lfs"]\n\tclean = touch '${marker}'; sleep 30\n\tsmudge = touch '${marker}'; sleep 30\n\tprocess = touch '${marker}'; sleep 30\n\trequired = true\n`);
    const pointer = 'version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n';
    const repo = makeRepo(path.join(tempDir('copies-user', made), 'lfs'), { '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\n', 'model.bin': pointer, 'a.txt': 'a\n' });
    put(repo, 'new.bin', 'real content of an untracked LFS file\n');
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = xdg;
    try {
      const c = await copies(repo, ['agent1']);
      assert.equal(read(c.rootOf('agent1'), 'model.bin'), pointer);
      put(c.rootOf('agent1'), 'a.txt', 'b\n');
      await c.snapshot('agent1', 'agent1.1');
      await c.patch('agent1.1');
      assert.equal(existsSync(marker), false, 'a filter command ran');
      assert.ok(c.notes.some((note) => /git filters \(lfs\)/.test(note) && /pointer/.test(note)), c.notes.join('\n'));
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
  });

  it('keeps the user\'s line endings (.gitattributes eol=crlf): copies are CRLF as the user\'s checkout, the change is LF-based', async () => {
    const repo = makeRepo(path.join(tempDir('copies-user', made), 'crlf'), { '.gitattributes': '*.txt text eol=crlf\n', 'a.txt': 'one\ntwo\n' });
    rmSync(path.join(repo, 'a.txt'));
    sh(repo, ['checkout', '--', 'a.txt']);
    assert.equal(read(repo, 'a.txt'), 'one\r\ntwo\r\n');
    const c = await copies(repo, ['agent1']);
    assert.equal(read(c.rootOf('agent1'), 'a.txt'), 'one\r\ntwo\r\n');
    put(c.rootOf('agent1'), 'a.txt', 'one\r\ntwo\r\nthree\r\n');
    assert.deepEqual((await c.snapshot('agent1', 'agent1.1')).files, [{ path: 'a.txt', status: 'modified', added: 1, removed: 0 }]);
    const applied = await applyPatch(repo, await c.patch('agent1.1'));
    assert.deepEqual(applied, { ok: true, files: ['a.txt'] });
    assert.equal(read(repo, 'a.txt'), 'one\r\ntwo\r\nthree\r\n');
  });

  it('keeps two runs on one repository apart', async () => {
    const repo = busyRepo();
    const before = fingerprint(repo);
    const [a, b] = await Promise.all([copies(repo, ['agent1', 'agent2']), copies(repo, ['agent1', 'agent2'])]);
    assert.notEqual(a.rootOf('agent1'), b.rootOf('agent1'));
    put(a.rootOf('agent1'), 'src/app.ts', 'run a\n');
    put(b.rootOf('agent1'), 'src/app.ts', 'run b\n');
    const [ca, cb] = await Promise.all([a.snapshot('agent1', 'agent1.1'), b.snapshot('agent1', 'agent1.1')]);
    assert.notEqual(ca.id, cb.id);
    assert.equal((await a.view('agent1.1')!.readFile('src/app.ts'))?.toString(), 'run a\n');
    assert.equal((await b.view('agent1.1')!.readFile('src/app.ts'))?.toString(), 'run b\n');
    await a.dispose();
    assert.equal((await b.view('agent1.1')!.readFile('src/app.ts'))?.toString(), 'run b\n', 'disposing one run leaves the other intact');
    await b.dispose();
    assert.equal(fingerprint(repo), before);
  });

  it('dispose removes the run folder and everything in it; idempotent; later calls say the run ended', async () => {
    const repo = busyRepo();
    const c = await copies(repo);
    await c.snapshot('agent1', 'agent1.1');
    const view = c.view('agent1.1')!;
    await c.dispose();
    await c.dispose();
    assert.deepEqual(readdirSync(base), []);
    assert.equal(c.view('agent1.1'), undefined);
    await assert.rejects(c.snapshot('agent1', 'agent1.2'), /the run has ended/);
    await assert.rejects(c.patch('agent1.1'), /the run has ended/);
    await assert.rejects(view.readFile('src/app.ts'), /the run has ended/);
    assert.equal((await view.grep('x', { maxMatches: 1 })).ok, false);
  });

  it('fails a snapshot in words when the copy was deleted during the run; the other copies still work', async () => {
    const repo = busyRepo();
    const c = await copies(repo);
    rmSync(path.join(base, `run-${n}`, 'agent1'), { recursive: true, force: true });
    await assert.rejects(c.snapshot('agent1', 'agent1.1'), /agent1's working copy is gone/);
    put(c.rootOf('agent2'), 'a.txt', 'x\n');
    assert.equal((await c.snapshot('agent2', 'agent2.1')).files.length, 1);
  });

  it('says so when the user\'s repository is deleted during the run', async () => {
    const repo = busyRepo();
    const c = await copies(repo, ['agent1']);
    put(c.rootOf('agent1'), 'src/app.ts', 'changed\n');
    rmSync(repo, { recursive: true, force: true });
    await assert.rejects(c.snapshot('agent1', 'agent1.1'), /object store .* was removed during the run/);
  });

  it('refuses bad input in words: unsafe names, duplicates, an existing run, a missing folder, run files inside the workspace', async () => {
    const repo = busyRepo();
    for (const runId of ['', '..', '../x', 'a/b', '.hidden']) {
      await assert.rejects(createWorkspaceCopies(repo, { baseDir: base, runId, labels: ['agent1'] }), /unsafe run id/, runId);
    }
    for (const label of ['../agent1', 'a/b', '', '.git', 'agent.1']) {
      await assert.rejects(createWorkspaceCopies(repo, { baseDir: base, runId: 'r', labels: [label] }), /unsafe agent label/, label);
    }
    await assert.rejects(createWorkspaceCopies(repo, { baseDir: base, runId: 'r', labels: ['agent1', 'Agent1'] }), /duplicate agent label/);
    await assert.rejects(createWorkspaceCopies(repo, { baseDir: base, runId: 'r', labels: [] }), /at least one agent/);
    await assert.rejects(createWorkspaceCopies(path.join(repo, 'nope'), { baseDir: base, runId: 'r', labels: ['agent1'] }), /does not exist/);
    await assert.rejects(createWorkspaceCopies(repo, { baseDir: path.join(repo, '.runs'), runId: 'r', labels: ['agent1'] }), /inside .*choose a folder outside it/);
    assert.equal(existsSync(path.join(repo, '.runs', 'r')), false);
    mkdirSync(path.join(base, 'taken'), { recursive: true });
    await assert.rejects(createWorkspaceCopies(repo, { baseDir: base, runId: 'taken', labels: ['agent1'] }), /already exists/);
  });

  it('says so, naming the folder, when the folder for run files is not writable', async () => {
    assert.match(runFolderError('/mnt/ro', Object.assign(new Error('x'), { code: 'EROFS' })).message, /in \/mnt\/ro: the folder is not writable \(read-only disk\)/);
    assert.match(runFolderError('/d', Object.assign(new Error('x'), { code: 'ENOSPC' })).message, /disk is full/);
    const repo = busyRepo();
    const blocked = path.join(tempDir('copies-ro', made), 'file');
    writeFileSync(blocked, 'a file where a folder should be');
    await assert.rejects(createWorkspaceCopies(repo, { baseDir: path.join(blocked, 'runs'), runId: 'r', labels: ['agent1'] }), /cannot make the agents' working copies in .*file/);
    if (process.platform === 'linux' && existsSync('/sys/kernel')) {
      // Writable by nobody, root included (tests may run as root, for whom chmod does not stop writes).
      await assert.rejects(createWorkspaceCopies(repo, { baseDir: '/sys/kernel/massgen-runs', runId: 'r', labels: ['agent1'] }), /\/sys\/kernel\/massgen-runs: the folder is not writable/);
    }
  });

  it('views a snapshot: listing, stat, content; symlinks by kind, never followed; protected names invisible', async () => {
    const repo = makeRepo(path.join(tempDir('copies-user', made), 'p'), { 'src/a.ts': 'export {};\n', '.env': 'SECRET=1\n' });
    symlinkSync('src/a.ts', path.join(repo, 'link.ts'));
    symlinkSync('/etc', path.join(repo, 'outside'));
    const c = await copies(repo, ['agent1']);
    await c.snapshot('agent1', 'agent1.1');
    const v = c.view('agent1.1')!;
    assert.deepEqual(await v.list('.'), [
      { name: 'link.ts', kind: 'symlink', size: 0 },
      { name: 'outside', kind: 'symlink', size: 0 },
      { name: 'src', kind: 'directory', size: 0 },
    ]);
    assert.deepEqual(await v.stat('src/a.ts'), { name: 'a.ts', kind: 'file', size: 11 });
    assert.deepEqual(await v.stat('.'), { name: '.', kind: 'directory', size: 0 });
    assert.equal((await v.readFile('src/a.ts'))?.toString(), 'export {};\n');
    assert.equal(await v.readFile('link.ts'), null);
    assert.equal(await v.readFile('outside/passwd'), null);
    assert.equal(await v.list('outside'), null);
    assert.equal(await v.readFile('.env'), null);
    assert.equal(await v.stat('.env'), null);
    assert.equal(await v.readFile('src'), null);
    assert.equal(await v.list('src/a.ts'), null);
    assert.equal(await v.readFile('../p/src/a.ts'), null);
    assert.equal(await v.stat('missing'), null);
    // Many reads at once through the one reader, a large file among them (its content arrives in many chunks).
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 'x');
    put(c.rootOf('agent1'), 'big.txt', big);
    await c.snapshot('agent1', 'agent1.2');
    const v2 = c.view('agent1.2')!;
    const [bigRead, small, listing] = await Promise.all([v2.readFile('big.txt'), v2.readFile('src/a.ts'), v2.list('src')]);
    assert.ok(bigRead?.equals(big));
    assert.equal(small?.toString(), 'export {};\n');
    assert.deepEqual(listing, [{ name: 'a.ts', kind: 'file', size: 11 }]);
  });
});

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { applyPatch, conflictingPaths } from './apply';
import { createWorkspaceCopies } from './copies';
import { cleanup, fingerprint, makeRepo, put, read, tempDir } from './git-fixtures.test-helper';
import type { WorkspaceCopies } from './types';

/** Every file under `root` except .git, with its bytes. */
function files(root: string, rel = '', out: Record<string, string> = {}): Record<string, string> {
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) files(root, childRel, out);
    else out[childRel] = readFileSync(path.join(root, childRel)).toString('base64');
  }
  return out;
}

describe('workspace/apply', function () {
  this.timeout(20_000);
  const made: string[] = [];
  const open: WorkspaceCopies[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.dispose();
    cleanup(made);
  });

  const copiesOf = async (source: string): Promise<WorkspaceCopies> => {
    const c = await createWorkspaceCopies(source, { baseDir: tempDir('apply-runs', made), runId: 'r', labels: ['agent1'] });
    open.push(c);
    return c;
  };

  function userRepo(): string {
    const repo = makeRepo(path.join(tempDir('apply-user', made), 'project'), {
      'src/a.ts': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n',
      'src/old.ts': 'to be removed by the agent\n',
      'img.bin': Buffer.from([0, 1, 2, 3, 4, 5]),
      'keep.txt': 'untouched\n',
    });
    put(repo, 'src/a.ts', 'ONE (user, uncommitted)\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    put(repo, 'notes.txt', 'untracked by the user\n');
    return repo;
  }

  /** The agent's edits: a modified, an added, a deleted, a binary-modified and a binary-added file. */
  function agentEdits(root: string): void {
    put(root, 'src/a.ts', 'ONE (user, uncommitted)\ntwo\nthree\nfour\nfive\nsix\nSEVEN (agent)\n');
    put(root, 'src/new.ts', 'added by the agent\n');
    rmSync(path.join(root, 'src', 'old.ts'));
    put(root, 'img.bin', Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 255]));
    put(root, 'icon.bin', Buffer.from([0, 0, 0, 9]));
  }

  it('applies exactly the winner\'s change (text, added, deleted, binary), never the user\'s own edits twice, leaving .git untouched', async () => {
    const repo = userRepo();
    const c = await copiesOf(repo);
    agentEdits(c.rootOf('agent1'));
    await c.snapshot('agent1', 'agent1.1');
    const patch = await c.patch('agent1.1');
    const gitBefore = fingerprint(path.join(repo, '.git'));
    const result = await applyPatch(repo, patch);
    assert.deepEqual(result, { ok: true, files: ['icon.bin', 'img.bin', 'src/a.ts', 'src/new.ts', 'src/old.ts'] });
    assert.deepEqual(files(repo), files(c.rootOf('agent1')), 'the user\'s folder now holds exactly the winner\'s copy');
    assert.equal(read(repo, 'src/a.ts').match(/ONE \(user, uncommitted\)/g)?.length, 1);
    assert.equal(fingerprint(path.join(repo, '.git')), gitBefore, 'index, refs and objects untouched');
  });

  it('refuses a change adding a symlink that points outside the folder, naming it; a symlink inside is applied', async function () {
    if (process.platform === 'win32') this.skip();
    const repo = userRepo();
    const c = await copiesOf(repo);
    symlinkSync('../../outside', path.join(c.rootOf('agent1'), 'link'));
    symlinkSync('src/a.ts', path.join(c.rootOf('agent1'), 'inside-link'));
    await c.snapshot('agent1', 'agent1.1');
    const before = fingerprint(repo);
    const refused = await applyPatch(repo, await c.patch('agent1.1'));
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.message : '', /symbolic links that point outside .*: link -> \.\.\/\.\.\/outside\. Nothing was modified/);
    assert.equal(fingerprint(repo), before, 'nothing was touched');

    rmSync(path.join(c.rootOf('agent1'), 'link'));
    await c.snapshot('agent1', 'agent1.2');
    assert.deepEqual(await applyPatch(repo, await c.patch('agent1.2')), { ok: true, files: ['inside-link'] });
    assert.equal(readlinkSync(path.join(repo, 'inside-link')), 'src/a.ts');
  });

  it('refuses a change that conflicts with edits made since the run started, touching nothing, and says what to do', async () => {
    const repo = userRepo();
    const c = await copiesOf(repo);
    agentEdits(c.rootOf('agent1'));
    await c.snapshot('agent1', 'agent1.1');
    const patch = await c.patch('agent1.1');
    put(repo, 'src/a.ts', 'ONE (user, uncommitted)\ntwo\nthree\nfour\nfive\nsix\nseven, edited again by the user\n');
    rmSync(path.join(repo, 'img.bin'));
    put(repo, 'src/new.ts', 'the user made this file too\n');
    const before = fingerprint(repo);
    const result = await applyPatch(repo, patch);
    assert.ok(!result.ok);
    assert.deepEqual(result.conflicts, ['img.bin', 'src/a.ts', 'src/new.ts']);
    assert.match(result.message, /not applied/);
    assert.match(result.message, /Nothing was modified/);
    assert.match(result.message, /src\/a\.ts/);
    assert.equal(fingerprint(repo), before);
  });

  it('applies around edits the user made meanwhile elsewhere in the same file', async () => {
    const repo = userRepo();
    const c = await copiesOf(repo);
    agentEdits(c.rootOf('agent1'));
    await c.snapshot('agent1', 'agent1.1');
    put(repo, 'src/a.ts', 'ONE (user, uncommitted)\ntwo (user, meanwhile)\nthree\nfour\nfive\nsix\nseven\n');
    assert.equal((await applyPatch(repo, await c.patch('agent1.1'))).ok, true);
    assert.equal(read(repo, 'src/a.ts'), 'ONE (user, uncommitted)\ntwo (user, meanwhile)\nthree\nfour\nfive\nsix\nSEVEN (agent)\n');
  });

  it('applies to a subfolder of a repository with paths relative to it (git would otherwise skip them)', async () => {
    const repo = makeRepo(path.join(tempDir('apply-user', made), 'mono'), { 'pkg/app/a.txt': 'a\n', 'other.txt': 'o\n' });
    const source = path.join(repo, 'pkg', 'app');
    const c = await copiesOf(source);
    put(c.rootOf('agent1'), 'a.txt', 'a, changed\n');
    put(c.rootOf('agent1'), 'b.txt', 'b\n');
    await c.snapshot('agent1', 'agent1.1');
    const gitBefore = fingerprint(path.join(repo, '.git'));
    assert.deepEqual(await applyPatch(source, await c.patch('agent1.1')), { ok: true, files: ['a.txt', 'b.txt'] });
    assert.equal(read(source, 'a.txt'), 'a, changed\n');
    assert.equal(read(source, 'b.txt'), 'b\n');
    assert.equal(read(repo, 'other.txt'), 'o\n');
    assert.equal(fingerprint(path.join(repo, '.git')), gitBefore);
  });

  it('applies to a plain folder', async () => {
    const folder = path.join(tempDir('apply-plain', made), 'notes');
    put(folder, 'a.md', 'a\n');
    const c = await copiesOf(folder);
    put(c.rootOf('agent1'), 'a.md', 'a\nb\n');
    await c.snapshot('agent1', 'agent1.1');
    assert.deepEqual(await applyPatch(folder, await c.patch('agent1.1')), { ok: true, files: ['a.md'] });
    assert.equal(read(folder, 'a.md'), 'a\nb\n');
  });

  it('carries a change to a non-UTF-8 text file (Latin-1) byte for byte', async () => {
    const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
    const repo = makeRepo(path.join(tempDir('apply-user', made), 'p'), { 'legacy.txt': latin1('caf\xe9\nna\xefve\n'), 'plain.txt': 'p\n' });
    const c = await copiesOf(repo);
    put(c.rootOf('agent1'), 'legacy.txt', latin1('caf\xe9\nna\xefve\nd\xe9j\xe0 vu\n'));
    put(c.rootOf('agent1'), 'plain.txt', 'p, changed\n');
    await c.snapshot('agent1', 'agent1.1');
    const patch = await c.patch('agent1.1');
    assert.doesNotMatch(patch, /\uFFFD/, 'no byte was lost in the string');
    assert.match(patch, /^\+p, changed$/m, 'UTF-8 files stay readable text');
    assert.deepEqual(await applyPatch(repo, patch), { ok: true, files: ['legacy.txt', 'plain.txt'] });
    assert.deepEqual(readFileSync(path.join(repo, 'legacy.txt')), latin1('caf\xe9\nna\xefve\nd\xe9j\xe0 vu\n'));
    const changes = await c.fileChanges('agent1.1');
    assert.deepEqual(changes[0], { relativePath: 'legacy.txt', kind: 'modified', binary: true });
  });

  it('answers an empty patch, a damaged patch and a missing folder in words', async () => {
    const folder = tempDir('apply-plain', made);
    put(folder, 'a.md', 'a\n');
    assert.deepEqual(await applyPatch(folder, ''), { ok: true, files: [] });
    const damaged = await applyPatch(folder, 'diff --git a/a.md b/a.md\n--- a/a.md\n+++ b/a.md\n@@ -1 +1 @@\n-a\n');
    assert.ok(!damaged.ok);
    assert.match(damaged.message, /could not be read as a patch.*nothing was applied/);
    const missing = await applyPatch(path.join(folder, 'gone'), 'x');
    assert.deepEqual(missing, { ok: false, message: `${path.join(folder, 'gone')} does not exist any more; nothing was applied.`, conflicts: [] });
    assert.equal(read(folder, 'a.md'), 'a\n');
  });

  it('finds the conflicting paths in git\'s messages', () => {
    const stderr = 'error: patch failed: src/a b.ts:3\nerror: src/a b.ts: patch does not apply\nerror: new.ts: already exists in working directory\nerror: gone.bin: No such file or directory\n';
    assert.deepEqual(conflictingPaths(stderr, ['gone.bin', 'new.ts', 'ok.ts', 'src/a b.ts']), ['gone.bin', 'new.ts', 'src/a b.ts']);
  });
});

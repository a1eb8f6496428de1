import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { resolveInRoot } from './path-guard';
import { listDirInRoot, readFileInRoot, useProcForTests, writeFileInRoot } from './safe-fs';

const posix = process.platform !== 'win32';

/** Both ways of opening: descriptor-relative through /proc (Linux), and the lstat fallback (macOS, Windows). */
for (const viaProc of [true, false]) {
  describe(`safe-fs (${viaProc ? '/proc descriptors' : 'lstat fallback'})`, () => {
    let base: string;
    let root: string;
    let outside: string;
    let restore: () => void;
    beforeEach(async () => {
      restore = useProcForTests(viaProc);
      base = await realpath(await mkdtemp(path.join(tmpdir(), 'massgen-safefs-')));
      root = path.join(base, 'copy');
      outside = path.join(base, 'outside');
      await mkdir(path.join(root, 'a', 'b'), { recursive: true });
      await writeFile(path.join(root, 'a', 'b', 'f.txt'), 'inside');
      await mkdir(path.join(outside, 'b'), { recursive: true });
      await writeFile(path.join(outside, 'b', 'f.txt'), 'SECRET');
    });
    afterEach(async () => {
      restore();
      await rm(base, { recursive: true, force: true });
    });

    /** The guard approves a/b/f.txt; then a command swaps the parent folder "a" for a link to the outside. */
    async function approveThenSwapParent(access: 'read' | 'write'): Promise<string> {
      const target = await resolveInRoot(root, 'a/b/f.txt', { access });
      assert.ok(target.ok);
      await rename(path.join(root, 'a'), path.join(root, 'a-moved'));
      await symlink(outside, path.join(root, 'a'));
      return target.absolute;
    }

    it('reads the file the guard approved, up to the cap', async () => {
      const absolute = path.join(root, 'a', 'b', 'f.txt');
      assert.equal((await readFileInRoot(root, absolute, 100)).toString(), 'inside');
    });

    it('a parent folder swapped for a link to the outside after the check: the read is refused', async function () {
      if (!posix) this.skip();
      const absolute = await approveThenSwapParent('read');
      await assert.rejects(readFileInRoot(root, absolute, 100), (err: NodeJS.ErrnoException) => err.code === 'ELOOP' || err.code === 'EMOVED');
    });

    it('a parent folder swapped for a link to the outside after the check: the write is refused, the outside file unchanged', async function () {
      if (!posix) this.skip();
      const absolute = await approveThenSwapParent('write');
      await assert.rejects(writeFileInRoot(root, absolute, 'pwned'), (err: NodeJS.ErrnoException) => err.code === 'ELOOP' || err.code === 'EMOVED');
      assert.equal(await readFile(path.join(outside, 'b', 'f.txt'), 'utf8'), 'SECRET');
    });

    it('a parent folder swapped after the check: listing it is refused', async function () {
      if (!posix) this.skip();
      const target = await resolveInRoot(root, 'a/b', { access: 'read' });
      assert.ok(target.ok);
      await rename(path.join(root, 'a'), path.join(root, 'a-moved'));
      await symlink(outside, path.join(root, 'a'));
      await assert.rejects(listDirInRoot(root, target.absolute), (err: NodeJS.ErrnoException) => err.code === 'ELOOP' || err.code === 'EMOVED');
    });

    it('a FIFO at the path is refused without blocking, for reads and writes', async function () {
      if (!posix) this.skip();
      const fifo = path.join(root, 'a', 'pipe');
      execFileSync('mkfifo', [fifo]);
      await assert.rejects(readFileInRoot(root, fifo, 100), (err: NodeJS.ErrnoException) => err.code === 'ENOTREG');
      // No reader: a non-blocking open for writing fails (ENXIO) instead of waiting for one.
      await assert.rejects(writeFileInRoot(root, fifo, 'x'), (err: NodeJS.ErrnoException) => err.code === 'ENOTREG' || err.code === 'ENXIO');
    });

    it('reads at most cap + 1 bytes, however large the file is', async () => {
      const big = path.join(root, 'big.txt');
      await writeFile(big, 'x'.repeat(10_000));
      assert.equal((await readFileInRoot(root, big, 100)).length, 101);
      assert.equal((await readFileInRoot(root, big, 20_000)).length, 10_000);
    });

    it('writes create missing folders and report whether the file is new; a hard-linked file is not truncated', async () => {
      const file = path.join(root, 'new', 'deep', 'n.txt');
      assert.equal(await writeFileInRoot(root, file, 'one'), true);
      assert.equal(await writeFileInRoot(root, file, 'two'), false);
      assert.equal(await readFile(file, 'utf8'), 'two');
      const linked = path.join(root, 'linked.txt');
      await link(path.join(outside, 'b', 'f.txt'), linked);
      await assert.rejects(writeFileInRoot(root, linked, 'pwned'), (err: NodeJS.ErrnoException) => err.code === 'ENOTREG');
      assert.equal(await readFile(path.join(outside, 'b', 'f.txt'), 'utf8'), 'SECRET');
    });

    it('lists a folder with lstat entries (links reported, not followed)', async () => {
      await symlink('b', path.join(root, 'a', 'l'));
      const entries = await listDirInRoot(root, path.join(root, 'a'));
      const kinds = Object.fromEntries(entries.map((e) => [e.name, e.stats.isSymbolicLink() ? 'link' : e.stats.isDirectory() ? 'dir' : 'file']));
      assert.deepEqual(kinds, { b: 'dir', l: 'link' });
    });

    it('a path outside the root is refused before any open', async () => {
      await assert.rejects(readFileInRoot(root, path.join(outside, 'b', 'f.txt'), 100), (err: NodeJS.ErrnoException) => err.code === 'EMOVED');
    });
  });
}

import assert from 'node:assert/strict';
import { parseTree } from './object-reader';
import { nonUtf8Sections } from './patch';
import { parseRawNumstat } from './tree-diff';
import { isValidVersion } from './snapshot';

describe('workspace/tree-diff and object parsing', () => {
  it('parses diff-tree --raw --numstat -z output into one entry per file', () => {
    const z = '0'.repeat(40);
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const out = Buffer.from(
      `:100644 000000 ${a} ${z} D\0gone.txt\0:100644 100644 ${a} ${b} M\0bin.dat\0:000000 120000 ${z} ${b} A\0new\tlink\0:100644 120000 ${a} ${b} T\0t\0` +
        '0\t3\tgone.txt\0-\t-\tbin.dat\0' + '1\t0\tnew\tlink\0' + '1\t1\tt\0',
    );
    assert.deepEqual(parseRawNumstat(out), [
      { path: 'gone.txt', status: 'deleted', oldMode: '100644', newMode: '000000', oldOid: a, newOid: z, added: 0, removed: 3 },
      { path: 'bin.dat', status: 'modified', oldMode: '100644', newMode: '100644', oldOid: a, newOid: b, added: null, removed: null },
      { path: 'new\tlink', status: 'added', oldMode: '000000', newMode: '120000', oldOid: z, newOid: b, added: 1, removed: 0 },
      { path: 't', status: 'modified', oldMode: '100644', newMode: '120000', oldOid: a, newOid: b, added: 1, removed: 1 },
    ]);
    assert.deepEqual(parseRawNumstat(Buffer.alloc(0)), []);
  });

  it('parses raw tree objects (SHA-1 and SHA-256 ids)', () => {
    for (const bytes of [20, 32]) {
      const oid = Buffer.alloc(bytes, 0xab);
      const data = Buffer.concat([Buffer.from('100644 a b.txt\0'), oid, Buffer.from('40000 dir\0'), oid]);
      assert.deepEqual(parseTree(data, bytes), [
        { mode: '100644', name: 'a b.txt', oid: oid.toString('hex') },
        { mode: '40000', name: 'dir', oid: oid.toString('hex') },
      ]);
    }
    assert.throws(() => parseTree(Buffer.from('100644 x\0short'), 20), /damaged tree/);
  });

  it('finds the sections of a patch that are not UTF-8', () => {
    const patch = Buffer.concat([Buffer.from('diff --git a/x b/x\n+ok\n'), Buffer.from('diff --git a/y b/y\n+caf'), Buffer.from([0xe9]), Buffer.from('\ndiff --git a/z b/z\n+diff --git inside\n')]);
    assert.deepEqual(nonUtf8Sections(patch, ['x', 'y', 'z']), ['y']);
  });

  it('accepts answer versions as ref names only when git would', () => {
    for (const ok of ['agent1.1', 'agent12.30', 'a_b-c']) assert.equal(isValidVersion(ok), true, ok);
    for (const bad of ['', '.a', 'a..b', 'a.lock', 'a.', 'a/b', 'a b', 'a~1', 'a^', 'a:b', 'a@{1}']) assert.equal(isValidVersion(bad), false, bad);
  });
});

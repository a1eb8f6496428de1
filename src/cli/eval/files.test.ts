import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderName, freshDir } from './files';

describe('eval folder names', () => {
  it('keeps safe ids readable and makes the rest safe and distinct', () => {
    assert.equal(folderName('q1'), 'q1');
    assert.equal(folderName('mc-tcp.2'), 'mc-tcp.2');
    for (const id of ['../../etc/passwd', 'Q1', 'a/b', '..', 'con:', 'x'.repeat(200), '日本']) {
      const name = folderName(id);
      assert.match(name, /^[a-z0-9][a-z0-9._-]*-[0-9a-f]{8}$/, `${id} → ${name}`);
      assert.ok(name.length <= 80);
    }
    assert.notEqual(folderName('Q1'), folderName('q1'));
    assert.notEqual(folderName('a/b'), folderName('a_b'));
  });

  it('freshDir never reuses a folder', () => {
    const base = join(mkdtempSync(join(tmpdir(), 'eval-files-')), 'run');
    assert.equal(freshDir(base), base);
    assert.equal(freshDir(base), `${base}-2`);
    assert.ok(existsSync(`${base}-2`));
  });
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createWorkspaceCopies } from './copies';
import { cleanup, fingerprint, makeRepo, put, tempDir } from './git-fixtures.test-helper';
import type { WorkspaceCopies } from './types';

describe('workspace/checkout: a version in a folder of its own, for checks', function () {
  this.timeout(30_000);
  const made: string[] = [];
  let copies: WorkspaceCopies | undefined;

  afterEach(async () => {
    await copies?.dispose();
    copies = undefined;
    cleanup(made);
  });

  it('holds the version as recorded, not the copy as it is now, and leaves the user\'s folder untouched', async () => {
    const repo = makeRepo(path.join(tempDir('checkout-user', made), 'project'), { 'lib/add.js': 'a - b\n', 'test.js': 'run\n', 'docs/x.md': 'x\n' });
    const before = fingerprint(repo);
    copies = await createWorkspaceCopies(path.join(repo, 'lib'), { baseDir: tempDir('checkout-runs', made), runId: 'r1', labels: ['agent1'] });
    const own = copies.rootOf('agent1');
    writeFileSync(path.join(own, 'add.js'), 'a + b\n');
    put(own, 'new.js', 'added\n');
    await copies.snapshot('agent1', 'agent1.1');
    writeFileSync(path.join(own, 'add.js'), 'changed after the answer\n');

    const checkout = await copies.checkout('agent1.1');
    assert.equal(readFileSync(path.join(checkout.folder, 'add.js'), 'utf8'), 'a + b\n');
    assert.equal(readFileSync(path.join(checkout.folder, 'new.js'), 'utf8'), 'added\n');
    assert.equal(readFileSync(path.join(checkout.folder, '..', 'test.js'), 'utf8'), 'run\n', 'the rest of the repository is there too');
    assert.notEqual(checkout.folder, own);
    writeFileSync(path.join(checkout.folder, 'build-output.txt'), 'made by a check\n');
    const second = await copies.checkout('agent1.1');
    assert.equal(existsSync(path.join(second.folder, 'build-output.txt')), false, 'each checkout is fresh');
    await checkout.dispose();
    assert.equal(existsSync(checkout.folder), false);
    await assert.rejects(copies.checkout('agent1.9'), /no change was recorded for answer "agent1\.9"/);
    assert.equal(fingerprint(repo), before);
  });
});

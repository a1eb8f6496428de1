import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { createWorkspaceCopies } from './copies';
import { cleanup, makeRepo, tempDir } from './git-fixtures.test-helper';
import { OWNER_FILE, parseOwner, sweepStaleCopies } from './sweep';

/** The id of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

function fakeRun(base: string, runId: string, owner: object | null): string {
  const dir = path.join(base, runId);
  mkdirSync(path.join(dir, 'shadow.git'), { recursive: true });
  if (owner) writeFileSync(path.join(dir, OWNER_FILE), JSON.stringify(owner));
  return dir;
}

describe('workspace/sweep', function () {
  this.timeout(20_000);
  const made: string[] = [];
  afterEach(() => cleanup(made));

  it('removes a crashed run\'s folder but never a live run\'s, another host\'s or a folder that is not ours', async () => {
    const base = tempDir('sweep', made);
    const repo = makeRepo(path.join(tempDir('sweep-user', made), 'p'), { 'a.txt': 'a\n' });
    const live = await createWorkspaceCopies(repo, { baseDir: base, runId: 'live', labels: ['agent1'] });
    const pid = await deadPid();
    const startedAt = new Date().toISOString();
    const crashed = fakeRun(base, 'crashed', { pid, host: hostname(), startedAt, runId: 'crashed' });
    fakeRun(base, 'elsewhere', { pid, host: `${hostname()}-other`, startedAt, runId: 'elsewhere' });
    fakeRun(base, 'foreign', null);
    fakeRun(base, 'renamed', { pid, host: hostname(), startedAt, runId: 'something-else' });
    writeFileSync(path.join(base, 'a-file'), 'not a folder');

    assert.deepEqual(await sweepStaleCopies(base), [crashed]);
    assert.deepEqual(readdirSync(base).sort(), ['a-file', 'elsewhere', 'foreign', 'live', 'renamed']);
    assert.ok(existsSync(live.rootOf('agent1')));
    await live.dispose();
    assert.deepEqual(await sweepStaleCopies(path.join(base, 'missing')), [], 'a missing base folder is not an error');
  });

  it('reads only well-formed owner files', () => {
    assert.deepEqual(parseOwner('{"pid":12,"host":"h","startedAt":"t","runId":"r"}'), { pid: 12, host: 'h', startedAt: 't', runId: 'r' });
    for (const bad of ['', 'null', '{"pid":"12","host":"h","startedAt":"t","runId":"r"}', '{"pid":1.5,"host":"h","startedAt":"t","runId":"r"}', '[1]']) {
      assert.equal(parseOwner(bad), null, bad);
    }
  });
});

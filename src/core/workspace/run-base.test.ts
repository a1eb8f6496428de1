import assert from 'node:assert/strict';
import { chmod, chown, mkdir, mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { privateFolderProblem, privateRunBase } from './run-base';

const posix = process.platform !== 'win32';

describe('privateRunBase', () => {
  let parent: string;
  const uid = process.getuid?.() ?? 0;
  beforeEach(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'massgen-runbase-'));
  });
  afterEach(() => rm(parent, { recursive: true, force: true }));

  it('makes <parent>/massgen-<uid> with mode 0700 and returns its workspaces folder; a second call reuses it', async function () {
    if (!posix) this.skip();
    const base = await privateRunBase(parent, uid);
    assert.equal(base, path.join(parent, `massgen-${uid}`, 'workspaces'));
    assert.equal((await stat(path.dirname(base))).mode & 0o777, 0o700);
    assert.equal(await privateRunBase(parent, uid), base);
  });

  it('refuses a folder others can write to', async function () {
    if (!posix) this.skip();
    const own = path.join(parent, `massgen-${uid}`);
    await mkdir(own);
    await chmod(own, 0o777);
    await assert.rejects(privateRunBase(parent, uid), /refusing to keep the agents' working copies in .*: others can write to it \(mode 777\)/);
  });

  it('refuses a folder another user owns', async function () {
    if (!posix || process.getuid?.() !== 0) this.skip(); // only root can give a folder away
    const own = path.join(parent, `massgen-${uid}`);
    await mkdir(own, { mode: 0o700 });
    await chown(own, 65534, 65534);
    await assert.rejects(privateRunBase(parent, uid), /belongs to another user \(uid 65534/);
  });

  it('refuses a symbolic link in its place', async function () {
    if (!posix) this.skip();
    await mkdir(path.join(parent, 'elsewhere'), { mode: 0o700 });
    await symlink(path.join(parent, 'elsewhere'), path.join(parent, `massgen-${uid}`));
    await assert.rejects(privateRunBase(parent, uid), /it is a symbolic link/);
  });

  it('privateFolderProblem: owner and mode, in words', () => {
    const dir = (over: { uid?: number; mode?: number; link?: boolean; dir?: boolean }) => ({
      uid: over.uid ?? 1000,
      mode: over.mode ?? 0o40700,
      isDirectory: () => over.dir ?? true,
      isSymbolicLink: () => over.link ?? false,
    });
    assert.equal(privateFolderProblem(dir({}), 1000), null);
    assert.equal(privateFolderProblem(dir({ mode: 0o40755 }), 1000), null, 'readable by others is fine: the run folders inside are what matters');
    assert.match(privateFolderProblem(dir({ mode: 0o40770 }), 1000)!, /mode 770/);
    assert.match(privateFolderProblem(dir({ uid: 0 }), 1000)!, /another user/);
    assert.match(privateFolderProblem(dir({ dir: false }), 1000)!, /not a folder/);
  });
});

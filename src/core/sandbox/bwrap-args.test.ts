import assert from 'node:assert/strict';
import { bwrapArgs } from './bwrap-args';
import type { SandboxPlan } from './plan';

const plan: SandboxPlan = {
  copy: '/home/ann/work/agent1',
  hidden: ['/home', '/run', '/tmp'],
  exposures: [{ source: '/home/ann/.nvm/versions/node/v20', dest: '/home/ann/.nvm/versions/node/v20' }],
  network: false,
  appendPath: [],
};
const ALL = { disableUserns: true, tmpfsSize: true };

function after(args: string[], a: string, b: string): boolean {
  return args.indexOf(a) >= 0 && args.indexOf(b) > args.indexOf(a);
}

describe('sandbox bwrap command line', () => {
  it('is exactly the documented policy, in mount order', () => {
    assert.deepEqual(bwrapArgs(plan, ALL, { tmpBytes: 1000 }), [
      '--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--cap-drop', 'ALL',
      '--ro-bind', '/', '/',
      '--dev', '/dev', '--size', '1000', '--tmpfs', '/dev/shm', '--remount-ro', '/dev',
      '--proc', '/proc',
      '--tmpfs', '/home', '--tmpfs', '/run',
      '--size', '1000', '--tmpfs', '/tmp', '--dir', '/tmp/home',
      '--ro-bind-try', '/home/ann/.nvm/versions/node/v20', '/home/ann/.nvm/versions/node/v20',
      '--bind', '/home/ann/work/agent1', '/home/ann/work/agent1',
      '--remount-ro', '/home', '--remount-ro', '/run',
      '--chdir', '/home/ann/work/agent1',
    ]);
  });

  it('shares the network only when allowed', () => {
    assert.equal(bwrapArgs(plan, ALL, { tmpBytes: 1 }).includes('--share-net'), false);
    assert.equal(bwrapArgs({ ...plan, network: true }, ALL, { tmpBytes: 1 }).includes('--share-net'), true);
  });

  it('the copy is the only writable bind, mounted after the exposures and before the hidden folders turn read-only', () => {
    const args = bwrapArgs(plan, ALL, { tmpBytes: 1 });
    assert.equal(args.filter((a) => a === '--bind').length, 1);
    assert.ok(after(args, '--ro-bind-try', '--bind'));
    assert.ok(args.lastIndexOf('--remount-ro') > args.indexOf('--bind'));
  });

  it('leaves out what an older bubblewrap lacks', () => {
    const args = bwrapArgs(plan, { disableUserns: false, tmpfsSize: false }, { tmpBytes: 1 });
    assert.equal(args.includes('--disable-userns'), false);
    assert.equal(args.includes('--size'), false);
    assert.ok(after(args, '--tmpfs', '--dir'));
  });
});

import assert from 'node:assert/strict';
import { isInside } from '../util/paths';
import { hiddenRoots, planSandbox, type HostFacts } from './plan';

/** A host described by its directories, symlinks and executables. */
function fakeHost(over: Partial<HostFacts> & { dirs: string[]; links?: Record<string, string>; executables?: string[] }): HostFacts {
  const links = over.links ?? {};
  const resolve = (p: string): string => {
    for (const [from, to] of Object.entries(links)) if (isInside(from, p)) return resolve(to + p.slice(from.length));
    return p;
  };
  const exists = (p: string) => over.dirs.some((d) => isInside(p, d)) || (over.executables ?? []).includes(p);
  return {
    platform: 'linux',
    homedir: '/home/ann',
    tmpdir: '/tmp',
    pathValue: '/usr/bin:/bin',
    execPath: '/usr/bin/node',
    realpath: (p) => (exists(resolve(p)) ? resolve(p) : null),
    isDirectory: (p) => over.dirs.some((d) => isInside(resolve(p), d)),
    isExecutable: (p) => (over.executables ?? []).includes(resolve(p)),
    ...over,
  };
}

const BASE_DIRS = ['/usr/bin', '/bin', '/etc', '/home/ann/work/run/agent1', '/home/ann/work/run/agent2', '/root', '/run/user/1000', '/tmp', '/var/tmp', '/mnt', '/srv'];

describe('sandbox plan: hiddenRoots', () => {
  it('hides homes, /run, temp folders, /mnt and /srv on Linux, nothing nested twice, only what exists', () => {
    assert.deepEqual(hiddenRoots('bubblewrap', fakeHost({ dirs: BASE_DIRS })), ['/home', '/mnt', '/root', '/run', '/srv', '/tmp', '/var/tmp']);
  });
  it('follows a symlinked /home to the real folder, and never hides "/" (a home of "/")', () => {
    const facts = fakeHost({ dirs: ['/var/home/ann/x', '/usr/bin', '/tmp'], links: { '/home': '/var/home' }, homedir: '/' });
    assert.deepEqual(hiddenRoots('bubblewrap', facts), ['/tmp', '/var/home']);
  });
  it('hides /Users and /Volumes on macOS, and nothing without a sandbox', () => {
    const facts = fakeHost({ dirs: ['/Users/ann', '/Volumes/disk', '/usr/bin'], homedir: '/Users/ann' });
    assert.deepEqual(hiddenRoots('sandbox-exec', facts), ['/Users', '/Volumes']);
    assert.deepEqual(hiddenRoots('none', facts), []);
  });
});

describe('sandbox plan: planSandbox', () => {
  it('the copy is the real path; PATH folders, the Node installation and the caller\'s paths inside hidden folders are exposed', () => {
    const facts = fakeHost({
      dirs: [...BASE_DIRS, '/home/ann/.nvm/versions/node/v20.11.0/bin', '/home/ann/.cargo/bin', '/home/ann/project/node_modules', '/run/systemd/resolve'],
      executables: ['/home/ann/.nvm/versions/node/v20.11.0/bin/node', '/run/systemd/resolve/stub-resolv.conf'],
      links: { '/etc/resolv.conf': '/run/systemd/resolve/stub-resolv.conf', '/home/ann/work/current': '/home/ann/work/run/agent1' },
      pathValue: '/home/ann/.nvm/versions/node/v20.11.0/bin:/home/ann/.cargo/bin:/usr/bin:relative/bin',
      execPath: '/home/ann/.nvm/versions/node/v20.11.0/bin/node',
    });
    const r = planSandbox('bubblewrap', '/home/ann/work/current', { network: false, readOnlyPaths: ['/home/ann/project/node_modules'] }, facts);
    assert.equal(r.ok, true, JSON.stringify(r));
    if (!r.ok) return;
    assert.equal(r.plan.copy, '/home/ann/work/run/agent1');
    // The nvm bin folder and installation are inside ~/.nvm, which is shown whole.
    assert.deepEqual(r.plan.exposures, [
      { source: '/home/ann/project/node_modules', dest: '/home/ann/project/node_modules' },
      { source: '/home/ann/.cargo/bin', dest: '/home/ann/.cargo/bin' },
      { source: '/home/ann/.nvm', dest: '/home/ann/.nvm' },
      { source: '/run/systemd/resolve/stub-resolv.conf', dest: '/run/systemd/resolve/stub-resolv.conf' },
    ]);
    assert.deepEqual(r.plan.appendPath, ['/home/ann/.nvm/versions/node/v20.11.0/bin']);
    assert.ok(!r.plan.exposures.some((e) => isInside(e.source, '/home/ann/work/run/agent2')), 'another agent\'s copy stays hidden');
  });

  it('a Node installation deep in a home folder is shown whole (npm lives in its lib folder)', () => {
    const facts = fakeHost({
      dirs: [...BASE_DIRS, '/home/ann/apps/node/v20/bin', '/home/ann/apps/node/v20/lib'],
      executables: ['/home/ann/apps/node/v20/bin/node'],
      pathValue: '/home/ann/apps/node/v20/bin:/usr/bin',
      execPath: '/usr/bin/node',
    });
    const r = planSandbox('bubblewrap', '/home/ann/work/run/agent1', { network: false }, facts);
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual(r.plan.exposures.map((e) => e.dest), ['/home/ann/apps/node/v20']);
  });

  it('a PATH folder reached through a symlink in a hidden folder is shown at the link\'s path (NixOS /run/current-system)', () => {
    const facts = fakeHost({
      dirs: [...BASE_DIRS, '/nix/store/abc-system/sw/bin'],
      links: { '/run/current-system': '/nix/store/abc-system' },
      pathValue: '/run/current-system/sw/bin:/usr/bin',
    });
    const r = planSandbox('bubblewrap', '/home/ann/work/run/agent1', { network: true }, facts);
    assert.ok(r.ok);
    if (r.ok) {
      assert.deepEqual(r.plan.exposures, [{ source: '/nix/store/abc-system/sw/bin', dest: '/run/current-system/sw/bin' }]);
      assert.equal(r.plan.network, true);
    }
  });

  it('a version manager\'s home is shown whole (its shims run programs from it); ~/.cargo only through its bin folder', () => {
    const facts = fakeHost({
      dirs: [...BASE_DIRS, '/home/ann/.pyenv/shims', '/home/ann/.pyenv/libexec', '/home/ann/.cargo/bin'],
      pathValue: '/home/ann/.pyenv/shims:/home/ann/.cargo/bin:/usr/bin',
    });
    const r = planSandbox('bubblewrap', '/home/ann/work/run/agent1', { network: false }, facts);
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual(r.plan.exposures.map((e) => e.dest), ['/home/ann/.cargo/bin', '/home/ann/.pyenv']);
  });

  it('a shallow Node installation (~/.local) exposes only its bin folder, and a PATH entry that is a whole home is skipped', () => {
    const facts = fakeHost({
      dirs: [...BASE_DIRS, '/home/ann/.local/bin'],
      executables: ['/home/ann/.local/bin/node'],
      pathValue: '/home/ann:/home/ann/.local/bin',
      execPath: '/usr/lib/code/code', // VS Code's Electron: not a node binary, so not appended to PATH
    });
    const r = planSandbox('bubblewrap', '/home/ann/work/run/agent1', { network: false }, facts);
    assert.ok(r.ok);
    if (r.ok) {
      assert.deepEqual(r.plan.exposures, [{ source: '/home/ann/.local/bin', dest: '/home/ann/.local/bin' }]);
      assert.deepEqual(r.plan.appendPath, []);
    }
  });

  it('refuses copies that are not copies: relative, missing, "/", a home, a temp or system folder, or containing one', () => {
    const facts = fakeHost({ dirs: [...BASE_DIRS, '/opt/x'] });
    for (const copy of ['relative/dir', '/home/ann/missing', '/', '/home', '/home/ann', '/tmp', '/usr', '/run']) {
      const r = planSandbox('bubblewrap', copy, { network: false }, facts);
      assert.equal(r.ok, false, copy);
    }
    assert.equal(planSandbox('bubblewrap', '/opt/x', { network: false }, facts).ok, true, 'a folder under /opt is fine');
  });

  it('refuses a caller\'s read-only path that would show a whole home or temp folder', () => {
    const facts = fakeHost({ dirs: BASE_DIRS });
    for (const p of ['/home', '/home/ann', '/tmp', '/', 'relative']) {
      const r = planSandbox('bubblewrap', '/home/ann/work/run/agent1', { network: false, readOnlyPaths: [p] }, facts);
      assert.equal(r.ok, false, p);
    }
  });
});

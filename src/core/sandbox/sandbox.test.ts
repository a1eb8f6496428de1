import assert from 'node:assert/strict';
import { bwrapFeatures, detectSandbox, NO_SANDBOX, processLimitIsPerSandbox } from './sandbox';

describe('sandbox detection', () => {
  it('finds a working bubblewrap on Linux (CI installs it), once per process', async () => {
    const info = await detectSandbox();
    assert.equal(process.platform, 'linux', 'these tests run real bubblewrap sandboxes: Linux only');
    assert.equal(info.kind, 'bubblewrap', info.description);
    assert.equal(info.requiresApproval, false);
    assert.match(info.executable ?? '', /\/bwrap$/);
    assert.deepEqual(info.bwrap, { disableUserns: true, tmpfsSize: true }, 'bubblewrap 0.8 has both');
    assert.equal(await detectSandbox(), info, 'the probe runs once');
    if (process.getuid?.() === 0) assert.match(info.warnings.join('\n'), /running as root/);
  });

  it('reads the options an installed bubblewrap supports from its help', () => {
    assert.deepEqual(bwrapFeatures('    --disable-userns   Disable…\n    --size BYTES   Set size'), { disableUserns: true, tmpfsSize: true });
    assert.deepEqual(bwrapFeatures('    --tmpfs DEST   Mount new tmpfs'), { disableUserns: false, tmpfsSize: false });
  });

  it('sets a process limit only where the kernel counts processes per user namespace (5.14+)', () => {
    assert.equal(processLimitIsPerSandbox('6.18.44-fc'), true);
    assert.equal(processLimitIsPerSandbox('5.14.0-284.el9'), true);
    assert.equal(processLimitIsPerSandbox('5.10.0-28-amd64'), false);
    assert.equal(processLimitIsPerSandbox('4.18.0'), false);
    assert.equal(processLimitIsPerSandbox('weird'), false);
  });

  it('without a sandbox, every command needs approval', () => {
    assert.equal(NO_SANDBOX.kind, 'none');
    assert.equal(NO_SANDBOX.requiresApproval, true);
  });
});

// The runner with real processes, sandboxed (bubblewrap) and not (the process group is all there is).

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planSandbox, type SandboxPlan } from './plan';
import { DEFAULT_COMMAND_LIMITS } from './policy';
import { liveCommandGroups, runCommand, shellPrelude, startCommand, type CommandSpec } from './runner';
import { detectSandbox, NO_SANDBOX, type SandboxInfo } from './sandbox';
import { eventually } from '../../../test/helpers/eventually';

function processesWith(marker: string): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((pid) => {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        return cmd.includes(marker) ? [cmd] : [];
      } catch {
        return [];
      }
    });
}

/** A sleep duration no other test (or parallel run) uses, to find its processes by command line. */
function uniqueSeconds(whole: number): string {
  return `${whole}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}
const SLEEP_LEFTOVER = uniqueSeconds(40);
const SLEEP_TIMEOUT = uniqueSeconds(41);
const SLEEP_STOP = uniqueSeconds(42);

describe('sandbox runner', function () {
  this.timeout(30_000);
  let bwrap: SandboxInfo;
  let folder: string;

  before(async () => {
    bwrap = await detectSandbox();
    assert.equal(bwrap.kind, 'bubblewrap', bwrap.description);
  });
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'massgen-runner-test-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function spec(sandbox: SandboxInfo, command: string, over: Partial<CommandSpec> = {}): CommandSpec {
    const planned = planSandbox(sandbox.kind, folder, { network: false });
    assert.ok(planned.ok);
    const plan: SandboxPlan = planned.ok ? planned.plan : ({} as SandboxPlan);
    return { command, plan, sandbox, environment: { parent: process.env }, timeoutMs: 10_000, limits: DEFAULT_COMMAND_LIMITS, ...over };
  }

  for (const kind of ['bubblewrap', 'none'] as const) {
    const info = () => (kind === 'bubblewrap' ? bwrap : NO_SANDBOX);

    // The leftover sleeps 40 s, longer than this suite's 30 s timeout: the test ends at all only if the runner did
    // not wait for it.
    it(`${kind}: what the shell leaves running in the background ends with it`, async () => {
      const { end, output } = await runCommand(spec(info(), `sleep ${SLEEP_LEFTOVER} & echo done`));
      assert.equal(end.kind, 'exited');
      assert.equal(end.exitCode, 0);
      assert.equal(output.text, 'done\n');
      assert.deepEqual(processesWith(SLEEP_LEFTOVER), []);
      assert.deepEqual(liveCommandGroups(), []);
    });

    it(`${kind}: the timeout kills the process group${kind === 'bubblewrap' ? ', and the PID namespace a process that made its own session' : ''}`, async () => {
      const { end } = await runCommand(spec(info(), `setsid sleep ${SLEEP_TIMEOUT} & sleep ${SLEEP_TIMEOUT}`, { timeoutMs: 500 }));
      assert.equal(end.kind, 'timeout');
      // Without a PID namespace a process in its own session escapes the group kill: only bubblewrap catches it.
      const left = processesWith(SLEEP_TIMEOUT);
      if (kind === 'bubblewrap') assert.deepEqual(left, []);
      else {
        assert.equal(left.length, 1, left.join('\n'));
        for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
          try {
            if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(SLEEP_TIMEOUT)) process.kill(Number(pid), 'SIGKILL');
          } catch {
            // gone
          }
        }
      }
    });

    it(`${kind}: stop() ends a running command as "killed"`, async () => {
      const handle = await startCommand(spec(info(), `echo up; sleep ${SLEEP_STOP}`, { timeoutMs: null }));
      await eventually(() => handle.output.pendingBytes > 0, { what: 'the command to print "up"' });
      assert.equal(handle.running, true);
      const end = await handle.stop();
      assert.equal(end.kind, 'killed');
      assert.equal(handle.running, false);
      assert.equal(handle.output.take().text, 'up\n');
      assert.deepEqual(processesWith(SLEEP_STOP), []);
    });
  }

  it('a signal that has already aborted runs nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    const { end } = await runCommand(spec(bwrap, 'touch ran', { signal: ac.signal }));
    assert.equal(end.kind, 'aborted');
    assert.deepEqual(readdirSync(folder), []);
  });

  it('a copy that vanished is a start failure in words', async () => {
    const s = spec(NO_SANDBOX, 'true');
    rmSync(folder, { recursive: true });
    const { end } = await runCommand(s);
    assert.deepEqual({ kind: end.kind, message: end.message }, { kind: 'start-failed', message: 'your working folder no longer exists' });
  });

  it('bubblewrap\'s own errors come back as the sandbox\'s message', async () => {
    const s = spec(bwrap, 'true');
    const { end } = await runCommand({ ...s, plan: { ...s.plan, exposures: [{ source: folder, dest: '/proc/nonexistent-dir/x' }] } });
    assert.equal(end.exitCode, 1);
    assert.match(end.message ?? '', /^bwrap: /);
  });

  it('the prelude merges stderr, caps file size, and limits processes where asked', () => {
    const limits = { ...DEFAULT_COMMAND_LIMITS, maxFileBytes: 1024 * 1024, maxProcesses: 64 };
    assert.equal(shellPrelude(limits, false), 'exec 2>&1\nulimit -f 2048 2>/dev/null\nexec /bin/sh -c "$1"');
    assert.match(shellPrelude(limits, true), /ulimit -u 64 2>\/dev\/null \|\| ulimit -p 64 2>\/dev\/null/);
  });
});

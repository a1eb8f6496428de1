// A child process in a process group of its own, with a guard: past `guardMs` the whole group is ended (SIGTERM, then
// SIGKILL), and after a normal exit whatever it left behind in its group too. A failure guard, never a measurement.
// Its own group keeps a Ctrl-C on the bench from reaching it, so the groups still running are ended when the bench
// exits or is interrupted.

import { spawn } from 'node:child_process';

export interface GuardedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The guard ended it. */
  timedOut: boolean;
  ms: number;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* the group is gone */
  }
}

const liveGroups = new Set<number>();
let exitHooked = false;

function endLiveGroups(): void {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
}

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', endLiveGroups);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      endLiveGroups();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
}

export function runGuarded(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; guardMs: number }): Promise<GuardedRun> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const pid = child.pid;
    if (pid) {
      liveGroups.add(pid);
      hookExit();
    }
    const guard = setTimeout(() => {
      timedOut = true;
      if (pid) killGroup(pid, 'SIGTERM');
      setTimeout(() => pid && killGroup(pid, 'SIGKILL'), 5000).unref();
    }, opts.guardMs);
    child.once('error', (err) => {
      clearTimeout(guard);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(guard);
      // Helpers it started (MCP servers, sub-processes) must not outlive the run.
      if (pid) {
        killGroup(pid, 'SIGKILL');
        liveGroups.delete(pid);
      }
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - t0 });
    });
  });
}

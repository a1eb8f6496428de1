// Runs one command in the sandbox: `/bin/sh -c <command>` in the agent's copy, with stdin empty and stderr merged
// into stdout (one pipe keeps the two in the order they were written). The sandbox (or, without one, the shell) is
// started in a process group of its own, and ending a command means SIGKILL to that group: with bubblewrap that
// kills bwrap, whose PID namespace takes every process the command started with it, however they detached;
// without a PID namespace (macOS, no sandbox) the group is all that can be reached.
//
// A command ends at its timeout, when its signal aborts, when `stop` is called, when its unread output passes the
// hard cap (a flood), when the disk its copy is on loses more free space than allowed, and when the shell it ran in
// exits (whatever it left running in the background goes too). The shell's prelude caps the size of any file it
// writes (`ulimit -f`) and, where the kernel counts them per sandbox, its processes (`ulimit -u`). Nothing here
// throws: a command that cannot start ends as 'start-failed' with a message.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, statfs } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { clampDelay } from '../util/clock';
import { SANDBOX_HOME, bwrapArgs } from './bwrap-args';
import { commandEnvironment, type CommandEnvironmentInput } from './environment';
import { macosProfile } from './macos-profile';
import { OutputBuffer } from './output';
import type { SandboxPlan } from './plan';
import { SANDBOX_TMP } from './plan';
import type { CommandLimits } from './policy';
import type { SandboxInfo } from './sandbox';

/** How a command ended: by itself ('exited'), or stopped by us for the reason named. */
export type EndKind = 'exited' | 'timeout' | 'aborted' | 'killed' | 'output-limit' | 'disk-limit' | 'start-failed';

export interface CommandEnd {
  kind: EndKind;
  /** Exit code of the shell (through bubblewrap, 128 + N when signal N ended it); null when a signal ended it here. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  /** 'start-failed': why. Otherwise what the sandbox itself reported, if anything (bwrap's own errors). */
  message?: string;
}

export interface CommandSpec {
  command: string;
  plan: SandboxPlan;
  sandbox: SandboxInfo;
  /** Where the environment comes from; HOME, TMPDIR and PATH additions are the runner's. */
  environment: Omit<CommandEnvironmentInput, 'home' | 'tmp' | 'appendPath'>;
  /** null: no timeout (a background command, until stopped). */
  timeoutMs: number | null;
  limits: CommandLimits;
  signal?: AbortSignal;
}

export interface CommandHandle {
  /** Output not yet taken. */
  readonly output: OutputBuffer;
  readonly startedAt: number;
  /** Resolves once the command and everything it started have ended. Never rejects. */
  readonly done: Promise<CommandEnd>;
  readonly running: boolean;
  /** Ends the command and its whole tree; resolves with how it ended (its own end if it had already ended). */
  stop(): Promise<CommandEnd>;
}

/** How often the disk's free space is checked while a command runs. */
const DISK_POLL_MS = 500;
/** After the shell exits, how long a leftover process may keep the output pipe open before it is closed on it. */
const PIPE_GRACE_MS = 1000;
const MAX_SANDBOX_MESSAGE = 4096;

/** The shell prelude: merged output, the limits, then the command in a fresh shell ("$1"). */
export function shellPrelude(limits: CommandLimits, processLimit: boolean): string {
  const blocks = Math.max(1, Math.floor(limits.maxFileBytes / 512)); // POSIX sh counts 512-byte blocks
  const lines = ['exec 2>&1', `ulimit -f ${blocks} 2>/dev/null`];
  // bash calls it -u, dash -p.
  if (processLimit) lines.push(`ulimit -u ${limits.maxProcesses} 2>/dev/null || ulimit -p ${limits.maxProcesses} 2>/dev/null`);
  lines.push('exec /bin/sh -c "$1"');
  return lines.join('\n');
}

// Groups still running, killed if this process exits without stopping them (bubblewrap's --die-with-parent covers
// the sandbox too; this covers macOS and no sandbox).
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const group of liveGroups) killGroup(group);
    });
  }
}

/** Process groups of commands started here and not yet ended (tests, diagnostics). */
export function liveCommandGroups(): number[] {
  return [...liveGroups];
}

interface Invocation {
  file: string;
  args: string[];
  home: string;
  tmp: string;
  /** A host folder to remove when the command ends (the private temp folder outside bubblewrap). */
  hostTmp: string | null;
}

async function invocation(spec: CommandSpec, prelude: string): Promise<Invocation> {
  const shell = ['/bin/sh', '-c', prelude, 'massgen-command', spec.command];
  const { sandbox, plan, limits } = spec;
  if (sandbox.kind === 'bubblewrap' && sandbox.executable && sandbox.bwrap) {
    return { file: sandbox.executable, args: [...bwrapArgs(plan, sandbox.bwrap, { tmpBytes: limits.tmpBytes }), '--', ...shell], home: SANDBOX_HOME, tmp: SANDBOX_TMP, hostTmp: null };
  }
  // Outside bubblewrap the private temp folder is a host folder, made per command and removed after it.
  const hostTmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'massgen-cmd-')));
  const home = path.join(hostTmp, 'home');
  await mkdir(home);
  if (sandbox.kind === 'sandbox-exec' && sandbox.executable) {
    return { file: sandbox.executable, args: ['-p', macosProfile(plan, hostTmp), ...shell], home, tmp: hostTmp, hostTmp };
  }
  return { file: shell[0], args: shell.slice(1), home, tmp: hostTmp, hostTmp };
}

function startFailure(err: unknown, spec: CommandSpec, file: string): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (!existsSync(spec.plan.copy)) return 'your working folder no longer exists';
  if (code === 'ENOENT') return `${file} was not found`;
  if (code === 'EAGAIN') return 'the system cannot start more processes right now; try again shortly';
  return `${file} could not start (${code ?? (err as Error | undefined)?.message ?? 'unknown error'})`;
}

class RunningCommand implements CommandHandle {
  readonly output: OutputBuffer;
  readonly startedAt = Date.now();
  readonly done: Promise<CommandEnd>;
  private resolveDone!: (end: CommandEnd) => void;
  private child: ChildProcess | undefined;
  private reason: EndKind | undefined;
  private ended = false;
  private sandboxMessage = '';
  private readonly cleanups: Array<() => void> = [];

  constructor(private readonly spec: CommandSpec) {
    this.output = new OutputBuffer(spec.limits.maxOutputBytes);
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  get running(): boolean {
    return !this.ended;
  }

  async start(): Promise<void> {
    const { spec } = this;
    if (spec.signal?.aborted) return this.finish({ kind: 'aborted', exitCode: null, signal: null }, null);
    let inv: Invocation;
    try {
      inv = await invocation(spec, shellPrelude(spec.limits, spec.sandbox.processLimit && spec.sandbox.kind === 'bubblewrap'));
    } catch (err) {
      return this.finish({ kind: 'start-failed', exitCode: null, signal: null, message: `no private temp folder could be made (${(err as Error).message})` }, null);
    }
    const { env } = commandEnvironment({ ...spec.environment, home: inv.home, tmp: inv.tmp, appendPath: spec.plan.appendPath });
    let child: ChildProcess;
    try {
      child = spawn(inv.file, inv.args, { cwd: spec.plan.copy, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    } catch (err) {
      return this.finish({ kind: 'start-failed', exitCode: null, signal: null, message: startFailure(err, spec, inv.file) }, inv.hostTmp);
    }
    this.child = child;
    if (child.pid !== undefined) trackGroup(child.pid);
    child.stdout!.on('data', (chunk: Buffer) => {
      this.output.push(chunk);
      if (this.output.pendingBytes > spec.limits.killOutputBytes) this.kill('output-limit');
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (this.sandboxMessage.length < MAX_SANDBOX_MESSAGE) this.sandboxMessage += chunk.toString('utf8');
    });
    const stdoutClosed = new Promise<void>((resolve) => child.stdout!.once('close', () => resolve()));
    child.once('error', (err) => {
      if (child.pid === undefined) void this.finish({ kind: 'start-failed', exitCode: null, signal: null, message: startFailure(err, spec, inv.file) }, inv.hostTmp);
    });
    child.once('exit', (code, signal) => {
      // Whatever the shell left running goes with it (a no-op when the group is already empty).
      killGroup(child.pid);
      const grace = new Promise<void>((resolve) => setTimeout(resolve, PIPE_GRACE_MS).unref());
      void Promise.race([stdoutClosed, grace]).then(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        const message = this.sandboxMessage.trim();
        return this.finish({ kind: this.reason ?? 'exited', exitCode: code, signal, ...(message ? { message: message.slice(0, MAX_SANDBOX_MESSAGE) } : {}) }, inv.hostTmp);
      });
    });
    if (spec.timeoutMs !== null) {
      const timer = setTimeout(() => this.kill('timeout'), clampDelay(spec.timeoutMs));
      this.cleanups.push(() => clearTimeout(timer));
    }
    if (spec.signal) {
      const onAbort = () => this.kill('aborted');
      spec.signal.addEventListener('abort', onAbort, { once: true });
      this.cleanups.push(() => spec.signal!.removeEventListener('abort', onAbort));
      if (spec.signal.aborted) onAbort(); // aborted while the temp folder was made
    }
    this.watchDisk();
  }

  /** Stops the command when the copy's disk loses more than the allowed free space while it runs. */
  private watchDisk(): void {
    let baseline: number | undefined;
    let busy = false;
    const check = async () => {
      if (busy || this.ended) return;
      busy = true;
      try {
        const s = await statfs(this.spec.plan.copy);
        const free = Number(s.bavail) * Number(s.bsize);
        baseline ??= free;
        if (baseline - free > this.spec.limits.maxDiskUseBytes) this.kill('disk-limit');
      } catch {
        // The folder vanished or the disk cannot be asked: the command's own end will say what happened.
      } finally {
        busy = false;
      }
    };
    void check();
    const timer = setInterval(() => void check(), DISK_POLL_MS);
    timer.unref();
    this.cleanups.push(() => clearInterval(timer));
  }

  private kill(reason: EndKind): void {
    if (this.ended) return;
    this.reason ??= reason;
    killGroup(this.child?.pid);
  }

  async stop(): Promise<CommandEnd> {
    this.kill('killed');
    return this.done;
  }

  private async finish(end: Omit<CommandEnd, 'durationMs'>, hostTmp: string | null): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    for (const cleanup of this.cleanups) cleanup();
    if (this.child?.pid !== undefined) liveGroups.delete(this.child.pid);
    if (hostTmp) await rm(hostTmp, { recursive: true, force: true }).catch(() => undefined);
    this.resolveDone({ ...end, durationMs: Date.now() - this.startedAt });
  }
}

/** Starts a command; the handle reports its end, including a failure to start. Never rejects. */
export async function startCommand(spec: CommandSpec): Promise<CommandHandle> {
  const command = new RunningCommand(spec);
  await command.start();
  return command;
}

/** Runs a command to its end; the output is what the model gets (capped). Never rejects. */
export async function runCommand(spec: CommandSpec): Promise<{ end: CommandEnd; output: { text: string; bytes: number } }> {
  const handle = await startCommand(spec);
  const end = await handle.done;
  return { end, output: handle.output.take() };
}

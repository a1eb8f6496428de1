// Which sandbox this machine offers agents' commands, found once per process: bubblewrap on Linux when it can
// actually create a sandbox here (unprivileged user namespaces may be disabled, or restricted by AppArmor, so it is
// probed with the very command line every command gets), sandbox-exec on macOS, and otherwise none, in which case
// every command needs the user's approval.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { bwrapArgs } from './bwrap-args';
import { planSandbox } from './plan';
import { DEFAULT_COMMAND_LIMITS } from './policy';

export type SandboxKind = 'bubblewrap' | 'sandbox-exec' | 'none';

/** Options of the installed bubblewrap that the command line uses when present. */
export interface BwrapFeatures {
  /** --disable-userns (bubblewrap 0.8). */
  disableUserns: boolean;
  /** --size for a tmpfs. */
  tmpfsSize: boolean;
}

export interface SandboxInfo {
  kind: SandboxKind;
  /** Absolute path of bwrap or sandbox-exec; null for none. */
  executable: string | null;
  /** Every command needs the user's approval (no sandbox). */
  requiresApproval: boolean;
  /** What isolates commands here, or why nothing does, in words for the user. */
  description: string;
  /** What this sandbox does not do here, in words for the user (empty when nothing). */
  warnings: string[];
  /** bubblewrap only. */
  bwrap?: BwrapFeatures;
  /** The kernel counts `ulimit -u` per sandbox (Linux ≥ 5.14), so it can bound a fork bomb without hurting the user. */
  processLimit: boolean;
}

export const NO_SANDBOX: SandboxInfo = {
  kind: 'none',
  executable: null,
  requiresApproval: true,
  description: 'no sandbox: every command needs the user\'s approval, and runs with the user\'s own rights in the agent\'s copy',
  warnings: [],
  processLimit: false,
};

/** The options `bwrap --help` lists. Pure. */
export function bwrapFeatures(helpText: string): BwrapFeatures {
  return { disableUserns: /--disable-userns\b/.test(helpText), tmpfsSize: /--size\b/.test(helpText) };
}

/**
 * Whether RLIMIT_NPROC is counted per user namespace on this kernel (Linux 5.14, "ucounts"): before that it counts
 * all of the user's processes, and a limit low enough to stop a fork bomb would make ordinary commands fail. Pure.
 */
export function processLimitIsPerSandbox(kernelRelease: string): boolean {
  const m = /^(\d+)\.(\d+)/.exec(kernelRelease);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 5 || (major === 5 && minor >= 14);
}

function run(file: string, args: string[], timeoutMs: number): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, env: { PATH: '/usr/bin:/bin' }, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ ok: !err, stdout: String(stdout), stderr: String(stderr) || (err ? err.message : '') });
    });
  });
}

function findOnPath(name: string): string | null {
  const dirs = ['/usr/bin', '/bin', ...(process.env.PATH ?? '').split(':').filter((d) => path.isAbsolute(d))];
  const found = dirs.map((d) => path.join(d, name)).find((f) => existsSync(f));
  return found ?? null;
}

function unavailable(reason: string): SandboxInfo {
  return { ...NO_SANDBOX, description: `no sandbox (${reason}): every command needs the user's approval, and runs with the user's own rights in the agent's copy` };
}

async function detectBubblewrap(): Promise<SandboxInfo> {
  const bwrap = findOnPath('bwrap');
  if (!bwrap) return unavailable('bubblewrap is not installed; install the "bubblewrap" package to sandbox commands');
  const [help, version] = await Promise.all([run(bwrap, ['--help'], 10_000), run(bwrap, ['--version'], 10_000)]);
  const features = bwrapFeatures(help.stdout + help.stderr);
  const probeDir = await mkdtemp(path.join(os.tmpdir(), 'massgen-sandbox-probe-'));
  try {
    const planned = planSandbox('bubblewrap', probeDir, { network: false });
    if (!planned.ok) return unavailable(`the sandbox could not be planned: ${planned.reason}`);
    const args = [...bwrapArgs(planned.plan, features, { tmpBytes: DEFAULT_COMMAND_LIMITS.tmpBytes }), '--', '/bin/sh', '-c', 'exit 0'];
    const probe = await run(bwrap, args, 10_000);
    if (!probe.ok) {
      const why = probe.stderr.trim().split('\n')[0] || 'it failed';
      return unavailable(`bubblewrap is installed but cannot create a sandbox here: ${why}. Unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or AppArmor's kernel.apparmor_restrict_unprivileged_userns)`);
    }
  } finally {
    await rm(probeDir, { recursive: true, force: true });
  }
  const processLimit = processLimitIsPerSandbox(os.release());
  const warnings: string[] = [];
  if (process.getuid?.() === 0) warnings.push('running as root: the kernel does not apply the process-count limit to root, so a command that forks without end runs until its timeout');
  else if (!processLimit) warnings.push(`Linux ${os.release()} counts processes per user, not per sandbox: no process-count limit is set (Linux 5.14 or later has one)`);
  if (!features.tmpfsSize) warnings.push('this bubblewrap cannot limit the size of the private /tmp (no --size); a newer bubblewrap can');
  const name = version.stdout.trim() || 'bubblewrap';
  return {
    kind: 'bubblewrap',
    executable: bwrap,
    requiresApproval: false,
    description: `${name}: commands see the system read-only, their own copy writable, a private /tmp, and no network unless allowed`,
    warnings,
    bwrap: features,
    processLimit,
  };
}

async function detectSandboxExec(): Promise<SandboxInfo> {
  const exe = '/usr/bin/sandbox-exec';
  if (!existsSync(exe)) return unavailable('sandbox-exec was not found');
  const probe = await run(exe, ['-p', '(version 1)(allow default)', '/usr/bin/true'], 10_000);
  if (!probe.ok) return unavailable(`sandbox-exec cannot run here: ${probe.stderr.trim().split('\n')[0]}`);
  return {
    kind: 'sandbox-exec',
    executable: exe,
    requiresApproval: false,
    description: 'sandbox-exec (macOS Seatbelt): commands may write only to their own copy and a private temp folder, cannot read home folders, and have no network unless allowed',
    warnings: ['macOS has no process namespaces: a command that detaches itself from its process group can outlive its timeout'],
    processLimit: false,
  };
}

let detected: Promise<SandboxInfo> | undefined;

/** The sandbox for agents' commands on this machine; probed once per process (`refresh` probes again). Never rejects. */
export function detectSandbox(options: { refresh?: boolean } = {}): Promise<SandboxInfo> {
  if (!detected || options.refresh) {
    const probe = process.platform === 'linux' ? detectBubblewrap() : process.platform === 'darwin' ? detectSandboxExec() : Promise.resolve(unavailable(`no sandbox is supported on ${process.platform}`));
    detected = probe.catch((err: unknown) => unavailable(`the sandbox probe failed: ${(err as Error).message}`));
  }
  return detected;
}

// The bubblewrap command line for one command. Pure. The order matters: mounts apply in sequence, so the empty
// folders that hide host data come first, then the read-only exposures inside them, then the copy (so a caller's
// exposure that contains the copy cannot make it read-only), and only then are the hiding folders made read-only
// (their mount points had to be created first).
//
//   --unshare-all --unshare-user   own user, PID, IPC, UTS, cgroup and network namespaces (no network: loopback only)
//   --share-net                    only when the user allowed network
//   --disable-userns               no nested user namespaces (a common kernel attack surface), bwrap ≥ 0.8
//   --die-with-parent              the sandbox dies with us, however we end; with the PID namespace, its whole tree
//   (no --new-session)             the runner starts bwrap in a session of its own, with no controlling terminal
//                                  to inject keystrokes into (TIOCSTI); bwrap's --new-session would also take the
//                                  sandbox out of bwrap's process group, where a stop that comes before bwrap has
//                                  armed --die-with-parent could no longer reach it (it outlived a close under load)
//   --cap-drop ALL                 no capabilities, even when the user is root
//   --ro-bind / /                  the system, read-only
//   --dev /dev, --proc /proc       a minimal /dev (read-only but for its devices and a sized /dev/shm) and a procfs
//                                  that shows only the sandbox's processes (not the host's environments)
//   --tmpfs <hidden>               home folders, /run, temp folders… replaced by empty folders, later read-only
//   --size N --tmpfs /tmp          the private /tmp, in memory, bounded; HOME is /tmp/home
//   --bind <copy> <copy>           the agent's copy, writable, at the same path (paths in output mean the same)
//   --chdir <copy>

import type { SandboxPlan } from './plan';
import { SANDBOX_TMP } from './plan';
import type { BwrapFeatures } from './sandbox';

export const SANDBOX_HOME = `${SANDBOX_TMP}/home`;

export interface BwrapOptions {
  /** Size of the private /tmp and of /dev/shm, in bytes. */
  tmpBytes: number;
}

export function bwrapArgs(plan: SandboxPlan, features: BwrapFeatures, options: BwrapOptions): string[] {
  const args = ['--unshare-all', '--unshare-user'];
  if (plan.network) args.push('--share-net');
  if (features.disableUserns) args.push('--disable-userns');
  args.push('--die-with-parent', '--cap-drop', 'ALL');
  const sized = (dest: string) => (features.tmpfsSize ? ['--size', String(options.tmpBytes), '--tmpfs', dest] : ['--tmpfs', dest]);
  args.push('--ro-bind', '/', '/');
  args.push('--dev', '/dev', ...sized('/dev/shm'), '--remount-ro', '/dev');
  args.push('--proc', '/proc');
  const hidden = plan.hidden.filter((h) => h !== SANDBOX_TMP);
  for (const h of hidden) args.push('--tmpfs', h);
  args.push(...sized(SANDBOX_TMP), '--dir', SANDBOX_HOME);
  for (const e of plan.exposures) args.push('--ro-bind-try', e.source, e.dest);
  args.push('--bind', plan.copy, plan.copy);
  for (const h of hidden) args.push('--remount-ro', h);
  args.push('--chdir', plan.copy);
  return args;
}

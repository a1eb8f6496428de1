// What a sandboxed command sees of the host, decided once per agent from facts about the host (never from the
// copy's contents, which the agent controls: a symlink it plants must not widen what the next command sees).
//
// The system is visible read-only. Folders that hold the user's own data are hidden behind an empty, read-only
// folder: home folders (other repositories, ~/.ssh, ~/.aws, ~/.npmrc…), /run (agent, D-Bus and Docker sockets),
// the temp folders (other agents' copies, sockets), /mnt, /media, /srv. A few paths inside them are shown again,
// read-only, because commands need them: the folders on PATH, the Node installation in use and version managers'
// homes (nvm, pyenv… live in the home folder), the real /etc/resolv.conf (systemd keeps it in /run), and what the
// caller names (e.g. the project's node_modules when the copy links to it). The agent's copy is the only writable place besides a private /tmp.

import { realpathSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isExecutableFile } from '../util/executable';
import { isInside } from '../util/paths';
import type { SandboxKind } from './sandbox';

/** A host path shown read-only inside the sandbox at `dest` (the same path, or the symlink that led to it). */
export interface Exposure {
  source: string;
  dest: string;
}

export interface SandboxPlan {
  /** Real path of the agent's copy: the working folder and the only writable folder. */
  copy: string;
  /** Real paths of folders hidden behind an empty read-only folder (Linux) or denied to reads (macOS). */
  hidden: string[];
  /** Paths inside hidden folders shown again read-only. */
  exposures: Exposure[];
  network: boolean;
  /** Folders appended to the command's PATH: where the Node binary in use lives. */
  appendPath: string[];
}

/** What the plan needs to know about the host; `hostFacts()` reads the real ones. */
export interface HostFacts {
  platform: NodeJS.Platform;
  homedir: string;
  tmpdir: string;
  /** The parent's PATH. */
  pathValue: string;
  /** process.execPath: the Node binary (or Electron, in VS Code) running us. */
  execPath: string;
  /** Real path of `p`, or null when it does not exist. */
  realpath(p: string): string | null;
  isDirectory(p: string): boolean;
  isExecutable(p: string): boolean;
}

export function hostFacts(): HostFacts {
  return {
    platform: process.platform,
    homedir: os.homedir(),
    tmpdir: os.tmpdir(),
    pathValue: process.env.PATH ?? '',
    execPath: process.execPath,
    realpath: (p) => {
      try {
        return realpathSync(p);
      } catch {
        return null;
      }
    },
    isDirectory: (p) => {
      try {
        return statSync(p).isDirectory();
      } catch {
        return false;
      }
    },
    isExecutable: isExecutableFile,
  };
}

/** The private, writable /tmp of every bubblewrap command (HOME lives in it). */
export const SANDBOX_TMP = '/tmp';

const LINUX_HIDDEN = ['/home', '/root', '/run', '/tmp', '/var/tmp', '/mnt', '/media', '/srv'];
const MACOS_HIDDEN = ['/Users', '/Volumes'];
/** Never hidden, and a copy may not contain them: hiding or writing them would break or expose the system. */
const SYSTEM = ['/usr', '/bin', '/sbin', '/etc', '/lib', '/lib64', '/opt', '/nix', '/proc', '/dev', '/sys', '/System', '/Library', '/Applications', '/private/etc', '/private/var/db'];

/** The roots to hide on this platform: real directories, none nested in another, never a system folder. */
export function hiddenRoots(kind: SandboxKind, facts: HostFacts): string[] {
  const candidates = kind === 'bubblewrap' ? [...LINUX_HIDDEN, facts.homedir, facts.tmpdir] : kind === 'sandbox-exec' ? [...MACOS_HIDDEN, facts.homedir] : [];
  const roots: string[] = [];
  for (const candidate of candidates) {
    const real = facts.realpath(candidate);
    if (!real || !facts.isDirectory(real)) continue;
    if (SYSTEM.some((s) => isInside(real, s))) continue; // "/" or an ancestor of the system (a home of "/")
    if (!roots.includes(real)) roots.push(real);
  }
  return roots.filter((r) => !roots.some((other) => other !== r && isInside(other, r))).sort();
}

/** Read-only exposures for a path the host needs inside: its real path, and the path itself when that differs. */
function exposuresFor(given: string, hidden: readonly string[], facts: HostFacts): Exposure[] {
  const real = facts.realpath(given);
  if (!real) return [];
  const inHidden = (p: string) => hidden.some((h) => isInside(h, p));
  const found: Exposure[] = [];
  if (inHidden(real)) found.push({ source: real, dest: real });
  const dest = path.resolve(given);
  if (dest !== real && inHidden(dest)) found.push({ source: real, dest });
  return found;
}

/** Whether exposing `p` would show a whole hidden root, a home folder, or one of their ancestors. */
function tooWide(p: string, hidden: readonly string[], facts: HostFacts): boolean {
  return [...hidden, facts.homedir].some((h) => isInside(p, h));
}

/** Folders that run Node: the bin folder, or the whole installation when it sits deep enough (…/.nvm/versions/node/vX). */
function nodeInstallations(facts: HostFacts, hidden: readonly string[]): string[] {
  const binaries: string[] = [];
  if (/^node(\.exe)?$/.test(path.basename(facts.execPath))) binaries.push(facts.execPath);
  const onPath = facts.pathValue.split(':').find((dir) => path.isAbsolute(dir) && facts.isExecutable(path.join(dir, 'node')));
  if (onPath) binaries.push(path.join(onPath, 'node'));
  const folders: string[] = [];
  for (const binary of binaries) {
    const real = facts.realpath(binary);
    if (!real) continue;
    const bin = path.dirname(real);
    const prefix = path.dirname(bin);
    const root = hidden.find((h) => isInside(h, prefix));
    // The prefix holds npm and the global modules; ~/.local itself (depth 2) would show ~/.local/share too.
    const deep = root !== undefined && path.relative(root, prefix).split(path.sep).length >= 3;
    folders.push(path.basename(bin) === 'bin' && deep ? prefix : bin);
  }
  return folders;
}

/**
 * Version managers' homes in the user's home folder: runtimes and their shims, no credentials. Their shims on PATH
 * (pyenv's, rbenv's…) run programs from elsewhere in the same home, so the whole home of the tool is shown.
 * Not ~/.cargo (credentials.toml) nor ~/.local (share/ holds keyrings): only their bin folders, through PATH.
 */
const TOOL_HOMES = ['.pyenv', '.rbenv', '.nodenv', '.goenv', '.nvm', '.volta', '.asdf', '.rustup', '.sdkman', '.local/share/fnm', '.local/share/mise'];

export interface PlanOptions {
  network: boolean;
  /** Host paths the caller wants visible read-only (absolute). */
  readOnlyPaths?: readonly string[];
}

/** The plan for an agent's copy, or why the copy cannot be sandboxed (a host bug: it is not a copy). */
export function planSandbox(kind: SandboxKind, copyFolder: string, options: PlanOptions, facts: HostFacts = hostFacts()): { ok: true; plan: SandboxPlan } | { ok: false; reason: string } {
  if (!path.isAbsolute(copyFolder)) return { ok: false, reason: `the command folder must be an absolute path, not ${JSON.stringify(copyFolder)}` };
  const copy = facts.realpath(copyFolder);
  if (!copy || !facts.isDirectory(copy)) return { ok: false, reason: `the command folder ${copyFolder} does not exist or is not a folder` };
  const hidden = hiddenRoots(kind, facts);
  const guarded = kind === 'bubblewrap' ? [...hidden, SANDBOX_TMP] : hidden;
  if ([...SYSTEM, ...guarded, facts.homedir, '/'].some((p) => isInside(copy, p))) {
    return { ok: false, reason: `the command folder ${copy} is or contains a system, home or temp folder; commands must run in a copy made for the agent` };
  }
  const exposures: Exposure[] = [];
  const add = (list: Exposure[]) => {
    for (const e of list) if (!exposures.some((x) => x.dest === e.dest)) exposures.push(e);
  };
  for (const given of options.readOnlyPaths ?? []) {
    if (!path.isAbsolute(given)) return { ok: false, reason: `read-only path ${JSON.stringify(given)} must be absolute` };
    const real = facts.realpath(given) ?? given;
    if (tooWide(real, hidden, facts) || tooWide(path.resolve(given), hidden, facts)) {
      return { ok: false, reason: `read-only path ${given} would show a whole home or temp folder; name the folder inside it that commands need` };
    }
    add(exposuresFor(given, hidden, facts));
  }
  const automatic = [
    ...facts.pathValue.split(':').filter((dir) => path.isAbsolute(dir)),
    ...nodeInstallations(facts, hidden),
    ...TOOL_HOMES.map((name) => path.join(facts.homedir, name)).filter((p) => facts.isDirectory(p)),
    ...(kind === 'bubblewrap' ? ['/etc/resolv.conf'] : []),
  ];
  for (const given of automatic) {
    const real = facts.realpath(given);
    if (real && !tooWide(real, hidden, facts) && !tooWide(path.resolve(given), hidden, facts)) add(exposuresFor(given, hidden, facts));
  }
  // A path shown inside another one shown as itself adds nothing (~/.nvm/versions/node/v20 inside ~/.nvm).
  const same = (e: Exposure) => e.source === e.dest;
  const needed = exposures.filter((e) => !(same(e) && exposures.some((o) => o !== e && same(o) && o.dest !== e.dest && isInside(o.dest, e.dest))));
  const appendPath = /^node(\.exe)?$/.test(path.basename(facts.execPath)) ? [path.dirname(facts.execPath)] : [];
  return { ok: true, plan: { copy, hidden, exposures: needed, network: options.network, appendPath } };
}

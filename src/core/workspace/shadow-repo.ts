// A run's private git repository (the "shadow"): a bare repository in the run folder that borrows the user's
// object store read-only (objects/info/alternates), so the user's history is available without copying it, while
// every object, ref and index this run makes lands in the shadow. Nothing here writes to the user's repository.
// (One thing git does by itself: when it hashes content that already exists in the borrowed store, it refreshes
// that object file's or pack's modification time, as every `git add` does, so gc keeps it. Bytes never change.)
//
// The shadow's own config carries the user's line-ending and file-system settings (so copies look as the user's
// checkout does) and switches off everything that could run a program, prompt or reach the network: hooks, filter
// drivers (Git LFS, git-crypt…), fsmonitor, commit signing, submodule recursion, automatic gc. Writing these into
// the config, rather than passing `-c` to our own calls, also covers the git commands agents run in their copies.

import { appendFile, mkdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { git } from './git';

/** Name of the shadow repository inside the run folder (labels cannot contain a dot, so no agent folder clashes). */
export const SHADOW_DIR = 'shadow.git';
/** Private index files (baseline, one per agent) inside the shadow. */
export const INDEX_DIR = 'massgen-index';
/** Namespace of the shadow's refs: the baseline and every recorded answer version. */
export const REF_PREFIX = 'refs/massgen/';

/** Author and committer of the shadow's commits; fixed, so no user identity or config is needed. */
export const IDENTITY_ENV: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: 'MassGen',
  GIT_AUTHOR_EMAIL: 'massgen@localhost',
  GIT_COMMITTER_NAME: 'MassGen',
  GIT_COMMITTER_EMAIL: 'massgen@localhost',
};

/** What the user's git does that the shadow must do the same way, read from the user's effective config. */
export interface UserGitSettings {
  /** Settings copied as they are (line endings, symlinks, file modes, case, excludes). */
  carried: Array<[key: string, value: string]>;
  /** Filter drivers configured anywhere (lfs, crypt…): switched off in the shadow. */
  filters: string[];
  objectFormat: 'sha1' | 'sha256';
}

// Lower-case, as `git config --list` prints keys. safecrlf is not carried: it would make the baseline fail.
const CARRIED_KEYS = new Set([
  'core.autocrlf',
  'core.eol',
  'core.symlinks',
  'core.filemode',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.excludesfile',
  'core.attributesfile',
  'core.longpaths',
]);

/** Parses `git config -z --list` output (`key\nvalue\0`; a key alone means "true"). Pure. */
export function parseConfigList(out: Buffer | string): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const record of out.toString('utf8').split('\0')) {
    if (record === '') continue;
    const nl = record.indexOf('\n');
    entries.push(nl < 0 ? [record, 'true'] : [record.slice(0, nl), record.slice(nl + 1)]);
  }
  return entries;
}

/** Picks the settings the shadow needs from the user's config entries (later entries win, as in git). Pure. */
export function settingsFromConfig(entries: ReadonlyArray<readonly [string, string]>): UserGitSettings {
  const carried = new Map<string, string>();
  const filters = new Set<string>(['lfs']); // always: LFS is the common case, and switching it off costs nothing
  let objectFormat: 'sha1' | 'sha256' = 'sha1';
  for (const [key, value] of entries) {
    const k = key.toLowerCase();
    if (CARRIED_KEYS.has(k)) carried.set(k, value);
    else if (k === 'extensions.objectformat' && value.toLowerCase() === 'sha256') objectFormat = 'sha256';
    const filter = /^filter\.(.+)\.[^.]+$/i.exec(key);
    if (filter) filters.add(filter[1]);
  }
  return { carried: [...carried], filters: [...filters].sort(), objectFormat };
}

/**
 * The user's effective settings for `cwd` (a repository or a plain folder). The system config is read too, unlike
 * in our other calls: Git for Windows sets core.autocrlf there, and copies must get the line endings the user gets.
 */
export async function readUserGitSettings(cwd: string, signal?: AbortSignal): Promise<UserGitSettings> {
  const out = await git(['config', '-z', '--list'], { cwd, env: { GIT_CONFIG_NOSYSTEM: '0' }, okCodes: [0, 1], signal });
  return settingsFromConfig(parseConfigList(out.stdout));
}

/** A config value, quoted so spaces, `#`, `;`, quotes and backslashes survive. Pure. */
export function quoteConfigValue(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

function section(name: string, subsection?: string): string {
  return subsection === undefined ? `[${name}]` : `[${name} ${quoteConfigValue(subsection)}]`;
}

/** The config text appended to a fresh shadow (later values win over the ones git init wrote). Pure. */
export function shadowConfigText(settings: UserGitSettings, hooksPath: string): string {
  const lines: string[] = [];
  const put = (key: string, value: string): void => {
    lines.push(`\t${key} = ${quoteConfigValue(value)}`);
  };
  lines.push(section('core'));
  for (const [key, value] of settings.carried) put(key.slice('core.'.length), value);
  put('hooksPath', hooksPath); // an empty folder: no hook (nor a global core.hooksPath) runs in the shadow
  put('fsmonitor', 'false');
  put('safecrlf', 'false');
  put('splitIndex', 'false');
  lines.push(section('gc'));
  put('auto', '0'); // the snapshot size measure counts loose objects; and a gc must not race our refs
  lines.push(section('maintenance'));
  put('auto', 'false');
  lines.push(section('commit'));
  put('gpgSign', 'false'); // commit-tree honours it, and signing would prompt
  lines.push(section('submodule'));
  put('recurse', 'false'); // would clone submodules over the network
  lines.push(section('advice'));
  put('addEmbeddedRepo', 'false');
  put('detachedHead', 'false');
  for (const name of settings.filters) {
    lines.push(section('filter', name));
    put('smudge', '');
    put('clean', '');
    put('process', '');
    put('required', 'false');
  }
  return `${lines.join('\n')}\n`;
}

/** Environment for a git call on the shadow; `extra` adds GIT_WORK_TREE, GIT_INDEX_FILE… */
export function shadowEnv(gitDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { GIT_DIR: gitDir, ...extra };
}

/**
 * Creates the shadow at `gitDir`. `objectStore`, when given, is the user's objects folder, borrowed read-only.
 * No template (so no sample hooks), and the same object format as the user's repository (alternates need it).
 */
export async function createShadow(gitDir: string, settings: UserGitSettings, objectStore: string | null, signal?: AbortSignal): Promise<void> {
  const format = settings.objectFormat === 'sha256' ? ['--object-format=sha256'] : [];
  await git(['init', '--bare', '--quiet', '--template=', ...format, gitDir], { signal });
  await appendFile(path.join(gitDir, 'config'), shadowConfigText(settings, path.join(gitDir, 'hooks')));
  await mkdir(path.join(gitDir, 'info'), { recursive: true });
  await mkdir(path.join(gitDir, INDEX_DIR), { recursive: true });
  if (objectStore !== null) {
    await mkdir(path.join(gitDir, 'objects', 'info'), { recursive: true });
    await appendFile(path.join(gitDir, 'objects', 'info', 'alternates'), `${objectStore}\n`);
  }
}

/** The borrowed object store when it has disappeared (the user's repository was deleted during the run), else null. */
export async function missingObjectStore(gitDir: string): Promise<string | null> {
  const text = await readFile(path.join(gitDir, 'objects', 'info', 'alternates'), 'utf8').catch(() => '');
  for (const store of text.split('\n').filter((l) => l !== '')) {
    if (!(await stat(store).then((st) => st.isDirectory(), () => false))) return store;
  }
  return null;
}

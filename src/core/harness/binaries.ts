// Where a coding agent's program is found, in order: the config's `path`, the user's PATH, the copy shipped inside
// the program's VS Code extension, and its SDK's platform package when one is installed beside us (the test rig's).
// The VSIX never carries the programs. What is missing is said with how to install it.

import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { HARNESS_PROGRAMS } from '../config/harness-settings';
import type { AgentConfig, HarnessProgram } from '../config/types';
import { isExecutableFile } from '../util/executable';

export interface ProgramLocation {
  path: string;
  /** Where it was found, in words for `massgen validate` and the start page. */
  source: 'the config' | 'PATH' | 'its VS Code extension' | 'its SDK package';
}

/** The file system as the locator uses it, so tests can lay out folders of their own. */
export interface LocatorFs {
  isExecutable(path: string): boolean;
  /** The entries of a folder, [] when it cannot be read. */
  list(dir: string): string[];
}

const nodeFs: LocatorFs = {
  isExecutable: isExecutableFile,
  list(dir) {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
};

interface ProgramFacts {
  executable: string;
  /** Folder-name prefixes of its VS Code extension, and where the executable sits inside one. */
  extensionPrefix: string;
  inExtension(extensionDir: string, fs: LocatorFs): string[];
  /** Its SDK's platform package, when node can resolve one. */
  sdkPackage(fs: LocatorFs): string[];
  install: string;
}

const platformTag = `${process.platform}-${process.arch}`;

/** Resolves a package's folder from here, or null (absent, or a stand-in without the program). */
function packageDir(name: string): string | null {
  try {
    return require.resolve(`${name}/package.json`).replace(/[\\/]package\.json$/, '');
  } catch {
    return null;
  }
}

/** Every file named `name` at most `depth` folders below `dir` (the extensions keep their binary in bin/<platform>/). */
function findBelow(dir: string, name: string, depth: number, fs: LocatorFs): string[] {
  const found: string[] = [];
  for (const entry of fs.list(dir)) {
    const path = join(dir, entry);
    if (entry === name) found.push(path);
    else if (depth > 0) found.push(...findBelow(path, name, depth - 1, fs));
  }
  return found;
}

const PROGRAMS: Readonly<Record<HarnessProgram, ProgramFacts>> = {
  claude_code: {
    executable: 'claude',
    extensionPrefix: 'anthropic.claude-code-',
    inExtension: (dir, fs) => findBelow(join(dir, 'resources'), 'claude', 2, fs),
    sdkPackage: () => [packageDir(`@anthropic-ai/claude-agent-sdk-${platformTag}`)].filter((d) => d !== null).map((d) => join(d, 'claude')),
    install: 'install Claude Code (npm install -g @anthropic-ai/claude-code, or the Claude Code extension for VS Code) and sign in with `claude`, or set backend.path',
  },
  codex: {
    executable: 'codex',
    extensionPrefix: 'openai.chatgpt-',
    inExtension: (dir, fs) => findBelow(join(dir, 'bin'), 'codex', 2, fs),
    sdkPackage: (fs) => {
      const dir = packageDir(`@openai/codex-${platformTag}`);
      return dir ? findBelow(join(dir, 'vendor'), 'codex', 3, fs) : [];
    },
    install: 'install Codex (npm install -g @openai/codex, or the Codex extension for VS Code) and sign in with `codex login`, or set backend.path',
  },
};


/** The folders VS Code and its forks keep extensions in, newest installs first within each. */
function extensionDirs(home: string, env: NodeJS.ProcessEnv): string[] {
  const roots = [env.VSCODE_EXTENSIONS, join(home, '.vscode', 'extensions'), join(home, '.vscode-server', 'extensions'), join(home, '.vscode-insiders', 'extensions'), join(home, '.cursor', 'extensions')];
  return roots.filter((r): r is string => !!r);
}

/** Extension folders by version, newest first (2.10.0 before 2.9.0). */
const newestFirst = (a: string, b: string) => b.localeCompare(a, 'en', { numeric: true });

/** Finds the program, or returns null. `configured` is the config's `path`, which must then be the program. */
export function locateProgram(program: HarnessProgram, options: { configured?: string; env: NodeJS.ProcessEnv; home: string; fs?: LocatorFs }): ProgramLocation | null {
  const fs = options.fs ?? nodeFs;
  const facts = PROGRAMS[program];
  if (options.configured) return fs.isExecutable(options.configured) ? { path: options.configured, source: 'the config' } : null;
  const names = process.platform === 'win32' ? [`${facts.executable}.exe`, `${facts.executable}.cmd`] : [facts.executable];
  for (const dir of (options.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      if (fs.isExecutable(join(dir, name))) return { path: join(dir, name), source: 'PATH' };
    }
  }
  for (const root of extensionDirs(options.home, options.env)) {
    const extensions = fs.list(root).filter((e) => e.startsWith(facts.extensionPrefix)).sort(newestFirst);
    for (const ext of extensions) {
      const hit = facts.inExtension(join(root, ext), fs).find((p) => fs.isExecutable(p));
      if (hit) return { path: hit, source: 'its VS Code extension' };
    }
  }
  const packaged = facts.sdkPackage(fs).find((p) => fs.isExecutable(p));
  return packaged ? { path: packaged, source: 'its SDK package' } : null;
}

/** Where the program of a coding agent is, as its config and the machine say. */
function locate(agent: AgentConfig, env: NodeJS.ProcessEnv, home: string): ProgramLocation | null {
  const settings = agent.backend.harness!;
  return locateProgram(settings.program, { configured: settings.path, env, home });
}

/** What a coding agent whose program cannot be found is told: where it was looked for, and how to install it. */
export function notFoundMessage(agent: AgentConfig): string {
  const settings = agent.backend.harness!;
  const where = settings.path ? `at ${settings.path} (backend.path)` : 'on PATH, in its VS Code extension or its SDK package';
  return `agent '${agent.id}' uses ${HARNESS_PROGRAMS[settings.program]}, which was not found ${where}: ${PROGRAMS[settings.program].install}.`;
}

/** One line on a coding agent's program: where it was found and which login it will use, or how to install it. */
export function describeProgram(agent: AgentConfig, env: NodeJS.ProcessEnv, home = homedir()): string {
  const location = locate(agent, env, home);
  if (!location) return notFoundMessage(agent);
  const login = agent.backend.apiKey
    ? `the key in ${agent.backend.apiKeyEnv ?? 'backend.api_key'}`
    : agent.backend.harness!.program === 'claude_code' ? 'your Claude login (`claude` to sign in)' : 'your ChatGPT login (`codex login`)';
  return `agent '${agent.id}' runs ${HARNESS_PROGRAMS[agent.backend.harness!.program]} at ${location.path} (found in ${location.source}), signed in with ${login}.`;
}

/** What the first coding agent whose program cannot be found is told, or null. */
export function missingProgram(agents: readonly AgentConfig[], env: NodeJS.ProcessEnv, home = homedir()): string | null {
  const agent = agents.find((a) => a.backend.harness && !locate(a, env, home));
  return agent ? notFoundMessage(agent) : null;
}

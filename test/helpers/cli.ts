// The real `massgen` bundle as a subprocess, for the integration tests: built here with esbuild from the current
// sources (as esbuild.mjs builds it), run with a bare environment so no real key from the developer's shell leaks in.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import type { FakeOpenAIServer } from '../fakes/openai-server';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  cwd: string;
  /** Added to the bare environment (PATH, and HOME = the work folder). */
  env?: NodeJS.ProcessEnv;
  /** Called once the process runs: to signal it, or to write its stdin (a pipe only when `stdin` is true). */
  onSpawn?(child: { kill(sig: NodeJS.Signals): void; write(text: string): void; end(): void }): void;
  stdin?: boolean;
  /** Failure guard: past this the process is killed with SIGKILL (the run then ends with code null). */
  guardMs?: number;
}

/** Builds cli.js (and the cli-main.js it loads, and the agents' SDKs it may load) into `dir`; returns cli.js's path. */
export async function buildCli(dir: string): Promise<string> {
  const esbuildApi = (await import('esbuild')) as typeof esbuild;
  const { nodeBundles } = (await import(pathToFileURL(join(process.cwd(), 'esbuild.mjs')).href)) as { nodeBundles(o: { outdir: string; production: boolean }): Record<string, esbuild.BuildOptions> };
  const bundles = nodeBundles({ outdir: dir, production: false });
  const wanted = [bundles['cli.js'], bundles['cli-main.js'], bundles['claude-agent-sdk.js'], bundles['codex-sdk.js']];
  await Promise.all(wanted.map((options) => esbuildApi.build({ ...options, sourcemap: false, logLevel: 'error' })));
  return join(dir, 'cli.js');
}

/** What a CLI suite's tests share: the built cli.js, and the fake server the running test started (closed after it). */
export interface CliSuite {
  cli: string;
  server?: FakeOpenAIServer;
}

const built = new Map<string, string>();

/**
 * The mocha scaffolding every CLI integration suite repeated, kept here once. Call it inside a `describe`: it builds
 * the CLI into `work` before the suite (once per folder, so two suites of one file share the build), and closes the
 * test's `server`, if it set one, after each test, so a failing test leaves no server behind.
 */
export function cliSuite(work: string): CliSuite {
  const suite: CliSuite = { cli: '' };
  before(async () => {
    suite.cli = built.get(work) ?? (await buildCli(work));
    built.set(work, suite.cli);
  });
  afterEach(async () => {
    await suite.server?.close();
    suite.server = undefined;
  });
  return suite;
}

/** CLIs still running: the test process ending any way (a failure, mocha's exit) must not leave one behind. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function runCli(cli: string, args: string[], options: CliRunOptions): Promise<CliRun> {
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH, HOME: options.cwd, ...options.env };
    const child = spawn(process.execPath, [cli, ...args], { cwd: options.cwd, env, stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    options.onSpawn?.({
      kill: (sig) => child.kill(sig),
      write: (text) => child.stdin?.write(text),
      end: () => child.stdin?.end(),
    });
    const guard = options.guardMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.guardMs);
    child.on('close', (code) => {
      clearTimeout(guard);
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

export function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

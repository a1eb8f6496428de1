// Runs git for workspace runs (copies, snapshots, patches, search). One place decides the environment: nothing of
// the caller's GIT_* variables (a hook's GIT_DIR would point git at the wrong repository), no prompts, no pager, and
// no optional locks, so reading the user's repository never rewrites its index.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export class GitError extends Error {
  constructor(
    message: string,
    readonly args: readonly string[],
    readonly stderr: string,
    readonly exitCode: number | null,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

export interface GitOptions {
  cwd?: string;
  /** Added to the scrubbed environment (GIT_INDEX_FILE, GIT_DIR, GIT_WORK_TREE…). */
  env?: Record<string, string>;
  input?: string | Buffer;
  signal?: AbortSignal;
  /** Exit codes that are not failures (`git diff --quiet` exits 1 for "differs"). Default [0]. */
  okCodes?: readonly number[];
  /** Refuse output beyond this many bytes (default 256 MiB): a runaway command is an error, not an OOM. */
  maxOutputBytes?: number;
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

/** The environment git runs with: the caller's, minus GIT_* and anything that would prompt or page. */
export function gitEnv(extra: Record<string, string> = {}, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !k.startsWith('GIT_')) env[k] = v;
  Object.assign(env, {
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
  });
  return Object.assign(env, extra);
}

/** Runs `git args…`; rejects with a GitError naming the command and git's own message. */
export function git(args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const okCodes = options.okCodes ?? [0];
  const max = options.maxOutputBytes ?? 256 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: options.cwd, env: gitEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'], signal: options.signal });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let overflow = false;
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > max) {
        overflow = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 64 * 1024) err += chunk.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') reject(new GitError('git is not installed or not on PATH; workspace runs need git (https://git-scm.com)', args, '', null));
      else if (e.name === 'AbortError') reject(new GitError(`git ${args[0]} was cancelled`, args, err, null));
      else reject(new GitError(`git ${args[0]} could not start: ${e.message}`, args, err, null));
    });
    child.on('close', (code) => {
      if (overflow) return reject(new GitError(`git ${args[0]} produced more than ${max} bytes of output`, args, err, code));
      if (code !== null && okCodes.includes(code)) return resolve({ stdout: Buffer.concat(out), stderr: err, exitCode: code });
      const first = err.trim().split('\n').find((l) => l.trim()) ?? `exit code ${code}`;
      reject(new GitError(`git ${args[0]} failed: ${first.replace(/^(fatal|error): /, '')}`, args, err, code));
    });
    child.stdin.on('error', () => undefined); // git may exit before reading all its input
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Starts git with the same environment as `git()` for a process the caller drives itself: a long-lived
 * `cat-file --batch`, or a search whose output is read as it comes and cut short. The caller must end it.
 */
export function spawnGit(args: readonly string[], options: Pick<GitOptions, 'cwd' | 'env'> = {}): ChildProcessWithoutNullStreams {
  return spawn('git', args, { cwd: options.cwd, env: gitEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** `git args…` stdout as trimmed text. */
export async function gitText(args: readonly string[], options: GitOptions = {}): Promise<string> {
  return (await git(args, options)).stdout.toString('utf8').trim();
}

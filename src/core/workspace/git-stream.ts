// Runs git and reads its output as it comes, so a caller can stop it early (a search that has enough matches, a
// file listing that is already over a limit) and so a slow one can be cut off by a timeout or a cancellation.

import { existsSync } from 'node:fs';
import { GitError, spawnGit } from './git';

export interface StreamOptions {
  cwd?: string;
  env?: Record<string, string>;
  signal?: AbortSignal;
  /** Kill git after this long. */
  timeoutMs?: number;
}

export interface StreamEnd {
  /** null when git was killed. */
  exitCode: number | null;
  stderr: string;
  /** The caller asked to stop. */
  stopped: boolean;
  timedOut: boolean;
  cancelled: boolean;
}

/**
 * Runs `git args…`, handing each stdout chunk to `onStdout`; returning true kills git. Resolves when git has ended,
 * however it ended; rejects only when git cannot be started.
 */
export function streamGit(args: readonly string[], onStdout: (chunk: Buffer) => boolean, options: StreamOptions = {}): Promise<StreamEnd> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve({ exitCode: null, stderr: '', stopped: false, timedOut: false, cancelled: true });
      return;
    }
    let stderr = '';
    let stopped = false;
    let timedOut = false;
    let cancelled = false;
    let child: ReturnType<typeof spawnGit> | undefined;
    const kill = (): void => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const onAbort = (): void => {
      cancelled = true;
      kill();
    };
    // Armed before the spawn, so the time git takes to start counts, and a git that ends at once under load (its end
    // read in the loop's first turn) cannot slip past a timeout that was already due.
    const timer = options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          kill();
        }, options.timeoutMs);
    try {
      child = spawnGit(args, { cwd: options.cwd, env: options.env });
    } catch (e) {
      // spawn throws for what it refuses outright (an argument over the system's limit: E2BIG).
      clearTimeout(timer);
      reject(new GitError(`git ${args[0]} could not start: ${(e as Error).message}`, args, '', null));
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped || timedOut || cancelled) return;
      if (onStdout(chunk)) {
        stopped = true;
        kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end();
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (e.code === 'ENOENT' && options.cwd !== undefined && !existsSync(options.cwd)) reject(new GitError('the folder git was to run in does not exist any more', args, '', null));
      else if (e.code === 'ENOENT') reject(new GitError('git is not installed or not on PATH; workspace runs need git (https://git-scm.com)', args, '', null));
      else reject(new GitError(`git ${args[0]} could not start: ${e.message}`, args, stderr, null));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode: code, stderr, stopped, timedOut, cancelled });
    });
  });
}

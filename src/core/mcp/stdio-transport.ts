// A stdio transport for MCP servers that leaves no process behind. The SDK's own StdioClientTransport kills only the
// process it started, so a server launched through `npx`, `uvx` or a shell script leaves its real server running
// as an orphan. Here the server starts in a process group of its own (POSIX) and closing ends the whole group:
// close stdin (the polite MCP way), wait a moment, SIGTERM the group, wait, SIGKILL it. On Windows the tree is
// ended with `taskkill /T /F`. Every live group is also killed if this process exits without closing them.
//
// The environment is exactly what the caller passes (see `serverEnvironment`); stderr goes to a callback.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { ReadBuffer, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const isWindows = process.platform === 'win32';
const STDIO_MAX_MESSAGE_MIB = STDIO_DEFAULT_MAX_BUFFER_SIZE / (1024 * 1024);

/** Variables a stdio server inherits from our environment when the config does not set them. */
export const BASE_ENV_VARS: readonly string[] = isWindows
  ? ['PATH', 'PATHEXT', 'SYSTEMROOT', 'SYSTEMDRIVE', 'WINDIR', 'COMSPEC', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'HOMEDRIVE', 'HOMEPATH', 'APPDATA', 'LOCALAPPDATA', 'PROGRAMFILES', 'PROGRAMDATA', 'PROCESSOR_ARCHITECTURE', 'NUMBER_OF_PROCESSORS']
  : ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'TMPDIR', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'];

/**
 * The environment of a stdio server: the minimal base (PATH, HOME… so `node`, `npx` and `uvx` work) taken from
 * `from`, plus the configured variables. Nothing else of our environment (API keys included) reaches the server.
 */
export function serverEnvironment(configured: Record<string, string> | undefined, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  const wanted = new Set(BASE_ENV_VARS.map((k) => k.toUpperCase()));
  for (const [k, v] of Object.entries(from)) {
    // Windows variable names are case-insensitive (Path vs PATH); shell functions are never passed on.
    if (v !== undefined && wanted.has(isWindows ? k.toUpperCase() : k) && !v.startsWith('()')) env[k] = v;
  }
  return { ...env, ...configured };
}

// ---- Windows: commands such as npx are .cmd files, which Node only starts through cmd.exe --------------------

const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

function envValue(env: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/** The file a bare command name runs on Windows (PATH × PATHEXT), or undefined. */
function resolveWindowsCommand(command: string, env: Record<string, string>, cwd?: string): string | undefined {
  const exts = (envValue(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  const candidates = (base: string) => (path.extname(base) ? [base, ...exts.map((e) => base + e)] : exts.map((e) => base + e));
  if (/[\\/]/.test(command)) return candidates(path.resolve(cwd ?? process.cwd(), command)).find((f) => existsSync(f));
  for (const dir of [cwd ?? process.cwd(), ...(envValue(env, 'PATH') ?? '').split(';').filter(Boolean)]) {
    const hit = candidates(path.join(dir, command)).find((f) => existsSync(f));
    if (hit) return hit;
  }
  return undefined;
}

/** Escapes one argument for `cmd.exe /d /s /c "…"` (the algorithm of cross-spawn, after https://qntm.org/cmd). */
export function escapeCmdArgument(arg: string, doubleEscape: boolean): string {
  let a = arg.replace(/(?=(\\+?)?)\1"/g, '$1$1\\"').replace(/(?=(\\+?)?)\1$/, '$1$1');
  a = `"${a}"`.replace(CMD_META, '^$1');
  return doubleEscape ? a.replace(CMD_META, '^$1') : a;
}

/** How to spawn `command args` without a shell on POSIX, and through cmd.exe for .cmd/.bat files on Windows. */
function spawnPlan(command: string, args: string[], env: Record<string, string>, cwd?: string): { file: string; args: string[]; verbatim: boolean } {
  if (!isWindows) return { file: command, args, verbatim: false };
  const resolved = resolveWindowsCommand(command, env, cwd);
  if (resolved && /\.(com|exe)$/i.test(resolved)) return { file: resolved, args, verbatim: false };
  const shim = Boolean(resolved && /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i.test(resolved));
  const line = [path.normalize(command).replace(CMD_META, '^$1'), ...args.map((a) => escapeCmdArgument(a, shim))].join(' ');
  return { file: envValue(env, 'COMSPEC') ?? process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${line}"`], verbatim: true };
}

// ---- the process registry: kill what is left if the host process exits -------------------------------------

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (isWindows) {
      if (signal === 'SIGKILL' || signal === 'SIGTERM') spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' });
    } else {
      process.kill(-pid, signal);
    }
  } catch {
    // Already gone (ESRCH), or not ours to kill.
  }
}

function track(child: ChildProcess): void {
  live.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of live) killTree(c, 'SIGKILL');
    });
  }
}

/** Pids of the MCP server processes this process has started and not yet seen end (tests, diagnostics). */
export function liveServerPids(): number[] {
  return [...live].flatMap((c) => (c.pid === undefined ? [] : [c.pid]));
}

export interface StdioServerParams {
  command: string;
  args?: string[];
  /** The complete environment (see `serverEnvironment`). */
  env: Record<string, string>;
  cwd?: string;
  /** Lines the server writes to stderr. */
  onStderr?: (line: string) => void;
  /** How long to wait after closing stdin, and after SIGTERM, before the next step (ms). */
  closeGraceMs?: number;
}

export class ProcessGroupStdioTransport implements Transport {
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private exited: Promise<void> | undefined;
  private closed = false;
  private stderrTail = '';
  /** Why this side closed the server, for `exitStatus`; undefined when it ended on its own or on `close`. */
  private dropReason: string | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly params: StdioServerParams) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Exit code or signal once the process ended, for messages. */
  exitStatus: string | undefined;

  start(): Promise<void> {
    if (this.child) throw new Error('already started');
    if (this.closed) return Promise.reject(new Error('the transport was closed'));
    return new Promise((resolve, reject) => {
      const plan = spawnPlan(this.params.command, this.params.args ?? [], this.params.env, this.params.cwd);
      const child = spawn(plan.file, plan.args, {
        env: this.params.env,
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsVerbatimArguments: plan.verbatim,
        // Its own process group, so closing reaches grandchildren (npx → node). Windows: taskkill /T instead.
        detached: !isWindows,
        windowsHide: true,
        shell: false,
      });
      this.child = child;
      let spawned = false;
      // 'close' may not follow a failed spawn; 'error' then ends the wait too.
      this.exited = new Promise((done) => {
        child.once('close', () => done());
        child.once('error', () => {
          if (!spawned) done();
        });
      });
      child.once('spawn', () => {
        spawned = true;
        track(child);
        resolve();
      });
      child.once('error', (err) => {
        if (!spawned) {
          const code = (err as NodeJS.ErrnoException).code;
          const hint = code === 'ENOENT' ? ` (command "${this.params.command}" not found${this.params.cwd ? ` or cwd "${this.params.cwd}" missing` : ''})` : code === 'EACCES' ? ` (command "${this.params.command}" is not executable)` : '';
          reject(new Error(`cannot start "${this.params.command}": ${code ?? err.message}${hint}`));
        } else {
          this.onerror?.(err);
        }
      });
      child.once('close', (code, signal) => {
        live.delete(child);
        const status = signal ? `killed by ${signal}` : `exit code ${code}`;
        this.exitStatus = this.dropReason ? `closed because ${this.dropReason}; ${status}` : status;
        // Anything the server left running in its group goes too (a no-op when the group is already empty).
        killTree(child, 'SIGKILL');
        if (spawned) this.onclose?.();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => {
        if (this.closed) return; // what a server dropped for an oversized message still says is not read
        try {
          this.buffer.append(chunk);
        } catch (err) {
          // The SDK's ReadBuffer throws past 10 MiB without a line end. Thrown from this handler it would be an
          // uncaught exception that ends the whole process: drop the server instead, as the SDK's own transport does.
          this.dropReason = `it wrote a message larger than the ${STDIO_MAX_MESSAGE_MIB} MiB limit`;
          this.onerror?.(new Error(`the MCP server "${this.params.command}" was closed: ${this.dropReason} (${(err as Error).message})`));
          void this.close();
          return;
        }
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (err) {
            // A line that is not JSON-RPC (a server logging to stdout): report and skip it.
            this.onerror?.(err as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        const text = this.stderrTail + chunk;
        const lines = text.split(/\r?\n/);
        this.stderrTail = lines.pop() ?? '';
        if (this.stderrTail.length > 4000) {
          lines.push(this.stderrTail);
          this.stderrTail = '';
        }
        for (const line of lines) if (line.trim()) this.params.onStderr?.(line.slice(0, 2000));
      });
      child.stderr?.on('end', () => {
        if (this.stderrTail.trim()) this.params.onStderr?.(this.stderrTail.slice(0, 2000));
        this.stderrTail = '';
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed || stdin.destroyed) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server and everything it started; resolves when the process is gone. Safe to call more than once. */
  async close(): Promise<void> {
    const child = this.child;
    const first = !this.closed;
    this.closed = true;
    if (child && this.exited) {
      const grace = this.params.closeGraceMs ?? 1000;
      const waitExit = (ms: number) =>
        Promise.race([this.exited!.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
      if (child.exitCode === null && child.signalCode === null) {
        try {
          child.stdin?.end();
        } catch {
          // ignore
        }
        if (!(await waitExit(grace))) {
          killTree(child, 'SIGTERM');
          if (!(await waitExit(grace))) killTree(child, 'SIGKILL');
        }
      }
      await waitExit(5000);
    }
    this.buffer.clear();
    // The client learns of the close from here when the process had not ended on its own.
    if (first && child === undefined) this.onclose?.();
  }
}

// Reads git objects from the shadow through long-lived `git cat-file --batch` / `--batch-check` processes: one
// process answers any number of reads, so browsing a peer's snapshot costs a pipe write per file, not a process
// start. Requests are object ids only (never paths), answered in order. An idle process is ended after a while.

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnGit } from './git';
import { shadowEnv } from './shadow-repo';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface ObjectInfo {
  type: ObjectType;
  size: number;
}

export interface GitObject extends ObjectInfo {
  data: Buffer;
}

export interface RawTreeEntry {
  /** Octal mode as git writes it: 40000 (tree), 100644, 100755, 120000 (symlink), 160000 (submodule). */
  mode: string;
  name: string;
  oid: string;
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const IDLE_MS = 15_000;

/** Parses a raw tree object (`mode SP name NUL binary-oid`…). `oidBytes` is 20 (SHA-1) or 32 (SHA-256). Pure. */
export function parseTree(data: Buffer, oidBytes: number): RawTreeEntry[] {
  const entries: RawTreeEntry[] = [];
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    const nul = data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + oidBytes > data.length) throw new Error('damaged tree object');
    entries.push({
      mode: data.subarray(i, space).toString('latin1'),
      name: data.subarray(space + 1, nul).toString('utf8'),
      oid: data.subarray(nul + 1, nul + 1 + oidBytes).toString('hex'),
    });
    i = nul + 1 + oidBytes;
  }
  return entries;
}

interface Pending {
  resolve(value: GitObject | null): void;
  reject(err: Error): void;
}

const NO_DATA = Buffer.alloc(0);

/**
 * One `cat-file` process; `withContent` selects --batch (header and content) or --batch-check (header only, and
 * `data` is empty).
 */
class BatchProcess {
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly queue: Pending[] = [];
  private header: Buffer = Buffer.alloc(0);
  /** While reading an object's content: where it goes and how much has arrived. */
  private body: { info: ObjectInfo; data: Buffer; filled: number } | null = null;
  private idle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly gitDir: string,
    private readonly withContent: boolean,
  ) {}

  request(oid: string): Promise<GitObject | null> {
    if (!OID.test(oid)) return Promise.reject(new Error(`not an object id: ${JSON.stringify(oid)}`));
    const child = this.child ?? this.start();
    clearTimeout(this.idle);
    return new Promise<GitObject | null>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      child.stdin.write(`${oid}\n`);
    });
  }

  /** Ends the process; the next request starts a new one. */
  stop(): void {
    clearTimeout(this.idle);
    const child = this.child;
    this.child = null;
    if (child) {
      child.stdin.end();
      child.kill();
    }
    this.fail(new Error('the run has ended; its snapshots are no longer available'));
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawnGit(['cat-file', this.withContent ? '--batch' : '--batch-check'], { env: shadowEnv(this.gitDir), cwd: this.gitDir });
    this.child = child;
    this.header = Buffer.alloc(0);
    this.body = null;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.stdin.on('error', () => undefined);
    const ended = (why: string): void => {
      if (this.child !== child) return;
      this.child = null;
      this.fail(new Error(`reading the snapshot failed: ${why}`));
    };
    child.on('error', (e) => ended(e.message));
    child.on('close', (code) => ended(stderr.trim().split('\n')[0] || `git cat-file exited (${code})`));
    return child;
  }

  private fail(err: Error): void {
    for (const p of this.queue.splice(0)) p.reject(err);
  }

  private settle(value: GitObject | null): void {
    this.queue.shift()?.resolve(value);
    if (this.queue.length === 0) {
      clearTimeout(this.idle);
      this.idle = setTimeout(() => this.stop(), IDLE_MS);
      this.idle.unref();
    }
  }

  private receive(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      if (this.body) {
        const { data } = this.body;
        // Content, then the newline git adds after it.
        const take = Math.min(rest.length, data.length + 1 - this.body.filled);
        const contentPart = Math.max(0, Math.min(take, data.length - this.body.filled));
        rest.copy(data, this.body.filled, 0, contentPart);
        this.body.filled += take;
        rest = rest.subarray(take);
        if (this.body.filled === data.length + 1) {
          const { info } = this.body;
          this.body = null;
          this.settle({ ...info, data });
        }
        continue;
      }
      const nl = rest.indexOf(0x0a);
      if (nl < 0) {
        this.header = Buffer.concat([this.header, rest]);
        return;
      }
      const line = Buffer.concat([this.header, rest.subarray(0, nl)]).toString('utf8');
      this.header = Buffer.alloc(0);
      rest = rest.subarray(nl + 1);
      const [, type, size] = line.split(' ');
      if (size === undefined) {
        this.settle(null); // "<oid> missing"
        continue;
      }
      const info: ObjectInfo = { type: type as ObjectType, size: Number(size) };
      if (this.withContent) this.body = { info, data: Buffer.alloc(info.size), filled: 0 };
      else this.settle({ ...info, data: NO_DATA });
    }
  }
}

/** Object reads for one shadow repository. */
export class ObjectReader {
  private readonly contents: BatchProcess;
  private readonly infos: BatchProcess;
  private closed = false;

  constructor(gitDir: string) {
    this.contents = new BatchProcess(gitDir, true);
    this.infos = new BatchProcess(gitDir, false);
  }

  /** The object, or null when the shadow (and the user's store) has no such object. */
  read(oid: string): Promise<GitObject | null> {
    if (this.closed) return Promise.reject(new Error('the run has ended; its snapshots are no longer available'));
    return this.contents.request(oid);
  }

  /** Type and size without the content. */
  async info(oid: string): Promise<ObjectInfo | null> {
    if (this.closed) throw new Error('the run has ended; its snapshots are no longer available');
    const found = await this.infos.request(oid);
    return found && { type: found.type, size: found.size };
  }

  /** Ends both processes for good (the run is over). */
  close(): void {
    this.closed = true;
    this.contents.stop();
    this.infos.stop();
  }
}

// The log directory of a run: the RunEvent stream as JSONL, every answer version and vote as files (and, in a
// workspace run, each version's patch), what a turn cut short had written (agents/<id>/partial.txt), and the final
// answer at final/<winner>/answer.txt (upstream's path, which automation reads). Events carry no secrets, so nothing here needs redacting.
// Written asynchronously, in order, through one queue, so a slow or full disk never blocks or throws into the run:
// the first write error is reported once and ends the log (later writes would only fail again or leave gaps).

import { existsSync, mkdirSync } from 'node:fs';
import { appendFile, mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunEvent } from '../engine/events';

function stamp(date: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}_${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}_${p(date.getMilliseconds(), 3)}`;
}

/** `<base>/log_YYYYMMDD_HHMMSS_mmm`, made unique when runs start in the same millisecond. */
export function newLogDir(base: string, date = new Date()): string {
  const name = `log_${stamp(date)}`;
  let dir = join(base, name);
  for (let i = 2; existsSync(dir); i++) dir = join(base, `${name}_${i}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Agent ids come from user config; keep them from escaping the log directory. */
export function safeName(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return cleaned || '_';
}

export class RunLog {
  private queue: Promise<void> = Promise.resolve();
  private events: FileHandle | undefined;
  /** Event lines recorded since the last write: deltas come many per second, so they go out in batches. */
  private pendingEvents = '';
  private flushQueued = false;

  /** `onError`: the first write error, after which nothing more is written. */
  constructor(
    readonly dir: string,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {
    this.enqueue(async () => {
      await mkdir(dir, { recursive: true });
      this.events = await open(join(dir, 'events.jsonl'), 'a');
    });
  }

  /** The first write error, if any. */
  writeError: Error | undefined;

  finalAnswerPath(agentId: string): string {
    return join(this.dir, 'final', safeName(agentId), 'answer.txt');
  }

  /** Each agent's text streamed since its turn began, until the turn gives an answer or a vote. */
  private readonly streaming = new Map<string, string>();

  record(event: RunEvent): void {
    if (this.writeError) return;
    this.pendingEvents += `${JSON.stringify(event)}\n`;
    if (!this.flushQueued) {
      this.flushQueued = true;
      this.enqueue(async () => {
        this.flushQueued = false;
        const text = this.pendingEvents;
        this.pendingEvents = '';
        await this.events!.appendFile(text);
      });
    }
    switch (event.type) {
      case 'turn_started':
        this.streaming.set(event.agentId, '');
        break;
      case 'text_delta':
        this.streaming.set(event.agentId, (this.streaming.get(event.agentId) ?? '') + event.text);
        break;
      case 'run_ended':
        // What a cancelled or timed-out turn had written so far: a cancel loses nothing.
        for (const [agentId, text] of this.streaming) if (text) this.writeFile(join('agents', safeName(agentId), 'partial.txt'), text);
        break;
      case 'answer_added':
        this.streaming.delete(event.agentId);
        this.writeFile(join('agents', safeName(event.agentId), `${event.label}.txt`), event.content);
        break;
      case 'vote_cast':
        this.streaming.delete(event.vote.voterId);
        this.appendFile(join('agents', safeName(event.vote.voterId), 'votes.jsonl'), `${JSON.stringify({ ...event.vote, t: event.t })}\n`);
        break;
      case 'final_answer':
        this.writeFile(join('final', safeName(event.agentId), 'answer.txt'), event.content);
        break;
    }
  }

  /** `agents/<id>/<name>` (an answer's patch). */
  writeAgentFile(agentId: string, name: string, content: string): void {
    this.writeFile(join('agents', safeName(agentId), safeName(name)), content);
  }

  /** `final/<id>/<name>` (the winner's change); returns its path, written once `close()` resolves. */
  writeFinalFile(agentId: string, name: string, content: string): string {
    const rel = join('final', safeName(agentId), safeName(name));
    this.writeFile(rel, content);
    return join(this.dir, rel);
  }

  /** `<name>` at the top of the log directory (continued-from.json). */
  writeRunFile(name: string, content: string): void {
    this.writeFile(safeName(name), content);
  }

  private writeFile(rel: string, content: string): void {
    const path = join(this.dir, rel);
    this.enqueue(async () => {
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, content);
    });
  }

  private appendFile(rel: string, content: string): void {
    const path = join(this.dir, rel);
    this.enqueue(async () => {
      await mkdir(join(path, '..'), { recursive: true });
      await appendFile(path, content);
    });
  }

  /** Queued after every write before it; skipped once a write has failed. */
  private enqueue(write: () => Promise<void>): void {
    this.queue = this.queue.then(async () => {
      if (this.writeError) return;
      try {
        await write();
      } catch (err) {
        this.writeError = err instanceof Error ? err : new Error(String(err));
        this.pendingEvents = '';
        this.onError(this.writeError);
      }
    });
  }

  /** Resolves once everything recorded is on disk (or the log has failed); never rejects. */
  async close(): Promise<void> {
    await this.queue;
    await this.events?.close().catch(() => undefined);
    this.events = undefined;
  }
}

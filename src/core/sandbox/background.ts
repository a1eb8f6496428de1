// An agent's background commands (upstream's BackgroundShellManager): servers and watchers that keep running
// between tool calls. Each gets an id (bg1, bg2…, per agent); reading returns what it printed since the last read
// and whether it still runs; stopping ends its whole tree. An ended command keeps its id, so a late read still
// says how it ended; its buffered output is dropped once read. `stopAll` ends every one (the run is over).

import type { CommandLimits } from './policy';
import { describeEnd, resultText, seconds } from './result-text';
import type { CommandEnd, CommandHandle } from './runner';

interface Entry {
  id: string;
  command: string;
  handle: CommandHandle;
  timeoutSeconds: number | null;
  end?: CommandEnd;
}

type Result = { ok: boolean; content: string };

function shortCommand(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}

export class BackgroundCommands {
  private readonly entries = new Map<string, Entry>();
  private next = 1;

  constructor(private readonly limits: CommandLimits) {}

  /** Commands still running. */
  get running(): number {
    let n = 0;
    for (const e of this.entries.values()) if (!e.end) n++;
    return n;
  }

  /** Why another background command cannot start now, or null when it can. */
  refusal(): string | null {
    if (this.running < this.limits.maxBackground) return null;
    const ids = [...this.entries.values()].filter((e) => !e.end).map((e) => e.id);
    return `${this.limits.maxBackground} background commands are already running (${ids.join(', ')}), the limit; stop one with kill_command first`;
  }

  /** Registers a started command; returns its id. */
  add(command: string, handle: CommandHandle, timeoutSeconds: number | null): string {
    const id = `bg${this.next++}`;
    const entry: Entry = { id, command, handle, timeoutSeconds };
    this.entries.set(id, entry);
    void handle.done.then((end) => (entry.end = end));
    return id;
  }

  private find(id: unknown): Entry | Result {
    const entry = typeof id === 'string' ? this.entries.get(id.trim()) : undefined;
    if (entry) return entry;
    const known = [...this.entries.keys()];
    const list = known.length ? `the background commands of this run are ${known.join(', ')}` : 'no background command has been started (use execute_command with background: true)';
    return { ok: false, content: `no background command ${JSON.stringify(id)}; ${list}` };
  }

  private status(entry: Entry): string {
    const label = `${entry.id} (${shortCommand(entry.command)})`;
    if (!entry.end) return `${label} is running (for ${seconds(Date.now() - entry.handle.startedAt)})`;
    return `${label} has ended: ${describeEnd(entry.end, this.limits, entry.timeoutSeconds)}`;
  }

  /** What the command printed since the last read, and its status. */
  output(id: unknown): Result {
    const entry = this.find(id);
    if (!('handle' in entry)) return entry;
    const output = entry.handle.output.take();
    const text = output.bytes === 0 ? '(no new output)' : output.text;
    const sandbox = entry.end?.message && entry.end.kind !== 'start-failed' ? `\n[the sandbox reported: ${entry.end.message}]` : '';
    return { ok: true, content: `${this.status(entry)}\n${text}${sandbox}` };
  }

  /** Stops the command and its whole tree; returns its last output. */
  async kill(id: unknown): Promise<Result> {
    const entry = this.find(id);
    if (!('handle' in entry)) return entry;
    if (entry.end) return { ok: true, content: `${entry.id} had already ended: ${describeEnd(entry.end, this.limits, entry.timeoutSeconds)}\n${entry.handle.output.take().text || '(no new output)'}` };
    const end = await entry.handle.stop();
    entry.end = end;
    return { ok: true, content: resultText(`${entry.id}: ${describeEnd(end, this.limits, entry.timeoutSeconds)}`, entry.handle.output.take(), end) };
  }

  /** Stops every background command; resolves when all have ended. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.handle.stop()));
  }
}

// Past runs of this workspace, for the vote viewer's runs list and read-only re-opening. Each finished run is stored
// as its final projection (RunState + viewer extras, not the events: a run streams megabytes of deltas, its final
// state is small), one JSON file per run plus an index, in the workspace's extension storage. Schema-versioned,
// validated on load (a file that does not parse is skipped, not trusted), bounded in count and size, written
// atomically (temp file + rename). Pure: the file system comes in as a port, so this is unit-tested in Node.

// `zod/v4-mini`, the path the MCP SDK imports: through `zod/mini` the runtime bundle initialised zod lazily on one
// path and not on the other, and crashed at load (test/integration/bundles.test.ts).
import * as z from 'zod/v4-mini';
import { HistoryEntrySchema, type HistoryEntry } from '../../protocol/messages';
import { RunViewSchema } from '../../protocol/schema';
import type { RunState, RunView } from '../../protocol/state';

export const HISTORY_SCHEMA = 1;

export interface HistoryLimits {
  /** Runs kept; the oldest are deleted. */
  maxRuns: number;
  /** Bytes of one stored run (JSON); larger runs have their answers and stream tails shortened. */
  maxRunBytes: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxRuns: 30, maxRunBytes: 512 * 1024 };

/** A directory of small files. `write` must be atomic (the vscode adapter writes a temp file and renames it). */
export interface HistoryFs {
  read(name: string): Promise<string | undefined>;
  write(name: string, content: string): Promise<void>;
  remove(name: string): Promise<void>;
}

export interface StoredRun {
  schema: typeof HISTORY_SCHEMA;
  id: string;
  title: string;
  /** What the user asked, in their words; runs stored before it was kept show the engine's task. */
  task?: string;
  savedAt: string;
  /** Set when the run was shortened to fit `maxRunBytes`. */
  truncated: boolean;
  view: RunView;
}

const StoredRunSchema = z.object({
  schema: z.literal(HISTORY_SCHEMA),
  id: z.string(),
  title: z.string(),
  task: z.optional(z.string()),
  savedAt: z.string(),
  truncated: z.boolean(),
  view: RunViewSchema,
});

const IndexSchema = z.object({ schema: z.literal(HISTORY_SCHEMA), runs: z.array(HistoryEntrySchema) });

const INDEX = 'index.json';
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function runFileName(id: string): string | null {
  return SAFE_ID.test(id) ? `run-${id}.json` : null;
}

/** `task`: what the user asked, in their words (shown for the run; `state.question` is the engine's task). */
export function summarize(id: string, title: string, task: string, state: RunState, live: boolean): HistoryEntry {
  const u = state.usage;
  return {
    id,
    title,
    question: task.length > 300 ? `${task.slice(0, 299)}…` : task,
    startedAt: state.startedAt,
    endReason: state.endReason,
    winnerLabel: state.winner?.label ?? null,
    agents: state.agents.length,
    costUsd: u.costUsd,
    unpricedCalls: u.unpricedCalls,
    totalTokens: u.inputTokens + u.outputTokens,
    live,
    running: live && state.phase !== 'done',
  };
}

const TRUNCATED = '\n\n… (shortened for storage)';

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + TRUNCATED : text;
}

/**
 * The record to store: the view as is when it fits, else with ever shorter answers, stream tails, final answer
 * and question, and finally without the timeline and tool rows. Never mutates `view`.
 */
export function toStoredRun(id: string, title: string, task: string, view: RunView, savedAt: Date, maxBytes: number): { record: StoredRun; json: string } {
  const make = (v: RunView, truncated: boolean): { record: StoredRun; json: string } => {
    const record: StoredRun = { schema: HISTORY_SCHEMA, id, title, task: clip(task, 8_192), savedAt: savedAt.toISOString(), truncated, view: v };
    return { record, json: JSON.stringify(record) };
  };
  const whole = make(view, false);
  if (whole.json.length <= maxBytes) return whole;
  for (const max of [32_768, 8_192, 2_048, 512]) {
    const v: RunView = structuredClone(view);
    for (const a of v.state.answers) a.content = clip(a.content, max);
    for (const a of v.state.agents) {
      a.streamTail = a.streamTail.slice(-Math.min(max, 1000));
      a.reasoningTail = a.reasoningTail.slice(-Math.min(max, 1000));
    }
    if (v.state.finalAnswer) v.state.finalAnswer.content = clip(v.state.finalAnswer.content, max * 4);
    v.state.question = clip(v.state.question, max * 2);
    const attempt = make(v, true);
    if (attempt.json.length <= maxBytes) return attempt;
    if (max === 512) {
      v.extras.timeline = [];
      for (const a of Object.values(v.extras.agents)) a.tools = [];
      for (const vote of v.state.votes) vote.reason = clip(vote.reason, 200);
      return make(v, true);
    }
  }
  return whole; // unreachable
}

/** A stored file's content as a run, or an error message (wrong schema, invalid JSON, failed validation). */
export function parseStoredRun(json: string): { ok: true; run: StoredRun } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    return { ok: false, error: `not JSON (${(err as Error).message})` };
  }
  const schema = raw && typeof raw === 'object' ? (raw as { schema?: unknown }).schema : undefined;
  // Future schema versions migrate here, oldest first; a newer file than we understand is left alone.
  if (schema !== HISTORY_SCHEMA) return { ok: false, error: `unknown schema ${JSON.stringify(schema)}` };
  const r = StoredRunSchema.safeParse(raw);
  if (!r.success) return { ok: false, error: r.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  return { ok: true, run: r.data as StoredRun };
}

export class RunHistory {
  private entries: HistoryEntry[] = [];
  private loaded: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly fs: HistoryFs,
    private readonly log: { warn(message: string): void },
    private readonly limits: HistoryLimits = DEFAULT_HISTORY_LIMITS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Reads the index (once). */
  load(): Promise<void> {
    this.loaded ??= this.readIndex().then((entries) => {
      this.entries = entries;
    });
    return this.loaded;
  }

  /** Stored runs, newest first (after `load`). */
  list(): HistoryEntry[] {
    return this.entries.slice();
  }

  has(id: string): boolean {
    return this.entries.some((e) => e.id === id);
  }

  /** Stores a finished run, then drops the oldest beyond the count limit. Serialized: saves never interleave. */
  save(id: string, title: string, task: string, view: RunView): Promise<void> {
    const run = this.queue.then(() => this.doSave(id, title, task, view));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async read(id: string): Promise<StoredRun | undefined> {
    const name = runFileName(id);
    if (!name) return undefined;
    const json = await this.fs.read(name);
    if (json === undefined) return undefined;
    const parsed = parseStoredRun(json);
    if (!parsed.ok) {
      this.log.warn(`vote viewer: ignoring stored run ${id}: ${parsed.error}`);
      return undefined;
    }
    return parsed.run;
  }

  private async readIndex(): Promise<HistoryEntry[]> {
    const json = await this.fs.read(INDEX).catch(() => undefined);
    if (json === undefined) return [];
    try {
      const r = IndexSchema.safeParse(JSON.parse(json));
      if (r.success) return r.data.runs.map((e) => ({ ...e, live: false, running: false }));
      this.log.warn('vote viewer: the runs index has an unknown format; starting a new one');
    } catch {
      this.log.warn('vote viewer: the runs index is not JSON; starting a new one');
    }
    return [];
  }

  private async doSave(id: string, title: string, task: string, view: RunView): Promise<void> {
    await this.load();
    const name = runFileName(id);
    if (!name) throw new Error(`unsafe run id ${JSON.stringify(id)}`);
    const { record, json } = toStoredRun(id, title, task, view, this.now(), this.limits.maxRunBytes);
    await this.fs.write(name, json);
    // Another window on the same workspace may have stored runs meanwhile: merge with the index on disk.
    const onDisk = await this.readIndex();
    const entry = { ...summarize(id, title, task, record.view.state, false), running: false };
    const merged = [entry, ...onDisk.filter((e) => e.id !== id), ...this.entries.filter((e) => e.id !== id && !onDisk.some((d) => d.id === e.id))];
    merged.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
    const kept = merged.slice(0, this.limits.maxRuns);
    const dropped = merged.slice(this.limits.maxRuns);
    await this.fs.write(INDEX, JSON.stringify({ schema: HISTORY_SCHEMA, runs: kept }));
    this.entries = kept;
    for (const e of dropped) {
      const file = runFileName(e.id);
      if (file) await this.fs.remove(file).catch(() => undefined);
    }
  }
}

// DIR/results.jsonl: one line per item × system, appended as each finishes, so an interrupted eval keeps what it did
// and `--resume` knows what is missing. Pure: parsing (tolerant of a last line cut by a crash), the latest row per
// pair, what is left to run, and merging shards.

import type { EscalationTrigger } from '../engine/events';
import type { ItemKind } from './dataset';
import type { SystemKind } from './systems';

export interface ResultRow {
  item: string;
  /** The item's position in the dataset: merged shards keep the dataset's order. */
  index: number;
  kind: ItemKind;
  system: string;
  system_kind: SystemKind;
  /** The final answer (model-written: never trusted, escaped wherever it is shown). */
  answer: string | null;
  /** What the scorer read from it (the letter, the short answer); null for code tasks or when nothing was found. */
  extracted: string | null;
  /** Same key = same answer (normalised answer, letter, or change id): agreement and the baseline's majority. */
  key: string | null;
  correct: boolean;
  expected: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  tokens: number;
  /** USD of the priced calls; null when no call had a known price. */
  cost_usd: number | null;
  /** Some calls had no known price: `cost_usd` is a lower bound. */
  cost_partial: boolean;
  seconds: number;
  end_reason: string;
  /** The team's winning agent, when there is one. */
  winner?: string | null;
  /** The team's tally, per answer version. */
  votes?: Record<string, number>;
  /** The team in escalation stages: how many stages the run called, and why each after the first was called. */
  escalation?: { stages_called: number; reasons: EscalationTrigger[] };
  /** Code tasks: the required checks the winner failed, or null when none ran on it. */
  failed_checks?: string[] | null;
  /** The self-consistency baseline: each sample's key and whether it was right. */
  samples?: { key: string | null; correct: boolean }[];
  /** The run could not produce an answer (every agent failed, the server was unreachable, setup failed). */
  error?: string;
  /** The run's log directory, relative to the eval's folder. */
  log_dir?: string;
}

export const pairKey = (item: string, system: string) => `${item}\u0000${system}`;

export interface ParsedResults {
  rows: ResultRow[];
  /** Lines that could not be read (a line cut by a crash is the usual one), 1-based. */
  skipped: { line: number; reason: string }[];
}

export function parseResults(text: string): ParsedResults {
  const rows: ResultRow[] = [];
  const skipped: ParsedResults['skipped'] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    try {
      const row = JSON.parse(raw) as ResultRow;
      if (typeof row?.item !== 'string' || typeof row.system !== 'string' || typeof row.correct !== 'boolean') throw new Error('not a result row (item, system, correct)');
      rows.push(row);
    } catch (err) {
      skipped.push({ line: i + 1, reason: (err as Error).message });
    }
  });
  return { rows, skipped };
}

/** The row that stands for each pair: the last one written (a re-run after an error comes later in the file). */
export function latestRows(rows: readonly ResultRow[]): Map<string, ResultRow> {
  const byPair = new Map<string, ResultRow>();
  for (const row of rows) byPair.set(pairKey(row.item, row.system), row);
  return byPair;
}

/** Pairs `--resume` need not run again: those with a result that is not an error. */
export function finishedPairs(rows: readonly ResultRow[]): Set<string> {
  const done = new Set<string>();
  for (const [key, row] of latestRows(rows)) if (!row.error) done.add(key);
  return done;
}

export interface MergeConflict {
  item: string;
  system: string;
  dirs: [string, string];
}

/**
 * Shards' rows as one set: each pair once. Shards of one eval never share a pair; if two do (the same shard run
 * twice into different folders), a result beats an error, else the first folder's row stands, and it is reported.
 */
export function mergeRows(shards: readonly { dir: string; rows: readonly ResultRow[] }[]): { rows: ResultRow[]; conflicts: MergeConflict[] } {
  const chosen = new Map<string, { dir: string; row: ResultRow }>();
  const conflicts: MergeConflict[] = [];
  for (const shard of shards) {
    for (const row of latestRows(shard.rows).values()) {
      const key = pairKey(row.item, row.system);
      const had = chosen.get(key);
      if (!had) {
        chosen.set(key, { dir: shard.dir, row });
        continue;
      }
      conflicts.push({ item: row.item, system: row.system, dirs: [had.dir, shard.dir] });
      if (had.row.error && !row.error) chosen.set(key, { dir: shard.dir, row });
    }
  }
  const rows = [...chosen.values()].map((c) => c.row).sort((a, b) => a.index - b.index);
  return { rows, conflicts };
}

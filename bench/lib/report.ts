// What a scenario hands back, and how the runner prints it: rows for the human table, figures for the JSON line,
// and goals (a measured value against a threshold). A missed goal is a finding, never a failure: only a crash makes
// `npm run bench` exit non-zero.

export type GoalStatus = 'met' | 'missed' | 'not measured';

export interface Goal {
  /** Stable key in the JSON line, e.g. `overhead.n8.ratio`. */
  id: string;
  label: string;
  value: number | null;
  op: '<=' | '<' | '>=';
  threshold: number;
  unit: string;
  status: GoalStatus;
  /** Why it was not measured, or what the figure is made of. */
  note?: string;
}

export interface Row {
  label: string;
  value: string;
  goal?: string;
  status?: GoalStatus | 'info';
}

export interface ScenarioResult {
  rows: Row[];
  goals: Goal[];
  figures: Record<string, unknown>;
  notes: string[];
}

export interface BenchContext {
  quick: boolean;
  /** Repository root. */
  root: string;
  /**
   * The bench's own production build (bench/lib/build.ts), laid out as an extension folder: package.json, package.nls.json, media/,
   * README.md, CHANGELOG.md, LICENSE, .vscodeignore and dist/ (extension.js, cli.js, webview/). dist/ of the
   * repository is not used: others rebuild it while the bench runs.
   */
  ext: string;
  /** `${ext}/dist`. */
  dist: string;
  /** A fresh temporary directory for this scenario. */
  tmp: string;
  /** Progress on stderr (the table and the JSON line go to stdout). */
  log(message: string): void;
}

export interface Scenario {
  name: string;
  title: string;
  run(ctx: BenchContext): Promise<ScenarioResult>;
}

/** Collects rows, goals and figures for one scenario. */
export class Results {
  readonly rows: Row[] = [];
  readonly goals: Goal[] = [];
  readonly figures: Record<string, unknown> = {};
  readonly notes: string[] = [];

  info(label: string, value: string): void {
    this.rows.push({ label, value, status: 'info' });
  }

  figure(key: string, value: unknown): void {
    this.figures[key] = value;
  }

  note(text: string): void {
    this.notes.push(text);
  }

  goal(id: string, label: string, value: number | null, op: Goal['op'], threshold: number, unit = '', opts: { digits?: number; note?: string } = {}): Goal {
    const digits = opts.digits ?? 2;
    let status: GoalStatus = 'not measured';
    // An unbounded value (a ratio over nothing) is still a measurement: it meets or misses as any other.
    if (value !== null && !Number.isNaN(value)) {
      const ok = op === '<=' ? value <= threshold : op === '<' ? value < threshold : value >= threshold;
      status = ok ? 'met' : 'missed';
    }
    const g: Goal = { id, label, value: value === null || !Number.isFinite(value) ? null : round(value, 4), op, threshold, unit, status, ...(opts.note ? { note: opts.note } : {}) };
    this.goals.push(g);
    const shown = g.value !== null ? `${fmt(g.value, digits)}${unit}` : status === 'not measured' ? `— (${opts.note ?? 'not measured'})` : `${value}${unit}`;
    this.rows.push({ label, value: shown, goal: `${op} ${fmt(threshold, digits)}${unit}`, status });
    return g;
  }

  result(): ScenarioResult {
    return { rows: this.rows, goals: this.goals, figures: this.figures, notes: this.notes };
  }
}

export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function fmt(n: number, digits = 2): string {
  if (Number.isInteger(n) && Math.abs(n) >= 1) return n.toLocaleString('en-US');
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  return n.toFixed(digits);
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * Prints rows as an aligned text table. A cell may overflow its column when every later cell of its row is empty
 * (long explanatory values), so such rows do not widen the table.
 */
export function table(header: string[], lines: string[][]): string {
  const fits = (l: string[], i: number) => l.slice(i + 1).every((c) => !c);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.filter((l) => !fits(l, i) || i === 0).map((l) => (l[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (c ?? '').padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(line)].join('\n');
}

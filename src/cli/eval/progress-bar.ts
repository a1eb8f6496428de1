// The eval's progress on stderr: on a terminal, one bar redrawn in place (pairs done, the team's score so far,
// runs going, spend, time left); otherwise (CI logs, a pipe) one plain line per finished pair, which reads well in
// a log. Warnings go above the bar.

import type { ResultRow } from '../../core/eval/results';
import { oneLine } from '../../core/util/text';

export interface ProgressOut {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const clock = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
};

export const money = (usd: number) => (usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`);

export class EvalProgress {
  private done = 0;
  private running = 0;
  private team = { right: 0, n: 0 };
  private cost = 0;
  private unpriced = false;
  private readonly started: number;
  private shown = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly out: ProgressOut,
    /** Pairs this invocation runs. */
    private readonly total: number,
    /** Pairs the folder already had (--resume). */
    private readonly before: number,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    if (this.live && total > 0) {
      this.timer = setInterval(() => this.draw(), 1000);
      this.timer.unref?.();
      this.draw();
    }
  }

  private get live(): boolean {
    return Boolean(this.out.isTTY);
  }

  runStarted(): void {
    this.running++;
    if (this.live) this.draw();
  }

  finished(row: ResultRow): void {
    this.done++;
    this.running = Math.max(0, this.running - 1);
    if (row.system === 'team') {
      this.team.n++;
      if (row.correct) this.team.right++;
    }
    if (row.cost_usd !== null) this.cost += row.cost_usd;
    if (row.cost_usd === null || row.cost_partial) this.unpriced ||= row.calls > 0;
    if (this.live) this.draw();
    else this.out.write(`${this.lineFor(row)}\n`);
  }

  /** A line above the bar (warnings, notes). */
  say(line: string): void {
    this.clear();
    this.out.write(`${line}\n`);
    if (this.live && this.timer) this.draw();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  /** The plain line for a finished pair. */
  lineFor(row: ResultRow): string {
    const verdict = row.error ? `error: ${oneLine(row.error, 160)}` : row.correct ? 'right' : 'wrong';
    const cost = row.cost_usd === null ? '' : ` · ${money(row.cost_usd)}${row.cost_partial ? '+' : ''}`;
    return `[${this.before + this.done}/${this.before + this.total}] ${oneLine(row.item, 60)} · ${row.system}: ${verdict} · ${row.calls} call(s) · ${row.tokens} tokens${cost} · ${row.seconds.toFixed(1)}s`;
  }

  /** The bar's text for a terminal this wide. */
  barText(width: number): string {
    const all = this.before + this.total;
    const doneAll = this.before + this.done;
    const elapsed = this.now() - this.started;
    const left = this.done > 0 && this.done < this.total ? ` · ~${clock((elapsed / this.done) * (this.total - this.done))} left` : '';
    const team = this.team.n ? ` · team ${this.team.right}/${this.team.n} right` : '';
    const spend = this.cost > 0 || this.unpriced ? ` · ${money(this.cost)}${this.unpriced ? '+' : ''}` : '';
    const tail = ` ${doneAll}/${all}${team} · ${this.running} running${spend} · ${clock(elapsed)}${left}`;
    const barWidth = Math.max(10, Math.min(30, width - tail.length - 8));
    const filled = all ? Math.round((doneAll / all) * barWidth) : barWidth;
    return `eval [${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}]${tail}`.slice(0, Math.max(20, width - 1));
  }

  private draw(): void {
    this.out.write(`\r\x1b[2K${this.barText(this.out.columns ?? 100)}`);
    this.shown = true;
  }

  private clear(): void {
    if (!this.shown) return;
    this.out.write('\r\x1b[2K');
    this.shown = false;
  }
}

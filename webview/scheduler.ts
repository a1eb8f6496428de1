// When the vote viewer repaints, and how much per frame. Events mark what they touched (an agent's column, or the
// structure: answers, votes, failures, the winner); a repaint runs at most once per frame, streamed text alone at
// most every STREAM_FRAME_MS, and repaints COLUMNS_PER_FRAME dirty columns at most (fewer once FRAME_BUDGET_MS of
// script time is spent); the rest follow on the next frames, each from the latest state.

/** Streamed text repaints at most this often (structural changes at once). */
const STREAM_FRAME_MS = 100;

/**
 * Agent columns repainted in one frame at most, and the script time after which a frame starts no further column.
 * Each streaming column costs script, style, layout and paint in the same task: eight at once took 20-45 ms here,
 * past 50 ms (a long task, a janky page) as soon as another process competes for the CPU. The rest follow on the
 * next frames.
 */
export const COLUMNS_PER_FRAME = 3;
const FRAME_BUDGET_MS = 8;

/** One repaint, as the page sees it. */
export interface Frame {
  /** Answers, votes, failures or the whole page changed: repaint the structure, then every column. */
  readonly structural: boolean;
  /**
   * Repaints the dirty columns (on a structural frame, all of `all`), oldest first, within the frame's budget; the
   * rest go to the next frame. A column repainted that changes again goes to the back: round robin.
   */
  columns(all: readonly string[], paint: (agentId: string) => void): void;
}

export interface RenderStats {
  renders: number;
  maxRenderMs: number;
}

export class FrameScheduler {
  private readonly dirtyColumns = new Set<string>();
  private structural = false;
  private frame = 0;
  private fallbackTimer: ReturnType<typeof setTimeout> | undefined;
  private throttle: ReturnType<typeof setTimeout> | undefined;
  private lastRender = 0;

  /** `paint` returns false when there is nothing to paint (no page yet): what is dirty stays dirty. */
  constructor(private readonly paint: (frame: Frame) => boolean, private readonly stats: RenderStats) {}

  /** An event changed this agent's column (null: something of the whole run); `structural`: see Frame. */
  mark(agentId: string | null, structural: boolean): void {
    if (agentId === null || structural) this.structural = true;
    if (agentId !== null) this.dirtyColumns.add(agentId);
  }

  /**
   * Repaints on the next frame, but streamed text alone at most every STREAM_FRAME_MS: ten updates a second read
   * as smooth, and each repaint of eight streaming columns costs layout and paint. Structural changes (an answer,
   * a vote, a failure) go out on the next frame.
   */
  schedule(): void {
    if (this.frame || this.throttle) return;
    const wait = this.structural ? 0 : this.lastRender + STREAM_FRAME_MS - performance.now();
    if (wait > 0) {
      this.throttle = setTimeout(() => {
        this.throttle = undefined;
        this.schedule();
      }, wait);
      return;
    }
    this.requestFrame();
  }

  /** Repaints everything now (a page just built). */
  paintAll(): void {
    this.structural = true;
    this.run();
  }

  private requestFrame(): void {
    this.frame = requestAnimationFrame(() => this.run());
    // rAF does not run in a hidden document; do not let updates pile up there.
    this.fallbackTimer = setTimeout(() => this.run(), 250);
  }

  private run(): void {
    cancelAnimationFrame(this.frame);
    clearTimeout(this.fallbackTimer);
    clearTimeout(this.throttle);
    this.throttle = undefined;
    this.frame = 0;
    this.lastRender = performance.now();
    const started = performance.now();
    const frame: Frame = {
      structural: this.structural,
      columns: (all, paint) => {
        if (frame.structural) for (const id of all) this.dirtyColumns.add(id);
        this.structural = false;
        let painted = 0;
        for (const id of this.dirtyColumns) {
          if (painted === COLUMNS_PER_FRAME || (painted > 0 && performance.now() - started > FRAME_BUDGET_MS)) break;
          paint(id);
          this.dirtyColumns.delete(id);
          painted++;
        }
      },
    };
    if (!this.paint(frame)) return;
    this.stats.renders++;
    this.structural = false;
    if (this.dirtyColumns.size) this.requestFrame();
    this.stats.maxRenderMs = Math.max(this.stats.maxRenderMs, performance.now() - started);
  }
}

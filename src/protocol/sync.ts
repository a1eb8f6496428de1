// The webview's side of the snapshot/delta protocol: which deltas to apply, which are duplicates, and when a gap
// means "ask the host for a snapshot". Pure, so it is unit-tested in Node.

import type { HostMessageOf } from './messages';
import { applyViewEvent, type RunView } from './state';

export type Delta = HostMessageOf<'delta'>;
export type DeltaVerdict = 'apply' | 'duplicate' | 'gap' | 'other-run' | 'awaiting-snapshot';

export class DeltaCursor {
  private runId: string | null = null;
  private last = 0;
  private awaiting = false;

  get lastSeq(): number {
    return this.last;
  }

  get shownRunId(): string | null {
    return this.runId;
  }

  /** A snapshot arrived: deltas continue after its state's lastSeq. */
  reset(runId: string | null, lastSeq: number): void {
    this.runId = runId;
    this.last = lastSeq;
    this.awaiting = false;
  }

  /**
   * What to do with a delta. 'gap' is returned once (then 'awaiting-snapshot' until the next reset), so the
   * webview sends one resync request however many deltas are still in flight.
   */
  check(delta: Delta): DeltaVerdict {
    if (this.runId === null || delta.runId !== this.runId) return 'other-run';
    if (this.awaiting) return 'awaiting-snapshot';
    if (delta.to <= this.last) return 'duplicate';
    if (delta.from !== this.last + 1 || delta.to < delta.from) {
      this.awaiting = true;
      return 'gap';
    }
    return 'apply';
  }

  /** The host's last seq for a run (a `head` message): 'gap' (once) when deltas before it never arrived. */
  checkHead(runId: string, seq: number): 'ok' | 'gap' {
    if (runId !== this.runId || this.awaiting || seq <= this.last) return 'ok';
    this.awaiting = true;
    return 'gap';
  }

  advance(delta: Delta): void {
    this.last = delta.to;
  }
}

/** Applies a (checked) delta to the view: every event through the shared reducer, then the batch's end seq. */
export function applyDelta(view: RunView, delta: Delta, onEvent?: (event: Delta['events'][number]) => void): void {
  let t = view.state.elapsedMs;
  for (const event of delta.events) {
    applyViewEvent(view, event);
    if (event.t > t) t = event.t;
    onEvent?.(event);
  }
  // A merged text delta carries the seq and time of its last part but sits where its first part was, possibly
  // before later events: the batch ends at `to`, at its latest time.
  view.state.lastSeq = delta.to;
  view.state.elapsedMs = t;
}

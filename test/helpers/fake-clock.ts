// A clock tests drive instead of waiting: time moves only when the test says (`advance`) or, in `run` mode, when
// nothing else is left to do (every promise chain has settled), straight to the next timer. Timers due at the same
// time fire in the order they were set. So "after 30 ms" and "after 40 ms" always happen in that order, however
// loaded the machine is, and a run that waits minutes of scripted time takes milliseconds.

import type { Clock, TimerHandle } from '../../src/core/util/clock';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** Lets queued promise callbacks and immediates run: a macrotask turn, enough rounds for chains of awaits. */
async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export class FakeClock implements Clock {
  private time: number;
  private nextId = 1;
  private timers: Timer[] = [];
  private running = false;

  constructor(start = Date.UTC(2026, 0, 2, 3, 4, 5)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms || 0), fn };
    // Stable by due time: equal times keep the order they were set in.
    const index = this.timers.findIndex((t) => t.at > timer.at);
    this.timers.splice(index === -1 ? this.timers.length : index, 0, timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing each timer due on the way (at its own time), settling after each. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    await settle();
    while (this.timers.length > 0 && this.timers[0].at <= until) {
      this.fireNext();
      await settle();
    }
    this.time = until;
  }

  /**
   * Runs `work` with time moving by itself: whenever everything has settled and `work` has not, the clock jumps to
   * the next timer. Rejects if `work` is still pending with no timer left (it waits on something the clock cannot
   * move), or after `maxTimers` timers (a loop of timers that never ends).
   */
  async run<T>(work: Promise<T>, maxTimers = 100_000): Promise<T> {
    if (this.running) throw new Error('FakeClock.run is already running');
    this.running = true;
    let done = false;
    const watched = work.finally(() => (done = true));
    watched.catch(() => undefined);
    try {
      for (let fired = 0; ; fired++) {
        await settle();
        if (done) return await watched;
        if (this.timers.length === 0) throw new Error('FakeClock.run: the work waits on something other than the clock');
        if (fired >= maxTimers) throw new Error(`FakeClock.run: more than ${maxTimers} timers fired`);
        this.fireNext();
      }
    } finally {
      this.running = false;
    }
  }

  private fireNext(): void {
    const timer = this.timers.shift()!;
    this.time = Math.max(this.time, timer.at);
    timer.fn();
  }
}

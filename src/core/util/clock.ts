// Time as the engine sees it: read and scheduled through one injectable clock, so tests can drive it (see
// test/helpers/fake-clock.ts) and every timer is kept inside the range Node's timers can hold.

/** Opaque: whatever the clock's `setTimeout` returned, handed back to its `clearTimeout`. */
export type TimerHandle = unknown;

export interface Clock {
  /** Milliseconds since the epoch (or any fixed origin: only differences are used). */
  now(): number;
  /** Calls `fn` once after `ms`; the real clock clamps `ms` into the timer range (see clampDelay). */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The longest delay Node's timers hold: a longer one is set to 1 ms, with only a warning (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `ms` as a delay a timer can hold: at most MAX_TIMER_MS (about 24.8 days, so a longer timeout fires late rather than
 * at once), at least 0; NaN counts as 0.
 */
export function clampDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, clampDelay(ms)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

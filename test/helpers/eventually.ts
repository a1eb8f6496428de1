// Waiting in a test for something to happen, without betting on how long it takes: poll until it holds. The bound
// is a failure guard (so a broken test ends with a message naming what never happened), never what is asserted: it
// is generous enough for a loaded 2-core machine, and a test that passes says nothing about how long it took.

import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /** What is awaited, for the failure message: "the background command to end" (a function is asked on failure). */
  what: string | (() => string);
  /** The failure guard; default 30 s. */
  withinMs?: number;
  /** Pause between probes; default 25 ms. */
  everyMs?: number;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Calls `probe` until it returns a truthy value, and resolves to that value. Throws, naming `what`, when the guard
 * runs out; an exception from `probe` ends the wait at once (a probe that asserts fails the test, it is not retried).
 */
export async function eventually<T>(probe: () => T | Promise<T>, options: EventuallyOptions): Promise<Truthy<T>> {
  const giveUpAt = Date.now() + (options.withinMs ?? 30_000);
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > giveUpAt) {
      const what = typeof options.what === 'function' ? options.what() : options.what;
      throw new Error(`gave up waiting for ${what} after ${(options.withinMs ?? 30_000) / 1000} s`);
    }
    await sleep(options.everyMs ?? 25);
  }
}

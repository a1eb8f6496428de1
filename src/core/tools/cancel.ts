// A tool's work raced against its signal, so a tool that ignores cancellation (a blocking open, a server that never
// answers) cannot keep the turn waiting: the caller gets its answer the moment the signal aborts.

/** What `raceAbort` resolves with when the signal wins. */
export const ABORTED: unique symbol = Symbol('aborted');

/**
 * `work`'s outcome, or ABORTED as soon as `signal` aborts (at once when it already has). The work goes on unobserved
 * after that; its late failure is swallowed, as nobody is left to hear it.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(ABORTED);
  }
  let onAbort!: () => void;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  work.catch(() => undefined);
  // The listener goes as soon as the race ends: turn signals live long and see many calls.
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

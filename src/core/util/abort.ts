// Cancellation that does not depend on the callee: an adapter (a tool, a snapshot, a model API) that ignores its
// signal must not keep its caller waiting once the signal fires.

/** What `raceAbort` and `sleep` reject with when their signal fires; callers that speak ProviderError map it. */
export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortedError';
  }
}

/**
 * `promise`, or a rejection with AbortedError as soon as `signal` aborts (at once if it already has). The promise is
 * left running: what it settles to later is ignored, and a late rejection is handled, not reported as unhandled.
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  const settled = Promise.resolve(promise);
  if (signal.aborted) {
    settled.catch(() => undefined);
    return Promise.reject(new AbortedError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    // Settling after the abort is a no-op; the listener goes first, so none is left on a long-lived signal.
    settled.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

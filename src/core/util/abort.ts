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

/**
 * A signal that aborts when any of `signals` does, held by plain listeners that `dispose` removes. Used instead of
 * `AbortSignal.any` where a source lives long (a run's signal) and the dependent is short (one command): the
 * dependent is kept alive by its sources' listeners rather than weakly, and leaves nothing behind on them.
 */
export function linkedSignal(signals: readonly AbortSignal[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const dispose = () => {
    for (const s of signals) s.removeEventListener('abort', abort);
  };
  if (signals.some((s) => s.aborted)) controller.abort();
  else for (const s of signals) s.addEventListener('abort', abort, { once: true });
  controller.signal.addEventListener('abort', dispose, { once: true });
  return { signal: controller.signal, dispose };
}

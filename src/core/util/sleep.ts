import { AbortedError } from './abort';
import { realClock, type Clock } from './clock';

/** Resolves after `ms` on `clock`, or rejects with an AbortedError as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal, clock: Clock = realClock): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError());
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(new AbortedError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

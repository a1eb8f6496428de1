import { ProviderError } from '../providers/types';

/** Resolves after `ms`, or rejects with an `aborted` ProviderError as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ProviderError('aborted', 'aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProviderError('aborted', 'aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

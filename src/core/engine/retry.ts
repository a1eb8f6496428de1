// One retry policy for every provider: the engine retries, providers make single attempts. Transient failures
// (rate limits, 5xx, dropped connections, cut streams) back off exponentially with jitter and honour the server's
// retry-after; auth and invalid-request errors are never retried.

import { ProviderError } from '../providers/types';
import { AbortedError } from '../util/abort';

export interface RetryPolicy {
  /** Attempts per model call, the first included. */
  maxAttemptsPerCall: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Consecutive failed turns after which an agent is marked failed. */
  agentFailureBudget: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttemptsPerCall: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  agentFailureBudget: 3,
};

export function asProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof AbortedError) return new ProviderError('aborted', 'aborted');
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderError('unknown', message, { cause: err });
}

/**
 * Delay before retry number `retry` (1 = first retry). The server's retry-after wins when given (capped, so a
 * hostile or broken header cannot park an agent for hours); otherwise base·2^(retry-1) with ±20% jitter.
 */
export function retryDelayMs(retry: number, policy: RetryPolicy, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, policy.maxDelayMs);
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exp * (0.8 + 0.4 * random()));
}

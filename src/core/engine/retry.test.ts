import assert from 'node:assert/strict';
import { ProviderError } from '../providers/types';
import { AbortedError } from '../util/abort';
import { asProviderError, DEFAULT_RETRY, retryDelayMs } from './retry';

describe('retry policy', () => {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: 1000, maxDelayMs: 30_000 };

  it('backs off exponentially with ±20% jitter', () => {
    assert.equal(retryDelayMs(1, policy, undefined, () => 0.5), 1000);
    assert.equal(retryDelayMs(2, policy, undefined, () => 0.5), 2000);
    assert.equal(retryDelayMs(3, policy, undefined, () => 0.5), 4000);
    assert.equal(retryDelayMs(1, policy, undefined, () => 0), 800);
    assert.equal(retryDelayMs(1, policy, undefined, () => 1), 1200);
  });

  it('caps the exponential delay', () => {
    assert.equal(retryDelayMs(20, policy, undefined, () => 0.5), 30_000);
  });

  it("honours the server's retry-after, capped", () => {
    assert.equal(retryDelayMs(1, policy, 2500), 2500);
    assert.equal(retryDelayMs(3, policy, 0), 0);
    assert.equal(retryDelayMs(1, policy, 3_600_000), 30_000);
  });

  it('retries transient kinds only', () => {
    for (const kind of ['rate_limit', 'server', 'network', 'stream_cut'] as const) assert.equal(new ProviderError(kind, 'x').retryable, true, kind);
    for (const kind of ['auth', 'invalid_request', 'aborted'] as const) assert.equal(new ProviderError(kind, 'x').retryable, false, kind);
  });

  it('wraps unknown errors without losing the message', () => {
    const e = asProviderError(new TypeError('boom'));
    assert.equal(e.kind, 'unknown');
    assert.equal(e.message, 'boom');
  });

  it('reads an aborted sleep as an aborted call, not an unknown failure to retry', () => {
    const e = asProviderError(new AbortedError());
    assert.equal(e.kind, 'aborted');
    assert.equal(e.retryable, false);
  });
});

import assert from 'node:assert/strict';
import { CircuitBreaker } from './circuit-breaker';

describe('mcp circuit breaker', () => {
  it('opens after maxFailures in a row, for resetMs, then doubles up to the cap after failed trials', () => {
    let now = 0;
    const b = new CircuitBreaker({ maxFailures: 3, resetMs: 1000, maxBackoffFactor: 4 }, () => now);
    assert.equal(b.failure(), false);
    b.success();
    assert.equal(b.failure(), false);
    assert.equal(b.failure(), false);
    assert.equal(b.failure(), true);
    assert.equal(b.blockedForMs(), 1000);
    now = 1000;
    assert.equal(b.isOpen, false, 'a trial call may go through');
    assert.equal(b.failure(), true, 'a failed trial reopens at once');
    assert.equal(b.blockedForMs(), 2000);
    now = 3000;
    b.failure();
    assert.equal(b.blockedForMs(), 4000);
    now = 7000;
    b.failure();
    assert.equal(b.blockedForMs(), 4000, 'capped at ×4');
    now = 11_000;
    b.success();
    assert.equal(b.failure(), false, 'a success starts over');
  });
});

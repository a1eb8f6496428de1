import assert from 'node:assert/strict';
import { clampDelay, MAX_TIMER_MS, realClock } from './clock';

describe('clampDelay', () => {
  it('keeps delays a timer can hold, caps longer ones at 2^31-1 ms and floors the rest at 0', () => {
    assert.equal(clampDelay(1500), 1500);
    assert.equal(clampDelay(3_000_000 * 1000), MAX_TIMER_MS);
    assert.equal(clampDelay(Infinity), MAX_TIMER_MS);
    assert.equal(clampDelay(-5), 0);
    assert.equal(clampDelay(NaN), 0);
  });

  it('the real clock does not fire a timer beyond the range at once', async () => {
    let fired = false;
    const handle = realClock.setTimeout(() => (fired = true), 3_000_000 * 1000);
    await new Promise((r) => setTimeout(r, 20));
    realClock.clearTimeout(handle);
    assert.equal(fired, false);
  });
});

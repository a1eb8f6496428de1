import assert from 'node:assert/strict';
import { measureStartupCost, median } from './startup-cost';

describe('sandbox start-up cost', function () {
  this.timeout(60_000);

  it('takes the median', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });

  // What the sandbox costs is a figure of the bench (`sandbox` scenario, goal sandbox.startup.overhead_ms): under
  // load even "sandboxed > unsandboxed" does not hold every time.
  it('measures `true` sandboxed against unsandboxed (the figure is printed for the record)', async () => {
    const cost = await measureStartupCost(10);
    console.log(`      bubblewrap start-up: ${cost.sandboxedMedianMs.toFixed(1)} ms median vs ${cost.unsandboxedMedianMs.toFixed(1)} ms unsandboxed (+${cost.overheadMs.toFixed(1)} ms, ${cost.runs} runs)`);
    assert.equal(cost.sandbox, 'bubblewrap');
    assert.ok(cost.unsandboxedMedianMs > 0);
  });
});

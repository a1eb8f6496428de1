// The short throughput test (5 s) in the normal run; the 30 s benchmark is test/webview/throughput.ts.

import assert from 'node:assert/strict';
import { describeInChromium } from './harness';
import { describeResult, measureThroughput } from './throughput-run';

// What the page does per message (its long tasks, how fast it renders) is measured by the bench (`viewer` scenario,
// goal viewer.long_tasks): a loaded machine stalls the page for reasons of its own. Here: what the host sends.
describeInChromium('vote viewer throughput in Chromium (8 agents × 200 tokens/s, 5 s)', function () {
  this.timeout(60_000);

  it('stays at ≤ 60 host→webview messages per second, and the page keeps up', async () => {
    const r = await measureThroughput({ agents: 8, tokensPerSecond: 200, seconds: 5 });
    console.log(`      ${describeResult(r).split('\n').join('\n      ')}`);
    assert.ok(r.events >= 8 * 200 * 5 * 0.95, `${r.events} events`);
    assert.ok(r.messagesPerSecond.max <= 60, `max ${r.messagesPerSecond.max} messages/s`);
    assert.ok(r.caughtUp, 'the page shows the latest text of every agent');
  });
});

// Webview memory for scenario 4, measured around the viewer's own throughput measurement (test/webview/
// throughput-run.ts `measureThroughput`, not re-implemented here): ViewerPage.close is wrapped so that, once the run
// has read its figures, the page's JS heap is sampled after a forced GC (Chrome DevTools Protocol). Two runs, a short
// one (warm-up: the eight columns fill to their capped stream tail) and a long one; "growth after warm-up" is the
// difference. A forced GC during streaming would itself be a long task, so none is taken while the page streams.
//   node --require tsx/cjs bench/lib/viewer-heap.ts <shortSeconds> <longSeconds> [agents] [tokensPerSecond]
// Prints one JSON line: { shortSeconds, longSeconds, heapShortMB, heapLongMB, growthMB, domNodesShort, domNodesLong }.

import { ViewerPage } from '../../test/webview/harness';
import { measureThroughput } from '../../test/webview/throughput-run';

interface Sample {
  heapMB: number;
  nodes: number;
}

async function main(): Promise<void> {
  const [shortSeconds = 5, longSeconds = 30, agents = 8, tokensPerSecond = 200] = process.argv.slice(2).map(Number);
  let last: Sample | null = null;
  const close = ViewerPage.prototype.close;
  ViewerPage.prototype.close = async function (this: ViewerPage) {
    try {
      const cdp = await this.context.newCDPSession(this.page);
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
      const nodes = await this.page.evaluate(() => document.getElementsByTagName('*').length);
      last = { heapMB: usedSize / 2 ** 20, nodes };
    } catch (e) {
      process.stderr.write(`heap sample failed: ${(e as Error).message}\n`);
    }
    return close.call(this);
  };
  const runs: Sample[] = [];
  for (const seconds of [shortSeconds, longSeconds]) {
    last = null;
    await measureThroughput({ agents, tokensPerSecond, seconds });
    if (!last) throw new Error('no heap sample');
    runs.push(last);
  }
  const [s, l] = runs;
  process.stdout.write(
    `${JSON.stringify({ shortSeconds, longSeconds, heapShortMB: s.heapMB, heapLongMB: l.heapMB, growthMB: l.heapMB - s.heapMB, domNodesShort: s.nodes, domNodesLong: l.nodes })}\n`,
  );
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exit(1);
  },
);

// How the vote viewer's snapshot render grows with the run, for scenario 4: a finished run of 8 agents × 4 answers
// of 12 KB against the same run with 1 answer each, replayed into the real host hub and opened in headless Chromium;
// the page is reloaded (each reload renders one snapshot) and its own figure (stats.lastSnapshotMs) read, median of
// the reloads after the first. The ratio of the time per KB of snapshot, large / small, is the figure: 1 = linear,
// and a machine slower or busier for both alike does not move it.
//   node --require tsx/cjs bench/lib/viewer-snapshot.ts [reloads]
// Prints one JSON line: { small: { kb, ms }, large: { kb, ms }, ratio }.

import { createHarness, launchChromium, replay, servePage, ViewerPage, webviewBundle } from '../../test/webview/harness';
import { bigRun } from '../../test/webview/scenarios';
import { median } from './stats';

async function snapshotRender(versions: number, reloads: number): Promise<{ kb: number; ms: number }> {
  const browser = await launchChromium();
  const server = await servePage(await webviewBundle());
  try {
    const h = await createHarness(browser, server);
    const events = bigRun(8, versions, 12);
    const run = h.source.start(`run-${versions}`, 'Large run', events.slice(0, 1));
    await replay(run, events.slice(1), 50, 1);
    const page = await ViewerPage.open(h, { theme: 'dark', surface: 'panel' });
    const times: number[] = [];
    for (let i = 0; i <= reloads; i++) {
      page.fromPage.length = 0;
      await page.page.reload();
      await page.waitFor((m) => m.type === 'ready');
      await page.settle();
      const ms = await page.page.evaluate(() => (window as unknown as { massgenViewer: { stats: { lastSnapshotMs: number } } }).massgenViewer.stats.lastSnapshotMs);
      if (i > 0) times.push(ms);
    }
    const snapshot = page.toPage.filter((m) => m.type === 'snapshot').at(-1);
    await page.close();
    return { kb: JSON.stringify(snapshot).length / 1024, ms: median(times) };
  } finally {
    await browser.close();
    await server.close();
  }
}

async function main(): Promise<void> {
  const [reloads = 5] = process.argv.slice(2).map(Number);
  const small = await snapshotRender(1, reloads);
  const large = await snapshotRender(4, reloads);
  process.stdout.write(`${JSON.stringify({ small, large, ratio: large.ms / large.kb / (small.ms / small.kb) })}\n`);
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exit(1);
  },
);

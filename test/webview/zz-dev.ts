import { createHarness, launchChromium, replay, servePage, ViewerPage, webviewBundle } from './harness';
import { fullRun, midRun } from './scenarios';
(async () => {
  const browser = await launchChromium();
  const server = await servePage(await webviewBundle());
  const h = await createHarness(browser, server);
  for (const theme of ['dark', 'light'] as const) {
    const empty = await ViewerPage.open(h, { theme });
    await empty.settle();
    console.log('empty errors', empty.pageErrors, await empty.cspViolations());
    await empty.screenshot(`dev-empty-${theme}`);
    await empty.close();
  }
  const mid = await midRun();
  const run = h.source.start('run-mid', 'Refactor parseConfig() in src/config.ts', mid.events.slice(0, 1));
  await replay(run, mid.events.slice(1));
  for (const theme of ['dark', 'light'] as const) {
    for (const surface of ['view', 'panel'] as const) {
      const vp = await ViewerPage.open(h, { theme, surface, width: surface === 'view' ? 320 : 1280 });
      await vp.settle();
      console.log(theme, surface, vp.pageErrors, await vp.cspViolations());
      await vp.screenshot(`dev-mid-${surface}-${theme}`);
      await vp.close();
    }
  }
  const full = await fullRun();
  const run2 = h.source.start('run-full', 'Refactor parseConfig() (done)', full.slice(0, 1));
  await replay(run2, full.slice(1));
  await new Promise((r) => setTimeout(r, 100));
  for (const theme of ['dark', 'light'] as const) {
    const vp = await ViewerPage.open(h, { theme, surface: 'panel' });
    await vp.settle();
    console.log('full', theme, vp.pageErrors, await vp.cspViolations());
    await vp.screenshot(`dev-full-panel-${theme}`);
    await vp.close();
  }
  await browser.close();
  await server.close();
  h.hub.dispose();
})().catch((e) => { console.error(e); process.exit(1); });

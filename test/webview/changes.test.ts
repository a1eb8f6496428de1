// A workspace run in real headless Chromium: each answer version's changed files and diff, fed by the real host hub
// from a fake run whose patchOf returns the patches (test/webview/scenarios.ts workspaceRun): the counts, one
// request per version, a 20,000-line file rendered a window at a time, a patch cut by the host's cap, hostile file
// names and lines, the keyboard, and screenshots in dark and light themes.

import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import type { WebviewMessage } from '../../src/protocol/messages';
import { DIFF_CHUNK_ROWS } from '../../webview/views/file-diff';
import { describeInChromium, replay, useViewerRig, ViewerPage } from './harness';
import { HOSTILE_PATH, workspaceRun } from './scenarios';
import type { ThemeName } from './themes';

describeInChromium('vote viewer in Chromium: answer changes and diffs', function () {
  this.timeout(90_000);
  const rig = useViewerRig();

  async function open(options: { theme?: ThemeName; surface?: 'view' | 'panel'; width?: number } = {}): Promise<ViewerPage> {
    const h = await rig.harness();
    const { events, patches } = workspaceRun();
    const run = h.source.start('ws', 'Make parseConfig() return typed errors', events.slice(0, 1));
    for (const [version, patch] of patches) run.patches.set(version, patch);
    await replay(run, events.slice(1));
    return rig.open(h, { theme: options.theme ?? 'dark', surface: options.surface ?? 'panel', width: options.width, height: 1000 });
  }

  const answer = (p: ViewerPage, label: string) => p.page.locator(`.agent details.answer[data-label="${label}"]`);
  const fileRow = (scope: Locator, name: string) => scope.locator('.change-file', { has: scope.page().locator('.file-name', { hasText: name }) });
  const diffRequests = (p: ViewerPage): WebviewMessage[] => p.fromPage.filter((m) => m.type === 'requestDiff');

  async function openAnswer(p: ViewerPage, label: string): Promise<Locator> {
    const a = answer(p, label);
    if ((await a.getAttribute('open')) === null) await a.locator('> summary').click();
    return a;
  }

  async function openFile(scope: Locator, name: string): Promise<Locator> {
    const toggle = scope.locator('.changes-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const row = fileRow(scope, name);
    await row.locator('.file-toggle').click();
    return row;
  }

  async function assertClean(p: ViewerPage): Promise<void> {
    assert.deepEqual(await p.cspViolations(), [], 'no CSP violations');
    assert.deepEqual(p.pageErrors, [], 'no page errors');
  }

  it('summarises each version’s change and lists its files on demand: status, path, lines or binary', async () => {
    const p = await open();
    const v1 = answer(p, 'agent1.1');
    assert.equal(await v1.locator('.changes-stat').textContent(), '3 files changed, +12 \u22124');
    assert.equal(await answer(p, 'agent2.2').locator('.changes-stat').textContent(), '3 files changed, +20,003 \u22125');
    assert.equal(await answer(p, 'agent3.1').locator('.changes-none').textContent(), 'No file changes');
    // A folded version still says how many files it changed.
    assert.equal(await answer(p, 'agent2.1').getAttribute('open'), null);
    assert.equal((await answer(p, 'agent2.1').locator('.answer-files').textContent())?.trim(), '1 file');
    // Folded until asked; the file rows are built then.
    const toggle = v1.locator('.changes-toggle');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await v1.locator('.change-file').count(), 0);
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const rows = await v1.locator('.change-file .file-toggle').evaluateAll((els) =>
      els.map((e) => [e.querySelector('.file-status')?.textContent, e.querySelector('.file-path')?.textContent, e.querySelector('.file-stat')?.textContent, e.getAttribute('aria-label')]),
    );
    assert.deepEqual(rows, [
      ['M', 'config.tssrc/', '+10 \u22124', 'modified src/config.ts, +10 \u22124'],
      ['A', 'errors.tssrc/', '+2 \u22120', 'added src/errors.ts, +2 \u22120'],
      ['M', 'logo.pngassets/', 'binary', 'modified assets/logo.png, binary'],
    ]);
    assert.deepEqual(diffRequests(p), [], 'listing files asks for no patch');
    // The winner's change in the result and each latest answer's in the tally.
    assert.equal(await p.page.locator('.result-changes .changes-stat').textContent(), '3 files changed, +20,003 \u22125');
    assert.deepEqual(await p.page.locator('.tally-change').allTextContents(), ['3 files changed, +12 \u22124', '3 files changed, +20,003 \u22125', 'No file changes']);
    await assertClean(p);
  });

  it('opening files asks for the version’s patch once and shows the file’s hunks', async () => {
    const p = await open();
    const v1 = answer(p, 'agent1.1');
    const config = await openFile(v1, 'config.ts');
    await config.locator('.diff-row').first().waitFor();
    const kinds = await config.locator('.diff-row').evaluateAll((els) => els.map((e) => e.className.replace('diff-row diff-', '')));
    assert.deepEqual(kinds, ['hunk', 'ctx', 'del', 'add', 'add', 'ctx', 'hunk', 'ctx', 'del', 'del', 'del', ...Array(8).fill('add'), 'ctx', 'ctx']);
    const first = config.locator('.diff-row').nth(3);
    assert.deepEqual(await first.locator('.diff-no').evaluate((e) => [e.getAttribute('data-o'), e.getAttribute('data-n')]), [null, '2']);
    assert.equal(await first.locator('.diff-text').textContent(), 'export function parseConfig(text: string): Result<Config> {');
    assert.equal(await config.locator('.diff-hunk').first().textContent(), '@@ -1,3 +1,4 @@');
    // The styles come from the theme's diff colours.
    const bg = await first.evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.equal(bg, 'rgba(155, 185, 85, 0.2)');
    // A second file of the same version: no second request.
    const errors = await openFile(v1, 'errors.ts');
    await errors.locator('.diff-row').first().waitFor();
    assert.equal(await errors.locator('.diff-add').count(), 2);
    const binary = await openFile(v1, 'logo.png');
    assert.equal(await binary.locator('.file-note').textContent(), 'Binary file: its content is not shown.');
    await p.settle();
    assert.deepEqual(diffRequests(p), [{ v: 1, type: 'requestDiff', runId: 'ws', version: 'agent1.1' }]);
    // Collapsing and opening again keeps what was shown.
    await config.locator('.file-toggle').click();
    assert.equal(await config.locator('.file-body').isHidden(), true);
    await config.locator('.file-toggle').click();
    assert.equal(await config.locator('.diff-row').count(), kinds.length);
    assert.equal(diffRequests(p).length, 1);
    await assertClean(p);
  });

  it('a 20,000-line file renders a window of rows, and Show more adds the next; a patch cut by the host says so', async () => {
    const p = await open();
    const v = await openAnswer(p, 'agent2.2');
    const big = await openFile(v, 'big-table.ts');
    await big.locator('.diff-row').first().waitFor();
    assert.equal(await big.locator('.diff-row').count(), DIFF_CHUNK_ROWS, 'one chunk of rows');
    assert.equal(await big.locator('.diff-shown').textContent(), `400 of 20,001 lines shown`);
    await big.getByRole('button', { name: 'Show 400 more' }).click();
    assert.equal(await big.locator('.diff-row').count(), 2 * DIFF_CHUNK_ROWS);
    assert.equal(await big.locator('.diff-chunk').count(), 2);
    assert.equal(await big.locator('.diff-shown').textContent(), `800 of 20,001 lines shown`);
    assert.equal(await big.locator('.diff-chunk').first().evaluate((e) => getComputedStyle(e).contentVisibility), 'auto');
    assert.equal(await p.page.locator('.diff-row').count(), 2 * DIFF_CHUNK_ROWS, 'nowhere else either');
    // Enter on Show more to the end: every row, a chunk at a time, and the keyboard stays in the diff.
    const more = big.locator('.diff-more');
    await more.focus();
    for (let i = 0; i < 60 && (await more.isVisible()); i++) await p.page.keyboard.press('Enter');
    assert.equal(await big.locator('.diff-row').count(), 20_001);
    assert.equal(await big.locator('.diff-chunk').count(), Math.ceil(20_001 / DIFF_CHUNK_ROWS));
    assert.equal(await p.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Diff of src/big-table.ts');
    // agent2.1's patch is larger than the host sends: cut, with a note, its first rows shown.
    const v21 = await openAnswer(p, 'agent2.1');
    const data = await openFile(v21, 'data.json');
    await data.locator('.diff-row').first().waitFor();
    assert.match((await v21.locator('.changes-note').textContent()) ?? '', /too large to show whole .* its first 512 K are shown/);
    assert.equal(await data.locator('.diff-row').count(), DIFF_CHUNK_ROWS);
    assert.match((await data.locator('.diff-shown').textContent()) ?? '', /^400 of [\d,]+ lines shown$/);
    assert.deepEqual(diffRequests(p).map((m) => 'version' in m && m.version), ['agent2.2', 'agent2.1']);
    await assertClean(p);
  });

  it('hostile file names and lines are shown as text and run nothing', async () => {
    const p = await open();
    const v = await openAnswer(p, 'agent2.2');
    const hostile = await openFile(v, 'onerror');
    await hostile.locator('.diff-row').first().waitFor();
    const report = await p.page.evaluate(() => {
      const root = document.getElementById('root')!;
      const all = Array.from(root.querySelectorAll('*'));
      return {
        pwned: (window as unknown as { __pwned?: string }).__pwned ?? null,
        forbidden: all.filter((e) => /^(SCRIPT|IMG|IFRAME|STYLE|OBJECT|EMBED|SVG)$/i.test(e.tagName)).map((e) => e.tagName),
        handlers: all.flatMap((e) => Array.from(e.attributes).filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName}[${a.name}]`)),
        links: root.querySelectorAll('.changes a, .diff a').length,
      };
    });
    assert.deepEqual(report, { pwned: null, forbidden: [], handlers: [], links: 0 });
    assert.equal(await hostile.locator('.file-name').textContent(), HOSTILE_PATH.slice(HOSTILE_PATH.lastIndexOf('/') + 1));
    assert.equal(await hostile.locator('.file-path').getAttribute('title'), HOSTILE_PATH);
    assert.deepEqual(await hostile.locator('.diff-add .diff-text').allTextContents(), ['<script>window.__pwned = "diff"</script>', '<img src=x onerror="window.__pwned = \'diff-img\'">', 'const link = "[click](javascript:alert(1))";']);
    assert.deepEqual(rig.server.leaks, []);
    await assertClean(p);
  });

  it('keyboard: Tab reaches the summary and the files; Enter and Space expand and collapse them', async () => {
    const p = await open();
    const v1 = answer(p, 'agent1.1');
    await v1.locator('> summary').focus();
    await p.page.keyboard.press('Tab');
    const focused = () => p.page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    assert.equal(await focused(), '3 files changed, +12 \u22124 in agent1.1');
    await p.page.keyboard.press('Enter');
    const toggle = v1.locator('.changes-toggle');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await v1.locator('.change-files').isVisible(), true);
    await p.page.keyboard.press('Tab');
    assert.equal(await focused(), 'modified src/config.ts, +10 \u22124');
    await p.page.keyboard.press('Space');
    const config = fileRow(v1, 'config.ts');
    assert.equal(await config.locator('.file-toggle').getAttribute('aria-expanded'), 'true');
    await config.locator('.diff-row').first().waitFor();
    // The diff itself is a focusable region (it scrolls), after its file.
    await p.page.keyboard.press('Tab');
    assert.equal(await focused(), 'Diff of src/config.ts');
    await p.page.keyboard.press('Shift+Tab');
    await p.page.keyboard.press('Space');
    assert.equal(await config.locator('.file-toggle').getAttribute('aria-expanded'), 'false');
    assert.equal(await config.locator('.file-body').isHidden(), true);
    await p.page.keyboard.press('Shift+Tab');
    await p.page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await v1.locator('.change-files').isHidden(), true);
    const ring = await toggle.evaluate((e) => getComputedStyle(e).outlineStyle);
    assert.notEqual(ring, 'none', 'visible focus');
  });

  for (const theme of ['dark', 'light', 'hc'] as ThemeName[]) {
    it(`screenshots: an expanded diff in the ${theme} theme (panel and sidebar)`, async () => {
      for (const surface of ['panel', 'view'] as const) {
        const p = await open({ theme, surface, width: surface === 'view' ? 380 : 1280 });
            const v1 = answer(p, 'agent1.1');
        const config = await openFile(v1, 'config.ts');
        await config.locator('.diff-row').first().waitFor();
        const v2 = await openAnswer(p, 'agent2.2');
        const hostile = await openFile(v2, 'onerror');
        await hostile.locator('.diff-row').first().waitFor();
        await openFile(v2, 'legacy.js');
        await p.screenshotOf(`changes-${surface}-${theme}`, '.agents-section');
        if (surface === 'panel') await p.screenshotOf(`changes-result-${theme}`, '.result-section');
        await assertClean(p);
      }
    });
  }
});

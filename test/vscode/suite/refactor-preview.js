// VS Code's refactor preview (the panel a WorkspaceEdit with an entry needing confirmation opens), beyond what
// helpers.refactorPreview does: each row's tick as it is, ticking or unticking one, and a file's rows unfolded to
// its single edits.
'use strict';
const { playwright } = require('./helpers');

const ROWS = '.part.panel .bulk-edit-panel .monaco-list-row';
const BOX = '.monaco-custom-toggle, .monaco-checkbox, input[type="checkbox"]';

/** Every row of the preview: its text and aria-checked ('true' / 'false'). */
const ticks = () =>
  playwright(async ({ page }, a) => {
    const rows = await page.locator(a.ROWS).all();
    const out = [];
    for (const row of rows) out.push({ text: (await row.innerText()).replace(/\s+/g, ' ').trim(), checked: await row.locator(a.BOX).first().getAttribute('aria-checked') });
    return out;
  }, { ROWS, BOX });

/** Sets the tick of the first row whose text has `text`; returns its aria-checked after. */
const setTick = (text, value) =>
  playwright(async ({ page, sleep }, a) => {
    const row = page.locator(a.ROWS).filter({ hasText: a.text }).first();
    await row.waitFor({ state: 'visible', timeout: 20000 });
    const box = row.locator(a.BOX).first();
    if ((await box.getAttribute('aria-checked')) !== String(a.value)) await box.click();
    await sleep(200);
    return box.getAttribute('aria-checked');
  }, { ROWS, BOX, text, value });

/** Unfolds the first row whose text has `text` (a file: its single edits appear as rows below it). */
const unfold = (text) =>
  playwright(async ({ page, sleep }, a) => {
    const row = page.locator(a.ROWS).filter({ hasText: a.text }).first();
    await row.waitFor({ state: 'visible', timeout: 20000 });
    if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
    await sleep(300);
    return row.getAttribute('aria-expanded');
  }, { ROWS, text });

module.exports = { ticks, setTick, unfold };

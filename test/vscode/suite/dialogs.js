// VS Code's modal dialogs (showWarningMessage with { modal: true }) as a person answers them: the workbench's dialog
// box, its message and its buttons.
'use strict';
const { playwright } = require('./helpers');

/** Waits for a modal dialog whose text contains `text`, clicks its button `button`; returns the dialog's text. */
function answerDialog(text, button, timeoutMs = 20000) {
  return playwright(async ({ page, sleep }, a) => {
    const box = page.locator('.monaco-dialog-box').filter({ hasText: a.text }).first();
    await box.waitFor({ state: 'visible', timeout: a.timeoutMs });
    await sleep(200);
    const shown = await box.innerText();
    await box.locator('.monaco-button').filter({ hasText: new RegExp(`^\\s*${a.button}\\s*$`) }).first().click();
    return shown;
  }, { text, button, timeoutMs }, timeoutMs + 30000);
}

/** Whether a modal dialog is showing now. */
const dialogShown = () => playwright(async ({ page }) => page.locator('.monaco-dialog-box').isVisible());

module.exports = { answerDialog, dialogShown };

// VS Code's modal dialogs (showWarningMessage with { modal: true }). While extension tests run, the workbench refuses
// to show them ("DialogService: refused to show dialog in tests": the call rejects with the dialog's text), so a test
// answers one here as the user would, by the button's label, and sees the message and buttons it was shown with.
'use strict';
const vscode = require('vscode');

/**
 * Answers the next modal warning whose message contains `text` with `button` (undefined: the user cancelled), in
 * place of the dialog VS Code will not show in tests. Resolves to { message, detail, buttons } once it was asked.
 * Every other call goes to VS Code as usual; `restore()` undoes it if the dialog never came.
 */
function answerNextModal(text, button) {
  const window = vscode.window;
  const original = window.showWarningMessage;
  let restore;
  const asked = new Promise((resolve) => {
    restore = () => {
      window.showWarningMessage = original;
    };
    window.showWarningMessage = function (message, ...rest) {
      const options = rest[0];
      if (typeof message === 'string' && message.includes(text) && options && typeof options === 'object' && options.modal) {
        restore();
        resolve({ message, detail: options.detail, buttons: rest.slice(1) });
        return Promise.resolve(button);
      }
      return original.call(this, message, ...rest);
    };
  });
  return { asked, restore };
}

module.exports = { answerNextModal };

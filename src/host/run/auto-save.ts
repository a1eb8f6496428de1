// What happens to an applied edit that VS Code leaves in the editor: Apply never saves, but the user's
// `files.autoSave` may (afterDelay, the default in VS Code for the Web and code-server, writes the file a second
// later). Said in words after Apply.

import * as vscode from 'vscode';

/** What becomes of the applied, unsaved edit of `uri` (`many`: of several files), and how to take it back. */
export function afterApplyInWords(uri: vscode.Uri, many = false): string {
  switch (vscode.workspace.getConfiguration('files', uri).get<string>('autoSave')) {
    case 'afterDelay':
      return many ? vscode.l10n.t('saved by auto-save; Undo in the vote viewer puts them back') : vscode.l10n.t('saved by auto-save; Undo in the vote viewer or Ctrl+Z puts it back');
    case 'onFocusChange':
      return many
        ? vscode.l10n.t('auto-save saves them when the editor loses focus; Undo in the vote viewer puts them back')
        : vscode.l10n.t('auto-save saves it when the editor loses focus; Undo in the vote viewer or Ctrl+Z puts it back');
    case 'onWindowChange':
      return many
        ? vscode.l10n.t('auto-save saves them when the window loses focus; Undo in the vote viewer puts them back')
        : vscode.l10n.t('auto-save saves it when the window loses focus; Undo in the vote viewer or Ctrl+Z puts it back');
    default:
      return many
        ? vscode.l10n.t('left unsaved for your review (Save All saves them); Undo in the vote viewer puts them back')
        : vscode.l10n.t('left unsaved for your review (Ctrl+S saves it); Undo in the vote viewer or Ctrl+Z puts it back');
  }
}

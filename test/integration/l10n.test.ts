// Localisation as VS Code extensions do it: the manifest's texts are %keys% of package.nls.json, and the lint rule
// (tools/eslint/no-bare-ui-string.mjs) rejects host text passed bare to VS Code's UI, not text wrapped in l10n.t.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..');
const readJson = (name: string) => JSON.parse(readFileSync(join(root, name), 'utf8'));

describe('l10n: the manifest', () => {
  const pkg = readJson('package.json');
  const nls: Record<string, string> = readJson('package.nls.json');

  /** Every string of the manifest with its path. */
  const strings = (node: unknown, path: string[] = []): Array<{ path: string; value: string }> =>
    typeof node === 'string'
      ? [{ path: path.join('.'), value: node }]
      : node && typeof node === 'object'
        ? Object.entries(node).flatMap(([k, v]) => strings(v, [...path, k]))
        : [];

  it('every %key% has an English text in package.nls.json, and every text there is used', () => {
    const keys = strings(pkg).map((s) => /^%(.+)%$/.exec(s.value)?.[1]).filter((k): k is string => k !== undefined);
    assert.deepEqual(keys.filter((k) => !(k in nls)), [], 'keys without a text');
    assert.deepEqual(Object.keys(nls).filter((k) => !keys.includes(k)), [], 'texts no key uses');
    for (const [k, v] of Object.entries(nls)) assert.ok(typeof v === 'string' && v.trim(), k);
  });

  it('what VS Code shows from contributes is a %key%: titles, names, descriptions', () => {
    const c = pkg.contributes;
    const shown = [
      ...c.commands.flatMap((x: { title: string; category?: string }) => [x.title, x.category ?? '%%']),
      ...Object.values(c.viewsContainers).flat().map((x) => (x as { title: string }).title),
      ...Object.values(c.views).flat().map((x) => (x as { name: string }).name),
      ...c.chatParticipants.flatMap((p: { description: string; commands: Array<{ description: string }> }) => [p.description, ...p.commands.map((x) => x.description)]),
      ...c.languageModelTools.flatMap((t: { displayName: string; userDescription: string }) => [t.displayName, t.userDescription]),
      ...c.configuration.map((x: { title: string }) => x.title),
      pkg.displayName,
      pkg.description,
    ];
    assert.deepEqual(shown.filter((s: string) => !/^%.+%$/.test(s) && s !== '%%'), []);
    // Settings' descriptions too, the starter teams' labels included.
    const settings = strings(c.configuration).filter((s) => /(^|\.)(markdownDescription|description|label|enumDescriptions\.\d+)$/.test(s.path));
    assert.ok(settings.length > 40, `${settings.length} setting texts`);
    assert.deepEqual(settings.filter((s) => !/^%.+%$/.test(s.value)), []);
  });
});

describe('l10n: the lint rule against bare UI strings in src/host', function () {
  this.timeout(120000);
  const eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.mjs') });
  const problems = async (code: string, file = 'src/host/l10n-example.ts') => {
    const [result] = await eslint.lintText(code, { filePath: join(root, file) });
    return result.messages.filter((m) => m.ruleId === 'l10n/no-bare-ui-string').map((m) => `${m.line}: ${m.message}`);
  };
  const head = "import * as vscode from 'vscode';\nconst n = 2;\n";

  it('fires on a bare message, button, detail, picker text, progress, chat text and status-bar text', async () => {
    const cases = [
      "void vscode.window.showInformationMessage('MassGen: no run in progress.');",
      "void vscode.window.showWarningMessage(vscode.l10n.t('Run?'), { modal: true, detail: `Costs ${n} calls.` });",
      "void vscode.window.showErrorMessage(vscode.l10n.t('Failed'), 'Retry');",
      "void vscode.window.showInputBox({ prompt: vscode.l10n.t('Instruction'), placeHolder: n ? 'e.g. add tests' : vscode.l10n.t('x') });",
      "void vscode.window.showQuickPick([{ label: 'Allow' }], { title: vscode.l10n.t('Choose') });",
      "void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `MassGen: ${n}` }, async (p) => p.report({ message: vscode.l10n.t('x') }));",
      "declare const p: vscode.Progress<{ message?: string }>; p.report({ message: 'Waiting ' + n });",
      "declare const stream: vscode.ChatResponseStream; stream.markdown(`${n} agents ran`);",
      "declare const stream: vscode.ChatResponseStream; stream.button({ command: 'massgen.showVoteViewer', title: 'Open vote viewer' });",
      "const item = vscode.window.createStatusBarItem(); item.tooltip = 'Show the run';",
      "const pick = vscode.window.createQuickPick(); pick.items = [{ label: vscode.l10n.t('Allow') }, { label: 'Deny' }];",
      "const m = new vscode.MarkdownString('**Question:** none');",
    ];
    for (const code of cases) assert.equal((await problems(head + code)).length, 1, code);
  });

  it('passes text wrapped in vscode.l10n.t or l10n.t, and non-text (ids, symbols, variables)', async () => {
    const code = [
      "const { l10n } = vscode;",
      "declare const message: string;",
      "void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: Answer now: {0}.', message), vscode.l10n.t('Retry'));",
      "void vscode.window.showWarningMessage(l10n.t('Run?'), { modal: true, detail: l10n.t('Costs {0} calls.', n) }, message);",
      "void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('MassGen: {0}', n) }, async (p) => p.report({ message }));",
      "declare const stream: vscode.ChatResponseStream; stream.markdown('\\n\\n'); stream.button({ command: 'massgen.showVoteViewer', title: l10n.t('Open vote viewer') });",
      "const item = vscode.window.createStatusBarItem(); item.text = `$(${message})`; item.tooltip = vscode.l10n.t('Show the run');",
    ].join('\n');
    assert.deepEqual(await problems(head + code), []);
  });

  it('leaves the host files that run in plain Node (no vscode.l10n there) and tests alone', async () => {
    const bare = "declare const stream: { markdown(s: string): void }; stream.markdown('Hello');";
    assert.equal((await problems(bare)).length, 1);
    assert.deepEqual(await problems(bare, 'src/host/lm/l10n-example.ts'), []);
    assert.deepEqual(await problems(bare, 'src/host/l10n-example.test.ts'), []);
  });
});

// API keys live in SecretStorage only: never in settings, logs or the webview. The env var names are upstream's
// (OPENAI_API_KEY…), so a key set in the shell VS Code was started from works too.

import * as vscode from 'vscode';
import { BACKENDS } from '../core/config/backends';

const SECRET_PREFIX = 'massgen.apiKey.';

/** One entry per key env var the backends know, labelled by the backend types that use it. */
export function keyProviders(): { env: string; types: string[] }[] {
  const byEnv = new Map<string, string[]>();
  for (const [type, spec] of Object.entries(BACKENDS)) {
    for (const env of spec.keyEnv) byEnv.set(env, [...(byEnv.get(env) ?? []), type]);
  }
  return [...byEnv].map(([env, types]) => ({ env, types }));
}

export class KeyStore {
  constructor(private readonly secrets: vscode.SecretStorage, private readonly env: NodeJS.ProcessEnv = process.env) {}

  /** SecretStorage first, then the environment VS Code was started with. */
  async get(envVar: string): Promise<string | undefined> {
    return (await this.secrets.get(SECRET_PREFIX + envVar)) || this.env[envVar] || undefined;
  }

  async isStored(envVar: string): Promise<boolean> {
    return Boolean(await this.secrets.get(SECRET_PREFIX + envVar));
  }

  set(envVar: string, value: string): Thenable<void> {
    return this.secrets.store(SECRET_PREFIX + envVar, value);
  }

  clear(envVar: string): Thenable<void> {
    return this.secrets.delete(SECRET_PREFIX + envVar);
  }
}

/** MassGen: Set API Key… — pick a provider, then enter (or clear) its key in a password box. */
export async function setApiKeyCommand(keys: KeyStore, preselect?: string): Promise<void> {
  const providers = keyProviders();
  const items = await Promise.all(
    providers.map(async (p) => ({
      label: p.env,
      description: p.types.join(', '),
      detail: (await keys.isStored(p.env)) ? vscode.l10n.t('Stored in VS Code secret storage') : undefined,
      env: p.env,
    })),
  );
  const picked = preselect
    ? items.find((i) => i.env === preselect)
    : await vscode.window.showQuickPick(items, { title: vscode.l10n.t('MassGen: Set API Key'), placeHolder: vscode.l10n.t('Which provider key?') });
  if (!picked) return;
  const stored = await keys.isStored(picked.env);
  if (stored) {
    const clear = vscode.l10n.t('Clear the key');
    const action = await vscode.window.showQuickPick([vscode.l10n.t('Replace the key'), clear], { title: vscode.l10n.t('MassGen: {0}', picked.env) });
    if (!action) return;
    if (action === clear) {
      await keys.clear(picked.env);
      void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: {0} cleared.', picked.env));
      return;
    }
  }
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('MassGen: {0}', picked.env),
    prompt: vscode.l10n.t("Paste your {0}. It is kept in VS Code's secret storage, never in settings or logs.", picked.env),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('The key is empty.')),
  });
  if (!value) return;
  await keys.set(picked.env, value.trim());
  void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: {0} stored.', picked.env));
}

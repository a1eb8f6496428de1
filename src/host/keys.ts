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
      detail: (await keys.isStored(p.env)) ? 'Stored in VS Code secret storage' : undefined,
      env: p.env,
    })),
  );
  const picked = preselect ? items.find((i) => i.env === preselect) : await vscode.window.showQuickPick(items, { title: 'MassGen: Set API Key', placeHolder: 'Which provider key?' });
  if (!picked) return;
  const stored = await keys.isStored(picked.env);
  if (stored) {
    const action = await vscode.window.showQuickPick(['Replace the key', 'Clear the key'], { title: `MassGen: ${picked.env}` });
    if (!action) return;
    if (action === 'Clear the key') {
      await keys.clear(picked.env);
      void vscode.window.showInformationMessage(`MassGen: ${picked.env} cleared.`);
      return;
    }
  }
  const value = await vscode.window.showInputBox({
    title: `MassGen: ${picked.env}`,
    prompt: `Paste your ${picked.env}. It is kept in VS Code's secret storage, never in settings or logs.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'The key is empty.'),
  });
  if (!value) return;
  await keys.set(picked.env, value.trim());
  void vscode.window.showInformationMessage(`MassGen: ${picked.env} stored.`);
}

// An API key written into the `massgen.agents` setting (upstream's `backend.api_key`, pasted from a YAML file) sits
// in settings.json as plain text, where settings sync and every extension can read it. When a run uses such a team
// the user is told (one toast at a time) and offered to move it: the key goes to VS Code's secret storage
// (where runs look for it) and leaves settings.json. The key's value is never shown or logged.

import * as vscode from 'vscode';
import { inlineKeys, withoutInlineKeys } from '../../core/config/settings';
import type { KeyStore } from '../keys';

const MOVE = () => vscode.l10n.t('Move to Secret Storage');

/** The scopes a team can be set in, the workspace's first (it wins), with their names in words. */
function scopes(): { target: vscode.ConfigurationTarget; value: unknown; place: string }[] {
  const inspected = vscode.workspace.getConfiguration('massgen').inspect<unknown[]>('agents');
  return [
    { target: vscode.ConfigurationTarget.Workspace, value: inspected?.workspaceValue, place: vscode.l10n.t('the workspace settings') },
    { target: vscode.ConfigurationTarget.Global, value: inspected?.globalValue, place: vscode.l10n.t('your User settings') },
  ];
}

/** What `keys` already holds under the variables the pasted keys would go to: a different key there is never replaced. */
async function existingKeys(keys: KeyStore, agents: unknown[]): Promise<Map<string, string>> {
  const vars = [...new Set(inlineKeys(agents).map((k) => k.envVar))];
  const values = await Promise.all(vars.map(async (v) => [v, await keys.get(v)] as const));
  return new Map(values.filter((e): e is readonly [string, string] => e[1] !== undefined));
}

/** An offer is open now: a second run does not stack a second toast. */
let offering = false;

/** Tells of keys written into `massgen.agents` and moves them on the user's word. Resolves once answered. */
export async function offerToMoveSettingsKeys(keys: KeyStore): Promise<void> {
  if (offering) return;
  if (!scopes().some((s) => Array.isArray(s.value) && inlineKeys(s.value).length > 0)) return;
  offering = true;
  try {
    const found = [];
    for (const s of scopes()) {
      if (!Array.isArray(s.value)) continue;
      const inline = inlineKeys(s.value, await existingKeys(keys, s.value));
      if (inline.length) found.push({ ...s, agents: s.value, keys: inline });
    }
    if (found.length === 0) return;
    const names = found.flatMap((s) => s.keys.map((k) => k.id)).join(', ');
    const places = found.map((s) => s.place).join(vscode.l10n.t(' and '));
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('MassGen: massgen.agents in {0} holds an API key as plain text ({1}). Move it to VS Code\'s secret storage?', places, names),
      MOVE(),
    );
    if (choice !== MOVE()) return;
    for (const scope of found) {
      for (const key of scope.keys) await keys.set(key.envVar, key.value);
      await vscode.workspace.getConfiguration('massgen').update('agents', withoutInlineKeys(scope.agents, scope.keys), scope.target);
    }
    const vars = [...new Set(found.flatMap((s) => s.keys.map((k) => k.envVar)))].join(', ');
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: the key is now in VS Code\'s secret storage as {0}; settings.json no longer holds it.', vars));
  } finally {
    offering = false;
  }
}

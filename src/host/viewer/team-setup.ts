// The next run's team as the vote viewer shows it (run/next-team.ts), and whether a chat model is there for @massgen,
// worked out once and again whenever something it depends on changes: the massgen.* settings, a YAML config file,
// the chat models, the stored keys, the trust.

import * as vscode from 'vscode';
import type { Setup } from '../../protocol/messages';
import type { KeyStore } from '../keys';
import { selectLmModels } from '../lm/models';
import { nextTeam } from '../run/next-team';

export interface TeamSetup extends vscode.Disposable {
  get(): Promise<Setup>;
  /** Forget the cached team and tell the listener (e.g. Open Config just wrote the file). */
  refresh(): void;
}

export function watchTeamSetup(keys: KeyStore, secrets: vscode.SecretStorage, onChange: () => void): TeamSetup {
  let cached: Promise<Setup> | undefined;
  const refresh = () => {
    cached = undefined;
    onChange();
  };
  const isYaml = (uri: vscode.Uri) => /\.ya?ml$/i.test(uri.path);
  // Config files: the workspace's .massgen/config.yaml, or massgen.configFile, which may be any YAML file.
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml}');
  const subscriptions = [
    watcher,
    watcher.onDidCreate(refresh),
    watcher.onDidChange(refresh),
    watcher.onDidDelete(refresh),
    vscode.workspace.onDidSaveTextDocument((doc) => isYaml(doc.uri) && refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('massgen') && refresh()),
    vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    vscode.lm.onDidChangeChatModels(refresh),
    secrets.onDidChange(refresh),
  ];
  return {
    get: () => (cached ??= Promise.all([nextTeam(keys), selectLmModels(vscode.lm).catch(() => [])]).then(([setup, models]) => ({ ...setup, chatModel: models.length > 0 }))),
    refresh,
    dispose: () => subscriptions.forEach((s) => s.dispose()),
  };
}

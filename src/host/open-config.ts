// MassGen: Open Config — opens the YAML file the team comes from, without writing to it. When there is none yet it
// asks first, since the file takes over the team: on Create it writes one that starts as the team that runs now (the
// massgen.agents setting, else the chat models a zero-config run picks) and says plainly that the file decides now.

import * as vscode from 'vscode';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PERSONAS, TEAM_SIZE } from '../core/config/discover';
import type { SettingsAgent } from '../core/config/settings';
import { configYaml } from './config-template';
import { lmModelSpec, selectLmModels } from './lm/models';
import { pickLmTeam } from './lm/team';
import { configFilePath, readSettings, teamSource } from './run/config';

/** The agents a zero-config run would use now; with no chat model yet, personas on whichever model appears. */
async function chatModelAgents(): Promise<SettingsAgent[]> {
  const models = await selectLmModels(vscode.lm);
  if (models.length === 0) return PERSONAS.slice(0, TEAM_SIZE).map((p) => ({ id: `chat-${p.id}`, provider: 'vscode-lm', model: 'auto', systemMessage: p.systemMessage }));
  return pickLmTeam(models).map((a) => ({ id: a.id, provider: 'vscode-lm', model: lmModelSpec(a.model), ...(a.personaSystemMessage ? { systemMessage: a.personaSystemMessage } : {}) }));
}

/** `onCreated`: a new file now decides the team (the vote viewer shows it). */
export async function openConfig(onCreated: () => void): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const settings = readSettings();
  if (!settings.configFile.trim() && !vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('MassGen: this workspace is not trusted, so a .massgen/config.yaml in it would be ignored. Trust the workspace first, or set massgen.configFile in your User settings.'),
    );
    return;
  }
  const file = configFilePath(settings.configFile) ?? (root ? join(root, '.massgen', 'config.yaml') : undefined);
  if (!file) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: open a folder first; the config lives in .massgen/config.yaml of the workspace.'));

    return;
  }
  if (!existsSync(file)) {
    const { from } = teamSource(settings);
    const name = vscode.workspace.asRelativePath(file, false);
    const create = vscode.l10n.t('Create');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Create a config file that will decide this workspace\'s team?'),
      { modal: true, detail: vscode.l10n.t('{0} does not exist yet. It would start as your current team ({1}); while it exists it decides the team here instead of {1}.', name, from) },
      create,
    );
    if (choice !== create) return;
    const agents = settings.agents.length ? settings.agents : await chatModelAgents();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, configYaml({ ...settings, agents }, from));
    onCreated();
    void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: wrote {0} with your current team ({1} agents from {2}). While the file exists it decides the team in this workspace, instead of {2}; delete it to go back.', name, agents.length, from));
  }
  await vscode.window.showTextDocument(vscode.Uri.file(file));
}

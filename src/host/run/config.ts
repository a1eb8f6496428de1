// Where a run's configuration comes from inside VS Code, in order: the `massgen.configFile` YAML, the workspace's
// `.massgen/config.yaml`, the `massgen.agents` setting, else nothing configured → the user's VS Code chat models.
// A workspace that is not trusted cannot supply YAML (its endpoints could redirect the user's keys). Each source says
// where it is in words, so the views can tell the user which team runs and where to change it. A workspace run also
// gets the project's checks (checks-settings.ts: the file's, else `massgen.checks` of the folder it runs on).

import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { keyRequirement } from '../../core/config/backends';
import { loadConfigFile, type ConfigWarning } from '../../core/config/load';
import { configFromSettings, type MassGenSettings, type SettingsAgent } from '../../core/config/settings';
import type { MassGenConfig } from '../../core/config/types';
import type { KeyStore } from '../keys';
import { applyRunChecks } from './checks-settings';
import { configFileFor } from './config-file';
import { offerToMoveSettingsKeys } from './settings-keys';

/** A required key is missing; the UI offers "Set API Key" for `envVar`. */
export class MissingKeyError extends Error {
  constructor(readonly envVar: string, agentId: string) {
    super(`Agent '${agentId}' needs ${envVar}. Run "MassGen: Set API Key…" to store it, or set it in the environment VS Code starts with.`);
  }
}

/**
 * `from`: where the team is set, in words ("`.massgen/config.yaml`", "massgen.agents in your User settings");
 * `checksFrom`: where the run's checks are set, when it has checks.
 */
export type RunConfig =
  | { kind: 'configured'; source: 'file' | 'settings'; from: string; config: MassGenConfig; warnings: ConfigWarning[]; checksFrom?: string }
  | { kind: 'chat-models'; source: 'chat-models'; from: string; config: MassGenConfig; checksFrom?: string };

/** Where the team comes from, before anything is loaded (so a broken file is still named). */
export type TeamSource = { source: 'file'; path: string; from: string } | { source: 'settings'; from: string } | { source: 'chat-models'; from: string };

export function readSettings(): MassGenSettings & { configFile: string } {
  const c = vscode.workspace.getConfiguration('massgen');
  return {
    agents: c.get<SettingsAgent[]>('agents', []),
    configFile: c.get<string>('configFile', ''),
    votingSensitivity: c.get('votingSensitivity'),
    answerNovelty: c.get('answerNovelty'),
    maxAnswersPerAgent: c.get<number | null>('maxAnswersPerAgent', null),
    maxRounds: c.get('maxRounds'),
    finalAnswer: c.get('finalAnswer'),
    contextCompaction: c.get('contextCompaction'),
    timeoutSeconds: c.get('timeoutSeconds'),
    agentTurnTimeoutSeconds: c.get('agentTurnTimeoutSeconds'),
    budget: { maxCostUsd: c.get('budget.maxCostUsd'), maxTotalTokens: c.get('budget.maxTotalTokens'), maxCalls: c.get('budget.maxCalls') },
    defaultBaseUrls: c.get<Record<string, string>>('providers.defaultBaseUrls', {}),
  };
}

function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** The YAML file to use, if any (see configFileFor). */
export function configFilePath(setting: string): string | undefined {
  return configFileFor(setting, { root: workspaceRoot(), trusted: vscode.workspace.isTrusted, exists: existsSync });
}

/** The `massgen.agents` setting's place in words: the workspace's settings, or the user's (a remote window's too). */
function agentsSettingPlace(): string {
  const inspected = vscode.workspace.getConfiguration('massgen').inspect<unknown[]>('agents');
  if (inspected?.workspaceValue !== undefined) return 'massgen.agents in the workspace settings';
  return vscode.env.remoteName ? 'massgen.agents in your User or Remote settings' : 'massgen.agents in your User settings';
}

/** `massgen.checks` and `massgen.verification` as they apply to `folder` (resource-scoped), and where the checks are set. */
export function readChecksSetting(folder: vscode.Uri): { checks: unknown; verification: unknown; from: string } {
  const c = vscode.workspace.getConfiguration('massgen', folder);
  const inspected = c.inspect<unknown[]>('checks');
  const from =
    inspected?.workspaceFolderValue !== undefined && (vscode.workspace.workspaceFolders?.length ?? 0) > 1
      ? `massgen.checks in the folder settings of ${vscode.workspace.getWorkspaceFolder(folder)?.name ?? folder.fsPath}`
      : inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined
        ? 'massgen.checks in the workspace settings'
        : `massgen.checks in your User${vscode.env.remoteName ? ' or Remote' : ''} settings`;
  return { checks: c.get('checks'), verification: c.get('verification'), from };
}

export function teamSource(settings = readSettings()): TeamSource {
  const file = configFilePath(settings.configFile);
  if (file) {
    const relative = vscode.workspace.asRelativePath(file, false);
    return { source: 'file', path: file, from: settings.configFile.trim() ? `${relative} (massgen.configFile)` : relative };
  }
  if (settings.agents.length > 0) return { source: 'settings', from: agentsSettingPlace() };
  return { source: 'chat-models', from: 'your VS Code chat models' };
}

/** Fills each agent's key from SecretStorage or the environment; throws MissingKeyError for the first one missing. */
export async function fillKeys(config: MassGenConfig, keys: KeyStore): Promise<void> {
  for (const agent of config.agents) {
    const b = agent.backend;
    if (b.apiKey || b.family === 'vscode-lm') continue;
    const req = keyRequirement(b.type, b.baseUrl);
    for (const env of b.apiKeyEnv ? [b.apiKeyEnv, ...req.envVars] : req.envVars) {
      b.apiKey = await keys.get(env);
      if (b.apiKey) break;
    }
    if (!b.apiKey && req.required) throw new MissingKeyError(b.apiKeyEnv ?? req.envVars[0] ?? 'an API key', agent.id);
  }
}

/**
 * The team's config without keys; throws ConfigError with messages fit for a notification. `workspaceFolder`: a
 * workspace run on that folder, which gets the project's checks.
 */
export function loadTeamConfig(source = teamSource(), workspaceFolder?: vscode.Uri): RunConfig {
  const run = loadTeam(source);
  const checksFrom = applyRunChecks(run.config.orchestrator, {
    trusted: vscode.workspace.isTrusted,
    workspaceRun: workspaceFolder !== undefined,
    file: source.source === 'file' ? source.from : undefined,
    setting: workspaceFolder ? readChecksSetting(workspaceFolder) : { checks: undefined, verification: undefined, from: '' },
  });
  return checksFrom ? { ...run, checksFrom } : run;
}

function loadTeam(source: TeamSource): RunConfig {
  const settings = readSettings();
  if (source.source === 'file') {
    const { config, warnings } = loadConfigFile(source.path, process.env, { requireKeys: false, host: 'vscode' });
    return { kind: 'configured', source: 'file', from: source.from, config, warnings };
  }
  if (source.source === 'settings') {
    const { config, warnings } = configFromSettings(settings, process.env);
    return { kind: 'configured', source: 'settings', from: source.from, config, warnings };
  }
  // Zero-config: the orchestrator settings still apply; the agents come from VS Code's chat models.
  const { config } = configFromSettings({ ...settings, agents: [{ provider: 'vscode-lm', model: 'auto' }] }, process.env);
  return { kind: 'chat-models', source: 'chat-models', from: source.from, config: { ...config, agents: [], source: 'VS Code chat models' } };
}

/** The config for a run; throws ConfigError (bad config) or MissingKeyError with messages fit for a notification. */
export async function resolveRunConfig(keys: KeyStore, workspaceFolder?: vscode.Uri): Promise<RunConfig> {
  const run = loadTeamConfig(teamSource(), workspaceFolder);
  // Not awaited: the run goes on with the key where it is while the user decides.
  if (run.source === 'settings') void offerToMoveSettingsKeys(keys);
  if (run.kind === 'configured') await fillKeys(run.config, keys);
  return run;
}

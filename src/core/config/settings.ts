// VS Code settings (`massgen.*`) → the same typed config the YAML loader produces. The settings are turned into
// upstream's YAML shape and go through the one loader, so both paths share every check and message; issues are
// then named by setting (`massgen.agents[0].model`) rather than by a line of generated YAML.

import { stringify } from 'yaml';
import { ConfigError, parseConfigText, type ConfigIssue, type LoadResult } from './load';

export interface SettingsAgent {
  id?: string;
  /** Backend type, as in YAML: openai, claude, chatcompletion, ollama, groq, vscode-lm… */
  provider: string;
  model: string;
  baseUrl?: string;
  systemMessage?: string;
  temperature?: number;
  maxTokens?: number;
}

export interface MassGenSettings {
  agents: SettingsAgent[];
  votingSensitivity?: string;
  answerNovelty?: string;
  maxAnswersPerAgent?: number | null;
  maxRounds?: number;
  finalAnswer?: string;
  contextCompaction?: string;
  timeoutSeconds?: number;
  agentTurnTimeoutSeconds?: number;
  budget?: { maxCostUsd?: number | null; maxTotalTokens?: number | null; maxCalls?: number | null };
  /** Server URL per provider type, for agents without their own `baseUrl`. */
  defaultBaseUrls?: Record<string, string>;
}

const SOURCE = 'VS Code settings';

function prune<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

/** Upstream's YAML shape for the settings; exported for tests. */
export function settingsToYamlObject(s: MassGenSettings): Record<string, unknown> {
  const budget = prune({ max_cost_usd: s.budget?.maxCostUsd, max_total_tokens: s.budget?.maxTotalTokens, max_calls: s.budget?.maxCalls });
  return {
    agents: s.agents.map((a) =>
      prune({
        id: a.id,
        system_message: a.systemMessage,
        backend: prune({ type: a.provider, model: a.model, base_url: a.baseUrl || s.defaultBaseUrls?.[a.provider], temperature: a.temperature, max_tokens: a.maxTokens }),
      }),
    ),
    orchestrator: prune({
      voting_sensitivity: s.votingSensitivity,
      answer_novelty_requirement: s.answerNovelty,
      max_new_answers_per_agent: s.maxAnswersPerAgent,
      max_rounds: s.maxRounds,
      final_answer: s.finalAnswer,
      context_compaction: s.contextCompaction,
      budget: Object.keys(budget).length ? budget : undefined,
    }),
    timeout_settings: prune({ orchestrator_timeout_seconds: s.timeoutSeconds, agent_turn_timeout_seconds: s.agentTurnTimeoutSeconds }),
  };
}

/** `agents[0].backend.base_url` → `massgen.agents[0].baseUrl`, so messages name what the user can edit. */
export function settingName(path: string): string {
  const renames: [RegExp, string][] = [
    [/^agents\[(\d+)\]\.backend\.type$/, 'massgen.agents[$1].provider'],
    [/^agents\[(\d+)\]\.backend\.base_url$/, 'massgen.agents[$1].baseUrl'],
    [/^agents\[(\d+)\]\.backend\.max_tokens$/, 'massgen.agents[$1].maxTokens'],
    [/^agents\[(\d+)\]\.backend\.(\w+)$/, 'massgen.agents[$1].$2'],
    [/^agents\[(\d+)\]\.system_message$/, 'massgen.agents[$1].systemMessage'],
    [/^agents\[(\d+)\]$/, 'massgen.agents[$1]'],
    [/^orchestrator\.voting_sensitivity$/, 'massgen.votingSensitivity'],
    [/^orchestrator\.answer_novelty_requirement$/, 'massgen.answerNovelty'],
    [/^orchestrator\.max_new_answers_per_agent$/, 'massgen.maxAnswersPerAgent'],
    [/^orchestrator\.max_rounds$/, 'massgen.maxRounds'],
    [/^orchestrator\.final_answer$/, 'massgen.finalAnswer'],
    [/^orchestrator\.context_compaction$/, 'massgen.contextCompaction'],
    [/^orchestrator\.budget\.max_cost_usd$/, 'massgen.budget.maxCostUsd'],
    [/^orchestrator\.budget\.max_total_tokens$/, 'massgen.budget.maxTotalTokens'],
    [/^orchestrator\.budget\.max_calls$/, 'massgen.budget.maxCalls'],
    [/^timeout_settings\.orchestrator_timeout_seconds$/, 'massgen.timeoutSeconds'],
    [/^timeout_settings\.agent_turn_timeout_seconds$/, 'massgen.agentTurnTimeoutSeconds'],
  ];
  for (const [re, name] of renames) if (re.test(path)) return path.replace(re, name);
  return path ? `massgen.${path}` : 'massgen.agents';
}

function renameIssues(issues: ConfigIssue[]): ConfigIssue[] {
  return issues.map((i) => {
    const path = settingName(i.path);
    const message = i.message.replace(/\b(?:agents\[\d+\]|orchestrator|timeout_settings)(?:\.\w+)*/g, (m) => settingName(m));
    return { file: SOURCE, path, message: message.includes('massgen.') ? message : `${path}: ${message}` };
  });
}

/**
 * Loads the config from settings. Keys are not required here: the host fills them from SecretStorage afterwards.
 * Throws ConfigError whose issues name settings, without line numbers.
 */
export function configFromSettings(settings: MassGenSettings, env: NodeJS.ProcessEnv): LoadResult {
  try {
    const result = parseConfigText(stringify(settingsToYamlObject(settings)), SOURCE, env, { requireKeys: false, host: 'vscode' });
    return { config: { ...result.config, source: SOURCE }, warnings: renameIssues(result.warnings) };
  } catch (err) {
    if (err instanceof ConfigError) throw new ConfigError(renameIssues(err.issues));
    throw err;
  }
}

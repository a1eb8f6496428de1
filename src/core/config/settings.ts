// VS Code settings (`massgen.*`) → the same typed config the YAML loader produces. The settings are turned into
// upstream's YAML shape and go through the one loader, so both paths share every check and message; issues are
// then named by setting (`massgen.agents[0].model`) rather than by a line of generated YAML. An agent in
// `massgen.agents` takes the flat shape the setting documents, or upstream's YAML shape (`backend: {type, model…}`),
// which is what upstream users paste.

import { stringify } from 'yaml';
import { closestBackendType, envRefNames, isUpstreamType, keyRequirement, lookupBackend } from './backends';
import { ConfigError, parseConfigText, type ConfigIssue, type LoadResult } from './load';

/** The shape the setting documents. */
export interface FlatSettingsAgent {
  id?: string;
  /** Backend type, as in YAML: openai, claude, chatcompletion, ollama, groq, vscode-lm… */
  provider: string;
  model: string;
  baseUrl?: string;
  systemMessage?: string;
  temperature?: number;
  maxTokens?: number;
}

/** Upstream's YAML shape of an agent, taken as it is. */
export interface UpstreamSettingsAgent {
  id?: string;
  backend: Record<string, unknown>;
  system_message?: string;
  [key: string]: unknown;
}

export type SettingsAgent = FlatSettingsAgent | UpstreamSettingsAgent;

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

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An entry in upstream's shape: it has a `backend:` mapping (and no flat `provider`). */
export function isUpstreamAgent(agent: unknown): agent is UpstreamSettingsAgent {
  return isMapping(agent) && isMapping(agent.backend) && agent.provider === undefined;
}

const SOURCE = 'VS Code settings';

function prune<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

/** An upstream-shaped entry as it is, with the per-type default URL when it has none. */
function upstreamAgent(a: UpstreamSettingsAgent, defaultBaseUrls: Record<string, string> | undefined): UpstreamSettingsAgent {
  const type = typeof a.backend.type === 'string' ? a.backend.type : undefined;
  const url = type ? defaultBaseUrls?.[type] : undefined;
  return a.backend.base_url || !url ? a : { ...a, backend: { ...a.backend, base_url: url } };
}

/** Upstream's YAML shape for the settings; exported for tests. */
export function settingsToYamlObject(s: MassGenSettings): Record<string, unknown> {
  const budget = prune({ max_cost_usd: s.budget?.maxCostUsd, max_total_tokens: s.budget?.maxTotalTokens, max_calls: s.budget?.maxCalls });
  return {
    agents: s.agents.map((a) =>
      isUpstreamAgent(a) ? upstreamAgent(a, s.defaultBaseUrls) : prune({
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

/**
 * `agents[0].backend.base_url` → `massgen.agents[0].baseUrl`, so messages name what the user can edit; an agent
 * written in upstream's shape (`upstream(i)`) keeps upstream's names.
 */
export function settingName(path: string, upstream: (index: number) => boolean = () => false): string {
  const agent = /^agents\[(\d+)\]/.exec(path);
  if (agent && upstream(Number(agent[1]))) return `massgen.${path}`;
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

function renameIssues(issues: ConfigIssue[], upstream: (index: number) => boolean): ConfigIssue[] {
  return issues.map((i) => {
    const path = settingName(i.path, upstream);
    const message = i.message.replace(/\b(?:agents\[\d+\]|orchestrator|timeout_settings)(?:\.\w+)*/g, (m) => settingName(m, upstream));
    return { file: SOURCE, path, message: message.includes('massgen.') ? message : `${path}: ${message}` };
  });
}

const EXPECTED = '{ "provider": "openai", "model": "gpt-4.1-mini" } (or upstream\'s { "backend": { "type": "openai", "model": "gpt-4.1-mini" } })';
const ELSEWHERE = 'a whole YAML team goes in .massgen/config.yaml (MassGen: Open Config)';

/** `type` is not one we know: the closest one, never the whole list (settings.json offers it). */
function unknownType(name: string, type: string): string {
  const near = closestBackendType(type);
  return `unknown ${name} "${type}"${near ? `; did you mean ${near}?` : '; settings.json suggests the ones MassGen knows'}`;
}

/** What is wrong with the shape of each entry, in one line each, before the loader sees it. */
function shapeIssues(agents: unknown[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add = (path: string, message: string) => issues.push({ file: SOURCE, path, message: `${path}: ${message}` });
  agents.forEach((a, i) => {
    const at = `massgen.agents[${i}]`;
    if (isUpstreamAgent(a)) {
      const { type, model } = a.backend;
      if (typeof type === 'string' && !isUpstreamType(type)) add(`${at}.backend.type`, unknownType('type', type));
      else if (type === undefined && model === undefined) add(`${at}.backend`, 'needs type and model, e.g. { "type": "openai", "model": "gpt-4.1-mini" }');
      return;
    }
    if (!isMapping(a) || typeof a.provider !== 'string' || typeof a.model !== 'string') {
      add(at, `expected ${EXPECTED}; ${ELSEWHERE}`);
      return;
    }
    if (!isUpstreamType(a.provider)) add(`${at}.provider`, unknownType('provider', a.provider));
  });
  return issues;
}

/**
 * Loads the config from settings. Keys are not required here: the host fills them from SecretStorage afterwards.
 * Throws ConfigError whose issues name settings, without line numbers.
 */
export function configFromSettings(settings: MassGenSettings, env: NodeJS.ProcessEnv): LoadResult {
  const shape = shapeIssues(settings.agents);
  if (shape.length > 0) throw new ConfigError(shape);
  const upstream = (i: number) => isUpstreamAgent(settings.agents[i]);
  try {
    const result = parseConfigText(stringify(settingsToYamlObject(settings)), SOURCE, env, { requireKeys: false, host: 'vscode' });
    // A key written in the settings is flagged by the host, which offers to move it (inlineKeys below).
    const warnings = result.warnings.filter((w) => !/^agents\[\d+\]\.backend\.api_key$/.test(w.path));
    return { config: { ...result.config, source: SOURCE }, warnings: renameIssues(warnings, upstream) };
  } catch (err) {
    if (err instanceof ConfigError) throw new ConfigError(renameIssues(err.issues, upstream));
    throw err;
  }
}

/** An API key written into `massgen.agents` (upstream's `backend.api_key`), and the secret it should become. */
export interface InlineKey {
  index: number;
  id: string;
  /** The env var name it is stored under in the secret storage, where runs look for it. */
  envVar: string;
  value: string;
}

/** The key variables a run looks in for an upstream-shaped backend by itself (none without a type). */
function keyVarsOf(backend: Record<string, unknown>): string[] {
  const type = typeof backend.type === 'string' ? backend.type : '';
  if (!type) return [];
  const url = typeof backend.base_url === 'string' ? backend.base_url : lookupBackend(type)?.defaultBaseUrl;
  return keyRequirement(type, url).envVars;
}

/**
 * The keys written into the setting (not `${VAR}` references). Each is stored under its backend's key variable
 * (OPENAI_API_KEY…), or, when the backend has none or a different key already holds it (another agent's here, or
 * in `existing`: what the secret storage or the environment has under that variable), under MASSGEN_<ID>_API_KEY,
 * which the entry then refers to as `${…}`.
 */
export function inlineKeys(agents: unknown[], existing: ReadonlyMap<string, string> = new Map()): InlineKey[] {
  const found: InlineKey[] = [];
  agents.forEach((a, index) => {
    if (!isUpstreamAgent(a)) return;
    const value = a.backend.api_key;
    if (typeof value !== 'string' || !value.trim() || envRefNames(value).length > 0) return;
    const id = typeof a.id === 'string' && a.id ? a.id : `agent${index + 1}`;
    const known = keyVarsOf(a.backend)[0];
    const key = value.trim();
    const held = known === undefined ? undefined : (found.find((k) => k.envVar === known)?.value ?? existing.get(known));
    const envVar = known && (held === undefined || held === key) ? known : `MASSGEN_${id.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`;
    found.push({ index, id, envVar, value: key });
  });
  return found;
}

/** The setting's value without the keys `moved`: each entry drops its key, or refers to the variable it is now under. */
export function withoutInlineKeys(agents: unknown[], moved: InlineKey[]): unknown[] {
  return agents.map((a, index) => {
    const key = moved.find((k) => k.index === index);
    if (!key || !isUpstreamAgent(a)) return a;
    const { api_key: _dropped, ...backend } = a.backend;
    // A run looks for the backend's own key variable by itself; any other name must be referred to.
    const found = keyVarsOf(a.backend).includes(key.envVar);
    return { ...a, backend: found ? backend : { ...backend, api_key: `\${${key.envVar}}` } };
  });
}

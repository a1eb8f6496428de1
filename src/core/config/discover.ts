// Zero-config resolution for the CLI (DESIGN.md "Zero-config defaults"): a project config file, else a team built
// from the API keys in the environment, else a local Ollama, else a few lines on how to get going. Never hangs:
// the Ollama probe is bounded by a short timeout.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MODELS, keyRequirement, lookupBackend, resolveApiKey } from './backends';
import { loadConfigFile, type ConfigWarning } from './load';
import { DEFAULT_ORCHESTRATOR, DEFAULT_TIMEOUTS, type AgentConfig, type MassGenConfig } from './types';

export const PROJECT_CONFIG = join('.massgen', 'config.yaml');
export const OLLAMA_BASE_URL = 'http://localhost:11434/v1';
/** Agents in a team we build ourselves: enough for a real vote, few enough to keep cost down. */
export const TEAM_SIZE = 3;

export interface Persona {
  id: string;
  name: string;
  systemMessage: string;
}

/** Distinct outlooks so agents sharing one model still disagree usefully. Reused by the VS Code host. */
export const PERSONAS: readonly Persona[] = [
  {
    id: 'reviewer',
    name: 'Careful reviewer',
    systemMessage: 'You are a careful reviewer. Check every claim, edge case and assumption; prefer correctness over speed and say plainly what could go wrong.',
  },
  {
    id: 'engineer',
    name: 'Pragmatic engineer',
    systemMessage: 'You are a pragmatic engineer. Favour the simplest solution that fully works, and give concrete, directly usable detail.',
  },
  {
    id: 'creative',
    name: 'Creative problem solver',
    systemMessage: 'You are a creative problem solver. Look for a better approach the obvious answer misses, then make it concrete and sound.',
  },
];

/** Keys we build a team from, in priority order, with the model each gets. */
const ENV_PROVIDERS: ReadonlyArray<{ env: readonly string[]; type: string; model: string; short: string }> = [
  { env: ['OPENAI_API_KEY'], type: 'openai', model: DEFAULT_MODELS.openai, short: 'gpt' },
  { env: ['ANTHROPIC_API_KEY'], type: 'claude', model: DEFAULT_MODELS.anthropic, short: 'claude' },
  // Upstream reads either name for Gemini.
  { env: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], type: 'gemini', model: DEFAULT_MODELS.gemini, short: 'gemini' },
  { env: ['XAI_API_KEY'], type: 'grok', model: DEFAULT_MODELS.grok, short: 'grok' },
  { env: ['GROQ_API_KEY'], type: 'groq', model: DEFAULT_MODELS.groq, short: 'groq' },
  { env: ['OPENROUTER_API_KEY'], type: 'openrouter', model: DEFAULT_MODELS.openrouter, short: 'openrouter' },
];

export type ModelProbe = (baseUrl: string) => Promise<string[] | undefined>;

export interface DiscoverOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Lists the models of an OpenAI-compatible server, undefined when none answers. Injected in tests. */
  probeOllama?: ModelProbe;
}

export type DiscoverResult =
  | { config: MassGenConfig; source: string; warnings: ConfigWarning[] }
  | { none: true; help: string };

/** GET <baseUrl>/models with a short timeout; any failure means "no server". */
export async function probeModels(baseUrl: string, timeoutMs = 1000): Promise<string[] | undefined> {
  try {
    const res = await fetch(`${baseUrl}/models`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { data?: Array<{ id?: unknown }> };
    if (!Array.isArray(body.data)) return undefined;
    return body.data.map((m) => m.id).filter((id): id is string => typeof id === 'string');
  } catch {
    return undefined;
  }
}

function agent(id: string, type: string, model: string, persona: Persona, env: NodeJS.ProcessEnv): AgentConfig {
  const spec = lookupBackend(type);
  if (!spec) throw new Error(`internal: unregistered backend type ${type}`);
  const key = resolveApiKey(undefined, keyRequirement(type, spec.defaultBaseUrl), env);
  return {
    id,
    backend: { type, family: spec.family, model, baseUrl: spec.defaultBaseUrl, apiKey: key.apiKey, apiKeyEnv: key.apiKeyEnv },
    systemMessage: persona.systemMessage,
  };
}

function team(agents: AgentConfig[], source: string): MassGenConfig {
  return { agents, orchestrator: { ...DEFAULT_ORCHESTRATOR }, timeouts: { ...DEFAULT_TIMEOUTS }, source };
}

/** One agent per persona, cycling through the providers with a key (so a single key gives three personas). */
function teamFromEnv(env: NodeJS.ProcessEnv): MassGenConfig | undefined {
  const providers = ENV_PROVIDERS.filter((p) => p.env.some((name) => env[name]));
  if (providers.length === 0) return undefined;
  const agents = PERSONAS.slice(0, TEAM_SIZE).map((persona, i) => {
    const p = providers[i % providers.length];
    return agent(`${p.short}-${persona.id}`, p.type, p.model, persona, env);
  });
  const used = [...new Set(agents.map((a) => a.backend.apiKeyEnv))].join(', ');
  return team(agents, `environment (${used})`);
}

function teamFromOllama(models: string[], env: NodeJS.ProcessEnv): MassGenConfig {
  const agents = PERSONAS.slice(0, TEAM_SIZE).map((persona, i) =>
    agent(`ollama-${persona.id}`, 'ollama', models[i % models.length], persona, env));
  return team(agents, `ollama (${OLLAMA_BASE_URL})`);
}

function help(ollamaUp: boolean): string {
  return [
    `No ${PROJECT_CONFIG}, no API key in the environment, and ${ollamaUp ? `the Ollama at ${OLLAMA_BASE_URL} has no models` : `no Ollama at ${OLLAMA_BASE_URL}`}.`,
    'To get going, do one of:',
    '  - export OPENAI_API_KEY=... (and/or ANTHROPIC_API_KEY=..., GEMINI_API_KEY=...) and run again: a team is built from the keys present;',
    ollamaUp
      ? `  - pull a model into your running Ollama: ollama pull ${DEFAULT_MODELS.ollama}`
      : `  - start Ollama (https://ollama.com) and pull a model: ollama pull ${DEFAULT_MODELS.ollama}`,
    `  - write ${PROJECT_CONFIG}, or pass --config examples/openai-three-agents.yaml (see examples/ for more).`,
  ].join('\n');
}

/** Resolves the config to run when the user passed none. A broken project config throws ConfigError. */
export async function discoverConfig(options: DiscoverOptions): Promise<DiscoverResult> {
  const env = options.env ?? process.env;
  const file = join(options.cwd, PROJECT_CONFIG);
  if (existsSync(file)) {
    const { config, warnings } = loadConfigFile(file, env);
    return { config, source: file, warnings };
  }
  const fromEnv = teamFromEnv(env);
  if (fromEnv) return { config: fromEnv, source: fromEnv.source, warnings: [] };

  const listed = await (options.probeOllama ?? probeModels)(OLLAMA_BASE_URL);
  // Embedding models are listed too but cannot chat.
  const chatModels = (listed ?? []).filter((m) => !/embed/i.test(m));
  if (chatModels.length > 0) {
    const config = teamFromOllama(chatModels, env);
    return { config, source: config.source, warnings: [] };
  }
  return { none: true, help: help(listed !== undefined) };
}

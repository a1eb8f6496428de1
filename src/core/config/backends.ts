// The registry of backend `type`s we accept in MassGen-compatible configs: which provider family serves each, its
// default base URL and where its API key comes from. Env var names and default URLs follow upstream MassGen
// (massgen-upstream.md §3.3) so existing configs and shell setups keep working.

import { closestName } from './edit-distance';
import type { ProviderFamily } from './types';

export interface BackendSpec {
  family: ProviderFamily;
  defaultBaseUrl?: string;
  /** Env vars the key is read from, first set one wins. Empty when the backend takes no key. */
  keyEnv: readonly string[];
  requiresKey: boolean;
  /** True when the config must give `base_url` (no sensible default exists). */
  requiresBaseUrl?: boolean;
}

const hosted = (defaultBaseUrl: string | undefined, ...keyEnv: string[]): BackendSpec => ({
  family: 'openai-compatible',
  defaultBaseUrl,
  keyEnv,
  requiresKey: true,
  requiresBaseUrl: defaultBaseUrl === undefined,
});
const local = (defaultBaseUrl: string): BackendSpec => ({ family: 'openai-compatible', defaultBaseUrl, keyEnv: [], requiresKey: false });
const anthropic: BackendSpec = { family: 'anthropic', defaultBaseUrl: 'https://api.anthropic.com', keyEnv: ['ANTHROPIC_API_KEY'], requiresKey: true };
// Upstream reads GOOGLE_API_KEY first, then GEMINI_API_KEY (cli.py create_backend), as Google's own SDK does.
const gemini: BackendSpec = { family: 'gemini', defaultBaseUrl: 'https://generativelanguage.googleapis.com', keyEnv: ['GOOGLE_API_KEY', 'GEMINI_API_KEY'], requiresKey: true };

export const BACKENDS: Readonly<Record<string, BackendSpec>> = {
  openai: hosted('https://api.openai.com/v1', 'OPENAI_API_KEY'),
  // Key env var depends on the host; see keyEnvForBaseUrl.
  chatcompletion: { family: 'openai-compatible', keyEnv: [], requiresKey: false, requiresBaseUrl: true },
  grok: hosted('https://api.x.ai/v1', 'XAI_API_KEY'),
  zai: hosted('https://api.z.ai/api/paas/v4', 'ZAI_API_KEY'),
  cerebras: hosted('https://api.cerebras.ai/v1', 'CEREBRAS_API_KEY'),
  together: hosted('https://api.together.xyz/v1', 'TOGETHER_API_KEY'),
  fireworks: hosted('https://api.fireworks.ai/inference/v1', 'FIREWORKS_API_KEY'),
  groq: hosted('https://api.groq.com/openai/v1', 'GROQ_API_KEY'),
  openrouter: hosted('https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY'),
  moonshot: hosted('https://api.moonshot.cn/v1', 'MOONSHOT_API_KEY', 'KIMI_API_KEY'),
  nebius: hosted('https://api.studio.nebius.ai/v1', 'NEBIUS_API_KEY'),
  poe: hosted(undefined, 'POE_API_KEY'),
  qwen: hosted('https://dashscope-intl.aliyuncs.com/compatible-mode/v1', 'QWEN_API_KEY'),
  lmstudio: local('http://localhost:1234/v1'),
  vllm: local('http://localhost:8000/v1'),
  sglang: local('http://localhost:30000/v1'),
  ollama: local('http://localhost:11434/v1'),
  // Upstream's InferenceBackend: a vLLM-style local server.
  inference: local('http://localhost:8000/v1'),
  nvidia_nim: hosted('https://integrate.api.nvidia.com/v1', 'NGC_API_KEY'),
  // Chat completions at the deployment (model = deployment name); the endpoint comes from base_url or the
  // environment (see config/azure.ts), so there is no default URL here.
  azure_openai: { family: 'openai-compatible', keyEnv: ['AZURE_OPENAI_API_KEY'], requiresKey: true },
  claude: anthropic,
  anthropic,
  gemini,
  'vscode-lm': { family: 'vscode-lm', keyEnv: [], requiresKey: false },
  // Coding agents' programs: a key found here is handed to the program; without one it uses its own login.
  claude_code: { family: 'harness', keyEnv: ['CLAUDE_CODE_API_KEY', 'ANTHROPIC_API_KEY'], requiresKey: false },
  codex: { family: 'harness', keyEnv: ['CODEX_API_KEY', 'OPENAI_API_KEY'], requiresKey: false },
};

export const SUPPORTED_BACKEND_TYPES: readonly string[] = Object.keys(BACKENDS);

/**
 * Upstream types that are not model APIs but agent programs (CLI agents, agent SDKs, agent frameworks) with their own
 * tools, sessions and logins, which MassGen for VS Code does not drive (it drives claude_code and codex): what each
 * is, why it is not run here, and the API backend to use for the same models instead. A config using any of them is
 * refused in one line (see config/refusals.ts).
 */
export const AGENT_PROGRAM_BACKENDS: Readonly<Record<string, { what: string; why: string; instead: string }>> = {
  gemini_cli: {
    what: 'the Gemini CLI',
    why: 'on Linux its sandbox is a container (Docker, Podman, gVisor or LXC) that MassGen cannot count on, and without one its shell could write outside its copy',
    instead: 'type: gemini with the same model (GEMINI_API_KEY)',
  },
  antigravity_cli: {
    what: 'the Antigravity CLI',
    why: 'it is installed by its own download script, not from npm, so MassGen cannot install or test it where it is built and tested',
    instead: 'type: gemini with the same model (GEMINI_API_KEY)',
  },
  copilot: {
    what: 'the GitHub Copilot SDK',
    why: 'its runtime (the Copilot CLI) asks for approval before commands instead of confining them to a sandbox, and in a team run nobody is there to answer',
    instead: 'type: vscode-lm inside VS Code (your Copilot chat models), or an API backend such as openai or claude',
  },
  ag2: { what: 'AG2 agents (an external agent framework)', why: 'it is a Python framework that runs its own agents, not one agent of a team', instead: 'an API backend (openai, claude, gemini…) per agent' },
  autogen: { what: 'AutoGen agents (an external agent framework)', why: 'it is a Python framework that runs its own agents, not one agent of a team', instead: 'an API backend (openai, claude, gemini…) per agent' },
};

/** Upstream types we do not implement that are not agent programs, with the reason shown to the user. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  uitars: 'upstream has no uitars backend either (UI-TARS is one of its custom tools there); use an API backend',
};

/** Whether upstream knows `type` (a type we run, an agent program we refuse with advice, or one we explain). */
export function isUpstreamType(type: string): boolean {
  const t = type.toLowerCase();
  return Object.hasOwn(BACKENDS, t) || Object.hasOwn(AGENT_PROGRAM_BACKENDS, t) || Object.hasOwn(UNSUPPORTED, t);
}

/** The supported type a typo most likely meant ("chatcompletions" → chatcompletion), if any is close. */
export function closestBackendType(type: string): string | undefined {
  return closestName(type, SUPPORTED_BACKEND_TYPES);
}

/** Backend types are case-insensitive, as upstream lower-cases them. */
export function lookupBackend(type: string): BackendSpec | undefined {
  return Object.hasOwn(BACKENDS, type.toLowerCase()) ? BACKENDS[type.toLowerCase()] : undefined;
}

export function unknownBackendMessage(type: string): string {
  const reason = UNSUPPORTED[type.toLowerCase()];
  const near = reason ? undefined : closestBackendType(type);
  const head = reason ? `backend type "${type}": ${reason}.` : `unknown backend type "${type}"${near ? ` (did you mean ${near}?)` : ''}.`;
  return `${head} Supported types: ${SUPPORTED_BACKEND_TYPES.join(', ')}`;
}

/** chatcompletion's key env var by base_url host, as upstream's create_backend. */
const HOST_KEYS: ReadonlyArray<[hostSuffix: string, envVars: string[]]> = [
  ['cerebras.ai', ['CEREBRAS_API_KEY']],
  ['together.xyz', ['TOGETHER_API_KEY']],
  ['fireworks.ai', ['FIREWORKS_API_KEY']],
  ['groq.com', ['GROQ_API_KEY']],
  ['nebius.com', ['NEBIUS_API_KEY']],
  ['nebius.ai', ['NEBIUS_API_KEY']],
  ['openrouter.ai', ['OPENROUTER_API_KEY']],
  ['z.ai', ['ZAI_API_KEY']],
  ['bigmodel.cn', ['ZAI_API_KEY']],
  ['moonshot.ai', ['MOONSHOT_API_KEY', 'KIMI_API_KEY']],
  ['moonshot.cn', ['MOONSHOT_API_KEY', 'KIMI_API_KEY']],
  ['nvidia.com', ['NGC_API_KEY']],
  ['poe.com', ['POE_API_KEY']],
  ['aliyuncs.com', ['QWEN_API_KEY']],
  ['api.openai.com', ['OPENAI_API_KEY']],
  ['x.ai', ['XAI_API_KEY']],
];

function hostOf(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}

/** Local and private-network servers (Ollama, vLLM, a LAN box) take no key. */
export function isLocalUrl(baseUrl: string): boolean {
  const host = hostOf(baseUrl);
  if (host === undefined) return false;
  return host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === '::1' ||
    host === '0.0.0.0' || host === 'host.docker.internal' ||
    /^(127|10)\.\d+\.\d+\.\d+$/.test(host) || /^192\.168\.\d+\.\d+$/.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\.\d+\.\d+$/.test(host) || /^f[cd][0-9a-f]{2}:/.test(host);
}

/** Env vars for a chatcompletion base_url's key, or [] when the host is unknown. */
export function keyEnvForBaseUrl(baseUrl: string): string[] {
  const host = hostOf(baseUrl);
  if (host === undefined) return [];
  const hit = HOST_KEYS.find(([suffix]) => host === suffix || host.endsWith(`.${suffix}`));
  return hit ? [...hit[1]] : [];
}

export interface KeyRequirement {
  envVars: string[];
  required: boolean;
}

/** Where the key for this backend comes from, given its resolved base URL. */
export function keyRequirement(type: string, baseUrl: string | undefined): KeyRequirement {
  const spec = lookupBackend(type);
  if (!spec) return { envVars: [], required: false };
  const envVars = type.toLowerCase() === 'chatcompletion' && baseUrl ? keyEnvForBaseUrl(baseUrl) : [...spec.keyEnv];
  // A hosted type pointed at a local server (e.g. `openai` at Ollama) needs no key either.
  const local = baseUrl !== undefined && isLocalUrl(baseUrl);
  return { envVars, required: envVars.length > 0 && !local };
}

export interface ResolvedKey {
  apiKey?: string;
  /** The env var the key came from, or the one to set. */
  apiKeyEnv?: string;
  /** `${VAR}` references in an inline api_key whose variable is unset. */
  unsetRefs: string[];
}

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variables `${VAR}` references in `text` name, in order. */
export function envRefNames(text: string): string[] {
  return [...text.matchAll(ENV_REF)].map((m) => m[1]);
}

/** An inline key wins (with `${VAR}` expanded from env); else the first set env var of the requirement. */
export function resolveApiKey(inline: string | undefined, req: KeyRequirement, env: NodeJS.ProcessEnv): ResolvedKey {
  if (inline !== undefined) {
    const refs = envRefNames(inline);
    const unsetRefs = refs.filter((name) => !env[name]);
    if (unsetRefs.length > 0) return { apiKeyEnv: unsetRefs[0], unsetRefs };
    const apiKey = inline.replace(ENV_REF, (_m, name: string) => env[name] ?? '');
    return { apiKey: apiKey || undefined, apiKeyEnv: refs[0], unsetRefs: [] };
  }
  const found = req.envVars.find((name) => env[name]);
  return { apiKey: found ? env[found] : undefined, apiKeyEnv: found ?? req.envVars[0], unsetRefs: [] };
}

/** Upstream infers `type` from the model name when it is omitted (utils.MODEL_MAPPINGS); we match by prefix. */
export function inferBackendType(model: string): string | undefined {
  const m = model.toLowerCase();
  if (/^(gpt-|chatgpt-|o1|o3|o4)/.test(m)) return 'openai';
  if (m.startsWith('claude-')) return 'claude';
  if (m.startsWith('grok-')) return 'grok';
  if (m.startsWith('glm-')) return 'zai';
  if (m.startsWith('gemini')) return 'gemini';
  return undefined;
}

/** Upstream's name for "whatever model Claude Code picks": no model is passed to Claude Code then. */
export const CLAUDE_CODE_DEFAULT_MODEL = 'claude-code-default';

/**
 * Upstream's default model per backend type (`massgen/backend/capabilities.py` default_model, v0.1.91), used when a
 * config leaves `model` out. Types whose upstream default is "custom" (chatcompletion, local servers, OpenRouter, Poe)
 * have none: their model must be named.
 */
export const UPSTREAM_DEFAULT_MODELS: Readonly<Record<string, string>> = {
  openai: 'gpt-5.4',
  codex: 'gpt-5.4',
  claude_code: CLAUDE_CODE_DEFAULT_MODEL,
  claude: 'claude-opus-4-6',
  anthropic: 'claude-opus-4-6',
  gemini: 'gemini-3-flash-preview',
  grok: 'grok-4.20-0309-reasoning',
  azure_openai: 'gpt-4o',
  zai: 'glm-4.5',
  cerebras: 'llama-3.3-70b',
  together: 'Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8',
  fireworks: 'accounts/fireworks/models/llama-v3p3-70b-instruct',
  groq: 'llama-3.3-70b-versatile',
  moonshot: 'moonshot-v1-128k',
  nvidia_nim: 'moonshotai/kimi-k2.5',
  nebius: 'Qwen/Qwen3-4B-fast',
  qwen: 'qwen-max',
};

/**
 * Whether an OpenAI-compatible backend speaks OpenAI's Responses API. Upstream's `openai` type always does; here it
 * does at OpenAI's own API only, because the other servers a `type: openai` config points at (Ollama, a proxy, our
 * test fakes) mostly serve chat completions alone. `api:` (ours) decides either way.
 */
export function usesResponsesApi(backend: { type: string; family: ProviderFamily; baseUrl?: string; api?: 'responses' | 'chat_completions' }): boolean {
  if (backend.family !== 'openai-compatible') return false;
  if (backend.api) return backend.api === 'responses';
  return backend.type.toLowerCase() === 'openai' && (backend.baseUrl === undefined || hostOf(backend.baseUrl) === 'api.openai.com');
}

/** Models used when we build a team without a config (discovery) and in example snippets. Cheap, widely available. */
export const DEFAULT_MODELS = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-haiku-4-5',
  gemini: 'gemini-2.5-flash',
  grok: 'grok-3-mini',
  groq: 'llama-3.3-70b-versatile',
  openrouter: 'meta-llama/llama-3.3-70b-instruct',
  /** Suggested in the help text when Ollama has no model pulled. */
  ollama: 'llama3.2',
} as const;

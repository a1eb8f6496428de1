// The typed configuration the rest of the engine consumes, produced from MassGen-compatible YAML (or, in VS Code,
// from settings) by the loader. Field names are ours (camelCase); the YAML keeps upstream's snake_case names.

export type Sensitivity = 'lenient' | 'balanced' | 'strict';
export type FinalAnswerMode = 'as_is' | 'synthesize';

/** The provider families the engine can talk to. Upstream's named OpenAI-compatible hosts resolve to 'openai-compatible'. */
export type ProviderFamily = 'openai-compatible' | 'anthropic' | 'vscode-lm';

/** USD per million tokens for one agent's model; overrides the built-in price table (src/core/usage/prices.json). */
export interface Pricing {
  inputPerMillion: number;
  /** Cache hits. The config may omit it; the loader then uses the input price. */
  cachedInputPerMillion: number;
  outputPerMillion: number;
}

/** Caps for one run (ours; upstream has none). Unset fields are unlimited. */
export interface Budget {
  maxCostUsd?: number;
  /** Input (cached included) plus output tokens, over every call of every agent. */
  maxTotalTokens?: number;
  maxCalls?: number;
}

export interface BackendConfig {
  /** The `type` as written in the config (e.g. `openai`, `chatcompletion`, `groq`, `claude`). */
  type: string;
  family: ProviderFamily;
  model: string;
  /** Resolved base URL (the host's default when the config gave none). */
  baseUrl?: string;
  /** The key itself, from the config or the environment. Never logged, never written to status or events. */
  apiKey?: string;
  /** Which env var the key came from (or would come from), for error messages. */
  apiKeyEnv?: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  pricing?: Pricing;
}

export interface AgentConfig {
  id: string;
  backend: BackendConfig;
  systemMessage?: string;
}

export interface OrchestratorConfig {
  votingSensitivity: Sensitivity;
  answerNoveltyRequirement: Sensitivity;
  /** null = unlimited, as upstream. */
  maxNewAnswersPerAgent: number | null;
  /** Rounds cap (ours; upstream has none). A round is one scheduling wave of agent turns. */
  maxRounds: number;
  finalAnswer: FinalAnswerMode;
  /** Absent when the config sets no caps. */
  budget?: Budget;
}

export interface TimeoutConfig {
  orchestratorTimeoutSeconds: number;
  /** Per-agent turn timeout (ours; upstream has none that works). */
  agentTurnTimeoutSeconds: number;
}

export interface MassGenConfig {
  agents: AgentConfig[];
  orchestrator: OrchestratorConfig;
  timeouts: TimeoutConfig;
  /** Where the config came from, for messages ("<file>", "environment", "settings"). */
  source: string;
}

export const DEFAULT_ORCHESTRATOR: OrchestratorConfig = {
  votingSensitivity: 'lenient',
  answerNoveltyRequirement: 'lenient',
  maxNewAnswersPerAgent: null,
  maxRounds: 10,
  finalAnswer: 'as_is',
};

export const DEFAULT_TIMEOUTS: TimeoutConfig = {
  orchestratorTimeoutSeconds: 1800,
  agentTurnTimeoutSeconds: 600,
};

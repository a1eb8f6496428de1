// The typed configuration the rest of the engine consumes, produced from MassGen-compatible YAML (or, in VS Code,
// from settings) by the loader. Field names are ours (camelCase); the YAML keeps upstream's snake_case names.

export type Sensitivity = 'lenient' | 'balanced' | 'strict';
export type FinalAnswerMode = 'as_is' | 'synthesize';

/**
 * The provider families the engine can talk to. Upstream's named OpenAI-compatible hosts resolve to 'openai-compatible';
 * 'harness' is a coding agent's program (Claude Code, Codex) run in the agent's own folder.
 */
export type ProviderFamily = 'openai-compatible' | 'anthropic' | 'gemini' | 'vscode-lm' | 'harness';

export type HarnessProgram = 'claude_code' | 'codex';

/** A coding agent's program and how it runs (upstream's keys for claude_code and codex, plus `path`). */
export interface HarnessSettings {
  program: HarnessProgram;
  /** The program's executable, when the config names it (else found as harness/binaries.ts says). */
  path?: string;
  /** Claude Code: its permission mode (default acceptEdits) and tool lists, turn cap and thinking budget. */
  permissionMode?: 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan';
  allowedTools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  maxThinkingTokens?: number;
  /** Text that replaces (system_prompt) or extends (append_system_prompt) the program's own system prompt. */
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** Codex: model_reasoning_effort (or reasoning.effort). */
  reasoningEffort?: string;
  webSearch?: boolean;
}

/** Which of OpenAI's APIs an OpenAI-compatible backend speaks: the Responses API (upstream's `openai`) or chat completions. */
export type OpenAIApi = 'responses' | 'chat_completions';

/** A provider's own server-side tools (upstream's `enable_web_search`, `enable_code_interpreter` / `enable_code_execution`). */
export type BuiltinTool = 'web_search' | 'code_execution';

/** Upstream's `reasoning` block as written (OpenAI's Responses API shape); unknown members are passed on as they are. */
export interface ReasoningSettings {
  effort?: string;
  summary?: string;
  [key: string]: unknown;
}

/** Upstream's `text` block (OpenAI's Responses API: `verbosity` low | medium | high). */
export interface TextSettings {
  verbosity?: string;
  [key: string]: unknown;
}

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
  /** The model's context window in tokens (ours); else the price table's, else the provider's own figure. */
  contextWindow?: number;
  // Each of the following is present only when the config sets it (or, for `api`, when it is not chat completions).
  /** OpenAI-compatible backends: `responses` for `type: openai` at OpenAI's own API (or `api: responses`). */
  api?: OpenAIApi;
  reasoning?: ReasoningSettings;
  text?: TextSettings;
  builtinTools?: BuiltinTool[];
  /** Azure OpenAI: the `api-version` query parameter (the deployment is `model`, the endpoint `baseUrl`). */
  azureApiVersion?: string;
  /** Upstream's agent workspace folder. Here it only says "this agent works with files": every agent of a run
   * with a workspace gets its own copy, and never writes to the folder named here. */
  cwd?: string;
  /** Commands in the agent's copy (upstream's `enable_mcp_command_line`); present only when enabled. */
  commands?: CommandSettings;
  // MCP (upstream's keys plus ours); each field is present only when the config sets it. See src/core/mcp/README.md.
  /** MCP servers this agent may use; its tools are offered as `mcp__<server>__<tool>`. */
  mcpServers?: McpServerConfig[];
  /** Backend-level filters over every server's tools; raw (`read_file`) or prefixed (`mcp__files__read_file`) names. */
  allowedTools?: string[];
  excludeTools?: string[];
  /** Tools that always need the user's approval (ours), raw or prefixed names. */
  requireApproval?: string[];
  /** Planning mode (upstream's, per backend here): block side-effecting tools during coordination. */
  planningMode?: PlanningModeConfig;
  /** Family 'harness': the program and its settings. */
  harness?: HarnessSettings;
}

/** An agent's commands: upstream's regex lists (anchored at the start, as upstream's `re.match`) and the network. */
export interface CommandSettings {
  enabled: boolean;
  allowed?: string[];
  blocked?: string[];
  /** Commands may use the network (upstream's Docker network mode `bridge` or `host`). */
  network: boolean;
}

export type McpTransportType = 'stdio' | 'streamable-http';

/**
 * One MCP server, as upstream's `mcp_servers` entry (snake_case in YAML). `${VAR}` references in `args`, `env` and
 * `headers` are already expanded by the loader, so `env` and `headers` may hold secrets: never log them.
 */
export interface McpServerConfig {
  name: string;
  type: McpTransportType;
  /** stdio: the program and its arguments. */
  command?: string;
  args?: string[];
  /** stdio: extra environment variables; the process gets only these plus a minimal base (PATH, HOME…). */
  env?: Record<string, string>;
  /** stdio: working directory (ours). */
  cwd?: string;
  /** Commands in the agent's copy (upstream's `enable_mcp_command_line`); present only when enabled. */
  commands?: CommandSettings;
  /** streamable-http: the endpoint and extra request headers. */
  url?: string;
  headers?: Record<string, string>;
  allowedTools?: string[];
  excludeTools?: string[];
  /** Per tool call, seconds (upstream's `timeout`). */
  timeoutSeconds?: number;
  /** Connecting and listing tools, seconds (ours). */
  connectTimeoutSeconds?: number;
  /** Ours: tool names that need approval, or true (all) / false (none, not even the side-effecting defaults). */
  requireApproval?: string[] | boolean;
  /** Ours: longest tool result passed to the model, in characters (the rest is cut with a note). */
  maxResultChars?: number;
  /** Ours: one client and process shared by every agent that lists an identical server, instead of one per agent. */
  shared?: boolean;
}

export interface PlanningModeConfig {
  enabled: boolean;
  /** Tools blocked during coordination, raw or prefixed; absent or empty = every side-effecting tool. */
  blockedTools?: string[];
}

export interface AgentConfig {
  id: string;
  backend: BackendConfig;
  systemMessage?: string;
  /** Upstream's per-agent `voting_sensitivity`, as mapped to ours; the engine applies the run's (see load.ts). */
  votingSensitivity?: Sensitivity;
}

export interface OrchestratorConfig {
  votingSensitivity: Sensitivity;
  answerNoveltyRequirement: Sensitivity;
  /** null = unlimited, as upstream. */
  maxNewAnswersPerAgent: number | null;
  /** Rounds cap (ours; upstream has none). A round is one scheduling wave of agent turns. */
  maxRounds: number;
  finalAnswer: FinalAnswerMode;
  /**
   * 'superseded' (default): when answers an agent has seen were revised, its next turn starts from a fresh prompt with
   * the current answers instead of appending the new versions to its conversation, so prompts grow with the board,
   * not with the history of every version; on a backend with a known prompt cache also when other agents start turns
   * with the same fresh prompt (its start is then read from the cache); each time only when that is billed less.
   * 'never': always keep the whole conversation.
   */
  contextCompaction: 'superseded' | 'never';
  /**
   * Ours: an agent waiting out a provider's back-off (a 429 with retry-after, a 529) does not hold the others; once
   * they all hold current votes and it has been unavailable this long, the run ends without it.
   */
  unavailableWaitSeconds: number;
  /**
   * Ours: when agents on one backend with a known prompt cache are about to send prompts that start alike (the task,
   * the board), one goes first and the others wait up to this long for its response to begin, so the cache serves
   * them that start at its cached price. 0: send together. Default 5.
   */
  promptCacheWaitSeconds: number;
  /**
   * Ours: end as soon as a strict majority of live agents hold current votes for one answer while the turns still
   * out can only vote (their answer cap is reached): those votes cannot change the winner. Default true.
   */
  earlyDecision: boolean;
  /** Absent when the config sets no caps. */
  budget?: Budget;
  /** Upstream's `context_paths`, as written (relative paths are resolved by the front end). */
  contextPaths?: ContextPath[];
  /** Ours: the project's checks, run by the engine on every answer version of a workspace run. */
  checks?: CheckSpec[];
  /** How much the checks count; unset = `inform` when there are checks (see `verificationOf`). */
  verification?: Verification;
  /** Ours: the team in stages, the later ones called only when the earlier do not settle the run. Absent = off. */
  escalation?: Escalation;
}

/** Agent ids per stage (every agent in exactly one), and the fewest agreeing agents that may end a stage. */
export interface Escalation {
  stages: string[][];
  minAgreeing: number;
}

/** A project check (`npm test`): run in the sandbox on each answer version's snapshot, never by the agents. */
export interface CheckSpec {
  name: string;
  command: string;
  timeoutSeconds: number;
  /** A required check that fails keeps the answer from winning under `gate` (default true). */
  required: boolean;
}

/** off: checks are not run; inform: voters see the results; gate: an answer failing a required check cannot win while another passes. */
export type Verification = 'off' | 'inform' | 'gate';

/** A folder agents see: `write` = the workspace they change (each in its own copy), `read` = reference only. */
export interface ContextPath {
  path: string;
  permission: 'read' | 'write';
}

export interface TimeoutConfig {
  orchestratorTimeoutSeconds: number;
  /** Per-agent turn timeout (ours; upstream's round timeouts plus their grace map to it when it is not set). */
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
  contextCompaction: 'superseded',
  unavailableWaitSeconds: 30,
  promptCacheWaitSeconds: 5,
  earlyDecision: true,
};

export const DEFAULT_TIMEOUTS: TimeoutConfig = {
  orchestratorTimeoutSeconds: 1800,
  agentTurnTimeoutSeconds: 600,
};

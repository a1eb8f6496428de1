// The shapes a MassGen config may have, as zod schemas (upstream's snake_case keys), plus the keys upstream accepts
// that we read no further (warned about, not refused). load.ts checks a parsed file against these and turns the
// result into the typed MassGenConfig.

import { z } from 'zod';
import { CheckSchema, VerificationSchema } from './checks';
import { EscalationSchema } from './escalation';
import { HarnessKeys } from './harness-settings';
import { McpBackendKeys } from './mcp';
import { seconds, waitSeconds } from './seconds';
import { DEFAULT_MODELS } from './backends';

const sensitivity = z.enum(['lenient', 'balanced', 'strict']);
/** Ours plus upstream's later voting variants, which upstream-keys.ts maps to the nearest of ours. */
export const UPSTREAM_SENSITIVITIES = [
  'lenient', 'balanced', 'strict', 'roi', 'roi_conservative', 'roi_balanced', 'roi_aggressive', 'sequential', 'adversarial',
  'consistency', 'diversity', 'reflective', 'checklist', 'checklist_scored', 'checklist_gated',
] as const;
const upstreamSensitivity = z.enum(UPSTREAM_SENSITIVITIES);

function isRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
const httpUrl = z.string().refine((s) => /^https?:\/\/[^/\s]+/.test(s), 'must be an http(s) URL, e.g. http://localhost:11434/v1');

const perMillion = z.number().min(0);
export const PricingSchema = z.object({
  input_per_million: perMillion,
  cached_input_per_million: perMillion.nullish(),
  output_per_million: perMillion,
});
export const BudgetSchema = z.object({
  max_cost_usd: z.number().positive().nullish(),
  max_total_tokens: z.int().positive().nullish(),
  max_calls: z.int().positive().nullish(),
});

export const BackendSchema = z.object({
  type: z.string().min(1).nullish(),
  /** Optional as upstream: a type with a default model (backends.ts UPSTREAM_DEFAULT_MODELS) uses it. */
  model: z.string().min(1).nullish(),
  base_url: httpUrl.nullish(),
  api_key: z.string().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.int().positive().nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  /** Ours: the model's context window in tokens, when the built-in table does not know it (local models). */
  context_window: z.int().positive().nullish(),
  pricing: PricingSchema.nullish(),
  /** Upstream's agent workspace folder: the agent works in its own copy (see README, workspace runs). */
  cwd: z.string().min(1).nullish(),
  // Commands in the agent's copy, as upstream writes them; they always run in our sandbox (see README).
  enable_mcp_command_line: z.boolean().nullish(),
  command_line_allowed_commands: z.array(z.string().refine(isRegex, 'must be a valid regular expression')).nullish(),
  command_line_blocked_commands: z.array(z.string().refine(isRegex, 'must be a valid regular expression')).nullish(),
  command_line_execution_mode: z.enum(['local', 'docker']).nullish(),
  /** Upstream's Docker network mode; `bridge` or `host` let commands use the network, as they do there. */
  command_line_docker_network_mode: z.enum(['none', 'bridge', 'host']).nullish(),
  // Upstream's provider settings, passed on where the backend has them (see backend-extras.ts).
  reasoning: z.object({ effort: z.string().min(1).nullish(), summary: z.string().min(1).nullish() }).loose().nullish(),
  text: z.object({ verbosity: z.enum(['low', 'medium', 'high']).nullish() }).loose().nullish(),
  enable_web_search: z.boolean().nullish(),
  enable_code_interpreter: z.boolean().nullish(),
  enable_code_execution: z.boolean().nullish(),
  /** Azure OpenAI: upstream's names (the deployment is `model`). */
  api_version: z.string().min(1).nullish(),
  azure_endpoint: httpUrl.nullish(),
  /** Ours: which OpenAI API an OpenAI-compatible backend speaks (default: see backends.ts usesResponsesApi). */
  api: z.enum(['responses', 'chat_completions']).nullish(),
  // MCP: upstream's mcp_servers / allowed_tools / exclude_tools, plus require_approval and planning_mode (ours).
  ...McpBackendKeys,
  // Coding agents' programs (claude_code, codex): upstream's keys, plus `path` (see harness-settings.ts).
  ...HarnessKeys,
});
export const AgentSchema = z.object({
  id: z.string().min(1).nullish(),
  backend: BackendSchema,
  system_message: z.string().nullish(),
  /** Upstream's per-agent override of orchestrator.voting_sensitivity. */
  voting_sensitivity: upstreamSensitivity.nullish(),
});
export const OrchestratorTimeoutSchema = z.object({ orchestrator_timeout_seconds: seconds.nullish() });
/** Of upstream's `orchestrator.coordination` block only planning mode is read (applied to every agent's MCP tools). */
export const CoordinationSchema = z.object({ enable_planning_mode: z.boolean().nullish() }).loose();
/** Upstream's folders for agents: `write` = the folder they change (each in its own copy), `read` = reference. */
export const ContextPathSchema = z.object({ path: z.string().min(1), permission: z.enum(['read', 'write']).nullish() });
export const OrchestratorSchema = z.object({
  coordination: CoordinationSchema.nullish(),
  context_paths: z.array(ContextPathSchema).nullish(),
  voting_sensitivity: upstreamSensitivity.nullish(),
  answer_novelty_requirement: sensitivity.nullish(),
  max_new_answers_per_agent: z.int().positive().nullish(),
  // Upstream's keys, mapped to ours in upstream-keys.ts.
  max_new_answers_global: z.int().positive().nullish(),
  final_answer_strategy: z.enum(['winner_reuse', 'winner_present', 'synthesize']).nullish(),
  skip_final_presentation: z.boolean().nullish(),
  skip_coordination_rounds: z.boolean().nullish(),
  max_rounds: z.int().positive().nullish(),
  final_answer: z.enum(['as_is', 'synthesize']).nullish(),
  context_compaction: z.enum(['superseded', 'never']).nullish(),
  unavailable_wait_seconds: waitSeconds.nullish(),
  prompt_cache_wait_seconds: waitSeconds.nullish(),
  early_decision: z.boolean().nullish(),
  checks: z.array(CheckSchema).nullish(),
  verification: VerificationSchema.nullish(),
  timeout: OrchestratorTimeoutSchema.nullish(),
  budget: BudgetSchema.nullish(),
  escalation: EscalationSchema.nullish(),
});
export const TimeoutSchema = z.object({
  orchestrator_timeout_seconds: seconds.nullish(),
  agent_turn_timeout_seconds: seconds.nullish(),
  // Upstream's round timeouts: they set the turn timeout when agent_turn_timeout_seconds is not given (upstream-keys.ts).
  initial_round_timeout_seconds: seconds.nullish(),
  subsequent_round_timeout_seconds: seconds.nullish(),
  round_timeout_grace_seconds: waitSeconds.nullish(),
});
// Agents are validated one by one so one bad agent does not hide the others' problems.
export const RootSchema = z.object({
  agents: z.array(z.unknown()).nullish(),
  agent: z.unknown().optional(),
  orchestrator: OrchestratorSchema.nullish(),
  timeout_settings: TimeoutSchema.nullish(),
});

/** Keys upstream MassGen accepts that we ignore (warned about, not rejected), by block. */
export const UPSTREAM_ONLY = {
  root: ['ui', 'memory', 'session_id', 'display', 'hooks'],
  agent: ['memory', 'subtask', 'subagent_agents', 'main_agent', 'nlip', 'enable_nlip', 'append_system_prompt'],
  backend: [
    'custom_tools', 'upload_files', 'enable_image_generation',
    'enable_audio_generation', 'enable_file_generation', 'enable_video_generation', 'context_paths',
    'enforce_read_before_delete', 'command_line_docker_image',
    'command_line_docker_memory_limit', 'command_line_docker_cpu_limit',
    'command_line_docker_enable_sudo', 'command_line_docker_credentials', 'command_line_docker_packages',
    'extra_body', 'agent_config',
    'auto_discover_custom_tools', 'shared_tools_directory', 'exclude_custom_tools', 'enable_code_based_tools',
    'exclude_file_operation_mcps', 'direct_mcp_servers', 'websocket_mode', 'hooks', 'concurrent_tool_execution',
    'max_concurrent_tools', 'enable_programmatic_flow', 'enable_tool_search', 'tool_search_variant', 'enable_x_search',
    'debug_delay_seconds', 'debug_delay_after_n_tools', 'search_context_size', 'function_calling_mode',
    'thinking_config', 'include_thoughts', 'betas', 'parallel_tool_calls', 'enable_strict_tool_use', 'chat_template_kwargs',
    'top_k',
  ],
  orchestrator: [
    'snapshot_storage', 'agent_temporary_workspace', 'debug_final_answer', 'dspy', 'session_storage',
    // AgentConfig.valid_orchestrator_keys() at v0.1.91 that have no counterpart here.
    'voting_threshold', 'fairness_enabled', 'fairness_lead_cap_answers', 'max_midstream_injections_per_round',
    'defer_peer_updates_until_restart', 'allow_midstream_peer_updates_before_checklist_submit',
    'defer_voting_until_all_answered', 'coordination_mode', 'presenter_agent', 'max_checklist_calls_per_round',
    'checklist_first_answer', 'checklist_require_gap_report', 'gap_report_mode', 'skip_voting', 'disable_injection',
    'docker', 'enable_multimodal_tools', 'image_generation_backend', 'audio_generation_backend',
    'video_generation_backend', 'multimodal_config', 'enable_nlip', 'nlip', 'nlip_config', 'interactive_mode',
    'max_orchestration_restarts', 'max_turns', 'skills_directory', 'type',
  ],
  timeout_settings: [],
  orchestrator_timeout: [],
  context_path: ['protected_paths'],
  pricing: [],
  budget: [],
  escalation: [],
} as const;

/** Names seen in upstream docs that we spell differently. */
export const RENAMED: ReadonlyMap<string, string> = new Map([['agent_timeout_seconds', 'agent_turn_timeout_seconds']]);

export const EXAMPLE_AGENTS = [
  'agents:',
  '  - id: gpt',
  `    backend: { type: openai, model: ${DEFAULT_MODELS.openai} }`,
  '  - id: claude',
  `    backend: { type: claude, model: ${DEFAULT_MODELS.anthropic} }`,
].join('\n');

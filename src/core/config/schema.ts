// The shapes a MassGen config may have, as zod schemas (upstream's snake_case keys), plus the keys upstream accepts
// that we read no further (warned about, not refused). load.ts checks a parsed file against these and turns the
// result into the typed MassGenConfig.

import { z } from 'zod';
import { McpBackendKeys } from './mcp';
import { DEFAULT_MODELS } from './backends';

const sensitivity = z.enum(['lenient', 'balanced', 'strict']);

function isRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
const seconds = z.number().positive();
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
  model: z.string().min(1),
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
  // MCP: upstream's mcp_servers / allowed_tools / exclude_tools, plus require_approval and planning_mode (ours).
  ...McpBackendKeys,
});
export const AgentSchema = z.object({
  id: z.string().min(1).nullish(),
  backend: BackendSchema,
  system_message: z.string().nullish(),
});
export const OrchestratorTimeoutSchema = z.object({ orchestrator_timeout_seconds: seconds.nullish() });
/** Of upstream's `orchestrator.coordination` block only planning mode is read (applied to every agent's MCP tools). */
export const CoordinationSchema = z.object({ enable_planning_mode: z.boolean().nullish() }).loose();
/** Upstream's folders for agents: `write` = the folder they change (each in its own copy), `read` = reference. */
export const ContextPathSchema = z.object({ path: z.string().min(1), permission: z.enum(['read', 'write']).nullish() });
export const OrchestratorSchema = z.object({
  coordination: CoordinationSchema.nullish(),
  context_paths: z.array(ContextPathSchema).nullish(),
  voting_sensitivity: sensitivity.nullish(),
  answer_novelty_requirement: sensitivity.nullish(),
  max_new_answers_per_agent: z.int().positive().nullish(),
  max_rounds: z.int().positive().nullish(),
  final_answer: z.enum(['as_is', 'synthesize']).nullish(),
  context_compaction: z.enum(['superseded', 'never']).nullish(),
  unavailable_wait_seconds: z.number().min(0).nullish(),
  early_decision: z.boolean().nullish(),
  timeout: OrchestratorTimeoutSchema.nullish(),
  budget: BudgetSchema.nullish(),
});
export const TimeoutSchema = z.object({
  orchestrator_timeout_seconds: seconds.nullish(),
  agent_turn_timeout_seconds: seconds.nullish(),
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
  root: ['ui', 'memory', 'session_id'],
  agent: ['memory'],
  backend: [
    'enable_web_search', 'enable_code_execution', 'enable_code_interpreter', 'disallowed_tools', 'custom_tools', 'upload_files', 'enable_image_generation',
    'enable_audio_generation', 'enable_file_generation', 'enable_video_generation', 'context_paths',
    'enforce_read_before_delete', 'command_line_docker_image',
    'command_line_docker_memory_limit', 'command_line_docker_cpu_limit',
    'command_line_docker_enable_sudo', 'command_line_docker_credentials', 'command_line_docker_packages',
    'reasoning', 'text', 'api_version', 'permission_mode', 'max_thinking_tokens', 'system_prompt',
    'append_system_prompt', 'extra_body', 'agent_config',
  ],
  orchestrator: [
    'snapshot_storage', 'agent_temporary_workspace', 'skip_coordination_rounds',
    'debug_final_answer', 'dspy', 'session_storage',
  ],
  timeout_settings: ['initial_round_timeout_seconds', 'subsequent_round_timeout_seconds', 'round_timeout_grace_seconds'],
  orchestrator_timeout: [],
  context_path: ['protected_paths'],
  pricing: [],
  budget: [],
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

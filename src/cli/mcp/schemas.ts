// The MCP tools' inputs and outputs as zod shapes: the SDK validates arguments against the input shapes and the
// structured results against the output shapes, and lists both to clients as JSON Schema.

import { z } from 'zod';

export const RUN_INPUT = {
  question: z.string().trim().min(1, 'question is empty').describe('The task or question for the team, as you would ask one expert.'),
  config: z
    .string()
    .optional()
    .describe('Path to a MassGen YAML config (relative to the server\'s working folder). Without it: .massgen/config.yaml, else a team from the API keys in the environment, else a local Ollama.'),
  workspace: z
    .string()
    .optional()
    .describe('A folder for the agents to change: each works on its own copy, and the winner\'s change comes back as a patch. The folder itself is never modified.'),
  checks: z
    .array(z.string().trim().min(1, 'a check is empty'))
    .optional()
    .describe('The project\'s checks (e.g. "npm test"), for a workspace run: MassGen runs each on every answer\'s change in a fresh checkout, in the sandbox; voters see the results. Replaces the config\'s orchestrator.checks.'),
  verification: z
    .enum(['off', 'inform', 'gate'])
    .optional()
    .describe('How much the checks count: inform (the default with checks) shows the results to the voters; gate also keeps an answer failing a check from winning while another passes; off skips them.'),
};

export const STATUS_INPUT = {
  log_dir: z.string().min(1).describe('The log directory massgen_run returned (or LOG_DIR of `massgen run --automation`).'),
};

const usage = z.object({
  input_tokens: z.number(),
  cached_input_tokens: z.number(),
  output_tokens: z.number(),
  calls: z.number(),
  estimated: z.boolean(),
  cost_usd: z.number().nullable().describe('null when no model had a known price; a lower bound when cost_partial'),
  cost_partial: z.boolean(),
});

const changedFile = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted']),
  added: z.number().nullable(),
  removed: z.number().nullable(),
});

const checkResult = z.object({
  name: z.string(),
  status: z.enum(['passed', 'failed', 'timeout', 'error', 'cancelled']),
  required: z.boolean(),
  exit_code: z.number().nullable(),
  duration_seconds: z.number(),
  cached: z.boolean().describe('the same change was checked before in this run: its result is reused'),
  output: z.string().describe('the end of the check\'s output'),
});

const checks = z
  .object({
    requested: z.array(z.string()).describe('The check commands'),
    verification: z.enum(['off', 'inform', 'gate']),
    run: z.boolean().describe('false when they were not run (see note)'),
    versions: z
      .record(z.string(), z.object({ status: z.enum(['passed', 'failed', 'running', 'not-run']), results: z.array(checkResult) }))
      .describe('Per answer version (agentK.M): its checks\' results'),
    winner: z
      .object({
        status: z.enum(['passed', 'failed', 'unchecked']).describe('passed: every required check passed on the winner; failed: one failed (unverified)'),
        overruled: z.object({ label: z.string(), failed: z.array(z.string()) }).nullable().describe('gate: the answer the votes chose, passed over because it failed these checks'),
      })
      .nullable(),
    note: z.string().nullable(),
  })
  .nullable()
  .describe('Workspace runs with checks: each answer version\'s results and the winner\'s verification');

export const RUN_OUTPUT = {
  answer: z.string().nullable().describe('The winning answer; null when the run produced none'),
  winner: z.object({ agent_id: z.string(), label: z.string(), model: z.string() }).nullable(),
  end_reason: z.string().describe('consensus, answer_cap, majority, max_rounds, timeout, budget, user_stop, cancelled or all_failed'),
  tally: z.record(z.string(), z.number()).describe('Current votes per answer version (agentK.M)'),
  answers: z.array(z.object({ label: z.string(), agent_id: z.string(), model: z.string(), votes: z.number() })).describe('Each agent\'s latest answer version'),
  usage,
  duration_seconds: z.number(),
  log_dir: z.string(),
  answer_file: z.string().nullable(),
  change: z
    .object({
      files: z.array(changedFile),
      patch: z.string().nullable().describe('Unified git-style patch relative to the workspace folder; null when too large (see patch_file)'),
      patch_file: z.string().nullable(),
    })
    .nullable()
    .describe('Workspace runs: the winner\'s change, not applied'),
  checks,
  notes: z.array(z.string()),
  error: z.string().nullable(),
};

export const STATUS_OUTPUT = {
  running: z.boolean().describe('false once the run ended (results.end_reason is set)'),
  summary: z.string(),
  status: z.record(z.string(), z.unknown()).describe('status.json as the run writes it (meta, coordination, agents, results, usage)'),
};

export type RunInput = z.infer<z.ZodObject<typeof RUN_INPUT>>;
export type RunOutput = z.infer<z.ZodObject<typeof RUN_OUTPUT>>;
export type StatusOutput = z.infer<z.ZodObject<typeof STATUS_OUTPUT>>;

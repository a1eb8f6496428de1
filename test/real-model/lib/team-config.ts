// A MassGen config for a team of agents on the real inference server (or on a recording proxy in front of it), in
// the upstream YAML a user writes. Each agent names its own model (llama-server serves one model whatever the name),
// so a request tells whose it is: `agentOf(request)`.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface TeamOnServer {
  /** `openai`: type chatcompletion at ORIGIN/v1; `anthropic`: type claude (the Messages API) at ORIGIN. */
  api: 'openai' | 'anthropic';
  /** http://127.0.0.1:PORT of the server or the proxy. */
  origin: string;
  /** Agent ids, in config order (default a, b, c). */
  agents?: string[];
  /** The agents' max_tokens (default 256: room for a short answer in a tool call). */
  maxTokens?: number;
  systemMessage?: string;
  /** The CLI's own bound on the run (orchestrator_timeout_seconds): a failure guard, generous. */
  timeoutSeconds: number;
  /** Per turn (agent_turn_timeout_seconds); default: the run's bound. */
  turnTimeoutSeconds?: number;
  /**
   * Merged over the small defaults (one answer per agent, three rounds): e.g. `max_new_answers_per_agent`, or
   * `budget: { max_calls }`, a hard stop if the model keeps calling tools.
   */
  orchestrator?: Record<string, unknown>;
}

/** The server's context per slot (test/helpers/llama-server.ts starts it with 8192). */
export const SERVER_CONTEXT_TOKENS = 8192;

const MODEL_PREFIX = 'team-agent-';

export const modelOf = (agentId: string) => `${MODEL_PREFIX}${agentId}`;

/** The agent id a request was sent for (its `model`), or undefined. */
export function agentOf(request: Record<string, unknown>): string | undefined {
  const model = request.model;
  return typeof model === 'string' && model.startsWith(MODEL_PREFIX) ? model.slice(MODEL_PREFIX.length) : undefined;
}

export function teamConfig(team: TeamOnServer): Record<string, unknown> {
  const type = team.api === 'openai' ? 'chatcompletion' : 'claude';
  const baseUrl = team.api === 'openai' ? `${team.origin}/v1` : team.origin;
  return {
    agents: (team.agents ?? ['a', 'b', 'c']).map((id) => ({
      id,
      backend: {
        type,
        model: modelOf(id),
        base_url: baseUrl,
        // Greedy decoding, for repeatable runs (the claude type sends no temperature: the server's default is greedy
        // too, with GREEDY_SAMPLING from test/helpers/llama-server.ts).
        temperature: 0,
        max_tokens: team.maxTokens ?? 256,
        context_window: SERVER_CONTEXT_TOKENS,
      },
      ...(team.systemMessage ? { system_message: team.systemMessage } : {}),
    })),
    orchestrator: { max_new_answers_per_agent: 1, max_rounds: 3, ...team.orchestrator },
    timeout_settings: {
      orchestrator_timeout_seconds: team.timeoutSeconds,
      agent_turn_timeout_seconds: team.turnTimeoutSeconds ?? team.timeoutSeconds,
    },
  };
}

/** Writes the team's config as `<dir>/<name>.yaml` and returns its path. */
export function writeTeamConfig(dir: string, name: string, team: TeamOnServer): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(teamConfig(team)));
  return file;
}

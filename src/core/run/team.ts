// The run's agents from its config: a provider per backend (built by core, or by the host for backends only it can
// reach, such as VS Code's chat models) and its prices. A backend that cannot be built is a setup error in words.

import type { AgentConfig } from '../config/types';
import type { AgentToolbox, EngineAgent } from '../engine/ports';
import { createHarnessProvider, type HarnessWiring } from '../harness/create';
import { createProvider, type ExtraProviderFactory } from '../providers/factory';
import { backendPricing, tableContextWindow } from '../usage/cost';
import { errorMessage } from '../util/errors';
import { SessionSetupError } from './errors';

/** The configured context window, else the table's (never for VS Code's chat models: their own figure counts). */
function windowOf(agent: AgentConfig): { contextWindow?: number } {
  const window = agent.backend.contextWindow ?? (agent.backend.family === 'vscode-lm' ? null : tableContextWindow(agent.backend.model));
  return window ? { contextWindow: window } : {};
}

/**
 * What a coding agent's program needs from the run besides its config: its folder and its read-only file tools (by
 * agent index), whether its commands may use the network, env and home.
 */
export type TeamWiring = Omit<HarnessWiring, 'cwd' | 'reading'> & { folderOf(index: number): string; readingOf?(index: number): AgentToolbox | undefined };

export function buildAgents(agents: readonly AgentConfig[], extraProviders: ExtraProviderFactory | undefined, wiring: TeamWiring): EngineAgent[] {
  return agents.map((a, i) => {
    let provider;
    try {
      const provided = extraProviders?.(a);
      provider = provided ?? (a.backend.family === 'harness' ? createHarnessProvider(a, { ...wiring, cwd: () => wiring.folderOf(i), reading: () => wiring.readingOf?.(i) }) : createProvider(a));
    } catch (err) {
      throw new SessionSetupError('config', errorMessage(err));
    }
    return {
      id: a.id,
      provider,
      systemMessage: a.systemMessage,
      temperature: a.backend.temperature,
      maxTokens: a.backend.maxTokens,
      pricing: backendPricing(a.backend).pricing,
      ...windowOf(a),
    };
  });
}

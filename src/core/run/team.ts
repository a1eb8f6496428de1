// The run's agents from its config: a provider per backend (built by core, or by the host for backends only it can
// reach, such as VS Code's chat models) and its prices. A backend that cannot be built is a setup error in words.

import type { AgentConfig } from '../config/types';
import type { EngineAgent } from '../engine/ports';
import { createProvider, type ExtraProviderFactory } from '../providers/factory';
import { backendPricing } from '../usage/cost';
import { errorMessage } from '../util/errors';
import { SessionSetupError } from './errors';

export function buildAgents(agents: readonly AgentConfig[], extraProviders?: ExtraProviderFactory): EngineAgent[] {
  return agents.map((a) => {
    let provider;
    try {
      provider = createProvider(a, extraProviders);
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
    };
  });
}

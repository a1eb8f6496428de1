// Builds the provider for a configured backend. A front end's own factory is asked first: `vscode-lm` agents exist
// only inside VS Code, where the host builds them (everywhere else they are a clear configuration error), and
// benchmarks and tests put in-process providers behind ordinary configs.
// Each SDK is required when a backend first needs it: loading one costs start-up time (the Anthropic SDK brings
// OpenTelemetry along), and a run rarely uses both.
/* eslint-disable @typescript-eslint/no-require-imports */

import type { AgentConfig } from '../config/types';
import type { ModelProvider } from './types';

/** A provider for this agent, or undefined to let core build it from the backend config. */
export type ExtraProviderFactory = (agent: AgentConfig) => ModelProvider | undefined;

export function createProvider(agent: AgentConfig, extra?: ExtraProviderFactory): ModelProvider {
  const provided = extra?.(agent);
  if (provided) return provided;
  const b = agent.backend;
  switch (b.family) {
    case 'openai-compatible':
      return new (require('./openai-compatible') as typeof import('./openai-compatible')).OpenAICompatibleProvider({
        model: b.model,
        baseUrl: b.baseUrl,
        apiKey: b.apiKey,
        temperature: b.temperature,
        maxTokens: b.maxTokens,
        topP: b.topP,
      });
    case 'anthropic':
      return new (require('./anthropic') as typeof import('./anthropic')).AnthropicProvider({ model: b.model, baseUrl: b.baseUrl, apiKey: b.apiKey, temperature: b.temperature, maxTokens: b.maxTokens });
    case 'vscode-lm':
      throw new Error(`Agent '${agent.id}' uses type vscode-lm (VS Code chat models), which only works inside VS Code. Use an openai, claude or chatcompletion backend with the CLI.`);
  }
}

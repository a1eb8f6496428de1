// Builds the provider for a configured backend. A front end's own factory is asked first: `vscode-lm` agents exist
// only inside VS Code, where the host builds them (everywhere else they are a clear configuration error), and
// benchmarks and tests put in-process providers behind ordinary configs.
// Each SDK is required when a backend first needs it: loading one costs start-up time (the Anthropic SDK brings
// OpenTelemetry along), and a run rarely uses both.
/* eslint-disable @typescript-eslint/no-require-imports */

import { azureChatBaseUrl, isOpenAIv1Endpoint } from '../config/azure';
import { usesResponsesApi } from '../config/backends';
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
      if (usesResponsesApi(b)) {
        return new (require('./openai-responses') as typeof import('./openai-responses')).OpenAIResponsesProvider({
          model: b.model,
          baseUrl: b.baseUrl,
          apiKey: b.apiKey,
          temperature: b.temperature,
          maxTokens: b.maxTokens,
          topP: b.topP,
          reasoning: b.reasoning,
          text: b.text,
          builtinTools: b.builtinTools,
        });
      }
      return new (require('./openai-compatible') as typeof import('./openai-compatible')).OpenAICompatibleProvider({
        model: b.model,
        baseUrl: b.azureApiVersion && b.baseUrl ? azureChatBaseUrl(b.baseUrl, b.model) : b.baseUrl,
        apiKey: b.apiKey,
        temperature: b.temperature,
        maxTokens: b.maxTokens,
        topP: b.topP,
        reasoning: b.reasoning,
        ...(b.azureApiVersion ? azureRequestOptions(b.baseUrl, b.azureApiVersion, b.apiKey) : {}),
      });
    case 'anthropic':
      return new (require('./anthropic') as typeof import('./anthropic')).AnthropicProvider({
        model: b.model,
        baseUrl: b.baseUrl,
        apiKey: b.apiKey,
        temperature: b.temperature,
        maxTokens: b.maxTokens,
        webSearch: b.builtinTools?.includes('web_search'),
      });
    case 'gemini':
      return new (require('./gemini') as typeof import('./gemini')).GeminiProvider({
        model: b.model,
        baseUrl: b.baseUrl,
        apiKey: b.apiKey,
        temperature: b.temperature,
        maxTokens: b.maxTokens,
        topP: b.topP,
        builtinTools: b.builtinTools,
      });
    case 'harness':
      // A program runs in the agent's folder, which the run session makes: it builds these (core/run/team.ts).
      throw new Error(`Agent '${agent.id}' uses type ${b.type}, a coding agent's program, which only a run session can start.`);
    case 'vscode-lm':
      throw new Error(`Agent '${agent.id}' uses type vscode-lm (VS Code chat models), which only works inside VS Code. Use an openai, claude, gemini or chatcompletion backend with the CLI.`);
  }
}

/** Azure OpenAI authenticates with an `api-key` header and versions every request with `api-version` (not on /openai/v1). */
function azureRequestOptions(endpoint: string | undefined, apiVersion: string, apiKey: string | undefined) {
  return {
    ...(apiKey ? { defaultHeaders: { 'api-key': apiKey } } : {}),
    ...(endpoint && isOpenAIv1Endpoint(endpoint) ? {} : { defaultQuery: { 'api-version': apiVersion } }),
  };
}

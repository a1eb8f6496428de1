// Turns a run configuration into engine agents. Configured agents get their providers from core (vscode-lm ones
// through the VS Code adapter); with nothing configured, the team is made of the user's VS Code chat models.

import * as vscode from 'vscode';
import type { AgentConfig } from '../core/config/types';
import type { EngineAgent } from '../core/engine/ports';
import { createProvider } from '../core/providers/factory';
import { backendPricing } from '../core/usage/cost';
import { noChatModelsMessage, parseLmModelSpec, selectLmModels } from './lm/models';
import { VsCodeLmProvider } from './lm/provider';
import { pickLmTeam } from './lm/team';
import type { RunConfig } from './run-config';

function lmProvider(model: vscode.LanguageModelChat | vscode.LanguageModelChatSelector): VsCodeLmProvider {
  return new VsCodeLmProvider({ api: vscode, model });
}

function toEngineAgent(agent: AgentConfig): EngineAgent {
  return {
    id: agent.id,
    provider: createProvider(agent, (a) => (a.backend.family === 'vscode-lm' ? lmProvider(parseLmModelSpec(a.backend.model)) : undefined)),
    systemMessage: agent.systemMessage,
    temperature: agent.backend.temperature,
    maxTokens: agent.backend.maxTokens,
    pricing: backendPricing(agent.backend).pricing,
  };
}

/** Engine agents for the run; `preferred` is the chat view's selected model, first in a zero-config team. */
export async function buildTeam(run: RunConfig, preferred?: vscode.LanguageModelChat): Promise<EngineAgent[]> {
  if (run.kind === 'configured') return run.config.agents.map(toEngineAgent);
  const models = await selectLmModels(vscode.lm);
  if (models.length === 0 && !preferred) throw new Error(noChatModelsMessage());
  return pickLmTeam(models, { preferred }).map((spec) => ({
    id: spec.id,
    provider: lmProvider(spec.model),
    systemMessage: spec.personaSystemMessage,
    // Chat models are billed by the user's plan, not per token.
    pricing: null,
  }));
}

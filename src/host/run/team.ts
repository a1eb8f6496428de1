// The team a run uses inside VS Code, as a config the run session can build: configured agents as they are
// (vscode-lm ones get their provider from the VS Code adapter), or, with nothing configured, the user's VS Code chat
// models, each an agent of its own.

import * as vscode from 'vscode';
import type { AgentConfig, MassGenConfig } from '../../core/config/types';
import type { ExtraProviderFactory } from '../../core/providers/factory';
import { lmModelSpec, NoChatModelsError, parseLmModelSpec, selectLmModels } from '../lm/models';
import { VsCodeLmProvider } from '../lm/provider';
import { pickLmTeam } from '../lm/team';
import type { RunConfig } from './config';

export interface Team {
  config: MassGenConfig;
  extraProviders: ExtraProviderFactory;
}

function lmProvider(model: vscode.LanguageModelChat | vscode.LanguageModelChatSelector): VsCodeLmProvider {
  return new VsCodeLmProvider({ api: vscode, model });
}

/** `preferred` is the chat view's selected model, first in a zero-config team. */
export async function teamFor(run: RunConfig, preferred?: vscode.LanguageModelChat): Promise<Team> {
  if (run.kind === 'configured') {
    return { config: run.config, extraProviders: (a) => (a.backend.family === 'vscode-lm' ? lmProvider(parseLmModelSpec(a.backend.model)) : undefined) };
  }
  const models = await selectLmModels(vscode.lm);
  if (models.length === 0 && !preferred) throw new NoChatModelsError();
  const picked = pickLmTeam(models, { preferred });
  const byId = new Map(picked.map((spec) => [spec.id, spec.model]));
  // Chat models are billed by the user's plan, not per token: vscode-lm backends are never priced.
  const agents: AgentConfig[] = picked.map((spec) => ({
    id: spec.id,
    backend: { type: 'vscode-lm', family: 'vscode-lm', model: lmModelSpec(spec.model) },
    ...(spec.personaSystemMessage ? { systemMessage: spec.personaSystemMessage } : {}),
  }));
  return {
    config: { ...run.config, agents },
    extraProviders: (a) => {
      const model = byId.get(a.id);
      return model ? lmProvider(model) : undefined;
    },
  };
}

// The team the next run would use, for the vote viewer's start page: its agents, where they are set, and what (if
// anything) would stop a run from starting, checked the way a run checks (the config, the keys, the chat models, the
// coding agents' programs), so the user learns it before typing an instruction. Never a key: only ids, providers, models and env var names.

import * as vscode from 'vscode';
import { missingProgram } from '../../core/harness/binaries';
import { errorMessage } from '../../core/util/errors';
import type { Setup } from '../../protocol/messages';
import type { KeyStore } from '../keys';
import { lmModelSpec, noChatModelsMessage, selectLmModels } from '../lm/models';
import { pickLmTeam } from '../lm/team';
import { fillKeys, loadTeamConfig, MissingKeyError, teamSource } from './config';

export async function nextTeam(keys: KeyStore): Promise<Setup> {
  const source = teamSource();
  const base = { source: source.source, from: source.from };
  try {
    const run = loadTeamConfig(source);
    if (run.kind === 'chat-models') {
      const models = await selectLmModels(vscode.lm);
      if (models.length === 0) return { ...base, agents: [], problem: { text: noChatModelsMessage(), fix: 'settings' } };
      return { ...base, agents: pickLmTeam(models).map((a) => ({ id: a.id, provider: 'vscode-lm', model: lmModelSpec(a.model) })), problem: null };
    }
    const agents = run.config.agents.map((a) => ({ id: a.id, provider: a.backend.type, model: a.backend.model }));
    try {
      // On this freshly loaded copy, which is dropped: only whether each key is there matters here.
      await fillKeys(run.config, keys);
    } catch (err) {
      if (err instanceof MissingKeyError) return { ...base, agents, problem: { text: err.message, fix: 'setApiKey', envVar: err.envVar } };
      throw err;
    }
    const missing = missingProgram(run.config.agents, process.env);
    if (missing) return { ...base, agents, problem: { text: missing, fix: source.source === 'file' ? 'openConfig' : 'settings' } };
    return { ...base, agents, problem: null };
  } catch (err) {
    return { ...base, agents: [], problem: { text: errorMessage(err), fix: source.source === 'file' ? 'openConfig' : 'settings' } };
  }
}

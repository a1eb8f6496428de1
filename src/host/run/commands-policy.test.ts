import assert from 'node:assert/strict';
import type { MassGenConfig } from '../../core/config/types';
import { DEFAULT_ORCHESTRATOR, DEFAULT_TIMEOUTS } from '../../core/config/types';
import { commandsForRun } from './commands-policy';

const approve = async () => true;
function config(withCommands: boolean): MassGenConfig {
  const backend = { type: 'ollama', family: 'openai-compatible' as const, model: 'm', ...(withCommands ? { commands: { enabled: true, network: false } } : {}) };
  return { agents: [{ id: 'a', backend }], orchestrator: { ...DEFAULT_ORCHESTRATOR }, timeouts: { ...DEFAULT_TIMEOUTS }, source: 'test' };
}

describe('host commands policy', () => {
  it('never in an untrusted workspace, even when the config enables them', () => {
    const c = config(true);
    const r = commandsForRun({ trusted: false, workspaceRun: true, enabled: true, network: true }, c, approve);
    assert.equal(r.option, undefined);
    assert.equal(c.agents[0].backend.commands, undefined);
    assert.match(r.note!, /untrusted workspace/);
  });

  it('only in workspace runs', () => {
    const c = config(true);
    const r = commandsForRun({ trusted: true, workspaceRun: false, enabled: true, network: false }, c, approve);
    assert.equal(r.option, undefined);
    assert.equal(c.agents[0].backend.commands, undefined);
    assert.match(r.note!, /outside workspace runs/);
  });

  it('in a trusted workspace run: every agent with the setting, asking before every command', () => {
    const r = commandsForRun({ trusted: true, workspaceRun: true, enabled: true, network: true }, config(false), approve);
    assert.deepEqual({ ...r.option, approve: undefined }, { everyAgent: true, network: true, approve: undefined, askEveryCommand: true });
  });

  it('the setting off keeps a config\'s own agents, still asking', () => {
    const c = config(true);
    const r = commandsForRun({ trusted: true, workspaceRun: true, enabled: false, network: false }, c, approve);
    assert.equal(r.option?.everyAgent, false);
    assert.equal(r.option?.askEveryCommand, true);
    assert.ok(c.agents[0].backend.commands);
    assert.equal(r.note, undefined);
  });
});

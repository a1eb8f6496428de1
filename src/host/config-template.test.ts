import assert from 'node:assert/strict';
import { parseConfigText } from '../core/config/load';
import { configFromSettings, type MassGenSettings } from '../core/config/settings';
import { configYaml } from './config-template';

const settings: MassGenSettings = {
  agents: [
    { id: 'writer', provider: 'vscode-lm', model: 'copilot/gpt-4o', systemMessage: 'You write: "quotes", colons: and all.' },
    { id: 'local', provider: 'ollama', model: 'llama3.2' },
  ],
  votingSensitivity: 'strict',
  maxRounds: 4,
  budget: { maxCostUsd: 0.5, maxTotalTokens: null },
  defaultBaseUrls: { ollama: 'http://gpu-box:11434/v1' },
};

describe('configYaml (what Open Config writes)', () => {
  it('loads as the same team and settings the VS Code settings give', () => {
    const text = configYaml(settings, 'massgen.agents in your User settings');
    const fromFile = parseConfigText(text, 'config.yaml', {}, { requireKeys: false, host: 'vscode' }).config;
    const fromSettings = configFromSettings(settings, {}).config;
    assert.deepEqual(fromFile.agents, fromSettings.agents);
    assert.deepEqual(fromFile.orchestrator, fromSettings.orchestrator);
    assert.equal(fromFile.agents[1].backend.baseUrl, 'http://gpu-box:11434/v1', 'the default base URL is written into the agent');
  });

  it('says where the team came from and that the file takes over; other providers only in comments', () => {
    const text = configYaml(settings, 'massgen.agents in your User settings');
    assert.match(text, /from massgen\.agents in your User settings/);
    assert.match(text, /no longer apply here/);
    const read = text.split('\n').filter((l) => !l.trimStart().startsWith('#')).join('\n');
    assert.ok(!/gpt-4\.1-mini|claude-haiku/.test(read), read);
  });

  it('keeps a key pasted into massgen.agents out of the file (upstream-shaped entries are written as they are)', () => {
    const text = configYaml({ agents: [{ id: 'gpt', backend: { type: 'openai', model: 'gpt-4.1-mini', api_key: 'sk-secret' } }] }, 'massgen.agents in your User settings');
    assert.ok(!text.includes('sk-secret'), text);
    const { config } = parseConfigText(text, 'config.yaml', {}, { requireKeys: false, host: 'vscode' });
    assert.deepEqual(config.agents.map((a) => [a.id, a.backend.type, a.backend.model, a.backend.apiKeyEnv]), [['gpt', 'openai', 'gpt-4.1-mini', 'OPENAI_API_KEY']]);
  });
});

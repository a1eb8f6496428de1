import assert from 'node:assert/strict';
import { ConfigError } from './load';
import { configFromSettings, settingName, settingsToYamlObject } from './settings';

describe('config from VS Code settings', () => {
  it('maps settings to the same typed config as YAML', () => {
    const { config } = configFromSettings(
      {
        agents: [
          { id: 'gpt', provider: 'openai', model: 'gpt-4.1-mini', temperature: 0.2 },
          { provider: 'chatcompletion', model: 'llama3.2', baseUrl: 'http://localhost:11434/v1', systemMessage: 'Be terse.' },
        ],
        votingSensitivity: 'strict',
        maxAnswersPerAgent: 2,
        finalAnswer: 'synthesize',
        timeoutSeconds: 120,
        budget: { maxCostUsd: 0.5, maxCalls: null },
      },
      {},
    );
    assert.equal(config.source, 'VS Code settings');
    assert.deepEqual(config.agents.map((a) => [a.id, a.backend.family, a.backend.model]), [
      ['gpt', 'openai-compatible', 'gpt-4.1-mini'],
      ['agent2', 'openai-compatible', 'llama3.2'],
    ]);
    assert.equal(config.agents[0].backend.apiKeyEnv, 'OPENAI_API_KEY');
    assert.equal(config.agents[0].backend.apiKey, undefined);
    assert.equal(config.agents[1].systemMessage, 'Be terse.');
    assert.equal(config.orchestrator.votingSensitivity, 'strict');
    assert.equal(config.orchestrator.maxNewAnswersPerAgent, 2);
    assert.equal(config.orchestrator.finalAnswer, 'synthesize');
    assert.deepEqual(config.orchestrator.budget, { maxCostUsd: 0.5 });
    assert.equal(config.timeouts.orchestratorTimeoutSeconds, 120);
  });

  it('uses the per-provider default URL for agents without their own', () => {
    const yaml = settingsToYamlObject({ agents: [{ provider: 'ollama', model: 'm' }, { provider: 'ollama', model: 'n', baseUrl: 'http://own:1/v1' }], defaultBaseUrls: { ollama: 'http://gpu:11434/v1' } });
    assert.deepEqual((yaml.agents as { backend: { base_url?: string } }[]).map((a) => a.backend.base_url), ['http://gpu:11434/v1', 'http://own:1/v1']);
  });

  it('drops empty optional values instead of failing on them', () => {
    const yaml = settingsToYamlObject({ agents: [{ provider: 'openai', model: 'm', baseUrl: '' }], maxAnswersPerAgent: null });
    assert.deepEqual(yaml.agents, [{ backend: { type: 'openai', model: 'm' } }]);
    assert.deepEqual(yaml.orchestrator, {});
  });

  it('names the setting to fix, without YAML line numbers', () => {
    assert.throws(
      () => configFromSettings({ agents: [{ provider: 'gemini-ultra', model: 'x' }] }, {}),
      (e: unknown) => e instanceof ConfigError && /massgen\.agents\[0\].*unknown backend type/.test(e.message) && !/:\d+:/.test(e.message),
    );
    assert.throws(() => configFromSettings({ agents: [{ provider: 'openai', model: 'm', temperature: 'hot' as unknown as number }] }, {}), /massgen\.agents\[0\]\.temperature/);
  });

  it('an empty agents list is an error (the host uses VS Code chat models instead before calling this)', () => {
    assert.throws(() => configFromSettings({ agents: [] }, {}), ConfigError);
  });

  it('renames paths to setting names', () => {
    assert.equal(settingName('agents[2].backend.base_url'), 'massgen.agents[2].baseUrl');
    assert.equal(settingName('orchestrator.budget.max_calls'), 'massgen.budget.maxCalls');
    assert.equal(settingName('timeout_settings.agent_turn_timeout_seconds'), 'massgen.agentTurnTimeoutSeconds');
  });
});

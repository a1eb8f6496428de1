import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUPPORTED_BACKEND_TYPES } from './backends';
import { ConfigError } from './load';
import { configFromSettings, inlineKeys, settingName, settingsToYamlObject, withoutInlineKeys, type SettingsAgent } from './settings';

/** The `massgen.agents` schema VS Code checks settings.json against (package.json contributes.configuration). */
function agentsSchema(): { items: { anyOf: { properties: Record<string, { enum?: string[]; properties?: Record<string, { enum?: string[] }> }> }[] } } {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
  const section = pkg.contributes.configuration.find((c: { properties: Record<string, unknown> }) => 'massgen.agents' in c.properties);
  return section.properties['massgen.agents'];
}

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
      (e: unknown) => e instanceof ConfigError && /massgen\.agents\[0\]\.provider: unknown provider "gemini-ultra"/.test(e.message) && !/:\d+:/.test(e.message),
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

  it('accepts upstream\'s shape (backend: {type, base_url, api_key, model}) beside the flat one', () => {
    const agents: SettingsAgent[] = [
      { id: 'local', backend: { type: 'chatcompletion', base_url: 'http://localhost:8000/v1', api_key: 'sk-test', model: 'qwen' }, system_message: 'Be terse.' },
      { id: 'gpt', provider: 'openai', model: 'gpt-4.1-mini' },
      { id: 'ollama', backend: { type: 'ollama', model: 'llama3.2' } },
    ];
    const { config } = configFromSettings({ agents, defaultBaseUrls: { ollama: 'http://gpu:11434/v1' } }, {});
    assert.deepEqual(config.agents.map((a) => [a.id, a.backend.type, a.backend.model, a.backend.baseUrl]), [
      ['local', 'chatcompletion', 'qwen', 'http://localhost:8000/v1'],
      ['gpt', 'openai', 'gpt-4.1-mini', 'https://api.openai.com/v1'],
      ['ollama', 'ollama', 'llama3.2', 'http://gpu:11434/v1'],
    ]);
    assert.equal(config.agents[0].backend.apiKey, 'sk-test');
    assert.equal(config.agents[0].systemMessage, 'Be terse.');
  });

  it('an upstream-shaped entry is named by its own keys; a typo gets the closest type, never the whole list', () => {
    assert.throws(() => configFromSettings({ agents: [{ backend: { type: 'openai', model: 'm', temperature: 'hot' } }] }, {}), /massgen\.agents\[0\]\.backend\.temperature/);
    assert.throws(
      () => configFromSettings({ agents: [{ provider: 'chatcompletions', model: 'm' }, { backend: { type: 'olama', model: 'm' } }] }, {}),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.equal(e.message, [
          '2 problems in VS Code settings:',
          '  massgen.agents[0].provider: unknown provider "chatcompletions"; did you mean chatcompletion?',
          '  massgen.agents[1].backend.type: unknown type "olama"; did you mean ollama?',
        ].join('\n'));
        return true;
      },
    );
  });

  it('an entry of neither shape is told in one line what the setting expects, and where a YAML team goes', () => {
    assert.throws(
      () => configFromSettings({ agents: [{ model: 'gpt-4.1-mini' } as unknown as SettingsAgent, { backend: {} }] }, {}),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        const [shape, backend] = e.issues.map((i) => i.message);
        assert.match(shape, /^massgen\.agents\[0\]: expected \{ "provider": "openai", "model": "gpt-4\.1-mini" \}.*"backend".*\.massgen\/config\.yaml/);
        assert.ok(!shape.includes('\n'));
        assert.match(backend, /^massgen\.agents\[1\]\.backend: needs type and model/);
        assert.ok(!/vscode-lm/.test(e.message), `no list of every type: ${e.message}`);
        return true;
      },
    );
  });

  it('coding agents are team members; an agent program that cannot run is refused with its advice, not called unknown', () => {
    const { config } = configFromSettings({ agents: [{ provider: 'claude_code', model: 'claude-sonnet-4-5' }, { id: 'cx', backend: { type: 'codex' } }] }, {});
    assert.deepEqual(config.agents.map((a) => [a.backend.type, a.backend.harness?.program]), [['claude_code', 'claude_code'], ['codex', 'codex']]);
    assert.throws(() => configFromSettings({ agents: [{ provider: 'copilot', model: 'm' }] }, {}), /GitHub Copilot SDK.*vscode-lm/);
  });

  it('never puts a pasted key where a different one is stored already (secret storage or environment)', () => {
    const agents: unknown[] = [
      { id: 'gpt', backend: { type: 'openai', model: 'm', api_key: 'sk-pasted' } },
      { id: 'same', backend: { type: 'anthropic', model: 'm', api_key: ' sk-ant ' } },
    ];
    const keys = inlineKeys(agents, new Map([['OPENAI_API_KEY', 'sk-other'], ['ANTHROPIC_API_KEY', 'sk-ant']]));
    assert.deepEqual(keys.map((k) => [k.envVar, k.value]), [['MASSGEN_GPT_API_KEY', 'sk-pasted'], ['ANTHROPIC_API_KEY', 'sk-ant']]);
  });

  it('finds keys written into the setting and the secret each becomes; moving them leaves no key behind', () => {
    const agents: unknown[] = [
      { id: 'gpt', backend: { type: 'openai', model: 'm', api_key: 'sk-one' } },
      { id: 'my box', backend: { type: 'chatcompletion', model: 'm', base_url: 'https://llm.example.com/v1', api_key: ' sk-two ' } },
      { id: 'gpt2', backend: { type: 'openai', model: 'm', api_key: 'sk-three' } },
      { id: 'ref', backend: { type: 'openai', model: 'm', api_key: '${OPENAI_API_KEY}' } },
      { id: 'flat', provider: 'openai', model: 'm' },
    ];
    const keys = inlineKeys(agents);
    assert.deepEqual(keys.map((k) => [k.index, k.envVar, k.value]), [
      [0, 'OPENAI_API_KEY', 'sk-one'],
      [1, 'MASSGEN_MY_BOX_API_KEY', 'sk-two'],
      [2, 'MASSGEN_GPT2_API_KEY', 'sk-three'],
    ]);
    const after = withoutInlineKeys(agents, keys);
    assert.ok(!JSON.stringify(after).includes('sk-'), JSON.stringify(after));
    assert.deepEqual(after[0], { id: 'gpt', backend: { type: 'openai', model: 'm' } });
    assert.deepEqual((after[1] as { backend: unknown }).backend, { type: 'chatcompletion', model: 'm', base_url: 'https://llm.example.com/v1', api_key: '${MASSGEN_MY_BOX_API_KEY}' });
    assert.deepEqual(after.slice(3), agents.slice(3));
    // Loaded afterwards, the agent looks its key up under that name (the host fills it from the secret storage).
    const { config } = configFromSettings({ agents: after as SettingsAgent[] }, {});
    assert.deepEqual(config.agents.slice(0, 3).map((a) => [a.backend.apiKey, a.backend.apiKeyEnv]), [
      [undefined, 'OPENAI_API_KEY'],
      [undefined, 'MASSGEN_MY_BOX_API_KEY'],
      [undefined, 'MASSGEN_GPT2_API_KEY'],
    ]);
  });

  it('the settings schema offers exactly the provider types the engine runs, in both shapes', () => {
    const [flat, upstream] = agentsSchema().items.anyOf;
    assert.deepEqual([...(flat.properties.provider.enum ?? [])].sort(), [...SUPPORTED_BACKEND_TYPES].sort());
    assert.deepEqual([...(upstream.properties.backend.properties?.type.enum ?? [])].sort(), [...SUPPORTED_BACKEND_TYPES].sort());
  });
});

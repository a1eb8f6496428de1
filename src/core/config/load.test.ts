import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfigFile, parseConfigText, type LoadOptions } from './load';
import { DEFAULT_ORCHESTRATOR, DEFAULT_TIMEOUTS } from './types';

const FILE = 'team.yaml';
/** Lines joined so each test's line numbers can be read off the source. */
const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;
const load = (text: string, env: NodeJS.ProcessEnv = {}, options: LoadOptions = {}) => parseConfigText(text, FILE, env, options);

function configError(text: string, env: NodeJS.ProcessEnv = {}, options: LoadOptions = {}): ConfigError {
  try {
    load(text, env, options);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a ConfigError');
}

const ONE_OPENAI = yaml(
  'agents:',
  '  - id: gpt',
  '    backend:',
  '      type: openai',
  '      model: gpt-4o-mini',
);

describe('examples/', () => {
  for (const name of ['openai-three-agents.yaml', 'mixed-openai-anthropic.yaml', 'ollama-local.yaml']) {
    it(`${name} loads without errors or warnings when keys are not required`, () => {
      const { config, warnings } = loadConfigFile(join(__dirname, '../../../examples', name), {}, { requireKeys: false });
      assert.equal(config.agents.length, 3);
      assert.deepEqual(warnings, []);
    });
  }

  it('eval/escalating-team.yaml: two cheap agents as stage 1, the strong one as stage 2, without warnings', () => {
    const { config, warnings } = loadConfigFile(join(__dirname, '../../../examples/eval/escalating-team.yaml'), {}, { requireKeys: false });
    assert.deepEqual(warnings, []);
    assert.deepEqual(config.orchestrator.escalation, { stages: [['cheap-a', 'cheap-b'], ['strong']], minAgreeing: 2 });
  });

  it('mixed-openai-anthropic.yaml loads with keys from the environment', () => {
    const { config } = loadConfigFile(join(__dirname, '../../../examples/mixed-openai-anthropic.yaml'),
      { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' });
    assert.deepEqual(config.agents.map((a) => a.backend.family), ['openai-compatible', 'anthropic', 'openai-compatible']);
    assert.equal(config.timeouts.orchestratorTimeoutSeconds, 1200);
  });

  it('mixed-openai-anthropic.yaml: the commented pricing and budget examples load when uncommented', () => {
    const path = join(__dirname, '../../../examples/mixed-openai-anthropic.yaml');
    const text = readFileSync(path, 'utf8')
      .replace(/^(\s*)# (\s*(?:pricing|budget|input_per_million|cached_input_per_million|output_per_million|max_\w+):.*)$/gm, '$1$2');
    const { config, warnings } = parseConfigText(text, path, {}, { requireKeys: false });
    assert.deepEqual(warnings, []);
    assert.deepEqual(config.agents[0].backend.pricing, { inputPerMillion: 0.4, cachedInputPerMillion: 0.1, outputPerMillion: 1.6 });
    assert.deepEqual(config.orchestrator.budget, { maxCostUsd: 0.5, maxTotalTokens: 200000, maxCalls: 40 });
  });

  it('ollama-local.yaml needs no key even when keys are required', () => {
    const { config } = loadConfigFile(join(__dirname, '../../../examples/ollama-local.yaml'), {});
    assert.ok(config.agents.every((a) => a.backend.baseUrl === 'http://localhost:11434/v1' && a.backend.apiKey === undefined));
  });
});

describe('parseConfigText: values and defaults', () => {
  it('applies defaults', () => {
    const { config, warnings } = load(yaml('agents:', '  - backend: {type: openai, model: gpt-4o}', '  - backend: {type: claude, model: claude-x}'),
      { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' });
    assert.deepEqual(warnings, []);
    assert.deepEqual(config.agents.map((a) => a.id), ['agent1', 'agent2']);
    assert.deepEqual(config.orchestrator, DEFAULT_ORCHESTRATOR);
    assert.deepEqual(config.timeouts, DEFAULT_TIMEOUTS);
    assert.equal(config.source, FILE);
    assert.equal(config.agents[0].backend.baseUrl, 'https://api.openai.com/v1');
    assert.equal(config.agents[1].backend.baseUrl, 'https://api.anthropic.com');
    assert.equal(config.agents[1].systemMessage, undefined);
  });

  it('maps every supported key', () => {
    const { config } = load(yaml(
      'agents:',
      '  - id: a',
      '    system_message: be brief',
      '    backend: {type: groq, model: llama, base_url: "https://proxy.example.com/v1/", api_key: "${K}", temperature: 0.5, max_tokens: 100, top_p: 0.9,',
      '      pricing: {input_per_million: 0.59, cached_input_per_million: 0.3, output_per_million: 0.79}}',
      'orchestrator:',
      '  voting_sensitivity: strict',
      '  answer_novelty_requirement: balanced',
      '  max_new_answers_per_agent: 2',
      '  max_rounds: 4',
      '  final_answer: synthesize',
      '  budget: {max_cost_usd: 0.25, max_total_tokens: 100000, max_calls: 30}',
      'timeout_settings: {orchestrator_timeout_seconds: 60, agent_turn_timeout_seconds: 30}',
    ), { K: 'k' });
    assert.deepEqual(config.agents[0], {
      id: 'a',
      systemMessage: 'be brief',
      backend: {
        type: 'groq', family: 'openai-compatible', model: 'llama', baseUrl: 'https://proxy.example.com/v1',
        apiKey: 'k', apiKeyEnv: 'K', temperature: 0.5, maxTokens: 100, topP: 0.9,
        pricing: { inputPerMillion: 0.59, cachedInputPerMillion: 0.3, outputPerMillion: 0.79 },
      },
    });
    assert.deepEqual(config.orchestrator, {
      votingSensitivity: 'strict', answerNoveltyRequirement: 'balanced', maxNewAnswersPerAgent: 2, maxRounds: 4, contextCompaction: 'superseded', unavailableWaitSeconds: 30, promptCacheWaitSeconds: 5, earlyDecision: true,
        finalAnswer: 'synthesize',
      budget: { maxCostUsd: 0.25, maxTotalTokens: 100000, maxCalls: 30 },
    });
    assert.deepEqual(config.timeouts, { orchestratorTimeoutSeconds: 60, agentTurnTimeoutSeconds: 30 });
  });

  it('accepts a single agent: block', () => {
    const { config } = load(yaml('agent:', '  backend: {model: gpt-4o}'), { OPENAI_API_KEY: 'o' });
    assert.equal(config.agents[0].id, 'agent1');
    assert.equal(config.agents[0].backend.type, 'openai');
  });

  it('accepts JSON', () => {
    const { config } = load('{"agents": [{"id": "j", "backend": {"type": "ollama", "model": "llama3.2"}}]}');
    assert.equal(config.agents[0].backend.baseUrl, 'http://localhost:11434/v1');
  });

  it('treats empty blocks as absent', () => {
    const { config } = load(yaml('agents:', '  - backend: {type: ollama, model: m}', 'orchestrator:', 'timeout_settings:'));
    assert.deepEqual(config.orchestrator, DEFAULT_ORCHESTRATOR);
  });

  it('infers the type from the model name as upstream does', () => {
    const { config } = load(yaml('agents:', '  - backend: {model: o3-mini}', '  - backend: {model: claude-sonnet-4-20250514}'),
      { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' });
    assert.deepEqual(config.agents.map((a) => [a.backend.type, a.backend.family]), [['openai', 'openai-compatible'], ['claude', 'anthropic']]);
  });

  it('resolves named hosts to their default base URLs and keys', () => {
    const { config } = load(yaml('agents:', '  - backend: {type: groq, model: m}', '  - backend: {type: grok, model: grok-4}'),
      { GROQ_API_KEY: 'g', XAI_API_KEY: 'x' });
    assert.deepEqual(config.agents.map((a) => [a.backend.baseUrl, a.backend.apiKey, a.backend.apiKeyEnv]),
      [['https://api.groq.com/openai/v1', 'g', 'GROQ_API_KEY'], ['https://api.x.ai/v1', 'x', 'XAI_API_KEY']]);
  });

  it('infers a chatcompletion key env var from the base_url host', () => {
    const { config } = load(yaml('agents:', '  - backend: {type: chatcompletion, base_url: "https://openrouter.ai/api/v1", model: m}'),
      { OPENROUTER_API_KEY: 'or' });
    assert.equal(config.agents[0].backend.apiKey, 'or');
    assert.equal(config.agents[0].backend.apiKeyEnv, 'OPENROUTER_API_KEY');
  });
});

describe('parseConfigText: timeouts', () => {
  it('honours orchestrator.timeout.orchestrator_timeout_seconds (upstream ignores it)', () => {
    const { config, warnings } = load(yaml(ONE_OPENAI, 'orchestrator:', '  timeout: {orchestrator_timeout_seconds: 99}'), { OPENAI_API_KEY: 'o' });
    assert.equal(config.timeouts.orchestratorTimeoutSeconds, 99);
    assert.deepEqual(warnings, []);
  });

  it('lets top-level timeout_settings win, with a warning naming both', () => {
    const text = yaml(ONE_OPENAI.trimEnd(), 'orchestrator:', '  timeout:', '    orchestrator_timeout_seconds: 99', 'timeout_settings:', '  orchestrator_timeout_seconds: 50');
    const { config, warnings } = load(text, { OPENAI_API_KEY: 'o' });
    assert.equal(config.timeouts.orchestratorTimeoutSeconds, 50);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].line, 8);
    assert.match(warnings[0].message, /\(99\) is overridden by timeout_settings\.orchestrator_timeout_seconds \(50\)/);
  });
});

describe('parseConfigText: pricing and budget', () => {
  it('the cached price defaults to the input price; a budget may set any of its caps', () => {
    const { config, warnings } = load(yaml(
      'agents:',
      '  - backend:',
      '      type: ollama',
      '      model: qwen3',
      '      pricing: {input_per_million: 0, output_per_million: 0}',
      '  - backend: {type: ollama, model: m, pricing: {input_per_million: 1.5, output_per_million: 6}}',
      'orchestrator:',
      '  budget: {max_calls: 12}',
    ));
    assert.deepEqual(warnings, []);
    assert.deepEqual(config.agents.map((a) => a.backend.pricing), [
      { inputPerMillion: 0, cachedInputPerMillion: 0, outputPerMillion: 0 },
      { inputPerMillion: 1.5, cachedInputPerMillion: 1.5, outputPerMillion: 6 },
    ]);
    assert.deepEqual(config.orchestrator.budget, { maxCalls: 12 });
  });

  it('an empty budget is no budget', () => {
    for (const block of ['  budget:', '  budget: {}', '  budget: {max_cost_usd: null}']) {
      const { config, warnings } = load(yaml('agents:', '  - backend: {type: ollama, model: m}', 'orchestrator:', block));
      assert.deepEqual(warnings, []);
      assert.deepEqual(config.orchestrator, DEFAULT_ORCHESTRATOR, block);
    }
  });

  it('bad values name the key, the line and the value', () => {
    const err = configError(yaml(
      'agents:',
      '  - backend:',
      '      type: ollama',
      '      model: m',
      '      pricing:',
      '        input_per_million: -1',
      '        output_per_million: cheap',
      '  - backend:',
      '      type: ollama',
      '      model: m',
      '      pricing: {cached_input_per_million: 0.1, output_per_million: 2}',
      'orchestrator:',
      '  budget:',
      '    max_cost_usd: 0',
      '    max_total_tokens: 1000.5',
      '    max_calls: -3',
    ));
    assert.deepEqual(err.message.split('\n').slice(1), [
      '  team.yaml:6: agents[0].backend.pricing.input_per_million: must be at least 0, got -1',
      '  team.yaml:7: agents[0].backend.pricing.output_per_million: must be a number, got "cheap"',
      '  team.yaml:11: agents[1].backend.pricing.input_per_million: is required',
      '  team.yaml:14: orchestrator.budget.max_cost_usd: must be greater than 0, got 0',
      '  team.yaml:15: orchestrator.budget.max_total_tokens: must be a whole number, got 1000.5',
      '  team.yaml:16: orchestrator.budget.max_calls: must be greater than 0, got -3',
    ]);
    assert.match(configError(yaml('agents:', '  - backend: {type: ollama, model: m, pricing: 0.5}')).message,
      /^team\.yaml:2: agents\[0\]\.backend\.pricing: must be a mapping \(key: value lines\), got 0\.5$/);
  });

  it('warns about unknown keys inside pricing and budget', () => {
    const { warnings } = load(yaml(
      'agents:',
      '  - backend: {type: ollama, model: m, pricing: {input_per_million: 1, output_per_milion: 2, output_per_million: 2}}',
      'orchestrator:',
      '  budget: {max_cost: 1}',
    ));
    assert.deepEqual(warnings.map((w) => `${w.line}: ${w.message}`), [
      '2: unknown key agents[0].backend.pricing.output_per_milion, ignored (did you mean output_per_million?)',
      '4: unknown key orchestrator.budget.max_cost, ignored',
    ]);
  });
});

describe('parseConfigText: API keys', () => {
  const withKey = (key: string) => yaml('agents:', '  - id: gpt', `    backend: {type: openai, model: gpt-4o, api_key: "${key}"}`);

  it('takes the key from the env var', () => {
    const { config } = load(ONE_OPENAI, { OPENAI_API_KEY: 'env-key' });
    assert.equal(config.agents[0].backend.apiKey, 'env-key');
    assert.equal(config.agents[0].backend.apiKeyEnv, 'OPENAI_API_KEY');
  });

  it('lets an inline key win over the env var, and warns that it is in the file', () => {
    const { config, warnings } = load(withKey('inline-key'), { OPENAI_API_KEY: 'env-key' });
    assert.equal(config.agents[0].backend.apiKey, 'inline-key');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].message, /prefer api_key: \$\{OPENAI_API_KEY\}/);
    assert.ok(!warnings[0].message.includes('inline-key'));
  });

  it('expands api_key: ${VAR} from the environment', () => {
    const { config, warnings } = load(withKey('${TEAM_OPENAI_KEY}'), { TEAM_OPENAI_KEY: 'expanded', OPENAI_API_KEY: 'env-key' });
    assert.equal(config.agents[0].backend.apiKey, 'expanded');
    assert.equal(config.agents[0].backend.apiKeyEnv, 'TEAM_OPENAI_KEY');
    assert.deepEqual(warnings, []);
  });

  it('names an unset ${VAR}', () => {
    const err = configError(withKey('${TEAM_OPENAI_KEY}'));
    assert.match(err.message, /^team\.yaml:3: agents\[0\] \(gpt\): backend\.api_key refers to \$\{TEAM_OPENAI_KEY\}: set TEAM_OPENAI_KEY$/);
  });

  it('names the env var to set when the key is missing', () => {
    const err = configError(ONE_OPENAI);
    assert.equal(err.message, 'team.yaml:4: agents[0] (gpt) uses type openai: set OPENAI_API_KEY or add backend.api_key');
    assert.deepEqual(err.issues, [{
      file: FILE, path: 'agents[0].backend.type', line: 4,
      message: 'agents[0] (gpt) uses type openai: set OPENAI_API_KEY or add backend.api_key',
    }]);
  });

  it('names alternatives and inferred host keys', () => {
    assert.match(configError(yaml('agents:', '  - backend: {type: moonshot, model: kimi}')).message,
      /team\.yaml:2: .*set MOONSHOT_API_KEY \(or KIMI_API_KEY\) or add backend\.api_key/);
    assert.match(configError(yaml('agents:', '  - backend: {type: chatcompletion, base_url: "https://api.groq.com/openai/v1", model: m}')).message,
      /uses type chatcompletion: set GROQ_API_KEY/);
    assert.match(configError(yaml('agents:', '  - backend: {model: claude-x}')).message, /set ANTHROPIC_API_KEY/);
  });

  it('skips key checks with requireKeys: false', () => {
    const { config } = load(yaml(ONE_OPENAI.trimEnd(), '  - backend: {type: openai, model: gpt-4o, api_key: "${UNSET}"}'), {}, { requireKeys: false });
    assert.equal(config.agents[0].backend.apiKey, undefined);
    assert.equal(config.agents[0].backend.apiKeyEnv, 'OPENAI_API_KEY');
    assert.equal(config.agents[1].backend.apiKeyEnv, 'UNSET');
  });

  it('needs no key for local servers', () => {
    const { config } = load(yaml('agents:', '  - backend: {type: chatcompletion, base_url: "http://127.0.0.1:8000/v1", model: m}',
      '  - backend: {type: openai, base_url: "http://localhost:11434/v1", model: gpt-oss}', '  - backend: {type: vllm, model: m}'));
    assert.equal(config.agents.length, 3);
  });

  it('warns that no key is sent to an unknown public chatcompletion host', () => {
    const { warnings } = load(yaml('agents:', '  - backend:', '      type: chatcompletion', '      base_url: https://api.deepseek.com/v1', '      model: deepseek-chat'));
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].line, 4);
    assert.match(warnings[0].message, /no API key env var is known for host api\.deepseek\.com; no key will be sent/);
  });

  it('never puts a key into an error or warning', () => {
    const SECRET = 'sk-FAKE-do-not-print-4242';
    const env = { OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: SECRET, MY_KEY: SECRET };
    const cases = [
      yaml('agents:', `  - backend: {type: openai, model: gpt-4o, api_key: ${SECRET}, temperature: hot}`, '  - backend: {type: nope, model: x}'),
      yaml('agents:', '  - backend: {type: openai, model: gpt-4o, api_key: "${MY_KEY}", max_tokens: -1}', '  - {id: agent1, backend: {model: llama}}'),
      yaml('agents:', `  - backend: {type: openai, model: gpt-4o, api_key: [${SECRET}]}`),
      yaml('agents:', '  - backend:', `      api_key: "${SECRET}`, '      model: x'),
      yaml('agents:', `  - backend: {type: openai, model: gpt-4o, api_kye: ${SECRET}, temprature: ${SECRET}}`, 'orchestrator: {max_rounds: 0}'),
    ];
    for (const text of cases) {
      const err = configError(text, env);
      assert.ok(!err.message.includes(SECRET), err.message);
      assert.ok(!JSON.stringify(err.issues).includes(SECRET), JSON.stringify(err.issues));
    }
    const { warnings } = load(yaml('agents:', `  - backend: {type: openai, model: gpt-4o, api_key: ${SECRET}, api_kye: ${SECRET}}`), env);
    assert.ok(warnings.length >= 2);
    assert.ok(!JSON.stringify(warnings).includes(SECRET));
  });
});

describe('parseConfigText: errors name file, line and fix', () => {
  it('unknown backend type lists the valid types', () => {
    const err = configError(yaml('agents:', '  - id: x', '    backend:', '      type: mistral', '      model: m'));
    assert.match(err.message, /^team\.yaml:4: agents\[0\] \(x\): unknown backend type "mistral"\. Supported types: openai, chatcompletion, grok, .*ollama, .*claude, anthropic, gemini, vscode-lm, claude_code, codex$/);
  });

  it('gemini wants its key, also when inferred from the model', () => {
    assert.equal(configError(yaml('agents:', '  - backend: {type: gemini, model: gemini-2.5-pro}')).message, 'team.yaml:2: agents[0] (agent1) uses type gemini: set GOOGLE_API_KEY (or GEMINI_API_KEY) or add backend.api_key');
    const { config } = load(yaml('agents:', '  - backend:', '      model: gemini-2.5-pro'), { GEMINI_API_KEY: 'g-key' });
    assert.deepEqual(config.agents[0].backend, { type: 'gemini', family: 'gemini', model: 'gemini-2.5-pro', baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'g-key', apiKeyEnv: 'GEMINI_API_KEY', temperature: undefined, maxTokens: undefined, topP: undefined });
  });

  it('asks for a type when the model name says nothing', () => {
    const err = configError(yaml('agents:', '  - backend:', '      model: llama3.2'));
    assert.match(err.message, /^team\.yaml:3: agents\[0\] \(agent1\): cannot tell the backend from model "llama3\.2"; add backend\.type \(one of: openai, /);
  });

  it('empty or missing agents says so with an example', () => {
    for (const text of ['agents: []\n', 'orchestrator: {max_rounds: 3}\n', 'agents:\n']) {
      const err = configError(text);
      assert.match(err.message, /^team\.yaml:1: no agents configured: add an agents: list, for example:\nagents:\n {2}- id: gpt\n {4}backend: \{ type: openai/);
    }
    assert.match(configError('').message, /^team\.yaml: the config must be a mapping with an agents: list/);
    assert.match(configError('- a\n- b\n').message, /must be a mapping with an agents: list/);
  });

  it('agents given as a mapping must be a list', () => {
    assert.match(configError(yaml('agents:', '  id: a')).message, /^team\.yaml:1: agents: must be a list \(lines starting with "- "\), got a mapping$/);
  });

  it('rejects both agent: and agents:', () => {
    assert.match(configError(yaml(ONE_OPENAI.trimEnd(), 'agent:', '  backend: {model: gpt-4o}'), { OPENAI_API_KEY: 'o' }).message,
      /^team\.yaml:6: use either agent: \(one agent\) or agents: \(a list\), not both$/);
  });

  it('wrong value types name the key and the value', () => {
    const err = configError(yaml('agents:', '  - backend:', '      type: openai', '      model: gpt-4o', '      temperature: hot'), { OPENAI_API_KEY: 'o' });
    assert.equal(err.message, 'team.yaml:5: agents[0].backend.temperature: must be a number, got "hot"');
  });

  it('out-of-range numbers', () => {
    const text = yaml(
      'agents:',
      '  - backend: {type: ollama, model: m, temperature: 3, top_p: -0.1, max_tokens: 1.5}',
      'timeout_settings:',
      '  orchestrator_timeout_seconds: -5',
      '  agent_turn_timeout_seconds: 0',
      'orchestrator: {max_new_answers_per_agent: 0}',
    );
    const err = configError(text);
    assert.match(err.message, /^6 problems in team\.yaml:/);
    assert.match(err.message, /team\.yaml:2: agents\[0\]\.backend\.temperature: must be at most 2, got 3/);
    assert.match(err.message, /team\.yaml:2: agents\[0\]\.backend\.top_p: must be at least 0, got -0\.1/);
    assert.match(err.message, /team\.yaml:2: agents\[0\]\.backend\.max_tokens: must be a whole number, got 1\.5/);
    assert.match(err.message, /team\.yaml:4: timeout_settings\.orchestrator_timeout_seconds: must be greater than 0, got -5/);
    assert.match(err.message, /team\.yaml:5: timeout_settings\.agent_turn_timeout_seconds: must be greater than 0, got 0/);
    assert.match(err.message, /team\.yaml:6: orchestrator\.max_new_answers_per_agent: must be greater than 0, got 0/);
  });

  it('bad enum values list the valid ones', () => {
    const err = configError(yaml(ONE_OPENAI.trimEnd(), 'orchestrator:', '  voting_sensitivity: medium', '  final_answer: best'), { OPENAI_API_KEY: 'o' });
    assert.match(err.message, /team\.yaml:7: orchestrator\.voting_sensitivity: must be one of: lenient, balanced, strict, roi, .*checklist_gated, got "medium"/);
    assert.match(err.message, /team\.yaml:8: orchestrator\.final_answer: must be one of: as_is, synthesize, got "best"/);
  });

  it('a missing model is upstream’s default for the type, said in a warning; a type without one needs it', () => {
    const { config, warnings } = load(yaml('agents:', '  - id: a', '    backend:', '      type: openai'), { OPENAI_API_KEY: 'o' });
    assert.equal(config.agents[0].backend.model, 'gpt-5.4');
    assert.deepEqual(warnings.map((w) => `${w.line}: ${w.message}`), ['3: agents[0] (a): no backend.model given; using gpt-5.4, upstream\'s default for type openai']);
    const err = configError(yaml('agents:', '  - id: a', '    backend:', '      type: lmstudio'));
    assert.equal(err.message, 'team.yaml:3: agents[0] (a) uses type lmstudio, which has no default model: add backend.model');
    assert.equal(configError(yaml('agents:', '  - id: a', '    backend: {temperature: 1}')).message, 'team.yaml:3: agents[0] (a): backend needs a type (one of: openai, chatcompletion, grok, zai, cerebras, together, fireworks, groq, openrouter, moonshot, nebius, poe, qwen, lmstudio, vllm, sglang, ollama, inference, nvidia_nim, azure_openai, claude, anthropic, gemini, vscode-lm, claude_code, codex) or a model to infer it from');
  });

  it('chatcompletion and poe need a base_url', () => {
    assert.match(configError(yaml('agents:', '  - backend: {type: chatcompletion, model: m}')).message,
      /^team\.yaml:2: agents\[0\] \(agent1\) uses type chatcompletion, which needs backend\.base_url \(e\.g\. base_url: http:\/\/localhost:11434\/v1\)$/);
    assert.match(configError(yaml('agents:', '  - backend: {type: poe, model: m}')).message, /needs backend\.base_url/);
  });

  it('a malformed base_url', () => {
    assert.match(configError(yaml('agents:', '  - backend: {type: ollama, model: m, base_url: "localhost:11434"}')).message,
      /team\.yaml:2: agents\[0\]\.backend\.base_url: must be an http\(s\) URL/);
  });

  it('duplicate ids point at the second one', () => {
    const err = configError(yaml('agents:', '  - id: a', '    backend: {type: ollama, model: m}', '  - id: a', '    backend: {type: ollama, model: m}'));
    assert.equal(err.message, 'team.yaml:4: agents[1]: duplicate id "a" (also used by agents[0]); ids must be unique');
  });

  it('YAML syntax errors give line and column', () => {
    const err = configError(yaml('agents:', '  - backend: {type: ollama, model: m', 'orchestrator: {}'));
    assert.equal(err.issues[0].line, 3);
    assert.equal(err.issues[0].column, 1);
    assert.match(err.message, /^team\.yaml:3:1: YAML syntax error: /);
  });

  it('duplicate YAML keys are syntax errors', () => {
    assert.match(configError(yaml('agents: []', 'agents: []')).message, /^team\.yaml:2:1: YAML syntax error: Map keys must be unique/);
  });

  it('reports every problem at once, sorted by line', () => {
    const err = configError(yaml('agents:', '  - backend: {type: nope, model: m}', '  - backend: {type: ollama, model: m, temperature: hot}', 'orchestrator: {max_rounds: x}'));
    assert.deepEqual(err.issues.map((i) => i.line), [2, 3, 4]);
  });
});

describe('parseConfigText: warnings for ignored keys', () => {
  it('warns about upstream-only keys with their lines', () => {
    const { warnings } = load(yaml(
      'agents:',
      '  - id: a',
      '    memory: {enabled: true}',
      '    backend:',
      '      type: ollama',
      '      model: m',
      '      enable_web_search: true',
      '      cwd: workspace1',
      '      mcp_servers: []',
      'orchestrator:',
      '  snapshot_storage: snapshots',
      '  context_paths: []',
      '  coordination: {enable_planning_mode: true, use_skills: true}',
      'ui: {display_type: rich_terminal}',
      'memory: {}',
      'session_id: abc',
    ));
    assert.deepEqual(warnings.map((w) => [w.line, w.path]), [
      [3, 'agents[0].memory'], [7, 'agents[0].backend.enable_web_search'],
      [11, 'orchestrator.snapshot_storage'],
      [13, 'orchestrator.coordination.use_skills'], [14, 'ui'], [15, 'memory'], [16, 'session_id'],
    ]);
    assert.equal(warnings[4].message, 'ui: upstream MassGen option not supported here, ignored');
  });

  it('warns about unknown keys, suggesting near misses', () => {
    const { warnings } = load(yaml('agents:', '  - backend: {type: ollama, model: m, temprature: 1}', 'colour: blue', 'timeout_settings: {agent_timeout_seconds: 5}'));
    assert.deepEqual(warnings.map((w) => `${w.line}: ${w.message}`), [
      '2: unknown key agents[0].backend.temprature, ignored (did you mean temperature?)',
      '3: unknown key colour, ignored',
      '4: unknown key timeout_settings.agent_timeout_seconds, ignored (did you mean agent_turn_timeout_seconds?)',
    ]);
  });

  it('warns that vscode-lm only works inside VS Code, unless loading for VS Code', () => {
    const text = yaml('agents:', '  - backend: {type: vscode-lm, model: copilot-gpt-4o}');
    assert.match(load(text).warnings[0].message, /only works inside VS Code/);
    const { config, warnings } = load(text, {}, { host: 'vscode' });
    assert.deepEqual(warnings, []);
    assert.equal(config.agents[0].backend.family, 'vscode-lm');
  });
});

describe('parseConfigText: MCP servers', () => {
  const agent = (...backend: string[]) => yaml('agents:', '  - id: a', '    backend:', '      type: ollama', '      model: m', ...backend.map((l) => `      ${l}`));

  it('reads upstream\'s mcp_servers, filters and timeout, and our keys; configs without them are unchanged', () => {
    const { config, warnings } = load(agent(
      'allowed_tools: [mcp__files__read_file, echo]',
      'exclude_tools: [delete_file]',
      'require_approval: [mcp__web__post]',
      'planning_mode: {enabled: true, blocked_tools: [write_file]}',
      'mcp_servers:',
      '  - name: files',
      '    type: stdio',
      '    command: npx',
      '    args: ["-y", "@modelcontextprotocol/server-filesystem", "${PROJECT_DIR}", 8080]',
      '    env: {FS_TOKEN: "${FS_TOKEN}", LEVEL: 3}',
      '    exclude_tools: [move_file]',
      '    timeout: 30',
      '  - name: web',
      '    type: streamable-http',
      '    url: http://127.0.0.1:8080/mcp',
      '    headers: {Authorization: "Bearer ${WEB_TOKEN}"}',
      '    allowed_tools: [fetch, post]',
      '    connect_timeout: 5',
      '    require_approval: true',
      '    max_result_chars: 4000',
      '    shared: true',
    ), { PROJECT_DIR: '/work/p', FS_TOKEN: 'fs-secret', WEB_TOKEN: 'web-secret' });
    assert.deepEqual(warnings, []);
    const b = config.agents[0].backend;
    assert.deepEqual(b.mcpServers, [
      { name: 'files', type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/work/p', '8080'], env: { FS_TOKEN: 'fs-secret', LEVEL: '3' }, excludeTools: ['move_file'], timeoutSeconds: 30 },
      { name: 'web', type: 'streamable-http', url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: 'Bearer web-secret' }, allowedTools: ['fetch', 'post'], connectTimeoutSeconds: 5, requireApproval: true, maxResultChars: 4000, shared: true },
    ]);
    assert.deepEqual(b.allowedTools, ['mcp__files__read_file', 'echo']);
    assert.deepEqual(b.excludeTools, ['delete_file']);
    assert.deepEqual(b.requireApproval, ['mcp__web__post']);
    assert.deepEqual(b.planningMode, { enabled: true, blockedTools: ['write_file'] });
    assert.deepEqual(Object.keys(load(ONE_OPENAI, { OPENAI_API_KEY: 'k' }).config.agents[0].backend).filter((k) => /mcp|Tools|approval|planning/i.test(k)), []);
  });

  it('infers the type, accepts the mapping form, planning_mode: true and orchestrator.coordination.enable_planning_mode', () => {
    const text = agent('mcp_servers:', '  files: {command: node, args: [server.js]}', '  web: {url: "https://mcp.example.com/mcp"}')
      + yaml('  - id: b', '    backend: {type: ollama, model: m, planning_mode: false, mcp_servers: [{name: x, command: y}]}', '  - id: c', '    backend: {type: ollama, model: m}', 'orchestrator:', '  coordination: {enable_planning_mode: true}');
    const { config, warnings } = load(text);
    assert.deepEqual(warnings, []);
    const [a, b, c] = config.agents.map((x) => x.backend);
    assert.deepEqual(a.mcpServers!.map((s) => [s.name, s.type]), [['files', 'stdio'], ['web', 'streamable-http']]);
    assert.deepEqual(a.planningMode, { enabled: true }, 'the orchestrator switch reaches agents with MCP servers');
    assert.deepEqual(b.planningMode, { enabled: false }, 'an agent\'s own planning_mode wins');
    assert.equal(c.planningMode, undefined, 'agents without MCP servers are left alone');
  });

  it('errors name file, line, agent and fix; values of env and headers never appear', () => {
    const err = configError(agent(
      'mcp_servers:',
      '  - name: one',
      '    type: stdio',
      '  - name: two',
      '    type: sse',
      '    url: http://x/sse',
      '  - name: one',
      '    command: x',
      '  - command: y',
      '  - name: three',
      '    env: {TOKEN: "${MISSING_TOKEN}"}',
      '    command: z',
      '  - name: four',
    ));
    assert.deepEqual(err.message.split('\n').slice(1), [
      '  team.yaml:7: agents[0] (a): MCP server "one" has type stdio and needs command: (e.g. command: npx, args: ["-y", "@modelcontextprotocol/server-filesystem", "."])',
      '  team.yaml:10: agents[0] (a): MCP server "two": type sse (the old HTTP+SSE transport) is not supported; use type: streamable-http with the server\'s /mcp endpoint',
      '  team.yaml:12: agents[0] (a): MCP server "one": duplicate name (also used by mcp_servers[0]); names must be unique per agent',
      '  team.yaml:14: agents[0] (a): an MCP server needs a name (its tools are called mcp__<name>__<tool>)',
      '  team.yaml:16: agents[0] (a): MCP server "three": env.TOKEN refers to ${MISSING_TOKEN}: set MISSING_TOKEN',
      '  team.yaml:18: agents[0] (a): MCP server "four": give either command: (a stdio server) or url: (a streamable-http server)',
    ]);
  });

  it('bad shapes are reported by the schema with the key and line', () => {
    assert.equal(configError(agent('mcp_servers: 5')).message, 'team.yaml:6: agents[0].backend.mcp_servers: must be a list of servers (- name: …, command: … or url: …) or a mapping from server name to its settings, got 5');
    assert.equal(configError(agent('mcp_servers: [{name: w, url: "ftp://x"}]')).message, 'team.yaml:6: agents[0].backend.mcp_servers[0].url: must be an http(s) URL, e.g. http://127.0.0.1:8080/mcp');
    assert.equal(configError(agent('require_approval: yes-please')).message, 'team.yaml:6: agents[0].backend.require_approval: must be a list (lines starting with "- "), got "yes-please"');
    assert.equal(configError(agent('mcp_servers: [{name: w, command: x, timeout: 0}]')).message, 'team.yaml:6: agents[0].backend.mcp_servers[0].timeout: must be greater than 0, got 0');
  });

  it('unset ${VAR} is a warning when keys are not required; secrets written in the file and ignored keys are warned about', () => {
    const { config, warnings } = load(agent(
      'mcp_servers:',
      '  - name: gh',
      '    command: docker',
      '    args: [run, "${IMAGE}"]',
      '    env: {GITHUB_TOKEN: ghp_plaintext, LOG_LEVEL: debug}',
      '    url: http://ignored',
      '    security: {level: strict}',
      '    colour: blue',
    ), {}, { requireKeys: false });
    assert.deepEqual(config.agents[0].backend.mcpServers![0].args, ['run', '']);
    assert.deepEqual(warnings.map((w) => `${w.line}: ${w.message}`), [
      '9: agents[0] (a): MCP server "gh": args[1] refers to ${IMAGE}: set IMAGE',
      '10: agents[0] (a): MCP server "gh": env.GITHUB_TOKEN looks like a secret written in the file; prefer GITHUB_TOKEN: ${GITHUB_TOKEN} to keep it out of the file',
      '11: agents[0] (a): MCP server "gh": url is for streamable-http servers and is ignored for stdio',
      '12: agents[0].backend.mcp_servers[0].security: upstream MassGen option not supported here, ignored',
      '13: unknown key agents[0].backend.mcp_servers[0].colour, ignored',
    ]);
    assert.ok(warnings.every((w) => !w.message.includes('ghp_plaintext')));
  });
});

describe('loadConfigFile', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'massgen-load-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads JSON files and reports their lines', () => {
    const file = join(dir, 'team.json');
    writeFileSync(file, '{\n  "agents": [\n    {"backend": {"type": "ollama", "model": "m", "temperature": "hot"}}\n  ]\n}\n');
    assert.throws(() => loadConfigFile(file, {}), (err: ConfigError) => err.message.startsWith(`${file}:3: agents[0].backend.temperature`));
  });

  it('uses the path as the source', () => {
    const file = join(dir, 'team.yaml');
    writeFileSync(file, ONE_OPENAI);
    assert.equal(loadConfigFile(file, { OPENAI_API_KEY: 'o' }).config.source, file);
  });

  it('a missing file is a ConfigError naming it', () => {
    const file = join(dir, 'nope.yaml');
    assert.throws(() => loadConfigFile(file), (err: ConfigError) => err instanceof ConfigError && err.message === `${file}: config file not found`);
  });
});

describe('parseConfigText: workspaces (upstream\'s cwd and context_paths)', () => {
  it('reads backend cwd and orchestrator.context_paths (permission defaults to read)', () => {
    const { config, warnings } = load(yaml(
      'agents:',
      '  - id: a',
      '    backend: {type: ollama, model: m, cwd: workspace1}',
      'orchestrator:',
      '  context_paths:',
      '    - path: src',
      '      permission: write',
      '      protected_paths: [secret.txt]',
      '    - path: ../docs',
    ));
    assert.equal(config.agents[0].backend.cwd, 'workspace1');
    assert.deepEqual(config.orchestrator.contextPaths, [{ path: 'src', permission: 'write' }, { path: '../docs', permission: 'read' }]);
    assert.deepEqual(warnings.map((w) => w.path), ['orchestrator.context_paths[0].protected_paths']);
  });

  it('refuses a permission other than read or write, naming the line', () => {
    const err = configError(yaml('agents:', '  - backend: {type: ollama, model: m}', 'orchestrator:', '  context_paths:', '    - {path: src, permission: admin}'));
    assert.equal(err.issues[0].line, 5);
    assert.match(err.message, /permission/);
  });
});

describe('parseConfigText: commands (upstream\'s enable_mcp_command_line)', () => {
  it('reads the switch, the pattern lists and the Docker network mode as the network permission', () => {
    const { config, warnings } = load(yaml(
      'agents:',
      '  - id: a',
      '    backend:',
      '      type: ollama',
      '      model: m',
      '      enable_mcp_command_line: true',
      '      command_line_allowed_commands: ["python.*", "pytest.*"]',
      '      command_line_blocked_commands: ["git push"]',
      '      command_line_execution_mode: docker',
      '      command_line_docker_network_mode: bridge',
      '  - id: b',
      '    backend: {type: ollama, model: m, command_line_allowed_commands: [ls]}',
    ));
    assert.deepEqual(config.agents[0].backend.commands, { enabled: true, allowed: ['python.*', 'pytest.*'], blocked: ['git push'], network: true });
    assert.equal(config.agents[1].backend.commands, undefined, 'lists alone do not turn commands on');
    assert.deepEqual(warnings.map((w) => [w.line, w.path]), [[9, 'agents[0].backend.command_line_execution_mode']]);
    assert.match(warnings[0].message, /MassGen's own sandbox/);
  });

  it('refuses a pattern that is not a regular expression, naming its line', () => {
    const err = configError(yaml('agents:', '  - backend:', '      type: ollama', '      model: m', '      enable_mcp_command_line: true', '      command_line_blocked_commands: ["(unclosed"]'));
    assert.equal(err.issues[0].line, 6);
    assert.match(err.message, /valid regular expression/);
  });
});

describe('parseConfigText: orchestrator.unavailable_wait_seconds', () => {
  it('defaults to 30 s and takes a value', () => {
    assert.equal(load(yaml('agents:', '  - backend: {type: ollama, model: m}')).config.orchestrator.unavailableWaitSeconds, 30);
    assert.equal(load(yaml('agents:', '  - backend: {type: ollama, model: m}', 'orchestrator: {unavailable_wait_seconds: 5}')).config.orchestrator.unavailableWaitSeconds, 5);
  });
});

describe('parseConfigText: orchestrator.prompt_cache_wait_seconds', () => {
  it('defaults to 5 s, takes 0 (send together) and refuses a negative wait', () => {
    assert.equal(load(yaml('agents:', '  - backend: {type: ollama, model: m}')).config.orchestrator.promptCacheWaitSeconds, 5);
    assert.equal(load(yaml('agents:', '  - backend: {type: ollama, model: m}', 'orchestrator: {prompt_cache_wait_seconds: 0}')).config.orchestrator.promptCacheWaitSeconds, 0);
    assert.throws(() => load(yaml('agents:', '  - backend: {type: ollama, model: m}', 'orchestrator: {prompt_cache_wait_seconds: -1}')), /prompt_cache_wait_seconds/);
  });
});

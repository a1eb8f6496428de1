import assert from 'node:assert/strict';
import {
  inferBackendType, isLocalUrl, keyEnvForBaseUrl, keyRequirement, lookupBackend, resolveApiKey,
  SUPPORTED_BACKEND_TYPES, unknownBackendMessage, closestBackendType,
} from './backends';

describe('backend registry', () => {
  it('knows every type we support', () => {
    for (const type of ['openai', 'chatcompletion', 'grok', 'zai', 'cerebras', 'together', 'fireworks', 'groq', 'openrouter',
      'moonshot', 'nebius', 'poe', 'qwen', 'lmstudio', 'vllm', 'sglang', 'ollama', 'claude', 'anthropic', 'vscode-lm']) {
      assert.ok(SUPPORTED_BACKEND_TYPES.includes(type), type);
    }
  });

  it('looks types up case-insensitively and rejects inherited names', () => {
    assert.equal(lookupBackend('OpenAI')?.family, 'openai-compatible');
    assert.equal(lookupBackend('toString'), undefined);
  });

  it('maps families', () => {
    assert.equal(lookupBackend('claude')?.family, 'anthropic');
    assert.equal(lookupBackend('anthropic')?.family, 'anthropic');
    assert.equal(lookupBackend('vscode-lm')?.family, 'vscode-lm');
    assert.equal(lookupBackend('groq')?.family, 'openai-compatible');
  });

  it('gives named hosts upstream default base URLs and key env vars', () => {
    const expected: Array<[string, string | undefined, string[]]> = [
      ['openai', 'https://api.openai.com/v1', ['OPENAI_API_KEY']],
      ['grok', 'https://api.x.ai/v1', ['XAI_API_KEY']],
      ['zai', 'https://api.z.ai/api/paas/v4', ['ZAI_API_KEY']],
      ['cerebras', 'https://api.cerebras.ai/v1', ['CEREBRAS_API_KEY']],
      ['together', 'https://api.together.xyz/v1', ['TOGETHER_API_KEY']],
      ['fireworks', 'https://api.fireworks.ai/inference/v1', ['FIREWORKS_API_KEY']],
      ['groq', 'https://api.groq.com/openai/v1', ['GROQ_API_KEY']],
      ['openrouter', 'https://openrouter.ai/api/v1', ['OPENROUTER_API_KEY']],
      ['moonshot', 'https://api.moonshot.cn/v1', ['MOONSHOT_API_KEY', 'KIMI_API_KEY']],
      ['nebius', 'https://api.studio.nebius.ai/v1', ['NEBIUS_API_KEY']],
      ['poe', undefined, ['POE_API_KEY']],
      ['qwen', 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1', ['QWEN_API_KEY']],
      ['claude', 'https://api.anthropic.com', ['ANTHROPIC_API_KEY']],
    ];
    for (const [type, url, keyEnv] of expected) {
      const spec = lookupBackend(type);
      assert.equal(spec?.defaultBaseUrl, url, type);
      assert.deepEqual(spec?.keyEnv, keyEnv, type);
      assert.equal(spec?.requiresKey, true, type);
    }
    assert.equal(lookupBackend('poe')?.requiresBaseUrl, true);
    assert.equal(lookupBackend('chatcompletion')?.requiresBaseUrl, true);
  });

  it('gives local servers their default ports and no key', () => {
    for (const [type, url] of [['lmstudio', 'http://localhost:1234/v1'], ['vllm', 'http://localhost:8000/v1'],
      ['sglang', 'http://localhost:30000/v1'], ['ollama', 'http://localhost:11434/v1']]) {
      assert.equal(lookupBackend(type)?.defaultBaseUrl, url);
      assert.equal(lookupBackend(type)?.requiresKey, false);
    }
    assert.equal(lookupBackend('vscode-lm')?.requiresKey, false);
  });
});

describe('unknownBackendMessage', () => {
  it('explains upstream types that have no backend, and lists the supported types', () => {
    const msg = unknownBackendMessage('uitars');
    assert.match(msg, /upstream has no uitars backend either/);
    assert.match(msg, /Supported types: openai, chatcompletion, .*claude, anthropic, gemini/);
  });

  it('no longer calls gemini or azure_openai unknown: they are supported', () => {
    assert.equal(lookupBackend('gemini')?.family, 'gemini');
    assert.deepEqual(lookupBackend('gemini')?.keyEnv, ['GOOGLE_API_KEY', 'GEMINI_API_KEY']);
    assert.equal(lookupBackend('azure_openai')?.family, 'openai-compatible');
    assert.deepEqual(lookupBackend('azure_openai')?.keyEnv, ['AZURE_OPENAI_API_KEY']);
    assert.equal(lookupBackend('nvidia_nim')?.defaultBaseUrl, 'https://integrate.api.nvidia.com/v1');
  });

  it('calls anything else unknown', () => {
    assert.match(unknownBackendMessage('foo'), /unknown backend type "foo"\. Supported types: openai/);
  });

  it('names the type a typo most likely meant, and none when nothing is close', () => {
    assert.match(unknownBackendMessage('chatcompletions'), /unknown backend type "chatcompletions" \(did you mean chatcompletion\?\)/);
    assert.deepEqual(['olama', 'opnai', 'Claud', 'gemini-ultra', 'foo'].map(closestBackendType), ['ollama', 'openai', 'claude', undefined, undefined]);
  });
});

describe('chatcompletion key env var from base_url host', () => {
  const cases: Array<[string, string[]]> = [
    ['https://api.cerebras.ai/v1', ['CEREBRAS_API_KEY']],
    ['https://api.together.xyz/v1', ['TOGETHER_API_KEY']],
    ['https://api.fireworks.ai/inference/v1', ['FIREWORKS_API_KEY']],
    ['https://api.groq.com/openai/v1', ['GROQ_API_KEY']],
    ['https://api.studio.nebius.com/v1', ['NEBIUS_API_KEY']],
    ['https://openrouter.ai/api/v1', ['OPENROUTER_API_KEY']],
    ['https://api.z.ai/api/paas/v4', ['ZAI_API_KEY']],
    ['https://open.bigmodel.cn/api/paas/v4', ['ZAI_API_KEY']],
    ['https://api.moonshot.ai/v1', ['MOONSHOT_API_KEY', 'KIMI_API_KEY']],
    ['https://api.moonshot.cn/v1', ['MOONSHOT_API_KEY', 'KIMI_API_KEY']],
    ['https://api.poe.com/v1', ['POE_API_KEY']],
    ['https://dashscope.aliyuncs.com/compatible-mode/v1', ['QWEN_API_KEY']],
    ['https://api.openai.com/v1', ['OPENAI_API_KEY']],
  ];
  for (const [url, env] of cases) {
    it(`${new URL(url).hostname} -> ${env.join('/')}`, () => assert.deepEqual(keyEnvForBaseUrl(url), env));
  }

  it('matches whole host labels only', () => {
    assert.deepEqual(keyEnvForBaseUrl('https://notgroq.com/v1'), []);
    assert.deepEqual(keyEnvForBaseUrl('https://api.deepseek.com/v1'), []);
    assert.deepEqual(keyEnvForBaseUrl('not a url'), []);
  });
});

describe('isLocalUrl / keyRequirement', () => {
  it('treats loopback and private hosts as local', () => {
    for (const url of ['http://localhost:11434/v1', 'http://127.0.0.1:8000/v1', 'http://[::1]:8000/v1', 'http://10.0.0.2/v1',
      'http://192.168.1.5:1234/v1', 'http://172.20.1.1/v1', 'http://gpu-box.local:8000/v1']) {
      assert.equal(isLocalUrl(url), true, url);
    }
    for (const url of ['https://api.openai.com/v1', 'http://172.32.0.1/v1', 'https://example.com/v1']) {
      assert.equal(isLocalUrl(url), false, url);
    }
  });

  it('needs no key for a local chatcompletion server or a hosted type pointed at one', () => {
    assert.deepEqual(keyRequirement('chatcompletion', 'http://localhost:11434/v1'), { envVars: [], required: false });
    assert.equal(keyRequirement('openai', 'http://127.0.0.1:8000/v1').required, false);
  });

  it('needs the host key for hosted servers', () => {
    assert.deepEqual(keyRequirement('openai', 'https://api.openai.com/v1'), { envVars: ['OPENAI_API_KEY'], required: true });
    assert.deepEqual(keyRequirement('chatcompletion', 'https://api.groq.com/openai/v1'), { envVars: ['GROQ_API_KEY'], required: true });
    assert.deepEqual(keyRequirement('claude', 'https://api.anthropic.com'), { envVars: ['ANTHROPIC_API_KEY'], required: true });
  });
});

describe('resolveApiKey', () => {
  const openai = { envVars: ['OPENAI_API_KEY'], required: true };

  it('reads the env var', () => {
    assert.deepEqual(resolveApiKey(undefined, openai, { OPENAI_API_KEY: 'from-env' }),
      { apiKey: 'from-env', apiKeyEnv: 'OPENAI_API_KEY', unsetRefs: [] });
  });

  it('prefers an inline key over the env var', () => {
    assert.equal(resolveApiKey('inline', openai, { OPENAI_API_KEY: 'from-env' }).apiKey, 'inline');
  });

  it('expands ${VAR} from the environment', () => {
    assert.deepEqual(resolveApiKey('${MY_KEY}', openai, { MY_KEY: 'expanded' }), { apiKey: 'expanded', apiKeyEnv: 'MY_KEY', unsetRefs: [] });
  });

  it('reports an unset ${VAR} without a key', () => {
    assert.deepEqual(resolveApiKey('${MISSING}', openai, { OPENAI_API_KEY: 'x' }), { apiKeyEnv: 'MISSING', unsetRefs: ['MISSING'] });
  });

  it('tries alternatives in order and ignores empty values', () => {
    const moonshot = { envVars: ['MOONSHOT_API_KEY', 'KIMI_API_KEY'], required: true };
    assert.deepEqual(resolveApiKey(undefined, moonshot, { MOONSHOT_API_KEY: '', KIMI_API_KEY: 'kimi' }),
      { apiKey: 'kimi', apiKeyEnv: 'KIMI_API_KEY', unsetRefs: [] });
    assert.deepEqual(resolveApiKey(undefined, moonshot, {}), { apiKey: undefined, apiKeyEnv: 'MOONSHOT_API_KEY', unsetRefs: [] });
  });
});

describe('inferBackendType', () => {
  const cases: Array<[string, string | undefined]> = [
    ['gpt-4o-mini', 'openai'], ['GPT-5', 'openai'], ['o1', 'openai'], ['o3-mini-high', 'openai'], ['o4-mini', 'openai'],
    ['claude-sonnet-4-20250514', 'claude'], ['grok-4', 'grok'], ['glm-4.5-air', 'zai'], ['gemini-2.5-pro', 'gemini'],
    ['llama3.2', undefined], ['mistral-large', undefined],
  ];
  for (const [model, type] of cases) {
    it(`${model} -> ${type ?? 'unknown'}`, () => assert.equal(inferBackendType(model), type));
  }
});

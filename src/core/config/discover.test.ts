import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MODELS } from './backends';
import { discoverConfig, OLLAMA_BASE_URL, PERSONAS, probeModels, type DiscoverResult, type ModelProbe } from './discover';
import { ConfigError } from './load';

/** A probe that records its calls and answers as told; tests never touch a real server. */
function fakeProbe(models: string[] | undefined): ModelProbe & { calls: string[] } {
  const calls: string[] = [];
  return Object.assign(async (url: string) => {
    calls.push(url);
    return models;
  }, { calls });
}

function found(result: DiscoverResult) {
  assert.ok(!('none' in result), 'expected a config');
  return result;
}

describe('discoverConfig', () => {
  let cwd: string;
  beforeEach(() => { cwd = mkdtempSync(join(tmpdir(), 'massgen-discover-')); });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  const writeProjectConfig = (text: string): string => {
    mkdirSync(join(cwd, '.massgen'));
    const file = join(cwd, '.massgen', 'config.yaml');
    writeFileSync(file, text);
    return file;
  };

  it('(a) prefers .massgen/config.yaml over keys and Ollama', async () => {
    const file = writeProjectConfig('agents:\n  - id: local\n    backend: {type: ollama, model: m}\nui: {}\n');
    const probe = fakeProbe(['llama3.2']);
    const result = found(await discoverConfig({ cwd, env: { OPENAI_API_KEY: 'o' }, probeOllama: probe }));
    assert.equal(result.source, file);
    assert.deepEqual(result.config.agents.map((a) => a.id), ['local']);
    assert.equal(result.warnings[0].path, 'ui');
    assert.deepEqual(probe.calls, []);
  });

  it('(a) a broken project config is an error, not a fallback', async () => {
    writeProjectConfig('agents: []\n');
    await assert.rejects(discoverConfig({ cwd, env: { OPENAI_API_KEY: 'o' }, probeOllama: fakeProbe(['m']) }),
      (err: ConfigError) => err instanceof ConfigError && /config\.yaml:1: no agents configured/.test(err.message));
  });

  it('(b) OPENAI_API_KEY alone gives three OpenAI agents with distinct personas', async () => {
    const probe = fakeProbe(['llama3.2']);
    const result = found(await discoverConfig({ cwd, env: { OPENAI_API_KEY: 'sk-o' }, probeOllama: probe }));
    const { agents } = result.config;
    assert.equal(agents.length, 3);
    assert.deepEqual(agents.map((a) => a.id), ['gpt-reviewer', 'gpt-engineer', 'gpt-creative']);
    assert.ok(agents.every((a) => a.backend.type === 'openai' && a.backend.model === DEFAULT_MODELS.openai && a.backend.apiKey === 'sk-o'));
    assert.deepEqual(agents.map((a) => a.systemMessage), PERSONAS.map((p) => p.systemMessage));
    assert.equal(result.source, 'environment (OPENAI_API_KEY)');
    assert.deepEqual(probe.calls, []);
  });

  it('(b) ANTHROPIC_API_KEY alone gives Claude agents', async () => {
    const { config } = found(await discoverConfig({ cwd, env: { ANTHROPIC_API_KEY: 'a' }, probeOllama: fakeProbe(undefined) }));
    assert.ok(config.agents.every((a) => a.backend.family === 'anthropic' && a.backend.model === DEFAULT_MODELS.anthropic));
    assert.equal(config.agents[0].backend.baseUrl, 'https://api.anthropic.com');
  });

  it('(b) GEMINI_API_KEY or GOOGLE_API_KEY gives Gemini agents on the Gemini API', async () => {
    for (const name of ['GEMINI_API_KEY', 'GOOGLE_API_KEY']) {
      const { config, source } = found(await discoverConfig({ cwd, env: { [name]: 'gk' }, probeOllama: fakeProbe(undefined) }));
      assert.deepEqual(config.agents.map((a) => [a.backend.type, a.backend.family, a.backend.model, a.backend.apiKey]), [0, 1, 2].map(() => ['gemini', 'gemini', DEFAULT_MODELS.gemini, 'gk']));
      assert.equal(source, `environment (${name})`);
    }
  });

  it('(b) both keys give a mixed team', async () => {
    const { config, source } = found(await discoverConfig({ cwd, env: { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' }, probeOllama: fakeProbe(undefined) }));
    assert.deepEqual(config.agents.map((a) => a.id), ['gpt-reviewer', 'claude-engineer', 'gpt-creative']);
    assert.deepEqual(config.agents.map((a) => a.backend.apiKey), ['o', 'a', 'o']);
    assert.equal(source, 'environment (OPENAI_API_KEY, ANTHROPIC_API_KEY)');
  });

  it('(b) other named-host keys add agents on their default endpoints', async () => {
    const { config } = found(await discoverConfig({ cwd, env: { GROQ_API_KEY: 'g', OPENROUTER_API_KEY: 'r' }, probeOllama: fakeProbe(undefined) }));
    assert.deepEqual(config.agents.map((a) => [a.backend.type, a.backend.baseUrl]), [
      ['groq', 'https://api.groq.com/openai/v1'], ['openrouter', 'https://openrouter.ai/api/v1'], ['groq', 'https://api.groq.com/openai/v1'],
    ]);
  });

  it('(b) ignores empty key variables', async () => {
    const probe = fakeProbe(undefined);
    assert.ok('none' in await discoverConfig({ cwd, env: { OPENAI_API_KEY: '' }, probeOllama: probe }));
    assert.deepEqual(probe.calls, [OLLAMA_BASE_URL]);
  });

  it('(c) builds a team on one local model with three personas', async () => {
    const probe = fakeProbe(['llama3.2:latest', 'nomic-embed-text:latest']);
    const { config, source } = found(await discoverConfig({ cwd, env: {}, probeOllama: probe }));
    assert.deepEqual(probe.calls, ['http://localhost:11434/v1']);
    assert.equal(source, 'ollama (http://localhost:11434/v1)');
    assert.deepEqual(config.agents.map((a) => a.backend.model), ['llama3.2:latest', 'llama3.2:latest', 'llama3.2:latest']);
    assert.equal(new Set(config.agents.map((a) => a.systemMessage)).size, 3);
    assert.ok(config.agents.every((a) => a.backend.type === 'ollama' && a.backend.baseUrl === OLLAMA_BASE_URL && a.backend.apiKey === undefined));
  });

  it('(c) uses up to three distinct local models', async () => {
    const { config } = found(await discoverConfig({ cwd, env: {}, probeOllama: fakeProbe(['a', 'b', 'c', 'd']) }));
    assert.deepEqual(config.agents.map((a) => a.backend.model), ['a', 'b', 'c']);
  });

  it('(d) with nothing found, says how to get going', async () => {
    const result = await discoverConfig({ cwd, env: {}, probeOllama: fakeProbe(undefined) });
    assert.ok('none' in result);
    for (const hint of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'start Ollama', 'ollama pull', '.massgen/config.yaml', '--config examples/']) {
      assert.ok(result.help.includes(hint), `help mentions ${hint}:\n${result.help}`);
    }
    assert.ok(result.help.split('\n').length <= 6);
  });

  it('(d) an Ollama without chat models is told to pull one', async () => {
    const result = await discoverConfig({ cwd, env: {}, probeOllama: fakeProbe(['nomic-embed-text']) });
    assert.ok('none' in result);
    assert.match(result.help, /has no models/);
    assert.match(result.help, /pull a model into your running Ollama: ollama pull/);
  });
});

describe('PERSONAS', () => {
  it('are distinct and short', () => {
    assert.equal(new Set(PERSONAS.map((p) => p.id)).size, PERSONAS.length);
    assert.ok(PERSONAS.length >= 3);
    assert.ok(PERSONAS.every((p) => p.systemMessage.length < 200));
  });
});

describe('probeModels (against a local fake server)', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
    server = undefined;
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  it('lists model ids from GET /models', async () => {
    let path = '';
    const url = await serve((req, res) => {
      path = req.url ?? '';
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'llama3.2' }, { id: 'qwen2.5' }, { bogus: 1 }] }));
    });
    assert.deepEqual(await probeModels(url), ['llama3.2', 'qwen2.5']);
    assert.equal(path, '/v1/models');
  });

  it('gives undefined for an error status or a non-list body', async () => {
    let status = 500;
    const url = await serve((_req, res) => {
      res.statusCode = status;
      res.end('{"nope": true}');
    });
    assert.equal(await probeModels(url), undefined);
    status = 200;
    assert.equal(await probeModels(url), undefined);
  });

  // The server never answers: an answer at all is the timeout's.
  it('gives up after the timeout when the server never answers', async () => {
    const url = await serve(() => { /* never respond */ });
    assert.equal(await probeModels(url, 100), undefined);
  });

  it('gives undefined when nothing listens', async () => {
    const url = await serve(() => undefined);
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    assert.equal(await probeModels(url, 500), undefined);
  });
});

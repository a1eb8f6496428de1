import assert from 'node:assert/strict';
import { programEnvironment } from './environment';

describe('harness environment: what a coding agent program may read', () => {
  it('passes the basics and the program’s own settings, never other keys', () => {
    const env = { PATH: '/bin', HOME: '/home/u', OPENAI_API_KEY: 'sk-openai', ANTHROPIC_API_KEY: 'sk-ant-env', GITHUB_TOKEN: 'ghp-secret', CLAUDE_CONFIG_DIR: '/c', CODEX_HOME: '/x' };
    const claude = programEnvironment('claude_code', env, { ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_BASE_URL: undefined });
    assert.deepEqual(claude, { PATH: '/bin', HOME: '/home/u', CLAUDE_CONFIG_DIR: '/c', ANTHROPIC_API_KEY: 'sk-ant' });
    const codex = programEnvironment('codex', env, {});
    assert.deepEqual(codex, { PATH: '/bin', HOME: '/home/u', CODEX_HOME: '/x', OPENAI_API_KEY: 'sk-openai' });
  });

  it("passes Claude Code's server from the environment, unless the config names one", () => {
    const env = { PATH: '/bin', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1/anthropic' };
    assert.equal(programEnvironment('claude_code', env, { ANTHROPIC_BASE_URL: undefined }).ANTHROPIC_BASE_URL, env.ANTHROPIC_BASE_URL);
    assert.equal(programEnvironment('claude_code', env, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:3' }).ANTHROPIC_BASE_URL, 'http://127.0.0.1:3');
    assert.deepEqual(programEnvironment('codex', env, {}), { PATH: '/bin' }, "Codex's server is its config.toml's");
  });
});

import assert from 'node:assert/strict';
import { ConfigError, parseConfigText } from './load';

const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;
const AGENT = ['agents:', '  - id: a', '    backend: { type: openai, model: gpt-4o-mini, api_key: k }'];

function errorOf(text: string): string {
  try {
    parseConfigText(text, 'team.yaml', {}, { requireKeys: false });
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  assert.fail('the config loaded');
}

describe('config: timeouts are bounded (a timer holds at most 2^31-1 ms)', () => {
  it('refuses an orchestrator timeout beyond 7 days, naming the key and the limit', () => {
    assert.match(errorOf(yaml(...AGENT, 'timeout_settings:', '  orchestrator_timeout_seconds: 3000000')), /timeout_settings\.orchestrator_timeout_seconds: must be at most 604800, got 3000000/);
    assert.match(errorOf(yaml(...AGENT, 'orchestrator:', '  timeout:', '    orchestrator_timeout_seconds: 3000000')), /orchestrator\.timeout\.orchestrator_timeout_seconds: must be at most 604800/);
  });

  it('refuses turn timeouts and waits beyond 7 days', () => {
    for (const key of ['agent_turn_timeout_seconds', 'initial_round_timeout_seconds', 'subsequent_round_timeout_seconds', 'round_timeout_grace_seconds']) {
      assert.match(errorOf(yaml(...AGENT, 'timeout_settings:', `  ${key}: 700000`)), new RegExp(`timeout_settings\\.${key}: must be at most 604800`));
    }
    for (const key of ['unavailable_wait_seconds', 'prompt_cache_wait_seconds']) {
      assert.match(errorOf(yaml(...AGENT, 'orchestrator:', `  ${key}: 700000`)), new RegExp(`orchestrator\\.${key}: must be at most 604800`));
    }
  });

  it('refuses MCP call and connect timeouts beyond 7 days', () => {
    for (const key of ['timeout', 'connect_timeout']) {
      const text = yaml('agents:', '  - id: a', '    backend:', '      type: openai', '      model: gpt-4o-mini', '      api_key: k', '      mcp_servers:', '        - name: fs', '          type: stdio', '          command: node', `          ${key}: 3000000`);
      assert.match(errorOf(text), new RegExp(`${key}: must be at most 604800, got 3000000`));
    }
  });

  it('accepts 7 days', () => {
    const { config } = parseConfigText(yaml(...AGENT, 'timeout_settings:', '  orchestrator_timeout_seconds: 604800'), 'team.yaml', {}, { requireKeys: false });
    assert.equal(config.timeouts.orchestratorTimeoutSeconds, 604800);
  });
});

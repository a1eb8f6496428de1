import assert from 'node:assert/strict';
import { checkName, checksFromCommands, verificationOf } from './checks';
import { parseConfigText } from './load';
import { ConfigError } from './report';

const AGENTS = 'agents:\n  - id: a\n    backend: { type: chatcompletion, model: m, base_url: "http://127.0.0.1:1/v1" }\n';
const load = (orchestrator: string) => parseConfigText(`${AGENTS}orchestrator:\n${orchestrator}`, 'team.yaml', {}, { requireKeys: false });

describe('config: orchestrator.checks and verification', () => {
  it('reads checks with defaults: a name from the command, 300 s, required', () => {
    const { config, warnings } = load('  checks:\n    - command: npm test\n    - { name: lint, command: "npx eslint .", timeout_seconds: 60, required: false }\n  verification: gate\n');
    assert.deepEqual(config.orchestrator.checks, [
      { name: 'npm test', command: 'npm test', timeoutSeconds: 300, required: true },
      { name: 'lint', command: 'npx eslint .', timeoutSeconds: 60, required: false },
    ]);
    assert.equal(config.orchestrator.verification, 'gate');
    assert.deepEqual(warnings, []);
  });

  it('verification defaults to inform with checks and off without', () => {
    assert.equal(verificationOf(load('  checks: [{ command: pytest -q }]\n').config.orchestrator), 'inform');
    assert.equal(verificationOf(load('  max_rounds: 3\n').config.orchestrator), 'off');
    assert.equal(verificationOf({ checks: [], verification: 'gate' }), 'off', 'gate without checks has nothing to gate on');
  });

  it('refuses a check without a command, duplicate names and an unknown mode, at their lines', () => {
    const problems = (text: string) => {
      try {
        load(text);
      } catch (err) {
        assert.ok(err instanceof ConfigError);
        return err.message;
      }
      assert.fail('expected a ConfigError');
    };
    assert.match(problems('  checks:\n    - name: tests\n'), /team\.yaml:6: orchestrator\.checks\[0\]\.command: is required/);
    assert.match(problems('  checks:\n    - command: npm test\n    - { name: npm test, command: npm run test }\n'), /team\.yaml:\d+.*two checks are named "npm test"/);
    assert.match(problems('  checks: [{ command: make }]\n  verification: strict\n'), /team\.yaml:6.*verification/);
  });

  it('warns about an unknown key in a check', () => {
    const { warnings } = load('  checks:\n    - { command: make test, retries: 2 }\n');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].message, /retries/);
  });

  it('names a check by its first words, shortened for a badge', () => {
    assert.equal(checkName('  npm   run test -- --watch=false'), 'npm run test');
    assert.equal(checkName(`${'x'.repeat(60)} y`).length, 40);
  });

  it('bare commands (--check, massgen_run) become required checks with distinct names', () => {
    const checks = checksFromCommands(['npm run test -- a', 'npm run test -- b', 'npm run test -- c', 'make lint']);
    assert.deepEqual(checks.map((c) => c.name), ['npm run test', 'npm run test #2', 'npm run test #3', 'make lint']);
    assert.ok(checks.every((c) => c.required && c.timeoutSeconds === 300));
    assert.equal(checks[1].command, 'npm run test -- b');
  });
});

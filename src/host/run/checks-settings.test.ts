import assert from 'node:assert/strict';
import { ConfigError } from '../../core/config/load';
import type { OrchestratorConfig } from '../../core/config/types';
import { applyRunChecks, checksFromSetting, type RunChecksContext } from './checks-settings';

const orchestrator = (extra: Partial<OrchestratorConfig> = {}) => ({ ...extra }) as OrchestratorConfig;
const ctx = (extra: Partial<RunChecksContext> = {}, setting: Partial<RunChecksContext['setting']> = {}): RunChecksContext => ({
  trusted: true,
  workspaceRun: true,
  ...extra,
  setting: { checks: ['npm test'], verification: 'inform', from: 'massgen.checks in the workspace settings', ...setting },
});
const fileCheck = { name: 'make', command: 'make test', timeoutSeconds: 60, required: true };
const problem = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  assert.fail('no ConfigError');
};

describe('checks-settings: massgen.checks and where a run\'s checks come from', () => {
  it('reads commands and objects, with the config file\'s defaults', () => {
    assert.deepEqual(checksFromSetting(['npm test', { name: 'lint', command: 'npx eslint .', timeout_seconds: 60, required: false }]), [
      { name: 'npm test', command: 'npm test', timeoutSeconds: 300, required: true },
      { name: 'lint', command: 'npx eslint .', timeoutSeconds: 60, required: false },
    ]);
    assert.deepEqual(checksFromSetting(undefined), []);
    assert.deepEqual(checksFromSetting([]), []);
  });

  it('a bad entry is a ConfigError naming the setting', () => {
    assert.match(problem(() => checksFromSetting('npm test')), /massgen\.checks: must be a list/);
    assert.match(problem(() => checksFromSetting(['npm test', '  '])), /massgen\.checks\[1\]: is empty/);
    assert.match(problem(() => checksFromSetting([{ name: 'x' }])), /massgen\.checks\[0\]\.command/);
    assert.match(problem(() => checksFromSetting([{ command: 'a', timeout_seconds: -1 }])), /massgen\.checks\[0\]\.timeout_seconds/);
    assert.match(problem(() => checksFromSetting(['npm test', { command: 'npm test' }])), /massgen\.checks\[1\]\.name: two checks are named "npm test"/);
  });

  it('the settings\' checks and verification apply to a workspace run, and say where they are set', () => {
    const o = orchestrator();
    assert.equal(applyRunChecks(o, ctx({}, { verification: 'gate' })), 'massgen.checks in the workspace settings');
    assert.deepEqual(o.checks?.map((c) => c.command), ['npm test']);
    assert.equal(o.verification, 'gate');
    assert.match(problem(() => applyRunChecks(orchestrator(), ctx({}, { verification: 'strict' }))), /massgen\.verification: must be off, inform or gate/);
  });

  it('a config file\'s checks and verification win; without checks of its own the settings\' apply', () => {
    const withChecks = orchestrator({ checks: [fileCheck], verification: 'gate' });
    assert.equal(applyRunChecks(withChecks, ctx({ file: '.massgen/config.yaml' }, { verification: 'off' })), 'orchestrator.checks in .massgen/config.yaml');
    assert.deepEqual([withChecks.checks, withChecks.verification], [[fileCheck], 'gate']);
    const without = orchestrator();
    assert.equal(applyRunChecks(without, ctx({ file: '.massgen/config.yaml' })), 'massgen.checks in the workspace settings');
    assert.deepEqual(without.checks?.map((c) => c.name), ['npm test']);
  });

  it('no checks: outside workspace runs, in an untrusted workspace, or none set', () => {
    for (const c of [ctx({ workspaceRun: false }), ctx({ trusted: false }), ctx({ trusted: false, file: 'team.yaml' })]) {
      const o = orchestrator({ checks: [fileCheck], verification: 'gate' });
      assert.equal(applyRunChecks(o, c), undefined);
      assert.deepEqual([o.checks, o.verification], [undefined, undefined], 'the file\'s are dropped too');
    }
    const none = orchestrator();
    assert.equal(applyRunChecks(none, ctx({}, { checks: [] })), undefined);
    assert.equal(none.checks, undefined);
  });
});

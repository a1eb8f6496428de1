import assert from 'node:assert/strict';
import type { CheckResult } from './events';
import { failedRequired, gateWinner } from './check-gate';

const result = (name: string, status: CheckResult['status'], required = true): CheckResult => ({ name, required, status, exitCode: status === 'passed' ? 0 : 1, durationMs: 10, output: '', cached: false });
const pass = [result('tests', 'passed'), result('lint', 'failed', false)];
const fail = [result('tests', 'failed'), result('lint', 'passed', false)];

describe('check gate', () => {
  it('failedRequired: required checks that did not pass; optional ones never fail an answer; null without results', () => {
    assert.deepEqual(failedRequired(pass), []);
    assert.deepEqual(failedRequired(fail), ['tests']);
    assert.deepEqual(failedRequired([result('build', 'timeout'), result('tests', 'error'), result('e2e', 'cancelled')]), ['build', 'tests', 'e2e']);
    assert.equal(failedRequired(undefined), null);
    assert.equal(failedRequired([]), null);
  });

  it('gate: the voted answer failing a required check loses to the best-ranked passing one, which is said', () => {
    const ranked = [{ label: 'agent1.1', checks: fail }, { label: 'agent3.1', checks: fail }, { label: 'agent2.1', checks: pass }];
    assert.deepEqual(gateWinner(ranked, 'gate'), { index: 2, verification: { status: 'passed', overruled: { label: 'agent1.1', failed: ['tests'] } } });
  });

  it('gate: when nothing passes, the voted answer wins, flagged as failed', () => {
    assert.deepEqual(gateWinner([{ label: 'agent1.1', checks: fail }, { label: 'agent2.1', checks: fail }], 'gate'), { index: 0, verification: { status: 'failed' } });
  });

  it('gate: a passing voted answer, or one without results, stands', () => {
    assert.deepEqual(gateWinner([{ label: 'agent1.1', checks: pass }, { label: 'agent2.1', checks: fail }], 'gate'), { index: 0, verification: { status: 'passed' } });
    assert.deepEqual(gateWinner([{ label: 'agent1.1' }, { label: 'agent2.1', checks: pass }], 'gate'), { index: 0, verification: { status: 'unchecked' } });
  });

  it('inform: the ranking stands; the winner\'s standing is reported', () => {
    assert.deepEqual(gateWinner([{ label: 'agent1.1', checks: fail }, { label: 'agent2.1', checks: pass }], 'inform'), { index: 0, verification: { status: 'failed' } });
  });
});

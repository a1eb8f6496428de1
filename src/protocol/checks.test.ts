import assert from 'node:assert/strict';
import type { CheckResult } from '../core/engine/events';
import type { RunState } from '../core/engine/run-state';
import { checksSummaryLine, verificationInWords, versionChecks } from './checks';

const r = (name: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({ name, required: true, status, exitCode: status === 'passed' ? 0 : status === 'failed' ? 1 : null, durationMs: 1500, output: '', cached: false, ...extra });
type Checks = Pick<RunState, 'checks' | 'winner'>;
const run = (checks: Checks['checks'], winner: Checks['winner'] = null): Checks => ({ checks, winner });
const winner = (label: string, verification?: NonNullable<Checks['winner']>['verification']): Checks['winner'] => ({ agentId: 'a', label, votes: {}, tieBreak: false, basis: 'current_votes', verification });

describe('protocol: the checks in words', () => {
  it('a version: passed, failed (optional said so), running, and not run', () => {
    const names = ['npm test', 'lint'];
    const s = run({
      'agent1.1': { agentId: 'a', names, results: [r('npm test', 'passed'), r('lint', 'passed')] },
      'agent1.2': { agentId: 'a', names, results: [r('npm test', 'failed'), r('lint', 'passed')] },
      'agent2.1': { agentId: 'b', names, results: [r('npm test', 'passed'), r('lint', 'timeout', { required: false })] },
      'agent3.1': { agentId: 'c', names, results: [r('lint', 'passed')] },
      'agent3.2': { agentId: 'c', names: ['npm test'], results: [r('npm test', 'passed', { cached: true })] },
    });
    assert.equal(versionChecks(s, 'agent1.1', false)?.text, '2/2 passed');
    const failed = versionChecks(s, 'agent1.2', false)!;
    assert.deepEqual([failed.kind, failed.text, failed.failing.map((f) => f.name)], ['failed', '1/2 failed', ['npm test']]);
    assert.deepEqual(failed.lines, ['npm test: failed (exit 1) in 1.5 s', 'lint: passed in 1.5 s']);
    assert.equal(versionChecks(s, 'agent2.1', false)?.text, '1/2 failed (optional)');
    assert.deepEqual(versionChecks(s, 'agent2.1', false)?.lines[1], 'lint: timed out in 1.5 s (optional)');
    const running = versionChecks(s, 'agent3.1', false)!;
    assert.deepEqual([running.kind, running.text, running.lines], ['running', 'Checking 1/2…', ['lint: passed in 1.5 s', 'npm test: running']]);
    // Once the run ended, a check without a result will not get one.
    assert.deepEqual([versionChecks(s, 'agent3.1', true)?.kind, versionChecks(s, 'agent3.1', true)?.lines[1]], ['not-run', 'npm test: not run']);
    assert.deepEqual([versionChecks(s, 'agent3.2', false)?.text, versionChecks(s, 'agent3.2', false)?.lines], ['Check passed', ['npm test: passed in 1.5 s (same change as checked before)']]);
    assert.equal(versionChecks(s, 'agent4.1', true)?.kind, 'not-run', 'a version of a run with checks that got none');
    assert.equal(versionChecks(run({}), 'agent1.1', true), null, 'a run without checks has no badge');
  });

  it('a cancelled check is neither a pass nor a failure', () => {
    const v = versionChecks(run({ 'agent1.1': { agentId: 'a', names: ['t'], results: [r('t', 'cancelled')] } }), 'agent1.1', true)!;
    assert.deepEqual([v.kind, v.failing.length], ['not-run', 0]);
  });

  it('the winner: verified, unverified, the gate overruling the votes, not checked', () => {
    assert.deepEqual(verificationInWords({ status: 'passed' }, 'agent2.1'), { kind: 'verified', text: 'Verified: agent2.1 passed every required check.' });
    assert.equal(verificationInWords({ status: 'failed' }, 'agent1.1')?.kind, 'unverified');
    assert.deepEqual(verificationInWords({ status: 'passed', overruled: { label: 'agent1.1', failed: ['npm test', 'lint'] } }, 'agent2.1'), {
      kind: 'overruled',
      text: 'Checks overruled the votes: they chose agent1.1, which failed npm test, lint; agent2.1 passed and wins.',
    });
    assert.equal(verificationInWords({ status: 'unchecked' }, 'agent1.1')?.kind, 'unchecked');
    assert.equal(verificationInWords(undefined, 'agent1.1'), null);
  });

  it('the chat line: each checked version, then the winner', () => {
    const s = run(
      { 'agent1.1': { agentId: 'a', names: ['npm test'], results: [r('npm test', 'failed')] }, 'agent2.1': { agentId: 'b', names: ['npm test'], results: [r('npm test', 'passed')] } },
      winner('agent2.1', { status: 'passed', overruled: { label: 'agent1.1', failed: ['npm test'] } }),
    );
    assert.equal(checksSummaryLine(s), 'Checks (npm test) — agent1.1: check failed; agent2.1: check passed. Checks overruled the votes: they chose agent1.1, which failed npm test; agent2.1 passed and wins.');
    assert.equal(checksSummaryLine(run({}, winner('agent1.1'))), undefined, 'no line without checks');
  });
});

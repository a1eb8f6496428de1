import assert from 'node:assert/strict';
import type { AgentInfo, RunEvent, RunEventBody } from '../../core/engine/events';
import { reduceEvents } from '../../core/engine/run-state';
import type { SessionResult } from '../../core/run/session';
import { buildStatus } from '../../core/status/status-file';
import { MAX_PATCH_CHARS, runOutput, runText } from './run-result';
import { statusSummary } from './status-tool';

const AGENTS: AgentInfo[] = [
  { id: 'a', label: 'agent1', model: 'm-a', provider: 'p', priced: false },
  { id: 'b', label: 'agent2', model: 'm-b', provider: 'p', priced: false },
];
const START = '2025-01-01T00:00:00.000Z';

function state(...bodies: RunEventBody[]) {
  const started: RunEventBody = { type: 'run_started', runId: 'r', question: 'What is 2+2?', agents: AGENTS, startedAt: START, finalAnswerMode: 'as_is' };
  return reduceEvents([started, ...bodies].map((b, i) => ({ t: (i + 1) * 1000, ...b, seq: i + 1 }) as RunEvent));
}
const answered = (agentId: string, label: string): RunEventBody => ({ type: 'answer_added', agentId, label, version: 1, content: `answer ${label}`, boardRevision: 1 });
const voted = (voterId: string, targetId: string, targetLabel: string): RunEventBody => ({ type: 'vote_cast', vote: { voterId, targetId, targetLabel, reason: 'good', seenRevision: 1 } });

const won: SessionResult = { reason: 'consensus', winnerId: 'b', winnerLabel: 'agent2.1', finalAnswer: 'answer agent2.1', durationMs: 2500, answerFile: '/logs/final/b/answer.txt' };

describe('massgen mcp: the massgen_run result', () => {
  it('the winner, the tally per answer version, each agent\'s latest answer and the usage of status.json', () => {
    const s = state(answered('a', 'agent1.1'), answered('b', 'agent2.1'), voted('a', 'b', 'agent2.1'), voted('b', 'b', 'agent2.1'));
    const out = runOutput(won, s, '/logs', { notes: [] });
    assert.deepEqual(out.winner, { agent_id: 'b', label: 'agent2.1', model: 'm-b' });
    assert.deepEqual(out.tally, { 'agent2.1': 2 });
    assert.deepEqual(out.answers, [
      { label: 'agent1.1', agent_id: 'a', model: 'm-a', votes: 0 },
      { label: 'agent2.1', agent_id: 'b', model: 'm-b', votes: 2 },
    ]);
    assert.deepEqual(out.usage, buildStatus(s, '/logs').usage);
    assert.equal(out.duration_seconds, 2.5);
    assert.equal(out.checks, null);
    const text = runText(out, s);
    assert.ok(text.startsWith('answer agent2.1\n\n---\nWinner: agent2.1 (b, m-b); ended by consensus\nVotes: agent2.1 2\n'), text);
    assert.match(text, /Log directory: \/logs$/);
  });

  it('a run without an answer says why', () => {
    const out = runOutput({ reason: 'all_failed', winnerId: null, winnerLabel: null, finalAnswer: null, durationMs: 10, error: 'Every agent failed: 401' }, state(), '/logs', { notes: ['a note'] });
    assert.equal(out.winner, null);
    assert.equal(out.error, 'Every agent failed: 401');
    const text = runText(out, state());
    assert.ok(text.startsWith('No answer (all_failed). Every agent failed: 401\n'), text);
    assert.match(text, /Ended by all_failed without a winner/);
    assert.match(text, /Note: a note/);
  });

  it('a patch too large for a tool result is left in its file, and said so', () => {
    const change = { version: 'agent2.1', files: [{ path: 'big.txt', status: 'added' as const, added: 1, removed: 0 }], patch: 'x'.repeat(MAX_PATCH_CHARS + 1), fileChanges: [] };
    const out = runOutput({ ...won, change, changeFile: '/logs/final/b/changes.patch' }, state(), '/logs', { notes: [] });
    assert.deepEqual(out.change, { files: change.files, patch: null, patch_file: '/logs/final/b/changes.patch' });
    assert.match(runText(out, state()), /Change \(not applied\): 1 file\(s\): big\.txt \(added\); patch: \/logs\/final\/b\/changes\.patch\nThe patch is larger than/);
  });

  it('checks: each answer version\'s results and the winner\'s verification, in the structure and the text', () => {
    const result = (status: 'passed' | 'failed', output: string) => ({ name: 'npm test', required: true, status, exitCode: status === 'passed' ? 0 : 1, durationMs: 1500, output, cached: false });
    const s = state(
      { type: 'checks_started', agentId: 'a', label: 'agent1.1', names: ['npm test'] },
      { type: 'check_finished', agentId: 'a', label: 'agent1.1', result: result('failed', 'add(2, 3) should be 5\n1 failing\n') },
      answered('a', 'agent1.1'),
      { type: 'checks_started', agentId: 'b', label: 'agent2.1', names: ['npm test'] },
      { type: 'check_finished', agentId: 'b', label: 'agent2.1', result: result('passed', '1 passing') },
      answered('b', 'agent2.1'),
      voted('a', 'a', 'agent1.1'),
      { type: 'winner_selected', agentId: 'b', label: 'agent2.1', votes: { a: 1 }, tieBreak: false, basis: 'current_votes', verification: { status: 'passed', overruled: { label: 'agent1.1', failed: ['npm test'] } } },
    );
    const out = runOutput(won, s, '/logs', { checks: { commands: ['npm test'], verification: 'gate' }, notes: [] });
    assert.deepEqual(out.checks, {
      requested: ['npm test'],
      verification: 'gate',
      run: true,
      versions: {
        'agent1.1': { status: 'failed', results: [{ name: 'npm test', status: 'failed', required: true, exit_code: 1, duration_seconds: 1.5, cached: false, output: 'add(2, 3) should be 5\n1 failing\n' }] },
        'agent2.1': { status: 'passed', results: [{ name: 'npm test', status: 'passed', required: true, exit_code: 0, duration_seconds: 1.5, cached: false, output: '1 passing' }] },
      },
      winner: { status: 'passed', overruled: { label: 'agent1.1', failed: ['npm test'] } },
      note: null,
    });
    const text = runText(out, s);
    assert.match(text, /\nChecks \(npm test\) — agent1\.1: check failed; agent2\.1: check passed\. Checks overruled the votes: they chose agent1\.1, which failed npm test; agent2\.1 passed and wins\.\n/);
    assert.match(text, /\nagent1\.1 npm test: failed \(exit 1\) — 1 failing$/);
    assert.doesNotMatch(text, /agent2\.1 npm test:/, 'a passing check gets no line of its own');
  });

  it('checks that could not run say why; no checks asked, no checks field', () => {
    const out = runOutput(won, state(), '/logs', { checks: { commands: ['npm test', 'npm run lint'], verification: 'inform', notRun: 'no sandbox (bubblewrap is not installed)' }, notes: [] });
    assert.deepEqual([out.checks?.run, out.checks?.versions, out.checks?.winner], [false, {}, null]);
    assert.match(runText(out, state()), /Checks not run: npm test; npm run lint\. no sandbox \(bubblewrap is not installed\)/);
    assert.equal(runOutput(won, state(), '/logs', { notes: [] }).checks, null);
  });
});

describe('massgen mcp: the massgen_status summary', () => {
  it('a run in progress: phase, round, answers and votes, how fresh the file is', () => {
    const s = state({ type: 'round_started', round: 1, agentIds: ['a', 'b'] }, answered('a', 'agent1.1'), voted('b', 'a', 'agent1.1'));
    const status = buildStatus(s, '/logs', Date.parse(START) + 4000);
    const text = statusSummary(status, Date.parse(START) + 7000);
    assert.match(text, /^Running: initial_answer, round 1, 50% of the live agents hold a vote; last update 3 s ago\. Question: What is 2\+2\?/);
    assert.match(text, /Agents: 2 \(1 answered, 1 voted\); votes: agent1\.1 1\./);
  });
});

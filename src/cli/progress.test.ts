import assert from 'node:assert/strict';
import type { AgentInfo, RunEvent, RunEventBody } from '../core/engine/events';
import { applyEvent, reduceEvents, type RunState } from '../core/engine/run-state';
import { describeEvent, inputTokensText } from '../core/status/describe';
import { footerLines } from './progress';

const AGENTS: AgentInfo[] = [
  { id: 'alpha', label: 'agent1', model: 'gpt-x', provider: 'p', priced: false },
  { id: 'beta', label: 'agent2', model: 'claude-y', provider: 'p', priced: false },
];
const startedBody: RunEventBody = { type: 'run_started', runId: 'r', question: 'q', agents: AGENTS, startedAt: '2025-01-01T00:00:00.000Z', finalAnswerMode: 'as_is' };

let seq = 0;
const ev = (body: RunEventBody, t = 1500): RunEvent => ({ ...body, seq: ++seq, t }) as RunEvent;

function stateAfter(...bodies: RunEventBody[]): RunState {
  return reduceEvents([ev(startedBody, 0), ...bodies.map((b) => ev(b))]);
}

/** describeEvent after applying the event, as the CLI does. */
function line(body: RunEventBody, t = 1500, state = stateAfter()): string | undefined {
  const e = ev(body, t);
  applyEvent(state, e);
  return describeEvent(e, state);
}

describe('cli progress: describeEvent', () => {
  it('run_started lists the agents with labels, ids and models', () => {
    assert.equal(describeEvent(ev(startedBody, 0), stateAfter()), 'MassGen: 2 agent(s): agent1 alpha (gpt-x), agent2 beta (claude-y)');
  });

  it('prefixes lines with the elapsed time, right-aligned', () => {
    assert.ok(line({ type: 'round_started', round: 1, agentIds: ['alpha'] }, 1500)!.startsWith('[  1.5s] '));
    assert.ok(line({ type: 'round_started', round: 1, agentIds: ['alpha'] }, 123_456)!.startsWith('[123.5s] '));
  });

  it('round_started names the agents by label and id', () => {
    assert.equal(line({ type: 'round_started', round: 2, agentIds: ['alpha', 'beta'] }), '[  1.5s] round 2: agent1 (alpha), agent2 (beta)');
  });

  it('answer_added shows who answered, the version label and a preview', () => {
    assert.equal(
      line({ type: 'answer_added', agentId: 'beta', label: 'agent2.1', version: 1, content: 'The answer is 4.', boardRevision: 1 }),
      '[  1.5s] agent2 (beta) answered agent2.1: The answer is 4.',
    );
  });

  it('collapses a multi-line answer to one line and truncates it with …', () => {
    const content = `first line\n\n   second\tline ${'word '.repeat(40)}`;
    const l = line({ type: 'answer_added', agentId: 'alpha', label: 'agent1.1', version: 1, content, boardRevision: 1 })!;
    assert.ok(!l.includes('\n'));
    const preview = l.slice(l.indexOf(': ') + 2);
    assert.ok(preview.startsWith('first line second line word word'));
    assert.equal(preview.length, 80);
    assert.ok(preview.endsWith('…'));
  });

  it('a preview of exactly 80 chars is not truncated', () => {
    const content = 'x'.repeat(80);
    const l = line({ type: 'answer_added', agentId: 'alpha', label: 'agent1.1', version: 1, content, boardRevision: 1 })!;
    assert.ok(l.endsWith(`: ${content}`));
  });

  it('vote_cast shows voter, target label and reason', () => {
    assert.equal(
      line({ type: 'vote_cast', vote: { voterId: 'alpha', targetId: 'beta', targetLabel: 'agent2.1', reason: 'clear\nand correct', seenRevision: 1 } }),
      '[  1.5s] agent1 (alpha) voted for agent2.1: clear and correct',
    );
  });

  it('vote_invalidated says the vote no longer counts, with the reason', () => {
    assert.equal(
      line({ type: 'vote_invalidated', voterId: 'beta', targetLabel: 'agent1.1', reason: 'new answer agent1.2' }),
      '[  1.5s] agent2 (beta) vote for agent1.1 no longer counts (new answer agent1.2)',
    );
  });

  it('retry shows the delay in seconds with one decimal', () => {
    assert.equal(line({ type: 'retry', agentId: 'alpha', attempt: 2, delayMs: 2000, error: '429 Too Many Requests' }), '[  1.5s] agent1 (alpha) retrying in 2.0s: 429 Too Many Requests');
  });

  it('correction shows the attempt and message', () => {
    assert.equal(line({ type: 'correction', agentId: 'alpha', attempt: 1, message: 'Invalid agent_id' }), '[  1.5s] agent1 (alpha) corrected (attempt 1): Invalid agent_id');
  });

  it('commands and their results are shown; other tools are not', () => {
    const call = (name: string, args: string): RunEventBody => ({ type: 'tool_call', agentId: 'alpha', callId: 'c1', name, arguments: args });
    assert.equal(line(call('execute_command', '{"command":"npm test"}')), '[  1.5s] agent1 (alpha) runs: npm test');
    assert.equal(line(call('execute_command', 'not json')), '[  1.5s] agent1 (alpha) runs: not json');
    assert.equal(line(call('read_file', '{"path":"a.ts"}')), undefined);
    const result = (ok: boolean, summary: string): RunEventBody => ({ type: 'tool_result', agentId: 'alpha', callId: 'c1', name: 'execute_command', ok, summary });
    assert.equal(line(result(true, 'exit code 0 (in 0.2 s)\n3 passed')), '[  1.5s] agent1 (alpha) → exit code 0 (in 0.2 s) 3 passed');
    assert.equal(line(result(false, 'exit code 1 (in 0.1 s)\nFAIL')), '[  1.5s] agent1 (alpha) ✗ exit code 1 (in 0.1 s) FAIL');
  });

  it('turn_failed prints only when no retry follows', () => {
    assert.equal(line({ type: 'turn_failed', agentId: 'alpha', cause: 'provider', error: 'x', willRetry: true }), undefined);
    assert.equal(line({ type: 'turn_failed', agentId: 'alpha', cause: 'provider', error: 'bad key', willRetry: false }), '[  1.5s] agent1 (alpha) turn failed: bad key');
  });

  it('agent_failed prints FAILED with the error', () => {
    assert.equal(line({ type: 'agent_failed', agentId: 'beta', cause: 'provider', error: '401 unauthorized' }), '[  1.5s] agent2 (beta) FAILED: 401 unauthorized');
  });

  it('an unknown agent id is shown as is', () => {
    assert.equal(line({ type: 'agent_failed', agentId: 'ghost', cause: 'provider', error: 'e' }), '[  1.5s] ghost FAILED: e');
  });

  it('winner_selected with current votes: counts, no notes', () => {
    assert.equal(
      line({ type: 'winner_selected', agentId: 'beta', label: 'agent2.1', votes: { beta: 2, alpha: 1 }, tieBreak: false, basis: 'current_votes' }),
      '[  1.5s] winner: agent2 (beta) with agent2.1; votes: beta 2, alpha 1',
    );
  });

  it('winner_selected notes a tie broken by config order', () => {
    const l = line({ type: 'winner_selected', agentId: 'alpha', label: 'agent1.1', votes: { alpha: 1, beta: 1 }, tieBreak: true, basis: 'current_votes' })!;
    assert.ok(l.endsWith('; votes: alpha 1, beta 1 (tie broken by config order)'), l);
  });

  it('winner_selected notes the latest-votes basis', () => {
    const l = line({ type: 'winner_selected', agentId: 'alpha', label: 'agent1.1', votes: { alpha: 1 }, tieBreak: false, basis: 'latest_votes' })!;
    assert.ok(l.endsWith('votes: alpha 1 (from the latest valid votes)'), l);
  });

  it('winner_selected with no votes: the most informed answer', () => {
    const l = line({ type: 'winner_selected', agentId: 'beta', label: 'agent2.3', votes: {}, tieBreak: false, basis: 'most_informed' })!;
    assert.ok(l.endsWith('with agent2.3; votes: no current votes (no votes: the most informed answer, ties by agent order)'), l);
  });

  it('final_answer prints only a fallback', () => {
    assert.equal(line({ type: 'final_answer', agentId: 'alpha', label: 'agent1.1', content: 'x', mode: 'as_is' }), undefined);
    assert.equal(
      line({ type: 'final_answer', agentId: 'alpha', label: 'agent1.1', content: 'x', mode: 'as_is', fallback: 'synthesis failed' }),
      '[  1.5s] final answer: synthesis failed; using the voted answer',
    );
  });

  it('run_ended reports reason, duration and the run usage', () => {
    const state = stateAfter(
      { type: 'usage', agentId: 'alpha', usage: { inputTokens: 1000, cachedInputTokens: 200, outputTokens: 50 }, costUsd: null, phase: 'coordination' },
      { type: 'usage', agentId: 'beta', usage: { inputTokens: 500, cachedInputTokens: 0, outputTokens: 25 }, costUsd: null, phase: 'final' },
    );
    assert.equal(
      line({ type: 'run_ended', reason: 'consensus', winnerId: 'alpha', durationMs: 12_345 }, 12_400, state),
      '[ 12.4s] done: consensus in 12.3s; 2 model call(s), 1500 input tokens (1300 uncached, 200 cached), 75 output tokens; cost unknown (no known price for these models)',
    );
    assert.equal(inputTokensText(100, 250), '100 input tokens (0 uncached, 100 cached)', 'more cached than input is clamped');
    assert.equal(inputTokensText(900, 0), '900 input tokens', 'no split when nothing was cached');
  });

  it('run_ended reports an exact cost, or a lower bound when some calls had no price', () => {
    const priced = stateAfter({ type: 'usage', agentId: 'alpha', usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 50 }, costUsd: 0.0123, phase: 'coordination' });
    assert.match(line({ type: 'run_ended', reason: 'consensus', winnerId: 'alpha', durationMs: 1 }, 1, priced)!, /; cost \$0\.0123$/);
    applyEvent(priced, ev({ type: 'usage', agentId: 'beta', usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 5 }, costUsd: null, phase: 'coordination' }));
    assert.match(line({ type: 'run_ended', reason: 'consensus', winnerId: 'alpha', durationMs: 1 }, 1, priced)!, /cost \$0\.0123 \+ unknown \(1 call\(s\) without a known price\)$/);
  });

  it('budget_reached says which cap and what was spent', () => {
    const l = line({ type: 'budget_reached', limit: 'max_calls', limitValue: 4, spent: { calls: 4, totalTokens: 900, costUsd: 0.002 } })!;
    assert.match(l, /budget reached \(max_calls 4\): no new model calls; spent 4 call\(s\), 900 tokens, \$0\.0020/);
  });

  it('run_ended puts the error on its own line', () => {
    const l = line({ type: 'run_ended', reason: 'all_failed', winnerId: null, durationMs: 1000, error: 'every agent failed' })!;
    assert.ok(l.endsWith('0 output tokens; cost $0\nevery agent failed'), l);
  });

  for (const body of [
    { type: 'text_delta', agentId: 'alpha', text: 'hi' },
    { type: 'reasoning_delta', agentId: 'alpha', text: 'hmm' },
    { type: 'turn_started', agentId: 'alpha', round: 1, boardRevision: 0, voteOnly: false },
    { type: 'tool_call', agentId: 'alpha', callId: 'c', name: 'vote', arguments: '{}' },
    { type: 'tool_result', agentId: 'alpha', callId: 'c', name: 'vote', ok: true, summary: '' },
    { type: 'usage', agentId: 'alpha', usage: { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1 }, costUsd: null, phase: 'coordination' },
    { type: 'agent_updated', agentId: 'alpha', labels: ['agent2'], via: 'next_turn' },
    { type: 'final_started', agentId: 'alpha', mode: 'synthesize' },
  ] as RunEventBody[]) {
    it(`${body.type} has no line`, () => assert.equal(line(body), undefined));
  }
});

describe('cli progress: footerLines', () => {
  const body = (agentId: string, text: string): RunEventBody => ({ type: 'text_delta', agentId, text });
  const turn = (agentId: string): RunEventBody => ({ type: 'turn_started', agentId, round: 1, boardRevision: 0, voteOnly: false });

  /** The footer line of one agent. */
  const lineOf = (state: RunState, id: string, width = 200) => footerLines(state, width)[state.agents.findIndex((a) => a.id === id)];

  it('has one line per agent, in config order, each naming label and id', () => {
    const lines = footerLines(stateAfter(), 200);
    assert.equal(lines.length, 2);
    assert.match(lines[0], /agent1\s+alpha\s+waiting$/);
    assert.match(lines[1], /agent2\s+beta\s+waiting$/);
  });

  it('a streaming agent without text yet is thinking', () => {
    assert.match(lineOf(stateAfter(turn('alpha')), 'alpha'), /alpha\s+thinking$/);
  });

  it('a streaming agent shows a quoted preview of its stream', () => {
    assert.match(lineOf(stateAfter(turn('alpha'), body('alpha', 'Let me think')), 'alpha'), /alpha\s+"…Let me think"$/);
  });

  it('a multi-line stream preview stays on one line', () => {
    const l = lineOf(stateAfter(turn('alpha'), body('alpha', 'one\ntwo\n\nthree')), 'alpha');
    assert.ok(!l.includes('\n'));
    assert.ok(l.includes('one two three'));
  });

  it('a streaming agent shows the most recent text of its stream', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const l = lineOf(stateAfter(turn('alpha'), body('alpha', words)), 'alpha');
    assert.ok(l.includes('w39'), l);
  });

  it('a retrying agent shows the delay', () => {
    const state = stateAfter(turn('alpha'), { type: 'retry', agentId: 'alpha', attempt: 1, delayMs: 4000, error: 'e' });
    assert.match(lineOf(state, 'alpha'), /alpha\s+retrying in 4\.0s$/);
  });

  it('answered, voted and failed agents', () => {
    const state = stateAfter(
      { type: 'answer_added', agentId: 'alpha', label: 'agent1.1', version: 1, content: 'x', boardRevision: 1 },
      { type: 'vote_cast', vote: { voterId: 'beta', targetId: 'alpha', targetLabel: 'agent1.1', reason: '', seenRevision: 1 } },
    );
    assert.match(lineOf(state, 'alpha'), /alpha\s+answered agent1\.1$/);
    assert.match(lineOf(state, 'beta'), /beta\s+voted for agent1\.1$/);
    applyEvent(state, ev({ type: 'agent_failed', agentId: 'beta', cause: 'provider', error: 'quota\nexceeded' }));
    assert.match(lineOf(state, 'beta'), /beta\s+failed: quota exceeded$/);
  });

  it('shows the token count once the agent made a call', () => {
    const state = stateAfter({ type: 'usage', agentId: 'beta', usage: { inputTokens: 100, cachedInputTokens: 40, outputTokens: 23 }, costUsd: null, phase: 'coordination' });
    assert.ok(lineOf(state, 'beta').endsWith('waiting · 123 tok'));
    assert.ok(!lineOf(state, 'alpha').includes('tok'));
  });

  it('aligns the detail column across agents', () => {
    const lines = footerLines(stateAfter(), 200);
    assert.equal(lines[0].indexOf('waiting'), lines[1].indexOf('waiting'));
    assert.ok(lines[0].startsWith('  agent1 '), JSON.stringify(lines[0]));
  });

  for (const width of [21, 40, 60, 80]) {
    it(`every line fits a width of ${width} columns`, () => {
      const long = 'x'.repeat(300);
      const state = stateAfter(turn('alpha'), body('alpha', long), { type: 'agent_failed', agentId: 'beta', cause: 'provider', error: long });
      for (const l of footerLines(state, width)) {
        assert.ok(l.length <= width - 1, `${l.length}: ${l}`);
        assert.ok(!l.includes('\n'));
      }
    });
  }

  it('a narrow terminal truncates the line with …', () => {
    const state = stateAfter({ type: 'agent_failed', agentId: 'beta', cause: 'provider', error: 'x'.repeat(100) });
    const l = lineOf(state, 'beta', 30);
    assert.equal(l.length, 29);
    assert.ok(l.endsWith('…'));
  });

  it('a line that fits is not truncated', () => {
    for (const l of footerLines(stateAfter(), 200)) assert.ok(!l.endsWith('…'), l);
  });

  it('no agents → no lines', () => {
    assert.deepEqual(footerLines(reduceEvents([]), 80), []);
  });
});

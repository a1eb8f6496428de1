import assert from 'node:assert/strict';
import type { AgentInfo, RunEvent, RunEventBody, VoteRecord } from './events';
import { addUsage, applyEvent, currentVotes, emptyUsage, findAgent, initialRunState, reduceEvents, STREAM_TAIL_CHARS, type RunState } from './run-state';

const AGENTS: AgentInfo[] = [
  { id: 'a', label: 'agent1', model: 'm-a', provider: 'p', priced: false },
  { id: 'b', label: 'agent2', model: 'm-b', provider: 'p', priced: false },
  { id: 'c', label: 'agent3', model: 'm-c', provider: 'p', priced: false },
];

/** Builds a gap-free event list; each body may carry its own `t`, else t = 10 * seq. */
function events(...bodies: (RunEventBody & { t?: number })[]): RunEvent[] {
  return bodies.map((b, i) => ({ t: (i + 1) * 10, ...b, seq: i + 1 }) as RunEvent);
}

const started = (agents = AGENTS): RunEventBody => ({
  type: 'run_started',
  runId: 'run-1',
  question: 'What is 2+2?',
  agents,
  startedAt: '2025-01-01T00:00:00.000Z',
  finalAnswerMode: 'as_is',
});
const turn = (agentId: string, round = 1): RunEventBody => ({ type: 'turn_started', agentId, round, boardRevision: 0, voteOnly: false });
const answered = (agentId: string, label: string, version = 1, content = `answer ${label}`): RunEventBody => ({
  type: 'answer_added',
  agentId,
  label,
  version,
  content,
  boardRevision: 1,
});
const vr = (voterId: string, targetId: string, targetLabel: string, reason = 'good'): VoteRecord => ({ voterId, targetId, targetLabel, reason, seenRevision: 1 });
const voted = (voterId: string, targetId: string, targetLabel: string, reason = 'good'): RunEventBody => ({ type: 'vote_cast', vote: vr(voterId, targetId, targetLabel, reason) });
const delta = (agentId: string, text: string): RunEventBody => ({ type: 'text_delta', agentId, text });
const usage = (agentId: string, inputTokens: number, outputTokens: number, cachedInputTokens = 0, estimated?: boolean): RunEventBody => ({
  type: 'usage',
  agentId,
  usage: { inputTokens, outputTokens, cachedInputTokens, ...(estimated === undefined ? {} : { estimated }) },
  costUsd: null,
  phase: 'coordination',
});

const agent = (s: RunState, id: string) => {
  const a = s.agents.find((x) => x.id === id);
  assert.ok(a, `no agent ${id}`);
  return a;
};

describe('run-state: run_started', () => {
  it('initialRunState is idle and empty', () => {
    const s = initialRunState();
    assert.equal(s.phase, 'idle');
    assert.deepEqual(s.agents, []);
    assert.equal(s.winner, null);
    assert.equal(s.lastSeq, 0);
  });

  it('sets the run identity, coordinating phase and waiting agents in config order', () => {
    const s = reduceEvents(events(started()));
    assert.equal(s.runId, 'run-1');
    assert.equal(s.question, 'What is 2+2?');
    assert.equal(s.startedAt, '2025-01-01T00:00:00.000Z');
    assert.equal(s.phase, 'coordinating');
    assert.deepEqual(
      s.agents.map((a) => [a.id, a.label, a.model, a.status]),
      [
        ['a', 'agent1', 'm-a', 'waiting'],
        ['b', 'agent2', 'm-b', 'waiting'],
        ['c', 'agent3', 'm-c', 'waiting'],
      ],
    );
    for (const a of s.agents) {
      assert.equal(a.answerCount, 0);
      assert.equal(a.currentVote, null);
      assert.equal(a.turns, 0);
      assert.deepEqual(a.usage, emptyUsage());
    }
  });

  it('resets a reused state', () => {
    const s = reduceEvents(
      events(started(), turn('a'), answered('a', 'agent1.1'), voted('b', 'a', 'agent1.1'), usage('a', 10, 5), { type: 'winner_selected', agentId: 'a', label: 'agent1.1', votes: { a: 1 }, tieBreak: false, basis: 'current_votes' }, { type: 'run_ended', reason: 'consensus', winnerId: 'a', durationMs: 60, error: 'x' }),
    );
    applyEvent(s, { seq: 1, t: 0, ...started([AGENTS[2]]), runId: 'run-2', question: 'Q2' } as RunEvent);
    assert.equal(s.runId, 'run-2');
    assert.equal(s.question, 'Q2');
    assert.equal(s.phase, 'coordinating');
    assert.deepEqual(
      s.agents.map((a) => a.id),
      ['c'],
    );
    assert.deepEqual(s.answers, []);
    assert.deepEqual(s.votes, []);
    assert.equal(s.winner, null);
    assert.equal(s.finalAnswer, null);
    assert.equal(s.endReason, null);
    assert.equal(s.error, null);
    assert.deepEqual(s.usage, emptyUsage());
    assert.equal(s.lastSeq, 1);
    assert.equal(s.round, 0);
  });

  it('tracks lastSeq and elapsed time from the latest event', () => {
    const s = reduceEvents(events(started(), { type: 'round_started', round: 1, agentIds: ['a'], t: 1234 }));
    assert.equal(s.lastSeq, 2);
    assert.equal(s.elapsedMs, 1234);
    assert.equal(s.round, 1);
  });
});

describe('run-state: findAgent', () => {
  it('finds an agent by id, or undefined', () => {
    const s = reduceEvents(events(started()));
    assert.equal(findAgent(s, 'b'), s.agents[1]);
    assert.equal(findAgent(s, 'zz'), undefined);
  });

  it('follows a replaced agents array (a new run, a state restored from JSON)', () => {
    const s = reduceEvents(events(started()));
    assert.equal(findAgent(s, 'a')?.id, 'a');
    applyEvent(s, { seq: 1, t: 0, ...started([AGENTS[2]]) } as RunEvent);
    assert.equal(findAgent(s, 'a'), undefined);
    assert.equal(findAgent(s, 'c'), s.agents[0]);
    const restored: RunState = JSON.parse(JSON.stringify(s));
    applyEvent(restored, { seq: 2, t: 5, ...turn('c') } as RunEvent);
    assert.equal(restored.agents[0].status, 'streaming');
  });
});

describe('run-state: agent statuses', () => {
  it('waiting → streaming → answered → voted → restarting → completed', () => {
    const s = reduceEvents(events(started()));
    const seen: string[] = [agent(s, 'a').status];
    const steps = events(
      started(),
      turn('a'),
      answered('a', 'agent1.1'),
      turn('a', 2),
      voted('a', 'a', 'agent1.1'),
      { type: 'vote_invalidated', voterId: 'a', targetLabel: 'agent1.1', reason: 'new answer agent2.1' },
      { type: 'run_ended', reason: 'timeout', winnerId: null, durationMs: 70 },
    ).slice(1);
    for (const e of steps) {
      applyEvent(s, e);
      seen.push(agent(s, 'a').status);
    }
    assert.deepEqual(seen, ['waiting', 'streaming', 'answered', 'streaming', 'voted', 'restarting', 'completed']);
  });

  it('turn_started counts turns and records the round, clearing the stream', () => {
    const s = reduceEvents(events(started(), turn('a', 1), delta('a', 'hello'), { type: 'reasoning_delta', agentId: 'a', text: 'hmm' }, turn('a', 3)));
    assert.equal(agent(s, 'a').turns, 2);
    assert.equal(agent(s, 'a').round, 3);
    assert.equal(agent(s, 'a').streamTail, '');
    assert.equal(agent(s, 'a').reasoningTail, '');
  });

  it('answer_added records count and latest label', () => {
    const s = reduceEvents(events(started(), answered('b', 'agent2.1', 1), answered('b', 'agent2.2', 2, 'v2')));
    assert.equal(agent(s, 'b').answerCount, 2);
    assert.equal(agent(s, 'b').latestAnswerLabel, 'agent2.2');
    assert.deepEqual(
      s.answers.map((x) => [x.agentId, x.label, x.version, x.content, x.t]),
      [
        ['b', 'agent2.1', 1, 'answer agent2.1', 20],
        ['b', 'agent2.2', 2, 'v2', 30],
      ],
    );
  });

  it('turn_failed with a retry → restarting; without → status unchanged', () => {
    const s = reduceEvents(events(started(), turn('a'), turn('b'), { type: 'turn_failed', agentId: 'a', cause: 'provider', error: 'boom', willRetry: true }, { type: 'turn_failed', agentId: 'b', cause: 'provider', error: 'boom', willRetry: false }));
    assert.equal(agent(s, 'a').status, 'restarting');
    assert.equal(agent(s, 'b').status, 'streaming');
  });

  it('agent_failed → failed with the error, and stays failed at run_ended', () => {
    const s = reduceEvents(events(started(), turn('a'), voted('a', 'b', 'agent2.1'), { type: 'agent_failed', agentId: 'a', cause: 'provider', error: 'auth failed' }, { type: 'run_ended', reason: 'consensus', winnerId: 'b', durationMs: 50 }));
    assert.equal(agent(s, 'a').status, 'failed');
    assert.equal(agent(s, 'a').error, 'auth failed');
    assert.equal(agent(s, 'a').currentVote, null);
    assert.equal(agent(s, 'b').status, 'completed');
    assert.equal(agent(s, 'c').status, 'completed');
  });

  it('vote_invalidated does not turn a streaming agent into restarting', () => {
    const s = reduceEvents(events(started(), voted('a', 'b', 'agent2.1'), turn('a', 2), { type: 'vote_invalidated', voterId: 'a', targetLabel: 'agent2.1', reason: 'r' }));
    assert.equal(agent(s, 'a').status, 'streaming');
    assert.equal(agent(s, 'a').currentVote, null);
  });

  it('events update the agent lastActivity', () => {
    const s = reduceEvents(events(started(), delta('b', 'x'), { ...delta('b', 'y'), t: 999 }));
    assert.equal(agent(s, 'b').lastActivity, 999);
    assert.equal(agent(s, 'a').lastActivity, 10);
  });

  it('events for unknown agents are ignored without throwing', () => {
    const s = reduceEvents(events(started(), turn('ghost'), delta('ghost', 'x'), answered('ghost', 'agent9.1'), { type: 'agent_failed', agentId: 'ghost', cause: 'provider', error: 'x' }));
    assert.ok(s.agents.every((a) => a.status === 'waiting'));
  });
});

describe('run-state: votes', () => {
  it('vote_cast records the vote, marks the voter voted with a current vote', () => {
    const s = reduceEvents(events(started(), answered('a', 'agent1.1'), voted('b', 'a', 'agent1.1', 'best')));
    assert.equal(agent(s, 'b').status, 'voted');
    assert.deepEqual(agent(s, 'b').currentVote, vr('b', 'a', 'agent1.1', 'best'));
    assert.deepEqual(s.votes, [{ ...vr('b', 'a', 'agent1.1', 'best'), t: 30, stale: false }]);
  });

  it("vote_invalidated marks the voter's latest vote stale with the reason and clears currentVote", () => {
    const s = reduceEvents(
      events(
        started(),
        voted('b', 'a', 'agent1.1', 'first'),
        { type: 'vote_invalidated', voterId: 'b', targetLabel: 'agent1.1', reason: 'new answer agent3.1' },
        voted('c', 'a', 'agent1.1'),
        voted('b', 'c', 'agent3.1', 'second'),
        { type: 'vote_invalidated', voterId: 'b', targetLabel: 'agent3.1', reason: 'new answer agent1.2' },
      ),
    );
    assert.deepEqual(
      s.votes.map((v) => [v.voterId, v.reason, v.stale, v.staleReason]),
      [
        ['b', 'first', true, 'new answer agent3.1'],
        ['c', 'good', false, undefined],
        ['b', 'second', true, 'new answer agent1.2'],
      ],
    );
    assert.equal(agent(s, 'b').currentVote, null);
    assert.equal(agent(s, 'b').status, 'restarting');
    assert.notEqual(agent(s, 'c').currentVote, null);
  });

  it("vote_invalidated does not touch other voters' votes", () => {
    const s = reduceEvents(events(started(), voted('a', 'b', 'agent2.1'), voted('c', 'b', 'agent2.1'), { type: 'vote_invalidated', voterId: 'c', targetLabel: 'agent2.1', reason: 'r' }));
    assert.equal(s.votes[0].stale, false);
    assert.equal(s.votes[1].stale, true);
    assert.equal(agent(s, 'a').status, 'voted');
  });

  it('a new vote replaces currentVote', () => {
    const s = reduceEvents(events(started(), voted('a', 'b', 'agent2.1'), voted('a', 'c', 'agent3.1')));
    assert.equal(agent(s, 'a').currentVote?.targetLabel, 'agent3.1');
  });

  it('currentVotes lists current votes in config order and excludes failed and invalidated agents', () => {
    const s = reduceEvents(
      events(
        started(),
        voted('c', 'a', 'agent1.1'),
        voted('b', 'a', 'agent1.1'),
        voted('a', 'b', 'agent2.1'),
        { type: 'vote_invalidated', voterId: 'b', targetLabel: 'agent1.1', reason: 'r' },
      ),
    );
    assert.deepEqual(
      currentVotes(s).map((v) => v.voterId),
      ['a', 'c'],
    );
    // A failed voter's vote stops counting even if only its status says so.
    agent(s, 'c').status = 'failed';
    assert.deepEqual(
      currentVotes(s).map((v) => v.voterId),
      ['a'],
    );
  });

  it('agent_failed drops the failed agent from currentVotes', () => {
    const s = reduceEvents(events(started(), voted('a', 'b', 'agent2.1'), voted('b', 'b', 'agent2.1'), { type: 'agent_failed', agentId: 'a', cause: 'provider', error: 'x' }));
    assert.deepEqual(
      currentVotes(s).map((v) => v.voterId),
      ['b'],
    );
  });
});

describe('run-state: usage', () => {
  it('sums usage per agent and in total, counting calls', () => {
    const s = reduceEvents(events(started(), usage('a', 100, 10, 40), usage('a', 50, 5, 0), usage('b', 7, 3, 1)));
    assert.deepEqual(agent(s, 'a').usage, { inputTokens: 150, cachedInputTokens: 40, outputTokens: 15, calls: 2, estimated: false, costUsd: 0, unpricedCalls: 2 });
    assert.deepEqual(agent(s, 'b').usage, { inputTokens: 7, cachedInputTokens: 1, outputTokens: 3, calls: 1, estimated: false, costUsd: 0, unpricedCalls: 1 });
    assert.deepEqual(s.usage, { inputTokens: 157, cachedInputTokens: 41, outputTokens: 18, calls: 3, estimated: false, costUsd: 0, unpricedCalls: 3 });
    assert.deepEqual(agent(s, 'c').usage, emptyUsage());
  });

  it('`estimated` is sticky once any figure was estimated', () => {
    const s = reduceEvents(events(started(), usage('a', 1, 1, 0, true), usage('a', 1, 1, 0, false), usage('a', 1, 1)));
    assert.equal(agent(s, 'a').usage.estimated, true);
    assert.equal(s.usage.estimated, true);
    assert.equal(agent(s, 'b').usage.estimated, false);
  });

  it('usage of an unknown agent still counts in the total', () => {
    const s = reduceEvents(events(started(), usage('ghost', 5, 6)));
    assert.equal(s.usage.inputTokens, 5);
    assert.equal(s.usage.calls, 1);
  });

  it('addUsage adds tokens and cost into the totals in place, counting unpriced calls', () => {
    const t = emptyUsage();
    addUsage(t, { inputTokens: 3, cachedInputTokens: 2, outputTokens: 1 }, 0.25);
    addUsage(t, { inputTokens: 3, cachedInputTokens: 0, outputTokens: 1, estimated: true }, null);
    addUsage(t, { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1 }, 0.5);
    assert.deepEqual(t, { inputTokens: 7, cachedInputTokens: 2, outputTokens: 3, calls: 3, estimated: true, costUsd: 0.75, unpricedCalls: 1 });
  });
});

describe('run-state: stream tail and retries', () => {
  it('appends text deltas', () => {
    const s = reduceEvents(events(started(), turn('a'), delta('a', 'Hello, '), delta('a', 'world')));
    assert.equal(agent(s, 'a').streamTail, 'Hello, world');
  });

  it(`keeps only the last ${STREAM_TAIL_CHARS} characters`, () => {
    const big = 'x'.repeat(STREAM_TAIL_CHARS - 2);
    const s = reduceEvents(events(started(), turn('a'), delta('a', 'HEAD'), delta('a', big), delta('a', 'TAIL')));
    const t = agent(s, 'a').streamTail;
    assert.equal(t.length, STREAM_TAIL_CHARS);
    assert.ok(t.endsWith('xxTAIL'));
    assert.ok(!t.includes('H'));
  });

  it('bounds the reasoning tail too', () => {
    const s = reduceEvents(events(started(), { type: 'reasoning_delta', agentId: 'a', text: 'r'.repeat(STREAM_TAIL_CHARS + 50) }));
    assert.equal(agent(s, 'a').reasoningTail.length, STREAM_TAIL_CHARS);
  });

  it('a retry records its info and resets the stream tail', () => {
    const s = reduceEvents(events(started(), turn('a'), delta('a', 'partial'), { type: 'retry', agentId: 'a', attempt: 2, delayMs: 2000, error: '429', t: 55 }));
    assert.deepEqual(agent(s, 'a').retry, { attempt: 2, delayMs: 2000, at: 55, error: '429' });
    assert.equal(agent(s, 'a').streamTail, '');
  });

  it('the first text delta after a retry clears the retry info', () => {
    const s = reduceEvents(events(started(), turn('a'), { type: 'retry', agentId: 'a', attempt: 1, delayMs: 10, error: 'e' }, delta('a', 'back')));
    assert.equal(agent(s, 'a').retry, null);
    assert.equal(agent(s, 'a').streamTail, 'back');
  });

  it('a new turn clears the retry info', () => {
    const s = reduceEvents(events(started(), { type: 'retry', agentId: 'a', attempt: 1, delayMs: 10, error: 'e' }, turn('a')));
    assert.equal(agent(s, 'a').retry, null);
  });

  it('agent_failed and run_ended clear the retry info', () => {
    const r = { type: 'retry', agentId: 'a', attempt: 1, delayMs: 10, error: 'e' } as const;
    const s1 = reduceEvents(events(started(), r, { type: 'agent_failed', agentId: 'a', cause: 'provider', error: 'gave up' }));
    assert.equal(agent(s1, 'a').retry, null);
    const s2 = reduceEvents(events(started(), r, { ...r, agentId: 'b' }, { type: 'run_ended', reason: 'timeout', winnerId: null, durationMs: 1 }));
    assert.ok(s2.agents.every((a) => a.retry === null));
  });

  it('final_started in synthesize mode clears the winner stream tail; as_is keeps it', () => {
    const s1 = reduceEvents(events(started(), delta('a', 'old'), { type: 'final_started', agentId: 'a', mode: 'synthesize' }));
    assert.equal(agent(s1, 'a').streamTail, '');
    const s2 = reduceEvents(events(started(), delta('a', 'old'), { type: 'final_started', agentId: 'a', mode: 'as_is' }));
    assert.equal(agent(s2, 'a').streamTail, 'old');
  });
});

describe('run-state: outcome', () => {
  it('records the winner', () => {
    const s = reduceEvents(events(started(), { type: 'winner_selected', agentId: 'b', label: 'agent2.1', votes: { b: 2, a: 1 }, tieBreak: true, basis: 'latest_votes' }));
    assert.deepEqual(s.winner, { agentId: 'b', label: 'agent2.1', votes: { b: 2, a: 1 }, tieBreak: true, basis: 'latest_votes' });
  });

  it('final_started → presenting; final_answer recorded with fallback', () => {
    const s = reduceEvents(
      events(started(), { type: 'final_started', agentId: 'b', mode: 'synthesize' }, { type: 'final_answer', agentId: 'b', label: 'agent2.1', content: 'FINAL', mode: 'as_is', fallback: 'synthesis failed' }),
    );
    assert.equal(s.phase, 'presenting');
    assert.deepEqual(s.finalAnswer, { agentId: 'b', label: 'agent2.1', content: 'FINAL', mode: 'as_is', fallback: 'synthesis failed' });
  });

  it('run_ended → done with the end reason and error', () => {
    const s = reduceEvents(events(started(), { type: 'run_ended', reason: 'all_failed', winnerId: null, durationMs: 20, error: 'every agent failed' }));
    assert.equal(s.phase, 'done');
    assert.equal(s.endReason, 'all_failed');
    assert.equal(s.error, 'every agent failed');
  });

  it('run_ended without an error leaves error null', () => {
    const s = reduceEvents(events(started(), { type: 'run_ended', reason: 'consensus', winnerId: 'a', durationMs: 20 }));
    assert.equal(s.error, null);
    assert.equal(s.endReason, 'consensus');
  });

  it('reduceEvents equals applying each event to a fresh state', () => {
    const evs = events(started(), turn('a'), answered('a', 'agent1.1'), voted('b', 'a', 'agent1.1'), usage('b', 1, 2));
    const manual = initialRunState();
    for (const e of evs) applyEvent(manual, e);
    assert.deepEqual(reduceEvents(evs), manual);
  });
});

describe('run-state: tool use', () => {
  it('counts each non-coordination tool\'s calls and failures per agent', () => {
    const result = (agentId: string, name: string, ok: boolean): RunEventBody => ({ type: 'tool_result', agentId, callId: `c-${name}-${ok}`, name, ok, summary: '' });
    const s = reduceEvents(events(started(), turn('a'), result('a', 'execute_command', true), result('a', 'execute_command', false), result('a', 'read_file', true), result('a', 'new_answer', true), result('a', 'vote', false)));
    assert.deepEqual(agent(s, 'a').toolUse, { execute_command: { calls: 2, failed: 1 }, read_file: { calls: 1, failed: 0 } });
    assert.deepEqual(agent(s, 'b').toolUse, {});
  });
});

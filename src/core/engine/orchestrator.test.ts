import assert from 'node:assert/strict';
import { ProviderError, type ModelRequest } from '../providers/types';
import { reply, requestText, type Script } from '../providers/scripted';
import { ENFORCEMENT_MESSAGE } from './prompts';
import { reduceEvents } from './run-state';
import { FakeClock } from '../../../test/helpers/fake-clock';
import { boardHasAnswers, runTeam as runTeamOn, type TeamMember } from '../../../test/helpers/test-team';
import { estimatePromptTokens } from './budget';
import { shareRoom } from './context-fit';
import { byInformed } from './finish';
import type { AgentWorkspace } from './ports';
import { OpenAICompatibleProvider } from '../providers/openai-compatible';
import { startFakeOpenAI } from '../../../test/fakes/openai-server';

/** Answers first, then votes for `target` once answers are visible. */
function answerThenVote(content: string, target: string, reason = 'correct and complete'): Script {
  return (req) => (boardHasAnswers(req) ? reply.vote(target, reason) : reply.answer(content));
}

const seq = (...replies: ReturnType<Script>[]): Script => (_req, i) => replies[Math.min(i, replies.length - 1)];

/**
 * Every run here is on a fake clock: scripted delays, back-offs and timeouts are scripted time, so which turn ends
 * first depends on the script alone, however loaded the machine is, and a 5 s delay costs nothing.
 */
const runTeam = (members: TeamMember[], opts: Parameters<typeof runTeamOn>[1] = {}) => runTeamOn(members, { clock: new FakeClock(), ...opts });

function member(id: string, script: Script): TeamMember {
  return { id, script };
}

function toolMessagesAnswerEveryCall(requests: ModelRequest[]): void {
  for (const req of requests) {
    req.messages.forEach((m, i) => {
      if (m.role !== 'assistant' || !m.toolCalls) return;
      const answered = new Set(req.messages.slice(i + 1).flatMap((n) => (n.role === 'tool' ? [n.toolCallId] : [])));
      for (const c of m.toolCalls) assert.ok(answered.has(c.id), `tool call ${c.id} (${c.name}) has no result`);
    });
  }
}

describe('orchestrator: consensus', () => {
  it('reaches consensus at once with 2N calls and returns the voted answer as is', async () => {
    const team = runTeam([
      member('a', answerThenVote('four', 'agent1')),
      member('b', answerThenVote('4', 'agent1')),
      member('c', answerThenVote('It is 4', 'agent1')),
    ]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerId, 'a');
    assert.equal(result.winnerLabel, 'agent1.1');
    assert.equal(result.finalAnswer, 'four');
    const calls = Object.values(team.providers).reduce((n, p) => n + p.callCount, 0);
    assert.equal(calls, 6);
    assert.deepEqual(team.of('winner_selected')[0].votes, { a: 3 });
    assert.equal(team.of('run_ended').length, 1);
  });

  it('shows every agent all answers anonymously, in config order, and never the tally', async () => {
    const team = runTeam([
      member('x', answerThenVote('ANSWER-X', 'agent2')),
      member('y', answerThenVote('ANSWER-Y', 'agent2')),
    ]);
    await team.result;
    const request = team.requests('x')[1];
    const second = requestText(request);
    // Its own answer is in its new_answer call: the board refers to it under its label instead of repeating it.
    assert.ok(request.messages.some((m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.name === 'new_answer' && c.arguments.includes('ANSWER-X'))));
    assert.match(second, /Your answer was recorded as agent1\.1\./);
    assert.match(second, /<agent1> your own answer agent1\.1, as in your new_answer call above <end of agent1>/);
    assert.doesNotMatch(second, /ANSWER-X/);
    assert.doesNotMatch(second, /vote before this update/, 'it has not voted yet');
    assert.match(second, /<agent2> ANSWER-Y <end of agent2>/);
    assert.doesNotMatch(second, /\bx\b.*ANSWER|\by\b.*ANSWER/);
    assert.doesNotMatch(second, /vote(s)? (count|tally)|received \d+ vote/i);
  });

  it('labels agents by config order even when a later agent answers first', async () => {
    const team = runTeam([
      member('slow', (req) => (boardHasAnswers(req) ? reply.vote('agent2') : reply.answer('slow answer', { delayMs: 40 }))),
      member('fast', answerThenVote('fast answer', 'agent2')),
    ]);
    const result = await team.result;
    const added = team.of('answer_added');
    assert.deepEqual(added.map((e) => e.label), ['agent2.1', 'agent1.1']);
    assert.equal(result.winnerId, 'fast');
    assert.equal(result.winnerLabel, 'agent2.1');
  });

  it('runs agents concurrently within a round', async () => {
    const team = runTeam(['a', 'b', 'c'].map((id) => member(id, (req) => (boardHasAnswers(req) ? reply.vote('agent1') : reply.answer(`ans ${id}`, { delayMs: 80 })))));
    const result = await team.result;
    assert.equal(result.durationMs, 80, 'three 80 ms answers overlap (votes take no time)');
  });

  it('answers every tool call id in later requests', async () => {
    const team = runTeam([member('a', answerThenVote('one', 'agent1')), member('b', answerThenVote('two', 'agent1'))]);
    await team.result;
    toolMessagesAnswerEveryCall([...team.requests('a'), ...team.requests('b')]);
  });

  it('breaks ties by config order and says so', async () => {
    const team = runTeam([
      member('a', answerThenVote('A', 'agent1')),
      member('b', answerThenVote('B', 'agent2')),
    ]);
    const result = await team.result;
    assert.equal(result.winnerId, 'a');
    const w = team.of('winner_selected')[0];
    assert.equal(w.tieBreak, true);
    assert.deepEqual(w.votes, { a: 1, b: 1 });
  });

  it('a single agent answers then votes for itself (2 calls)', async () => {
    const team = runTeam([member('solo', answerThenVote('alone', 'agent1'))]);
    const result = await team.result;
    assert.equal(result.finalAnswer, 'alone');
    assert.equal(team.providers.solo.callCount, 2);
  });
});

describe('orchestrator: revisions and stale votes', () => {
  it('converges after one revision: votes made before it are re-asked, not counted', async () => {
    const b: Script = (_req, i) => {
      if (i === 0) return reply.answer('b first draft');
      if (i === 1) return reply.answer('b improved answer');
      return reply.vote('agent2', 'b improved is best');
    };
    const team = runTeam([member('a', answerThenVote('a answer', 'agent2')), member('b', b), member('c', answerThenVote('c answer', 'agent2'))]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerId, 'b');
    assert.equal(result.winnerLabel, 'agent2.2');
    assert.equal(result.finalAnswer, 'b improved answer');
    const counted = team.of('winner_selected')[0].votes;
    assert.deepEqual(counted, { b: 3 });
    // a and c voted for agent2.1 in round 2; those votes went stale when agent2.2 arrived
    const invalidated = team.of('vote_invalidated');
    assert.ok(invalidated.some((e) => e.voterId === 'a' && e.targetLabel === 'agent2.1'));
    assert.ok(invalidated.some((e) => e.voterId === 'c' && e.targetLabel === 'agent2.1'));
  });

  it('never counts a vote cast on an old version (upstream credits it to the latest)', async () => {
    // b revises in round 2 while a, slower, is still deciding on b's first version.
    const a: Script = (_req, i) => (i === 0 ? reply.answer('a answer') : i === 1 ? reply.vote('agent2', 'b v1 is right', { delayMs: 60 }) : reply.vote('agent1', 'after seeing b v2, mine is better'));
    const b: Script = (_req, i) => (i === 0 ? reply.answer('b v1') : i === 1 ? reply.answer('b v2, subtly wrong') : reply.vote('agent1', 'a is right'));
    const team = runTeam([member('a', a), member('b', b)]);
    const result = await team.result;
    const aVotes = team.of('vote_cast').filter((e) => e.vote.voterId === 'a');
    assert.equal(aVotes[0].vote.targetLabel, 'agent2.1');
    assert.ok(team.of('vote_invalidated').some((e) => e.voterId === 'a' && /agent2\.2/.test(e.reason)));
    assert.equal(result.winnerId, 'a');
    assert.deepEqual(team.of('winner_selected')[0].votes, { a: 2 });
    const state = reduceEvents(team.events);
    assert.equal(state.votes.find((v) => v.voterId === 'a' && v.targetLabel === 'agent2.1')?.stale, true);
  });

  it('delivers new answers at the next turn without losing the conversation (compaction off)', async () => {
    const a: Script = (_req, i) => (i === 0 ? reply.answer('a answer') : i === 1 ? reply.vote('agent1', 'mine', { delayMs: 50 }) : reply.vote('agent2'));
    const b: Script = (_req, i) => (i === 0 ? reply.answer('b answer') : i === 1 ? reply.answer('B-REVISED-TEXT') : reply.vote('agent2'));
    const team = runTeam([member('a', a), member('b', b)], { orchestrator: { contextCompaction: 'never' } });
    await team.result;
    const reqs = team.requests('a');
    const third = reqs[2];
    assert.match(requestText(third), /B-REVISED-TEXT/);
    // the earlier exchange is still there, verbatim: same first user message, same assistant calls
    assert.deepEqual(third.messages.slice(0, reqs[1].messages.length), reqs[1].messages);
    const update = third.messages[third.messages.length - 1];
    assert.equal(update.role, 'user');
    assert.match(update.content, /UPDATE: While you were working, new answers were provided/);
    assert.match(update.content, /<agent2> B-REVISED-TEXT <end of agent2>/);
    assert.doesNotMatch(update.content, /<agent1> a answer/, 'unchanged answers are not resent');
    assert.match(update.content, /Your vote before this update was not counted\./, 'it voted last turn');
    assert.ok(team.of('agent_updated').some((e) => e.agentId === 'a' && e.labels.includes('agent2.2') && e.via === 'next_turn'));
  });

  it('with compaction (the default), a revised answer replaces the old version: a fresh prompt, not a longer one', async () => {
    const a: Script = (_req, i) => (i === 0 ? reply.answer('a answer') : i === 1 ? reply.vote('agent1', 'mine', { delayMs: 50 }) : reply.vote('agent2'));
    const b: Script = (_req, i) => (i === 0 ? reply.answer('B-FIRST-DRAFT') : i === 1 ? reply.answer('B-REVISED-TEXT') : reply.vote('agent2'));
    const team = runTeam([member('a', a), member('b', b)]);
    const result = await team.result;
    assert.equal(result.winnerLabel, 'agent2.2');
    const third = team.requests('a')[2];
    assert.equal(third.messages.length, 1, 'one fresh user message');
    const text = third.messages[0].content;
    // Its own answer in full: the rebuild dropped the new_answer call it was in.
    assert.match(text, /<agent1> a answer <end of agent1>/);
    assert.match(text, /<agent2> B-REVISED-TEXT <end of agent2>/);
    assert.doesNotMatch(text, /B-FIRST-DRAFT/, 'the superseded version is gone');
    assert.match(text, /revised since your last turn; the CURRENT ANSWERS above are the latest versions\. Your vote before was not counted\./, 'it voted last turn');
    // The next revision rebuilds it again: its first turn is not worth a cache write, unlike the original one.
    assert.deepEqual(team.requests('a').map((r) => r.cacheHead), [true, true, false]);
    assert.ok(team.of('agent_updated').some((e) => e.agentId === 'a' && e.labels.includes('agent2.2')));
  });

  it('without revisions the conversation continues (no compaction when nothing was superseded)', async () => {
    const team = runTeam([member('a', answerThenVote('A', 'agent1')), member('b', answerThenVote('B', 'agent1'))]);
    await team.result;
    const second = team.requests('a')[1];
    assert.ok(second.messages.length > 1, 'the first exchange is kept');
    assert.match(second.messages[0].content, /no answers available yet/);
  });

  it('delivers a new answer to an agent in the middle of a tool loop, in its very next request', async () => {
    const clock = new FakeClock();
    const a: Script = (_req, i) => {
      if (i === 0) return { toolCalls: [{ name: 'lookup', arguments: { q: 'facts' } }] };
      if (i === 1) return reply.answer('a answer using facts');
      return reply.vote('agent1');
    };
    const b: Script = (_req, i) => (i === 0 ? reply.answer('NEWS-FROM-B') : reply.vote('agent1'));
    const team = runTeam([
      {
        id: 'a',
        script: a,
        toolbox: {
          tools: [{ name: 'lookup', description: 'look up', parameters: { type: 'object', properties: {} } }],
          // b answers (at once) while a's tool runs; then the tool finishes.
          execute: () => new Promise((resolve) => clock.setTimeout(() => resolve({ ok: true, content: 'TOOL-RESULT' }), 30)),
        },
      },
      { id: 'b', script: b },
    ], { clock });
    await team.result;
    const second = team.requests('a')[1];
    const text = requestText(second);
    assert.match(text, /TOOL-RESULT/);
    assert.match(text, /<agent2> NEWS-FROM-B <end of agent2>/);
    assert.equal(second.messages[0].role, 'user');
    assert.match(second.messages[0].content, /no answers available yet/, 'original context kept');
    assert.ok(team.of('agent_updated').some((e) => e.agentId === 'a' && e.via === 'tool_result'));
    toolMessagesAnswerEveryCall(team.requests('a'));
  });
});

describe('orchestrator: validation and enforcement', () => {
  it('corrects a tool-less reply with the enforcement message and continues', async () => {
    const a = seq(reply.text('I think the answer is 4.'), reply.answer('4'), reply.vote('agent1'));
    const team = runTeam([member('a', a)]);
    const result = await team.result;
    assert.equal(result.finalAnswer, '4');
    const second = team.requests('a')[1];
    assert.equal(second.messages[second.messages.length - 1].content, ENFORCEMENT_MESSAGE);
    assert.equal(team.of('correction').length, 1);
  });

  it('accepts coordination calls written as JSON text by models without tool calling', async () => {
    const a = seq(
      reply.text('Here is my answer:\n```json\n{"tool_name": "new_answer", "arguments": {"content": "42, as text"}}\n```'),
      reply.text('{"tool_name": "vote", "arguments": {"agent_id": "agent1", "reason": "only one"}}'),
    );
    const team = runTeam([member('a', a)]);
    const result = await team.result;
    assert.equal(result.finalAnswer, '42, as text');
    assert.equal(team.providers.a.callCount, 2);
    const second = team.requests('a')[1];
    assert.ok(second.messages.every((m) => m.role !== 'tool' && !(m.role === 'assistant' && m.toolCalls)), 'no tool messages for text calls');
    assert.match(second.messages[second.messages.length - 1].content, /\[new_answer result\] Your answer was recorded as agent1\.1\./);
  });

  it('falls back to JSON text calls when the server refuses tool definitions', async () => {
    const a: Script = (req) => {
      if (req.tools.length > 0) return { error: new ProviderError('invalid_request', '400 registry.ollama.ai/library/tiny does not support tools') };
      return boardHasAnswers(req) ? reply.text('{"tool_name": "vote", "arguments": {"agent_id": "agent1", "reason": "ok"}}') : reply.text('{"tool_name": "new_answer", "arguments": {"content": "tiny answer"}}');
    };
    const team = runTeam([member('a', a)]);
    const result = await team.result;
    assert.equal(result.finalAnswer, 'tiny answer');
    assert.equal(team.providers.a.callCount, 3);
    assert.match(team.requests('a')[1].system, /reply with only one JSON object/);
    assert.equal(team.of('agent_failed').length, 0);
  });

  it('offers the JSON text form after a second reply without any call', async () => {
    const a = seq(reply.text('chat'), reply.text('more chat'), reply.answer('done'), reply.vote('agent1'));
    const team = runTeam([member('a', a)]);
    await team.result;
    const third = team.requests('a')[2];
    assert.match(third.messages[third.messages.length - 1].content, /reply with only one JSON object/);
    assert.doesNotMatch(team.requests('a')[1].messages[1].content, /JSON object/);
  });

  it('refuses a vote before any answer exists', async () => {
    const a = seq(reply.vote('agent1'), reply.answer('fine'), reply.vote('agent1'));
    const team = runTeam([member('a', a)]);
    await team.result;
    const toolMsg = team.requests('a')[1].messages.find((m) => m.role === 'tool');
    assert.equal(toolMsg?.content, 'Cannot vote when no answers exist. Use new_answer tool.');
  });

  it('refuses votes for unknown agents, listing the valid ones', async () => {
    const team = runTeam([member('a', answerThenVote('A', 'agent1')), member('b', seq(reply.answer('B'), reply.vote('agent7'), reply.vote('agent2')))]);
    const result = await team.result;
    const tool = team.requests('b')[2].messages.filter((m) => m.role === 'tool').pop();
    assert.equal(tool?.content, "Invalid agent_id 'agent7'. Valid agents: agent1, agent2");
    assert.equal(result.reason, 'consensus');
  });

  it('refuses vote and new_answer in the same response', async () => {
    const both = { toolCalls: [{ name: 'new_answer', arguments: { content: 'x' } }, { name: 'vote', arguments: { agent_id: 'agent1', reason: 'r' } }] };
    const team = runTeam([member('a', seq(reply.answer('A'), both, reply.vote('agent1')))]);
    await team.result;
    const tools = team.requests('a')[2].messages.filter((m) => m.role === 'tool').slice(-2);
    assert.equal(tools.length, 2);
    for (const t of tools) assert.match(t.content, /Cannot use both 'vote' and 'new_answer'/);
  });

  it('refuses multiple votes, answering each call', async () => {
    const two = { toolCalls: [{ name: 'vote', arguments: { agent_id: 'agent1', reason: 'r' } }, { name: 'vote', arguments: { agent_id: 'agent1', reason: 'another reason' } }] };
    const team = runTeam([member('a', seq(reply.answer('A'), two, reply.vote('agent1')))]);
    await team.result;
    const tools = team.requests('a')[2].messages.filter((m) => m.role === 'tool').slice(-2);
    assert.match(tools[0].content, /Multiple vote calls not allowed\. Made 2 calls/);
    assert.equal(tools[1].content, 'Vote rejected due to multiple votes.');
  });

  it('takes the same call sent twice in one reply (llama.cpp) as one call, without a correction, answering both ids', async () => {
    const twice = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }, { name, arguments: JSON.stringify(args) }] });
    const team = runTeam([
      member('a', seq(twice('new_answer', { content: 'A' }), twice('vote', { agent_id: 'agent1', reason: 'r' }))),
      member('b', seq(reply.answer('B'), reply.vote('agent1'))),
    ]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerLabel, 'agent1.1');
    assert.equal(team.of('correction').length, 0);
    assert.equal(team.providers.a.callCount, 2);
    assert.equal(team.of('answer_added').filter((e) => e.agentId === 'a').length, 1);
    assert.equal(team.of('vote_cast').filter((e) => e.vote.voterId === 'a').length, 1);
    toolMessagesAnswerEveryCall(team.requests('a'));
    const tools = team.requests('a')[1].messages.filter((m) => m.role === 'tool');
    assert.deepEqual(tools.map((m) => m.content), ['Your answer was recorded as agent1.1.', 'Ignored: the same new_answer call as the one before it in this response, which counts once.']);
  });

  it('takes the same call written twice as JSON text as one call', async () => {
    const call = '{"tool_name": "new_answer", "arguments": {"content": "42, as text"}}';
    const a = seq(reply.text(`${call}\n${call}`), reply.text('{"tool_name": "vote", "arguments": {"agent_id": "agent1", "reason": "only one"}}'));
    const team = runTeam([member('a', a)]);
    const result = await team.result;
    assert.equal(result.finalAnswer, '42, as text');
    assert.equal(team.of('correction').length, 0);
    assert.equal(team.providers.a.callCount, 2);
    assert.match(requestText(team.requests('a')[1]), /\[new_answer result\] Your answer was recorded as agent1\.1\.\n\n?\[new_answer result\] Ignored: the same new_answer call/);
  });

  it('refuses malformed JSON arguments with an example of the right shape', async () => {
    const bad = { toolCalls: [{ name: 'new_answer', arguments: '{"content": "unterminated' }] };
    const team = runTeam([member('a', seq(bad, reply.answer('ok'), reply.vote('agent1')))]);
    const result = await team.result;
    assert.equal(result.finalAnswer, 'ok');
    const tool = team.requests('a')[1].messages.find((m) => m.role === 'tool');
    assert.match(tool!.content, /not valid JSON/);
    assert.match(tool!.content, /\{"content": "\.\.\."\}/);
  });

  it('an answer reached on its own, word for word the only one on the board it was not shown, is its vote for that one', async () => {
    const team = runTeam([
      member('a', answerThenVote('same text', 'agent1')),
      member('b', (_req, i) => (i === 0 ? reply.answer('same text', { delayMs: 20 }) : reply.vote('agent1'))),
    ]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.deepEqual(team.of('answer_added').map((e) => e.label), ['agent1.1']);
    assert.deepEqual(team.of('vote_cast').map((e) => [e.vote.voterId, e.vote.targetLabel]).sort(), [['a', 'agent1.1'], ['b', 'agent1.1']]);
    const told = team.of('tool_result').find((e) => e.agentId === 'b')!;
    assert.equal(told.name, 'new_answer');
    assert.match(told.summary, /Your answer is the same as agent1's, so it is taken as your vote for agent1\./);
    assert.equal(team.requests('b').length, 1, 'b was not asked again');
  });

  it('refuses an exact duplicate of an answer the agent has not been shown while other answers are new to it too', async () => {
    const team = runTeam([
      member('a', answerThenVote('same text', 'agent1')),
      member('c', answerThenVote('another text', 'agent1')),
      member('b', (_req, i) => (i === 0 ? reply.answer('same text', { delayMs: 20 }) : reply.vote('agent1'))),
    ]);
    await team.result;
    const tool = team.requests('b')[1].messages.filter((m) => m.role === 'tool').pop();
    assert.equal(tool?.content, 'Answer already provided by agent1. Provide different answer or vote for existing one.');
  });

  it('counts an answer sent back word for word after being shown it as a vote for it', async () => {
    const team = runTeam([
      member('a', answerThenVote('same text', 'agent1')),
      member('b', (_req, i) => (i === 0 ? reply.answer('first b', { delayMs: 20 }) : reply.answer('same text'))),
    ]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.deepEqual(team.of('vote_cast').find((e) => e.vote.voterId === 'b')?.vote.targetLabel, 'agent1.1');
    assert.equal(team.of('correction').length, 0);
    const told = team.of('tool_result').filter((e) => e.agentId === 'b' && e.name === 'new_answer').pop();
    assert.equal(told?.summary, "Your vote was recorded. Your answer is the same as agent1's, so it is taken as your vote for agent1.");
  });

  it('a team of models that only ever call new_answer with the same text reaches consensus in N + 1 calls', async () => {
    const team = runTeam(['a', 'b', 'c'].map((id, i) => member(id, () => reply.answer('THE ANSWER', { delayMs: 10 + 5 * i }))));
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerLabel, 'agent1.1');
    assert.equal(team.of('turn_failed').length, 0, 'no agent failed');
    // a's answer; b's and c's, the same, are their votes; a's second, its own answer again, is its vote.
    assert.equal(Object.values(team.providers).reduce((n, p) => n + p.callCount, 0), 4);
  });

  it('refuses answers too similar under balanced novelty (Jaccard > 0.70)', async () => {
    const base = 'the answer is four because two plus two equals four in arithmetic';
    const near = 'the answer is four because two plus two equals four in basic arithmetic';
    const team = runTeam(
      [member('a', answerThenVote(base, 'agent1')), member('b', (_req, i) => (i === 0 ? reply.answer('b original idea', { delayMs: 20 }) : i === 1 ? reply.answer(near) : reply.vote('agent1')))],
      { orchestrator: { answerNoveltyRequirement: 'balanced' } },
    );
    await team.result;
    const tool = team.requests('b')[2].messages.filter((m) => m.role === 'tool').pop();
    assert.match(tool!.content, /overlaps \d+% with agent1's answer \(more than 70% is not allowed\)/);
  });

  it('accepts a near-duplicate under lenient novelty', async () => {
    const team = runTeam([
      member('a', answerThenVote('alpha beta gamma delta', 'agent1')),
      member('b', (_req, i) => (i === 0 ? reply.answer('x', { delayMs: 20 }) : i === 1 ? reply.answer('alpha beta gamma delta epsilon') : reply.vote('agent1'))),
    ]);
    await team.result;
    assert.ok(team.of('answer_added').some((e) => e.content === 'alpha beta gamma delta epsilon'));
  });

  it('gives up on a turn after 3 invalid attempts and retries it from its start once the board changed', async () => {
    // Calls, though refused ones (votes before any answer): a turn of replies without any call ends otherwise (see
    // "never calls a tool"). b's answer comes after a's turn has failed.
    const a: Script = (req) => (boardHasAnswers(req) ? reply.answer('finally') : reply.vote('agent1'));
    const b: Script = (_req, i) => (i === 0 ? reply.answer('B', { delayMs: 5000 }) : reply.vote('agent2'));
    const team = runTeam([member('a', a), member('b', b)]);
    await team.result;
    const failed = team.of('turn_failed');
    assert.deepEqual(failed.map((f) => [f.agentId, f.willRetry]), [['a', true]]);
    assert.ok(team.events.indexOf(failed[0]) < team.events.findIndex((e) => e.type === 'answer_added'), "a's turn failed before b answered");
    // the retried turn starts clean (no leftover enforcement messages), showing b's answer
    const fourth = team.requests('a')[3];
    assert.equal(fourth.messages.length, 1);
    assert.ok(boardHasAnswers(fourth));
    assert.ok(team.of('answer_added').some((e) => e.agentId === 'a' && e.content === 'finally'));
  });

  it('a turn that failed on the protocol is not repeated while nothing changed: the agent is set aside after 3 calls', async () => {
    // a is vote-only (cap 1 reached) and keeps answering; b agrees with a's first answer. Nothing a is shown changes.
    const a: Script = (_req, i) => (i === 0 ? reply.answer('A') : reply.answer(`A again ${i}`));
    const b: Script = (req) => (boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('A', { delayMs: 10 }));
    const team = runTeam([member('a', a), member('b', b)], { orchestrator: { maxNewAnswersPerAgent: 1 } });
    const result = await team.result;
    assert.equal(team.providers.a.callCount, 4, 'its answer, then one failed turn of 3 refused calls');
    assert.deepEqual(team.of('agent_failed').map((e) => [e.agentId, e.cause]), [['a', 'protocol']]);
    assert.match(team.of('agent_failed')[0].error, /no valid vote or new_answer call after 3 attempts/);
    assert.equal(result.winnerId, 'a');
  });
});

describe('orchestrator: limits', () => {
  it('switches to a vote-only toolset at the answer cap and ends with reason answer_cap', async () => {
    const stubborn: (c: string) => Script = (c) => (req, i) => (req.tools.some((t) => t.name === 'new_answer') ? reply.answer(`${c} v${i}`) : reply.vote('agent1'));
    const team = runTeam([member('a', stubborn('a')), member('b', stubborn('b'))], { orchestrator: { maxNewAnswersPerAgent: 2 } });
    const result = await team.result;
    assert.equal(result.reason, 'answer_cap');
    for (const id of ['a', 'b']) {
      const reqs = team.requests(id);
      const last = reqs[reqs.length - 1];
      assert.deepEqual(last.tools.map((t) => t.name), ['vote']);
      assert.match(last.system, /maximum number of new answers/);
    }
    assert.equal(team.of('answer_added').length, 4);
  });

  it('refuses new_answer over the cap with upstream\'s message', async () => {
    const a: Script = (_req, i) => (i === 0 ? reply.answer('one') : i === 1 ? reply.answer('two') : reply.vote('agent1'));
    const team = runTeam([member('a', a)], { orchestrator: { maxNewAnswersPerAgent: 1 } });
    await team.result;
    const tool = team.requests('a')[2].messages.filter((m) => m.role === 'tool').pop();
    assert.equal(tool?.content, "You've reached the maximum of 1 new answer(s). Please vote for the best existing answer using the `vote` tool.");
  });

  it('stops at the rounds cap with the best available answer', async () => {
    let n = 0;
    const forever: Script = () => reply.answer(`revision ${++n} ${'word'.repeat(n)}`);
    const team = runTeam([member('a', forever), member('b', forever)], { orchestrator: { maxRounds: 3 } });
    const result = await team.result;
    assert.equal(result.reason, 'max_rounds');
    assert.equal(team.of('round_started').length, 3);
    assert.ok(result.finalAnswer);
    assert.equal(team.of('winner_selected')[0].basis, 'most_informed');
  });

  it('times out with the best available answer and aborts in-flight requests', async () => {
    const team = runTeam(
      [
        member('a', (_req, i) => (i === 0 ? reply.answer('quick answer') : reply.vote('agent1', 'x', { delayMs: 5000 }))),
        member('b', () => ({ ...reply.answer('never'), delayMs: 5000 })),
      ],
      { timeouts: { orchestratorTimeoutSeconds: 0.15 } },
    );
    const result = await team.result;
    assert.equal(result.reason, 'timeout');
    assert.equal(result.finalAnswer, 'quick answer');
    assert.equal(result.durationMs, 150, 'ended at the timeout, not after the slow calls');
    const inFlight = team.providers.b.signals;
    assert.equal(inFlight.length, 1);
    assert.ok(inFlight[0].aborted, 'the slow request was aborted');
  });

  it('times out one agent turn and retries it', async () => {
    const a: Script = (req, i) => (i === 0 ? { ...reply.answer('too slow'), delayMs: 2000 } : boardHasAnswers(req) ? reply.vote('agent2') : reply.answer('a on time'));
    const team = runTeam([member('a', a), member('b', answerThenVote('b answer', 'agent2'))], { timeouts: { agentTurnTimeoutSeconds: 0.1 } });
    const result = await team.result;
    assert.ok(team.of('turn_failed').some((e) => e.agentId === 'a' && /timed out/.test(e.error) && e.willRetry));
    assert.equal(result.reason, 'consensus');
  });

  it('cancel after an answer stops the run, aborts requests and proposes nothing (no winner, no final answer)', async () => {
    const ac = new AbortController();
    const team = runTeam(
      [member('a', (_req, i) => (i === 0 ? reply.answer('kept') : { ...reply.vote('agent1'), delayMs: 5000 })), member('b', () => ({ ...reply.answer('slow'), delayMs: 5000 }))],
      { signal: ac.signal },
    );
    team.clock.setTimeout(() => ac.abort(), 50);
    const result = await team.result;
    assert.equal(result.reason, 'cancelled');
    assert.equal(result.finalAnswer, null);
    assert.equal(result.winnerId, null);
    assert.match(result.error!, /no answer was chosen/);
    assert.deepEqual(team.of('winner_selected'), []);
    assert.deepEqual(team.of('final_answer'), []);
    assert.deepEqual([team.of('run_ended')[0].reason, team.of('run_ended')[0].winnerId], ['cancelled', null]);
    assert.deepEqual(team.of('answer_added').map((e) => e.content), ['kept'], 'the answer stays in the record');
    assert.ok(team.providers.b.signals[0].aborted, "b's call was aborted");
    const state = reduceEvents(team.events);
    assert.equal(state.winner, null);
    assert.equal(state.finalAnswer, null);
    assert.equal(state.answers[0].content, 'kept');
  });

  it('cancel before any answer ends with no answer and says why', async () => {
    const team = runTeam([member('a', () => ({ ...reply.answer('slow'), delayMs: 5000 }))]);
    team.clock.setTimeout(() => team.orchestrator.cancel(), 20);
    const result = await team.result;
    assert.equal(result.reason, 'cancelled');
    assert.equal(result.finalAnswer, null);
    assert.match(result.error!, /Cancelled before any agent answered/);
  });

  it('cancelling one agent lets the others finish', async () => {
    const team = runTeam([member('a', () => ({ ...reply.answer('slow'), delayMs: 5000 })), member('b', answerThenVote('b', 'agent2'))]);
    team.clock.setTimeout(() => team.orchestrator.cancelAgent('a'), 20);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerId, 'b');
    assert.match(team.of('agent_failed')[0].error, /cancelled by the user/);
  });
});

describe('orchestrator: failures', () => {
  it('retries a rate-limited call after the server-given delay, then succeeds', async () => {
    const a: Script = (req, i) => (i === 0 ? { error: new ProviderError('rate_limit', '429 slow down', { status: 429, retryAfterMs: 30 }) } : boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('after the wait'));
    const team = runTeam([member('a', a)], { retry: { maxDelayMs: 1000 } });
    const result = await team.result;
    assert.equal(result.finalAnswer, 'after the wait');
    const retry = team.of('retry')[0];
    assert.equal(retry.delayMs, 30);
    assert.equal(retry.attempt, 2);
    assert.equal(result.durationMs, 30, 'waited the server-given delay');
  });

  it('marks an agent that keeps failing as failed and finishes with the others', async () => {
    const broken: Script = () => ({ error: new ProviderError('server', '500 internal error', { status: 500 }) });
    const team = runTeam([member('a', broken), member('b', answerThenVote('b works', 'agent2')), member('c', answerThenVote('c works', 'agent2'))]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerId, 'b');
    const failed = team.of('agent_failed');
    assert.deepEqual(failed.map((e) => e.agentId), ['a']);
    // 4 attempts with back-off, then it stops: no retrying until the global timeout
    assert.equal(team.providers.a.callCount, 4);
    assert.deepEqual(team.of('retry').map((e) => e.agentId), ['a', 'a', 'a']);
    assert.equal(reduceEvents(team.events).agents[0].status, 'failed');
  });

  it('does not retry auth errors', async () => {
    const team = runTeam([member('a', () => ({ error: new ProviderError('auth', '401 invalid key', { status: 401 }) })), member('b', answerThenVote('b', 'agent2'))]);
    const result = await team.result;
    assert.equal(team.providers.a.callCount, 1);
    assert.equal(result.winnerId, 'b');
    assert.match(team.of('agent_failed')[0].error, /401 invalid key/);
  });

  it('ends with a clear error when every agent fails', async () => {
    const unreachable = { url: 'http://127.0.0.1:9/v1', reason: 'connection refused' };
    const down: Script = () => ({ error: new ProviderError('network', 'cannot reach http://127.0.0.1:9/v1: connection refused', { unreachable }) });
    const team = runTeam([member('a', down), member('b', down)], { retry: { maxAttemptsPerCall: 2, agentFailureBudget: 2 } });
    const result = await team.result;
    assert.equal(result.reason, 'all_failed');
    assert.equal(result.finalAnswer, null);
    assert.match(result.error!, /Every agent failed/);
    assert.match(result.error!, /a: cannot reach http:\/\/127\.0\.0\.1:9\/v1/);
    // The server each failed to reach travels typed, so the views name it without reading the text back.
    assert.deepEqual(team.of('agent_failed').map((e) => e.unreachable), [unreachable, unreachable]);
    assert.deepEqual(reduceEvents(team.events).agents.map((a) => a.unreachable), [unreachable, unreachable]);
  });

  it('an agent that answered and then failed can still win on its answer', async () => {
    const a: Script = (_req, i) => (i === 0 ? reply.answer('a solid answer') : { error: new ProviderError('auth', 'key revoked') });
    const team = runTeam([member('a', a), member('b', answerThenVote('b', 'agent1'))]);
    const result = await team.result;
    assert.equal(result.winnerId, 'a');
    assert.equal(result.finalAnswer, 'a solid answer');
  });
});

describe('orchestrator: final answer', () => {
  it('synthesize: the winner writes the final answer from all answers and vote reasons, with no tools', async () => {
    const a: Script = (req) => (req.tools.length === 0 ? reply.text('SYNTHESIZED FINAL') : boardHasAnswers(req) ? reply.vote('agent1', 'REASON-A') : reply.answer('answer A'));
    const team = runTeam([member('a', a), member('b', answerThenVote('answer B', 'agent1', 'REASON-B'))], { orchestrator: { finalAnswer: 'synthesize' } });
    const result = await team.result;
    assert.equal(result.finalAnswer, 'SYNTHESIZED FINAL');
    const last = team.requests('a').pop()!;
    assert.equal(last.tools.length, 0);
    const text = requestText(last);
    for (const s of ['answer A', 'answer B', 'REASON-A', 'REASON-B', '(YOUR ANSWER)']) assert.ok(text.includes(s), s);
    assert.equal(team.of('final_answer')[0].mode, 'synthesize');
  });

  it('synthesize falls back to the voted answer when the call fails', async () => {
    const a: Script = (req) => (req.tools.length === 0 ? { error: new ProviderError('invalid_request', 'context too long') } : boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('stored answer'));
    const team = runTeam([member('a', a)], { orchestrator: { finalAnswer: 'synthesize' } });
    const result = await team.result;
    assert.equal(result.finalAnswer, 'stored answer');
    assert.match(team.of('final_answer')[0].fallback!, /synthesis failed: context too long/);
  });

  it('as_is makes no extra call', async () => {
    const team = runTeam([member('a', answerThenVote('x', 'agent1'))]);
    await team.result;
    assert.equal(team.providers.a.callCount, 2);
  });
});

describe('orchestrator: events', () => {
  it('numbers events without gaps and reports usage', async () => {
    const usage = { inputTokens: 100, cachedInputTokens: 40, outputTokens: 10 };
    const team = runTeam([member('a', (req) => ({ ...(boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('x')), usage }))]);
    await team.result;
    team.events.forEach((e, i) => assert.equal(e.seq, i + 1));
    const state = reduceEvents(team.events);
    assert.deepEqual(
      { i: state.usage.inputTokens, c: state.usage.cachedInputTokens, o: state.usage.outputTokens, n: state.usage.calls },
      { i: 200, c: 80, o: 20, n: 2 },
    );
  });
});

describe('orchestrator: budget', () => {
  const usage = { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 100 };
  const withUsage = (s: Script): Script => async (req, i) => ({ ...(await s(req, i)), usage });
  // $1 per million in and out: each call above costs $0.0011
  const pricing = { inputPerMillion: 1, cachedInputPerMillion: 1, outputPerMillion: 1 };

  it('max_calls: starts no call past the cap and ends with reason budget and the best answer', async () => {
    const team = runTeam(['a', 'b', 'c'].map((id) => member(id, withUsage(answerThenVote(`answer ${id}`, 'agent1')))), { orchestrator: { budget: { maxCalls: 4 } } });
    const result = await team.result;
    assert.equal(result.reason, 'budget');
    const calls = Object.values(team.providers).reduce((n, p) => n + p.callCount, 0);
    assert.ok(calls <= 4, `made ${calls} calls`);
    const reached = team.of('budget_reached');
    assert.equal(reached.length, 1);
    assert.equal(reached[0].limit, 'max_calls');
    assert.ok(result.finalAnswer?.startsWith('answer '));
    assert.equal(team.of('agent_failed').length, 0, 'a budget stop is not an agent failure');
  });

  it('counts parallel in-flight calls, so agents together cannot cross the cap', async () => {
    const team = runTeam(['a', 'b', 'c'].map((id) => member(id, withUsage(answerThenVote(`answer ${id}`, 'agent1')))), { orchestrator: { budget: { maxCalls: 2 } } });
    await team.result;
    assert.equal(Object.values(team.providers).reduce((n, p) => n + p.callCount, 0), 2);
  });

  it('max_cost_usd: stops before the cost would cross the cap; usage events carry the cost', async () => {
    const team = runTeam(
      ['a', 'b'].map((id) => ({ id, script: withUsage(answerThenVote(`answer ${id}`, 'agent1')), pricing })),
      { orchestrator: { budget: { maxCostUsd: 0.003 } } },
    );
    const result = await team.result;
    assert.equal(result.reason, 'budget');
    const costs = team.of('usage').map((e) => e.costUsd);
    assert.ok(costs.every((c) => c !== null && Math.abs(c - 0.0011) < 1e-12), JSON.stringify(costs));
    const spent = costs.reduce((n: number, c) => n + (c ?? 0), 0);
    assert.ok(spent <= 0.003, `spent ${spent}`);
    assert.equal(team.of('budget_reached')[0].limit, 'max_cost_usd');
  });

  it('max_total_tokens: a run that fits is not stopped', async () => {
    const team = runTeam([member('a', withUsage(answerThenVote('x', 'agent1')))], { orchestrator: { budget: { maxTotalTokens: 1_000_000 } } });
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(team.of('budget_reached').length, 0);
  });

  it('max_total_tokens: a first call that would not fit is never sent', async () => {
    const team = runTeam([member('a', withUsage(answerThenVote('x', 'agent1')))], { orchestrator: { budget: { maxTotalTokens: 10 } } });
    const result = await team.result;
    assert.equal(result.reason, 'budget');
    assert.equal(team.providers.a.callCount, 0);
    assert.equal(result.finalAnswer, null);
  });

  it('skips synthesis once the budget is reached and keeps the voted answer', async () => {
    const a: Script = (req) => (req.tools.length === 0 ? reply.text('SYNTH') : boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('voted answer'));
    const team = runTeam([member('a', withUsage(a))], { orchestrator: { finalAnswer: 'synthesize', budget: { maxCalls: 2 } } });
    const result = await team.result;
    assert.equal(result.finalAnswer, 'voted answer');
    assert.match(team.of('final_answer')[0].fallback!, /budget/);
    assert.equal(team.providers.a.callCount, 2);
  });
});

describe('orchestrator: toolbox lifecycle', () => {
  function recordingToolbox(log: string[], opts: { failStart?: boolean } = {}) {
    return {
      tools: [{ name: 'lookup', description: 'look up', parameters: { type: 'object', properties: {} } }],
      start: async () => {
        log.push('start');
        if (opts.failStart) throw new Error('server "docs" did not start: spawn ENOENT');
      },
      execute: async () => ({ ok: true, content: 'r' }),
      close: async () => {
        log.push('close');
      },
    };
  }

  it('starts the tools once before the first turn and closes them when the run ends', async () => {
    const log: string[] = [];
    const team = runTeam([{ id: 'a', script: answerThenVote('x', 'agent1'), toolbox: recordingToolbox(log) }]);
    await team.result;
    assert.deepEqual(log, ['start', 'close']);
    assert.deepEqual(team.of('tools_ready')[0].tools, ['lookup']);
    assert.ok(team.of('tools_ready')[0].seq < team.of('turn_started')[0].seq);
  });

  it('closes the tools on cancel too', async () => {
    const log: string[] = [];
    const team = runTeam([{ id: 'a', script: () => ({ ...reply.answer('slow'), delayMs: 5000 }), toolbox: recordingToolbox(log) }]);
    team.clock.setTimeout(() => team.orchestrator.cancel(), 30);
    await team.result;
    assert.deepEqual(log, ['start', 'close']);
  });

  it('a toolbox that fails to start is reported and the agent goes on', async () => {
    const log: string[] = [];
    const team = runTeam([{ id: 'a', script: answerThenVote('x', 'agent1'), toolbox: recordingToolbox(log, { failStart: true }) }]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.match(team.of('tools_ready')[0].error!, /did not start/);
    assert.deepEqual(log, ['start', 'close']);
  });
});

describe('orchestrator: starting the next round early', () => {
  // Answers refused as near copies of agent1's (balanced novelty): an exact copy would count as a vote at once.
  const SAME = 'the same long answer about one thing';
  const nearCopy = (id: string) => `${SAME} ${id}`;
  const BALANCED = { orchestrator: { answerNoveltyRequirement: 'balanced' as const } };
  const refusedAsCopy = (team: ReturnType<typeof runTeam>, id: string) => team.of('correction').some((e) => e.agentId === id && /^too similar to agent1 /.test(e.message));
  /** Answers `content` after `answerMs`; once answers are visible (its own, or after a refused near copy) votes for agent1 after `voteMs`. */
  const answerThenVoteSlowly = (content: string, answerMs: number, voteMs: number): Script => (req) =>
    boardHasAnswers(req) ? reply.vote('agent1', 'same answer', { delayMs: voteMs }) : reply.answer(content, { delayMs: answerMs });
  const turnStart = (team: ReturnType<typeof runTeam>, agentId: string, round: number) => team.of('turn_started').find((e) => e.agentId === agentId && e.round === round)!;
  const voteOf = (team: ReturnType<typeof runTeam>, voterId: string) => team.of('vote_cast').find((e) => e.vote.voterId === voterId)!;
  const sameAnswerTeam = () =>
    ['a', 'b', 'c', 'd'].map((id) => member(id, answerThenVoteSlowly(id === 'a' ? SAME : nearCopy(id), id === 'a' ? 30 : 40, 100)));

  it('starts an idle agent\'s vote while the other turns, refused as near copies, are still voting', async () => {
    const team = runTeam(sameAnswerTeam(), BALANCED);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerLabel, 'agent1.1');
    assert.deepEqual(team.of('winner_selected')[0].votes, { a: 4 });
    // the same 8 calls as with the barrier: 4 answers, 3 votes after the refusals, a's vote
    assert.equal(Object.values(team.providers).reduce((n, p) => n + p.callCount, 0), 8);
    assert.deepEqual(team.of('correction').map((e) => e.agentId).sort(), ['b', 'c', 'd']);
    for (const id of ['b', 'c', 'd']) assert.ok(refusedAsCopy(team, id), `${id}'s answer was refused as a near copy`);
    assert.deepEqual(team.of('round_started').map((e) => [e.round, e.agentIds]), [[1, ['a', 'b', 'c', 'd']], [2, ['a']]]);
    // a's round-2 turn started after the last refusal and before any of the round-1 turns ended with its vote
    const early = turnStart(team, 'a', 2);
    assert.ok(early.seq > team.of('correction').at(-1)!.seq, 'a\'s vote turn started after the refusals');
    for (const id of ['b', 'c', 'd']) assert.ok(early.seq < voteOf(team, id).seq, `a's vote turn started before ${id}'s turn ended`);
    const state = reduceEvents(team.events);
    assert.equal(state.round, 2);
    assert.deepEqual(state.agents.map((a) => a.round), [2, 1, 1, 1]);
  });

  it('an agent that votes "agent1" out of habit wins through when agent1\'s identical answer was not the first', async () => {
    // b answers first; a, c, d write the same text later: their answers are their votes for agent2. b, voting in
    // round 2, names agent1 — which has no answer of its own: its answer was agent2's.
    const team = runTeam(['a', 'b', 'c', 'd'].map((id) => member(id, answerThenVoteSlowly('THE SAME ANSWER', id === 'b' ? 20 : 40, 30))));
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerLabel, 'agent2.1');
    assert.deepEqual(team.of('winner_selected')[0].votes, { b: 4 });
    assert.equal(team.of('turn_failed').length, 0, 'no agent failed');
    assert.equal(Object.values(team.providers).reduce((n, p) => n + p.callCount, 0), 5);
    const told = team.of('tool_result').find((e) => e.agentId === 'b' && e.name === 'vote')!;
    assert.equal(told.summary, "Your vote was recorded. agent1 has no answer of its own (its answer was the same as agent2's), so your vote counts for agent2.");
  });

  // a answers first; b's near copy is refused (b then votes); c has not settled in each of these ways.
  const unsettled: [string, Script, boolean][] = [
    ['still streaming its first answer', (_req, i) => (i === 0 ? reply.answer('C answer', { delayMs: 150 }) : reply.vote('agent1')), false],
    ['running a tool', (_req, i) => (i === 0 ? { toolCalls: [{ name: 'lookup', arguments: {} }] } : i === 1 ? reply.answer('C answer') : reply.vote('agent1')), true],
    ['only told to make a call', (_req, i) => (i === 0 ? { text: 'let me think', delayMs: 40 } : i === 1 ? reply.answer('C answer', { delayMs: 110 }) : reply.vote('agent1')), false],
  ];
  for (const [what, script, withTool] of unsettled) {
    it(`keeps the barrier while a turn is ${what}`, async () => {
      const clock = new FakeClock();
      const toolbox = {
        tools: [{ name: 'lookup', description: 'look up', parameters: { type: 'object', properties: {} } }],
        // 150 ms of the run's clock: a and b answer and b's duplicate is refused meanwhile, whatever the machine's load.
        execute: () => new Promise<{ ok: boolean; content: string }>((resolve) => clock.setTimeout(() => resolve({ ok: true, content: 'facts' }), 150)),
      };
      const team = runTeam(
        [member('a', answerThenVoteSlowly(SAME, 20, 0)), member('b', answerThenVoteSlowly(nearCopy('b'), 30, 60)), { id: 'c', script, toolbox: withTool ? toolbox : undefined }],
        { clock, ...BALANCED },
      );
      const result = await team.result;
      assert.equal(result.reason, 'consensus');
      assert.ok(refusedAsCopy(team, 'b'), 'b\'s answer was refused as a near copy');
      const second = team.of('round_started')[1];
      const cAnswered = team.of('answer_added').find((e) => e.agentId === 'c')!;
      assert.ok(second.seq > cAnswered.seq, 'round 2 waited for c\'s turn to end');
      assert.deepEqual(second.agentIds, ['a', 'b', 'c']);
    });
  }

  it('counts a vote refused only for its form as settled', async () => {
    const a = seq(reply.answer('A1', { delayMs: 10 }), reply.answer('A2', { delayMs: 10 }), reply.vote('agent1'));
    const b = seq(reply.answer('B1', { delayMs: 10 }), reply.vote('agent7', 'no such agent', { delayMs: 30 }), reply.vote('agent1', 'A2', { delayMs: 100 }));
    const team = runTeam([member('a', a), member('b', b)]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.deepEqual(team.of('round_started').map((e) => [e.round, e.agentIds]), [[1, ['a', 'b']], [2, ['a', 'b']], [3, ['a']]]);
    assert.ok(turnStart(team, 'a', 3).seq < voteOf(team, 'b').seq, 'a\'s round 3 started while b was still voting');
  });

  it('counts a vote-only turn (answer cap reached) as settled', async () => {
    // round 2: a's second answer caps it; b's vote misses it. Round 3: a (vote-only) votes slowly, b answers again.
    const a = seq(reply.answer('A1', { delayMs: 10 }), reply.answer('A2', { delayMs: 10 }), reply.vote('agent1', 'A2', { delayMs: 300 }), reply.vote('agent1'));
    const b = seq(reply.answer('B1', { delayMs: 50 }), reply.vote('agent1', 'A1', { delayMs: 300 }), reply.answer('B2', { delayMs: 10 }), reply.vote('agent1'));
    const team = runTeam([member('a', a), member('b', b)], { orchestrator: { maxNewAnswersPerAgent: 2 } });
    const result = await team.result;
    assert.equal(result.reason, 'answer_cap', 'both capped, both voting for agent1.2');
    assert.deepEqual(team.of('winner_selected')[0].votes, { a: 2 });
    assert.deepEqual(team.of('round_started').map((e) => [e.round, e.agentIds]), [[1, ['a', 'b']], [2, ['a', 'b']], [3, ['a', 'b']], [4, ['b']], [5, ['a']]]);
    assert.equal(turnStart(team, 'a', 3).voteOnly, true);
    const aRound3Vote = team.of('vote_cast').filter((e) => e.vote.voterId === 'a')[0];
    assert.ok(turnStart(team, 'b', 4).seq < aRound3Vote.seq, 'b\'s round 4 started while a\'s vote-only turn was running');
  });

  it('asks the early voter again when a settled turn adds an answer after all', async () => {
    const b: Script = (_req, i) => (i === 0 ? reply.answer(nearCopy('b'), { delayMs: 30 }) : i === 1 ? reply.answer('B, different after all', { delayMs: 100 }) : reply.vote('agent1'));
    const team = runTeam([member('a', answerThenVoteSlowly(SAME, 20, 0)), member('b', b)], BALANCED);
    const result = await team.result;
    assert.deepEqual(team.of('round_started').map((e) => [e.round, e.agentIds]), [[1, ['a', 'b']], [2, ['a']], [3, ['a', 'b']]]);
    const bAnswer = team.of('answer_added').find((e) => e.agentId === 'b')!;
    assert.ok(voteOf(team, 'a').seq < bAnswer.seq, 'a voted early, before b\'s late answer');
    const invalidated = team.of('vote_invalidated');
    assert.deepEqual(invalidated.map((e) => [e.voterId, e.targetLabel, e.reason]), [['a', 'agent1.1', 'new answer agent2.1']]);
    assert.match(requestText(team.requests('a')[2]), /B, different after all/);
    assert.equal(result.reason, 'consensus');
    assert.deepEqual(team.of('winner_selected')[0].votes, { a: 2 });
    assert.equal(reduceEvents(team.events).votes.find((v) => v.voterId === 'a')!.stale, true);
  });

  it('cancel during an early round aborts the late turns too and closes every toolbox once', async () => {
    const log: string[] = [];
    const toolbox = (id: string) => ({
      tools: [],
      start: async () => void log.push(`start ${id}`),
      execute: async () => ({ ok: true, content: '' }),
      close: async () => void log.push(`close ${id}`),
    });
    // a's early vote turn cancels the run while b's round-1 turn is still voting
    const a: Script = (req) => {
      if (!boardHasAnswers(req)) return reply.answer(SAME, { delayMs: 20 });
      team.clock.setTimeout(() => team.orchestrator.cancel(), 20);
      return reply.vote('agent1', 'x', { delayMs: 5000 });
    };
    const team = runTeam([
      { id: 'a', script: a, toolbox: toolbox('a') },
      { id: 'b', script: answerThenVoteSlowly(nearCopy('b'), 30, 5000), toolbox: toolbox('b') },
    ], BALANCED);
    const result = await team.result;
    assert.equal(result.reason, 'cancelled');
    assert.equal(result.finalAnswer, null);
    assert.deepEqual(team.of('round_started').map((e) => e.round), [1, 2]);
    assert.equal(team.requests('a').length, 2);
    assert.equal(team.requests('b').length, 2);
    for (const id of ['a', 'b']) assert.ok(team.providers[id].signals[1].aborted, `${id}'s vote call was aborted`);
    assert.equal(team.of('vote_cast').length, 0);
    assert.equal(team.events.at(-1)!.type, 'run_ended', 'every turn ended before the run did');
    assert.deepEqual(log.sort(), ['close a', 'close b', 'start a', 'start b']);
  });
});

describe('orchestrator: workspace answers (text plus a change)', () => {
  /** A workspace stand-in: each agent's copy holds whatever `state[label]` says; a snapshot records it. */
  function workspaces(state: Record<string, string>) {
    const taken: string[] = [];
    const port = (label: string): AgentWorkspace => ({
      async snapshot(version) {
        taken.push(version);
        if (state[label] === 'GONE') throw new Error(`${label}'s working copy is gone`);
        return { id: `tree-${state[label]}`, files: state[label] ? [{ path: 'a.ts', status: 'modified', added: 1, removed: 1 }] : [], bytesWritten: 100 };
      },
    });
    return { port, taken };
  }

  it('binds each answer to its snapshot, shows the changed files in CURRENT ANSWERS, and snapshots only answers', async () => {
    const ws = workspaces({ agent1: 'fix', agent2: '' });
    const team = runTeam([
      { id: 'a', script: answerThenVote('I fixed a.ts', 'agent1'), workspace: ws.port('agent1') },
      { id: 'b', script: answerThenVote('No change needed', 'agent1'), workspace: ws.port('agent2') },
    ]);
    const result = await team.result;
    assert.equal(result.winnerLabel, 'agent1.1');
    assert.deepEqual(ws.taken.sort(), ['agent1.1', 'agent2.1'], 'votes are not snapshotted');
    const added = team.of('answer_added');
    assert.equal(added.find((e) => e.agentId === 'a')?.change?.id, 'tree-fix');
    assert.deepEqual(added.find((e) => e.agentId === 'b')?.change?.files, []);
    const voteTurn = requestText(team.requests('b')[1]);
    assert.match(voteTurn, /<agent1> I fixed a\.ts\n\[Changed files \(read them under peers\/agent1\/\): a\.ts \(\+1 -1\)\] <end of agent1>/);
    // b's own answer is referred to (it is in b's new_answer call), its diffstat still shown.
    assert.match(voteTurn, /<agent2> your own answer agent2\.1, as in your new_answer call above\n\[Changed files: none — agent2's copy is as the run started\] <end of agent2>/);
    assert.doesNotMatch(voteTurn, /No change needed/);
  });

  it('the same words over a different change are a new answer; over the same change, a copy', async () => {
    const ws = workspaces({ agent1: 'x', agent2: 'y', agent3: 'x' });
    const team = runTeam([
      { id: 'a', script: answerThenVote('Done.', 'agent1'), workspace: ws.port('agent1') },
      { id: 'b', script: (_req, i) => (i === 0 ? reply.answer('Done.', { delayMs: 30 }) : reply.vote('agent1')), workspace: ws.port('agent2') },
      { id: 'c', script: (_req, i) => (i === 0 ? reply.answer('Done.', { delayMs: 60 }) : reply.vote('agent1')), workspace: ws.port('agent3') },
    ]);
    await team.result;
    assert.deepEqual(team.of('answer_added').map((e) => e.label).sort(), ['agent1.1', 'agent2.1'], 'b changed something else, c made a\'s change');
    assert.ok(team.of('correction').some((e) => e.agentId === 'c' && /duplicate of agent1/.test(e.message)));
  });

  it('snapshots an answer sent twice in one reply, as one answer', async () => {
    const ws = workspaces({ agent1: 'fix' });
    const twice = { toolCalls: [{ name: 'new_answer', arguments: { content: 'Fixed.' } }, { name: 'new_answer', arguments: { content: 'Fixed.' } }] };
    const team = runTeam([{ id: 'a', script: seq(twice, reply.vote('agent1')), workspace: ws.port('agent1') }]);
    await team.result;
    assert.deepEqual(ws.taken, ['agent1.1']);
    assert.equal(team.of('answer_added')[0].change?.id, 'tree-fix');
  });

  it('an agent whose copy cannot be recorded fails with cause workspace; the others go on', async () => {
    const ws = workspaces({ agent1: 'GONE', agent2: 'ok' });
    const team = runTeam([
      { id: 'a', script: answerThenVote('mine', 'agent2'), workspace: ws.port('agent1') },
      { id: 'b', script: answerThenVote('theirs', 'agent2'), workspace: ws.port('agent2') },
    ]);
    const result = await team.result;
    assert.equal(result.winnerId, 'b');
    const failed = team.of('agent_failed')[0];
    assert.equal(failed.cause, 'workspace');
    assert.match(failed.error, /could not record agent1's working copy: agent1's working copy is gone/);
  });
});

describe('orchestrator: the winner without votes is deterministic', () => {
  it('a timeout with answers but no votes picks the most informed answer, whichever stream ended last', async () => {
    const winners: string[] = [];
    for (const [slowA, slowB] of [[10, 60], [60, 10]]) {
      // Round 1: both answer (in either order); round 2: votes that never come before the timeout.
      const script = (delay: number): Script => (_req, i) => (i === 0 ? reply.answer(`answer after ${delay} ms`, { delayMs: delay }) : reply.vote('agent1', 'x', { delayMs: 10_000 }));
      const team = runTeam([member('a', script(slowA)), member('b', script(slowB))], { timeouts: { orchestratorTimeoutSeconds: 0.4 } });
      const result = await team.result;
      assert.equal(result.reason, 'timeout');
      assert.equal(team.of('winner_selected')[0].basis, 'most_informed');
      winners.push(result.winnerLabel!);
    }
    assert.deepEqual(winners, ['agent1.1', 'agent1.1'], 'both saw nothing when they wrote: config order decides');
  });

  it('prefers the answer written after seeing the most of the board; ties go to config order', () => {
    const v = (agentLabel: string, informed: number) => ({ agentId: agentLabel, agentLabel, label: `${agentLabel}.1`, version: 1, content: '', revision: 1, informed });
    assert.deepEqual(byInformed([v('agent1', 0), v('agent2', 2), v('agent3', 1)]).map((a) => a.agentLabel), ['agent2', 'agent3', 'agent1']);
    assert.deepEqual(byInformed([v('agent1', 1), v('agent2', 1)]).map((a) => a.agentLabel), ['agent1', 'agent2']);
  });
});

describe('orchestrator: a model that never calls a tool', () => {
  const silent: Script = () => ({ ...reply.text('I would rather chat.'), delayMs: 150 });
  const seqOf = (e: { seq: number }) => e.seq;

  it('costs 3 calls, not 9, when nothing new comes after its silent turn; fails in plain words; the round goes on without it', async () => {
    const team = runTeam([member('mute', silent), member('b', answerThenVote('B', 'agent2')), member('c', answerThenVote('C', 'agent2'))]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerId, 'b');
    assert.equal(team.requests('mute').length, 3, 'its silent turn saw both answers: no last call');
    const failed = team.of('agent_failed')[0];
    assert.equal(failed.agentId, 'mute');
    assert.equal(failed.cause, 'protocol');
    assert.match(failed.error, /never called the coordination tools \(new_answer, vote\) in 3 replies; it may not support tool calling/);
    const round2 = team.of('round_started').find((e) => e.round === 2)!;
    assert.deepEqual(round2.agentIds, ['b', 'c']);
    assert.ok(round2.seq < failed.seq, 'round 2 did not wait for the silent agent');
    // Set aside once nobody else could change the board: after the others' votes.
    assert.ok(Math.max(...team.of('vote_cast').map(seqOf)) < failed.seq);
  });

  it('gets its one last call when an answer arrives after its silent turn, without holding the others', async () => {
    const late: Script = (_req, i) => (i === 0 ? reply.answer('LATE-B', { delayMs: 1000 }) : reply.vote('agent2'));
    const team = runTeam([member('mute', silent), member('b', late), member('c', answerThenVote('C', 'agent2'))]);
    const result = await team.result;
    assert.equal(result.winnerId, 'b');
    const calls = team.requests('mute');
    assert.equal(calls.length, 4);
    assert.doesNotMatch(requestText(calls[2]), /LATE-B/, 'its silent turn had not seen it');
    assert.match(requestText(calls[3]), /<agent2> LATE-B <end of agent2>/);
    const failed = team.of('agent_failed')[0];
    assert.match(failed.error, /in 4 replies/);
    const lastCall = team.of('turn_started').filter((e) => e.agentId === 'mute')[1];
    assert.ok(seqOf(team.of('answer_added').find((e) => e.agentId === 'b')!) < lastCall.seq, 'the last call waited for the news');
    assert.ok(Math.max(...team.of('vote_cast').map(seqOf)) < failed.seq, 'the others voted while its last call ran');
  });

  it('a note for it is news too: it gets its last call, showing the note', async () => {
    const slowVote: Script = (_req, i) => (i === 0 ? reply.answer('B') : reply.vote('agent2', 'mine', { delayMs: 2000 }));
    const team = runTeam([member('mute', silent), member('b', slowVote), member('c', answerThenVote('C', 'agent2'))]);
    team.clock.setTimeout(() => team.orchestrator.note('Use the vote tool.', { agentId: 'mute' }), 1000);
    await team.result;
    const calls = team.requests('mute');
    assert.equal(calls.length, 4);
    assert.match(requestText(calls[3]), /Use the vote tool\./);
    assert.ok(team.of('note_delivered').some((e) => e.agentId === 'mute'));
  });

  it('a team that never calls a tool costs 3 calls an agent and ends all_failed, without waiting on anything', async () => {
    const team = runTeam([member('a', silent), member('b', silent), member('c', silent)]);
    const result = await team.result;
    assert.equal(result.reason, 'all_failed');
    for (const id of ['a', 'b', 'c']) assert.equal(team.requests(id).length, 3, id);
    assert.equal(team.of('round_started').length, 1);
    const failed = team.of('agent_failed');
    assert.deepEqual(failed.map((e) => e.agentId).sort(), ['a', 'b', 'c']);
    for (const f of failed) assert.match(f.error, /in 3 replies/);
    assert.equal(team.of('run_ended').length, 1);
  });

  it('is set aside when no round is left in which news could come', async () => {
    const team = runTeam([member('mute', silent), member('b', (_req, i) => (i === 0 ? reply.answer('B') : reply.vote('agent2')))], { orchestrator: { maxRounds: 1 } });
    const result = await team.result;
    assert.equal(result.reason, 'max_rounds');
    assert.equal(team.requests('mute').length, 3);
    assert.match(team.of('agent_failed')[0].error, /in 3 replies/);
  });

  it('is set aside once the others can only vote, without waiting for their votes', async () => {
    // With one answer each allowed, a's and b's second turns are vote-only (settled): no answer can come any more.
    const team = runTeam(
      [
        member('mute', silent),
        member('a', answerThenVote('A', 'agent2')),
        member('b', (req) => (boardHasAnswers(req) ? reply.vote('agent2', 'r', { delayMs: 2000 }) : reply.answer('B'))),
      ],
      { orchestrator: { maxNewAnswersPerAgent: 1 } },
    );
    const result = await team.result;
    assert.equal(result.winnerId, 'a');
    assert.equal(team.requests('mute').length, 3);
    const failed = team.of('agent_failed')[0];
    assert.match(failed.error, /in 3 replies/);
    assert.ok(failed.seq < team.of('vote_cast').find((e) => e.vote.voterId === 'b')!.seq, "set aside before b's slow vote came");
  });
});

describe('orchestrator: a reply the server could not parse (llama.cpp)', () => {
  const unparsed = (output: string): ReturnType<Script> => ({ error: new ProviderError('unparsed_output', `m @ http://x could not parse the model's reply (HTTP 500): Failed to parse input at pos 0: ${output}`, { status: 500, output }) });

  it('is corrected like a malformed call: not retried, one correction quoting it, billed, then the model goes on', async () => {
    const a = seq(unparsed(`<tool_call>{"name": "new_answer", "arguments": {"content": "${'Paris '.repeat(100)}`), reply.answer('Paris'), reply.vote('agent1'));
    const team = runTeam([member('a', a)]);
    const result = await team.result;
    assert.equal(result.finalAnswer, 'Paris');
    assert.equal(team.providers.a.callCount, 3, 'no call-level retry');
    assert.equal(team.of('retry').length, 0);
    const corrections = team.of('correction');
    assert.equal(corrections.length, 1);
    assert.equal(corrections[0].attempt, 1);
    const last = team.requests('a')[1].messages.at(-1)!;
    assert.equal(last.role, 'user');
    assert.ok(last.content.endsWith(`\n\n${corrections[0].message}`), 'after the board it was shown, as no reply was kept');
    assert.match(last.content, /Your last tool call could not be parsed \(the server read: <tool_call>\{"name": "new_answer", "arguments": \{"content": "Paris Paris [^)]*…\)\. Call exactly one of `new_answer` or `vote`, with arguments that are valid JSON/);
    assert.ok(last.content.length < 2000, 'the quote is clipped');
    const first = team.of('usage')[0];
    assert.equal(first.usage.estimated, true);
    assert.equal(first.usage.inputTokens, estimatePromptTokens(team.requests('a')[0]));
    assert.ok(first.usage.outputTokens > 0, 'what the server quoted was written');
  });

  it('counts as an invalid attempt: three in a turn fail the turn as a protocol failure, not a provider one', async () => {
    const team = runTeam([member('a', () => unparsed('<tool_call>{"name": "vote"')), member('b', answerThenVote('B', 'agent2'))]);
    const result = await team.result;
    assert.equal(result.winnerId, 'b');
    const turns = team.of('turn_failed').filter((e) => e.agentId === 'a');
    assert.ok(turns.length >= 1 && turns.length <= 3, `${turns.length} failed turns`);
    for (const t of turns) {
      assert.equal(t.cause, 'protocol');
      assert.match(t.error, /^no valid vote or new_answer call after 3 attempts \(last: Your last tool call could not be parsed/);
    }
    assert.equal(team.providers.a.callCount, 3 * turns.length, 'three replies in each of its turns');
    assert.equal(team.of('agent_failed')[0].cause, 'protocol');
  });

  it("from llama-server's HTTP 500 through the OpenAI-compatible provider: one request, no back-off, then the correction", async () => {
    let calls = 0;
    const server = await startFakeOpenAI(({ body }) => {
      calls++;
      if (calls === 1) return { error: { status: 500, message: 'Failed to parse input at pos 0: <tool_call>\n{"name": "new_answer", "arguments": {"content": "Par', type: 'server_error' } };
      const offered = new Set((body.tools ?? []).map((t) => t.function.name));
      return { toolCalls: [offered.has('new_answer') && calls === 2 ? { name: 'new_answer', arguments: { content: 'Paris' } } : { name: 'vote', arguments: { agent_id: 'agent1', reason: 'only one' } }] };
    });
    try {
      const provider = new OpenAICompatibleProvider({ model: 'llama', baseUrl: server.baseUrl });
      // The real clock: a real server's replies are not scripted time. The run ends by causality alone.
      const team = runTeamOn([{ id: 'a', script: () => ({}), provider }]);
      const result = await team.result;
      assert.equal(result.finalAnswer, 'Paris');
      assert.equal(server.chatRequests().length, 3);
      assert.equal(team.of('retry').length, 0);
      const messages = server.chatRequests()[1].body.messages;
      assert.match(String(messages.at(-1)?.content), /Your last tool call could not be parsed \(the server read: <tool_call> \{"name": "new_answer", "arguments": \{"content": "Par\)/);
    } finally {
      await server.close();
    }
  });
});

describe('orchestrator: an agent in a long back-off', () => {
  const rateLimited = (): Script => () => ({ error: new ProviderError('rate_limit', '429 Too Many Requests', { status: 429, retryAfterMs: 60_000 }) });

  it('does not hold the others: they answer and vote; after the wait the run ends without it and says so', async () => {
    const team = runTeam(
      [member('a', answerThenVote('A', 'agent1')), member('b', answerThenVote('B', 'agent1')), member('slow', rateLimited())],
      { retry: { maxDelayMs: 60_000 }, orchestrator: { unavailableWaitSeconds: 0.3 } },
    );
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerId, 'a');
    assert.equal(result.durationMs, 300, 'ended after the 0.3 s wait, not the 60 s back-off');
    const failed = team.of('agent_failed')[0];
    assert.equal(failed.agentId, 'slow');
    assert.equal(failed.cause, 'unavailable');
    assert.match(failed.error, /^unavailable for \d+ s \(429 Too Many Requests\); the others agreed without it$/);
    assert.equal(team.of('vote_cast').length, 2);
    assert.equal(team.requests('slow').length, 1, 'no second attempt was sent after the run ended');
  });

  it('a short back-off is waited for as before', async () => {
    let calls = 0;
    const flaky: Script = (req) => (++calls === 1 ? { error: new ProviderError('server', '503', { status: 503, retryAfterMs: 20 }) } : boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('C'));
    const team = runTeam([member('a', answerThenVote('A', 'agent1')), member('c', flaky)], { retry: { maxDelayMs: 60_000 }, orchestrator: { unavailableWaitSeconds: 0 } });
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(team.of('agent_failed').length, 0);
    assert.equal(team.of('answer_added').length, 2);
  });
});

describe('orchestrator: calls that end early are still counted', () => {
  it('a cancel mid-stream counts the streamed tokens (estimated) in usage, cost and the budget', async () => {
    const abort = new AbortController();
    const streaming: Script = () => ({ ...reply.answer('x'), text: 'y'.repeat(800), delayMs: 2000 });
    const pricing = { inputPerMillion: 1_000_000, cachedInputPerMillion: 0, outputPerMillion: 1_000_000 };
    const team = runTeam([{ id: 'a', script: streaming, pricing }, { id: 'b', script: streaming, pricing }], { signal: abort.signal });
    // Cancel once both have streamed half of their text (the scripted provider streams it in four pieces, one each 500 ms).
    team.clock.setTimeout(() => abort.abort(), 1250);
    const result = await team.result;
    assert.equal(team.of('text_delta').length, 4);
    assert.equal(result.reason, 'cancelled');
    const usage = team.of('usage');
    assert.equal(usage.length, 2);
    for (const u of usage) {
      assert.equal(u.usage.estimated, true);
      assert.ok(u.usage.outputTokens >= 100, `${u.usage.outputTokens} output tokens`);
      assert.ok(u.usage.inputTokens > 0);
      assert.ok(u.costUsd! > 0);
    }
    const state = reduceEvents(team.events);
    assert.ok(state.usage.outputTokens >= 200 && state.usage.estimated);
  });

  it('a cancel while a tool call streams (no text) counts the call: its prompt, estimated', async () => {
    const abort = new AbortController();
    // The reply has begun (the scripted provider starts it after 500 ms) but its call arrives only whole, at 2 s.
    const voting: Script = () => ({ ...reply.answer('x'), delayMs: 2000 });
    const team = runTeam([member('a', voting)], { signal: abort.signal });
    team.clock.setTimeout(() => abort.abort(), 1250);
    const result = await team.result;
    assert.equal(result.reason, 'cancelled');
    assert.equal(team.of('text_delta').length, 0);
    const usage = team.of('usage');
    assert.equal(usage.length, 1);
    assert.equal(usage[0].usage.estimated, true);
    assert.equal(usage[0].usage.inputTokens, estimatePromptTokens(team.requests('a')[0]));
    assert.equal(usage[0].usage.outputTokens, 0);
    assert.equal(reduceEvents(team.events).usage.calls, 1);
  });

  it('a cancel before the reply begins counts nothing: the server never read the prompt', async () => {
    const abort = new AbortController();
    const team = runTeam([member('a', () => ({ ...reply.answer('x'), delayMs: 2000 }))], { signal: abort.signal });
    team.clock.setTimeout(() => abort.abort(), 250);
    await team.result;
    assert.equal(team.of('usage').length, 0);
  });
});

describe('orchestrator: context windows', () => {
  const HUGE = 'word '.repeat(200_000); // 1 MB: far beyond an 8k-token window

  it('shares the room fairly: short answers stay whole, a huge one is cut', () => {
    assert.deepEqual(shareRoom([100, 5000, 300], 1000), [100, 600, 300]);
    assert.deepEqual(shareRoom([10, 20], 1000), [10, 20]);
  });

  it('shortens a huge answer in a peer\'s prompt instead of sending it whole; read_answer reads it a piece at a time', async () => {
    const reader: Script = (req, i) => {
      if (!boardHasAnswers(req)) return reply.answer('a short answer');
      if (i === 1) return { toolCalls: [{ name: 'read_answer', arguments: { agent_id: 'agent2', start: 12_000 } }] };
      return reply.vote('agent1', 'the huge one is padding');
    };
    const team = runTeam([
      { id: 'a', script: reader, contextWindow: 8000 },
      { id: 'b', script: answerThenVote(HUGE.trim(), 'agent1') },
    ]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(team.of('agent_failed').length, 0);
    const voteTurn = team.requests('a')[1];
    assert.ok(estimatePromptTokens(voteTurn) < 8000 * 0.85, `${estimatePromptTokens(voteTurn)} tokens`);
    assert.match(requestText(voteTurn), /shortened to fit your context window: \d+ of 999999 characters shown; call read_answer \{"agent_id": "agent2"\}/);
    assert.ok(voteTurn.tools.some((t) => t.name === 'read_answer'));
    // Its own answer, whole: the refit rebuilt the conversation without its new_answer call.
    assert.match(requestText(voteTurn), /<agent1> a short answer <end of agent1>/, 'the short answer is whole');
    const piece = team.requests('a')[2].messages.filter((m) => m.role === 'tool').pop()!.content;
    const [, from, to] = /\[agent2\.1: characters (\d+)-(\d+) of 999999; call read_answer with start (\d+) for the rest\]$/.exec(piece) ?? [];
    assert.equal(from, '12000');
    assert.ok(Number(to) - 12000 >= 1000, `a piece of ${Number(to) - 12000} characters`);
    // The agent with the large window got the whole board; its own huge answer is in its new_answer call, not again.
    const bVote = team.requests('b')[1];
    assert.ok(bVote.messages.some((m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.arguments.includes(HUGE.trim().slice(-100)))));
    assert.match(requestText(bVote), /<agent1> a short answer <end of agent1>/);
    assert.match(requestText(bVote), /<agent2> your own answer agent2\.1, as in your new_answer call above <end of agent2>/);
    assert.ok(!requestText(bVote).includes(HUGE.trim().slice(-100)));
  });

  it('an agent whose task alone cannot fit fails with a clear reason; the others go on', async () => {
    const team = runTeam([
      { id: 'tiny', script: answerThenVote('x', 'agent2'), contextWindow: 1000 },
      { id: 'b', script: answerThenVote('B', 'agent2') },
    ], { task: 'Summarise: ' + 'long text '.repeat(2000) });
    const result = await team.result;
    assert.equal(result.winnerId, 'b');
    assert.equal(team.requests('tiny').length, 0, 'nothing was sent that could only fail');
    const failed = team.of('agent_failed')[0];
    assert.equal(failed.cause, 'context');
    assert.match(failed.error, /^agent1's prompt needs about \d+ tokens with every answer shortened, more than its model's context window of 1000 tokens allows/);
  });
});

describe('orchestrator: early decision', () => {
  const slowVoter = (ms: number): Script => (req) => (boardHasAnswers(req) ? reply.vote('agent2', 'slowly', { delayMs: ms }) : reply.answer('C'));

  it('with vote-only turns out, a strict majority decides without waiting for them', async () => {
    const team = runTeam([member('a', answerThenVote('A', 'agent1')), member('b', answerThenVote('B', 'agent1')), member('slow', slowVoter(3000))], {
      orchestrator: { maxNewAnswersPerAgent: 1 },
    });
    const result = await team.result;
    assert.equal(result.reason, 'majority');
    assert.equal(result.winnerId, 'a');
    assert.equal(result.durationMs, 0, 'did not wait for the 3 s vote');
    assert.ok(team.providers.slow.signals[1].aborted, "the slow agent's vote call was stopped");
    assert.equal(team.of('agent_failed').length, 0);
  });

  it('never while a turn still out may answer, and not when turned off', async () => {
    const may = runTeam([member('a', answerThenVote('A', 'agent1')), member('b', answerThenVote('B', 'agent1')), member('slow', slowVoter(300))]);
    assert.equal((await may.result).reason, 'consensus');
    const off = runTeam([member('a', answerThenVote('A', 'agent1')), member('b', answerThenVote('B', 'agent1')), member('slow', slowVoter(300))], {
      orchestrator: { maxNewAnswersPerAgent: 1, earlyDecision: false },
    });
    assert.equal((await off.result).reason, 'answer_cap');
    assert.equal(off.of('vote_cast').length, 3);
  });
});

describe('orchestrator: an agent whose server keeps failing', () => {
  it('holds the round for one short retry, not for the whole back-off series', async () => {
    const failing: Script = () => ({ error: new ProviderError('server', '500 Internal Server Error', { status: 500 }), delayMs: 0 });
    const team = runTeam([member('a', answerThenVote('A', 'agent1')), member('b', answerThenVote('B', 'agent1')), member('down', failing)], {
      retry: { baseDelayMs: 200, maxDelayMs: 60_000 },
    });
    const result = await team.result;
    assert.equal(result.winnerId, 'a');
    const round2 = team.of('round_started').find((e) => e.round === 2)!;
    const retries = team.of('retry').filter((e) => e.agentId === 'down');
    assert.ok(retries.length >= 2);
    // Round 2 starts once the second retry is scheduled (~200 ms + 400 ms), long before the last one (~1.4 s) ends.
    assert.ok(round2.t < retries[retries.length - 1].t + retries[retries.length - 1].delayMs, `round 2 at ${round2.t} ms`);
    assert.equal(team.of('agent_failed')[0].agentId, 'down');
  });
});

describe('orchestrator: the human in the loop', () => {
  const slowAnswer = (text: string, ms: number): Script => (req) => (boardHasAnswers(req) ? reply.vote('agent1', 'ok') : reply.answer(text, { delayMs: ms }));

  it('a note to everyone reaches each agent at its next boundary, once, and is kept in a fresh prompt', async () => {
    const a: Script = (req, i) => {
      if (i === 0) team.clock.setTimeout(() => team.orchestrator.note('Answer in French.'), 10);
      return boardHasAnswers(req) ? reply.vote('agent1', 'ok') : reply.answer('quatre', { delayMs: 60 });
    };
    const team = runTeam([member('a', a), member('b', slowAnswer('vier', 60))]);
    await team.result;
    for (const id of ['a', 'b']) {
      const second = requestText(team.requests(id)[1]);
      assert.equal(second.split('NOTE FROM THE USER').length - 1, 1, `${id} saw the note once`);
      assert.match(second, /NOTE FROM THE USER \(take it into account from now on\):\n- Answer in French\./);
      assert.doesNotMatch(requestText(team.requests(id)[0]), /NOTE FROM THE USER/, 'not before its boundary');
    }
    assert.deepEqual(team.of('note_added').map((e) => [e.text, e.agentIds, e.changesTask]), [['Answer in French.', ['a', 'b'], false]]);
    assert.deepEqual(team.of('note_delivered').map((e) => e.agentId).sort(), ['a', 'b']);
    const state = reduceEvents(team.events);
    assert.deepEqual(state.notes[0].deliveredTo.sort(), ['a', 'b']);
  });

  it('a note that changes the task makes the current votes stale, and a vote cast before seeing it does not count', async () => {
    let noted = false;
    const a: Script = (req) => {
      if (!boardHasAnswers(req)) return reply.answer('A');
      if (!noted) {
        noted = true;
        // Both hold votes soon; the note arrives while b still decides.
        team.clock.setTimeout(() => team.orchestrator.note('Only integers count.', { changesTask: true }), 20);
        return reply.vote('agent1', 'first look');
      }
      return reply.vote('agent2', 'with the note in mind');
    };
    const b: Script = (req, i) => (!boardHasAnswers(req) ? reply.answer('B') : i === 1 ? reply.vote('agent1', 'x', { delayMs: 80 }) : reply.vote('agent2', 'y'));
    const team = runTeam([member('a', a), member('b', b)]);
    const result = await team.result;
    assert.equal(result.winnerLabel, 'agent2.1');
    assert.ok(team.of('vote_invalidated').some((e) => e.reason === "the user's note changed the task"));
    assert.match(requestText(team.requests('a')[2]), /NOTE FROM THE USER \(it changes the task/);
  });

  it('answer now ends the run at once with the best current answer (user_stop), aborting the calls in flight', async () => {
    const a: Script = (req) => (boardHasAnswers(req) ? reply.vote('agent1', 'x', { delayMs: 5000 }) : reply.answer('A first'));
    const b: Script = (req) => {
      if (boardHasAnswers(req)) team.clock.setTimeout(() => team.orchestrator.answerNow(), 20);
      return boardHasAnswers(req) ? reply.vote('agent1', 'x', { delayMs: 5000 }) : reply.answer('B second', { delayMs: 30 });
    };
    const team = runTeam([member('a', a), member('b', b)]);
    const result = await team.result;
    assert.equal(result.reason, 'user_stop');
    assert.deepEqual(team.of('vote_cast'), [], 'ended at once: neither 5 s vote was waited for');
    assert.equal(team.of('winner_selected')[0].basis, 'most_informed');
    assert.ok(result.finalAnswer);
    assert.ok(team.providers.a.signals.at(-1)!.aborted);
  });

  it('a note to one agent reaches only it', async () => {
    const a: Script = (req, i) => {
      if (i === 0) team.clock.setTimeout(() => team.orchestrator.note('Check the edge cases.', { agentId: 'b' }), 5);
      return boardHasAnswers(req) ? reply.vote('agent1', 'ok') : reply.answer('A', { delayMs: 40 });
    };
    const team = runTeam([member('a', a), member('b', slowAnswer('B', 40))]);
    await team.result;
    assert.doesNotMatch(team.requests('a').map(requestText).join('\n'), /NOTE FROM THE USER/);
    assert.match(requestText(team.requests('b')[1]), /- Check the edge cases\./);
    assert.deepEqual(team.of('note_added')[0].agentIds, ['b']);
  });

  it('refuses an empty note, or one after the run ended', async () => {
    const team = runTeam([member('a', answerThenVote('A', 'agent1'))]);
    assert.throws(() => team.orchestrator.note('   '), /the run is not running|empty/);
    await team.result;
    assert.throws(() => team.orchestrator.note('late'), /not running/);
  });

  it('a note sent while the final answer is written is recorded as undelivered, saying why', async () => {
    const team = runTeam([member('a', (req) => {
      if (req.tools.length === 0) {
        team.orchestrator.note('too late to matter');
        return reply.text('FINAL');
      }
      return boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('A');
    })], { orchestrator: { finalAnswer: 'synthesize' } });
    assert.equal((await team.result).finalAnswer, 'FINAL');
    assert.deepEqual(team.of('note_undelivered').map((e) => [e.noteId, e.agentIds, e.reason]), [['note1', ['a'], 'final_answer']]);
    assert.deepEqual(team.of('note_delivered'), []);
    assert.deepEqual(reduceEvents(team.events).notes[0].undelivered, { agentIds: ['a'], reason: 'final_answer' });
  });

  it('a note sent during the final vote turns is delivered: the agents see it, vote again once, and the run ends after', async () => {
    // Both answer, then both vote for agent1 slowly; the note comes while both votes are being decided.
    const voter = (ms: number): Script => (req) => {
      if (!boardHasAnswers(req)) return reply.answer(ms === 50 ? 'Use a loop.' : 'Use recursion.');
      if (/Never use recursion/.test(requestText(req))) return reply.vote('agent1', 'the note forbids recursion');
      return reply.vote('agent2', 'recursion is elegant', { delayMs: ms });
    };
    const team = runTeam([member('a', voter(50)), member('b', voter(60))]);
    team.clock.setTimeout(() => team.orchestrator.note('Never use recursion.'), 20);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerLabel, 'agent1.1', 'the votes that count were cast after the note');
    for (const id of ['a', 'b']) {
      const seen = team.requests(id).filter((r) => /NOTE FROM THE USER[^]*Never use recursion/.test(requestText(r)));
      assert.ok(seen.length >= 1, `${id}'s model saw the note`);
      assert.equal(requestText(team.requests(id).at(-1)!).split('Never use recursion').length - 1, 1, `${id} was given the note once`);
    }
    assert.deepEqual(team.of('note_delivered').map((e) => e.agentId).sort(), ['a', 'b']);
    assert.equal(team.of('vote_invalidated').filter((e) => /note came before the vote/.test(e.reason)).length, 2);
    assert.deepEqual(team.of('note_undelivered'), []);
    const state = reduceEvents(team.events);
    assert.deepEqual(state.notes[0].deliveredTo.sort(), ['a', 'b']);
    assert.deepEqual(state.votes.filter((v) => !v.stale).map((v) => v.targetLabel), ['agent1.1', 'agent1.1']);
  });

  it('an answer taken as a vote while a note waits is not counted, and the reply says it was taken as a vote', async () => {
    // a answers first; b writes the same answer slowly, and a note arrives while b is writing it.
    const b: Script = (req) => (/Keep it short/.test(requestText(req)) ? reply.vote('agent1', 'short enough') : reply.answer('same text', { delayMs: 60 }));
    const team = runTeam([member('a', answerThenVote('same text', 'agent1')), member('b', b)]);
    team.clock.setTimeout(() => team.orchestrator.note('Keep it short.'), 20);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    const told = team.of('tool_result').find((e) => e.agentId === 'b' && e.name === 'new_answer')!;
    assert.equal(told.summary, "Your answer is the same as agent1's, so it is taken as your vote for agent1. Your vote was not counted: the user sent a note while you were deciding; you will be asked again with it.");
    assert.deepEqual(team.of('vote_cast').filter((e) => e.vote.voterId === 'b').map((e) => e.vote.reason), ['the same answer as agent1', 'short enough']);
  });

  it('an agent holding a vote from before a note is asked again with it; a second note re-triggers, each note once', async () => {
    let notes = 0;
    const a: Script = (req) => {
      if (!boardHasAnswers(req)) return reply.answer('A');
      // a holds its vote when each note comes (b is still thinking), so each note takes its vote back.
      if (notes < 2) team.clock.setTimeout(() => team.orchestrator.note(`note ${++notes}`), 10);
      return reply.vote('agent1', 'ok');
    };
    const b: Script = (req) => (boardHasAnswers(req) ? reply.vote('agent1', 'ok', { delayMs: 100 }) : reply.answer('B'));
    const team = runTeam([member('a', a), member('b', b)]);
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.deepEqual(team.of('note_delivered').filter((e) => e.agentId === 'a').map((e) => e.noteId), ['note1', 'note2']);
    assert.ok(team.of('vote_invalidated').some((e) => e.voterId === 'a' && /note came after this vote/.test(e.reason)));
    const last = requestText(team.requests('a').at(-1)!);
    assert.equal(last.split('- note 1').length - 1, 1, 'note 1 shown once');
    assert.equal(last.split('- note 2').length - 1, 1, 'note 2 shown once');
    assert.ok(team.of('vote_cast').filter((e) => e.vote.voterId === 'a').length <= 3, 'one vote more per note at most');
  });

  it('a note still on its way when the run stops is reported undelivered, with the reason', async () => {
    const slow: Script = (req) => (boardHasAnswers(req) ? reply.vote('agent1', 'x', { delayMs: 5000 }) : reply.answer('A'));
    const team = runTeam([member('a', slow), member('b', slow)]);
    team.clock.setTimeout(() => team.orchestrator.note('Too late.'), 20);
    team.clock.setTimeout(() => team.orchestrator.answerNow(), 40);
    const result = await team.result;
    assert.equal(result.reason, 'user_stop');
    assert.deepEqual(team.of('note_undelivered').map((e) => [e.agentIds, e.reason]), [[['a', 'b'], 'user_stop']]);
    const ended = team.events.findIndex((e) => e.type === 'run_ended');
    assert.ok(team.events.findIndex((e) => e.type === 'note_undelivered') < ended);
  });
});

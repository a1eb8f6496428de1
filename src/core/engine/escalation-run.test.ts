// The engine with escalation stages: stage 1 alone ends the run when it agrees; otherwise the next stage joins the
// running coordination, and why is recorded (`stage_started`), folded into the state and status.json.

import assert from 'node:assert/strict';
import { ProviderError } from '../providers/types';
import { reply, requestText, type Script } from '../providers/scripted';
import { FakeClock } from '../../../test/helpers/fake-clock';
import { runTeam as runTeamOn, type TeamMember } from '../../../test/helpers/test-team';
import type { CheckResult } from './events';
import type { AgentToolbox, AnswerChecks } from './ports';
import { reduceEvents } from './run-state';

const runTeam = (members: TeamMember[], opts: Parameters<typeof runTeamOn>[1] = {}) => runTeamOn(members, { clock: new FakeClock(), ...opts });
const STAGES = { stages: [['a', 'b'], ['c']], minAgreeing: 1 };

/**
 * Answers `mine` at its first call (a stage that joins late answers too); then votes for the label whose answer is
 * `RIGHT` once it sees one, else for its own. So cheap agents that disagree keep to their own answers until the strong
 * one's right answer is on the board.
 */
function follower(label: string, mine: string): Script {
  return (req, call) => {
    if (call === 0) return reply.answer(mine, { delayMs: 100 });
    const right = /<(agent\d+)> RIGHT <end of/.exec(requestText(req))?.[1];
    return reply.vote(right ?? label, 'looks right', { delayMs: 100 });
  };
}

/** A toolbox that records whether it was started (a stage never called must not start its tools). */
function startedToolbox(log: string[], id: string): AgentToolbox {
  return { tools: [], start: async () => void log.push(`start ${id}`), execute: async () => ({ ok: true, content: '' }), close: async () => void log.push(`close ${id}`) };
}

const team3 = (a: string, b: string, log: string[] = []): TeamMember[] => [
  { id: 'a', script: follower('agent1', a), toolbox: startedToolbox(log, 'a') },
  { id: 'b', script: follower('agent2', b), toolbox: startedToolbox(log, 'b') },
  { id: 'c', script: follower('agent3', 'RIGHT'), toolbox: startedToolbox(log, 'c') },
];

describe('engine: escalation stages', () => {
  it('without escalation every agent starts and no stage is recorded', async () => {
    const team = runTeam(team3('RIGHT', 'RIGHT'));
    await team.result;
    assert.equal(team.of('stage_started').length, 0);
    // c's answer is the same as the others' (the first on the board): it counts as its vote, one call.
    assert.equal(team.providers.c.callCount, 1);
    assert.equal(reduceEvents(team.events).escalation, null);
  });

  it('ends at stage 1 when its agents agree: the later stage is never called and its tools never start', async () => {
    const log: string[] = [];
    const team = runTeam(team3('RIGHT', 'RIGHT', log), { orchestrator: { escalation: STAGES } });
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerLabel, 'agent1.1');
    assert.equal(team.providers.c.callCount, 0);
    assert.ok(!log.includes('start c'), log.join(', '));
    assert.deepEqual(team.of('stage_started').map((e) => [e.stage, e.agents, e.reason]), [[1, ['a', 'b'], 'start']]);
    assert.deepEqual(team.events.slice(0, 2).map((e) => e.type), ['run_started', 'stage_started']);
    assert.ok(team.of('round_started').every((e) => !e.agentIds.includes('c')));
  });

  it('on disagreement the next stage joins, sees the board, and the others follow its answer', async () => {
    const team = runTeam(team3('WRONG-A', 'WRONG-B'), { orchestrator: { escalation: STAGES } });
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.equal(result.finalAnswer, 'RIGHT');
    assert.equal(result.winnerLabel, 'agent3.1');
    const stages = team.of('stage_started');
    assert.deepEqual(stages.map((e) => [e.stage, e.agents, e.reason]), [[1, ['a', 'b'], 'start'], [2, ['c'], 'disagreement']]);
    // Called after stage 1's two votes, before c's first turn; c's first prompt shows both answers.
    const at = (pred: (e: (typeof team.events)[number]) => boolean) => team.events.findIndex(pred);
    const secondVote = team.events.filter((e) => e.type === 'vote_cast')[1];
    assert.ok(at((e) => e === secondVote) < at((e) => e === stages[1]));
    assert.ok(at((e) => e === stages[1]) < at((e) => e.type === 'turn_started' && e.agentId === 'c'));
    const first = requestText(team.requests('c')[0]);
    assert.match(first, /<agent1> WRONG-A <end of agent1>/);
    assert.match(first, /<agent2> WRONG-B <end of agent2>/);
    assert.deepEqual(team.of('winner_selected')[0].votes, { c: 3 });

    const state = reduceEvents(team.events);
    assert.deepEqual(state.escalation?.stages.map((s) => [s.stage, s.agents, s.reason, s.afterRound]), [[1, ['a', 'b'], 'start', 0], [2, ['c'], 'disagreement', 2]]);
  });

  it('a confidence floor calls the next stage when too few agree', async () => {
    const team = runTeam(team3('RIGHT', 'RIGHT'), { orchestrator: { escalation: { ...STAGES, minAgreeing: 3 } } });
    await team.result;
    assert.deepEqual(team.of('stage_started').map((e) => e.reason), ['start', 'min_agreeing']);
    assert.ok(team.providers.c.callCount > 0);
  });

  it('an agent failure in the stage calls the next one', async () => {
    const members = team3('RIGHT', 'RIGHT');
    members[1] = { id: 'b', script: () => ({ error: new ProviderError('auth', '401 bad key', { status: 401 }) }) };
    const team = runTeam(members, { orchestrator: { escalation: STAGES } });
    const result = await team.result;
    assert.deepEqual(team.of('stage_started').map((e) => e.reason), ['start', 'agent_failed']);
    assert.equal(result.winnerLabel, 'agent1.1', 'c agrees with the surviving answer');
  });

  it('vote-only agents still disagreeing call the next stage (vote_cap)', async () => {
    const team = runTeam(team3('WRONG-A', 'WRONG-B'), { orchestrator: { escalation: STAGES, maxNewAnswersPerAgent: 1 } });
    const result = await team.result;
    assert.deepEqual(team.of('stage_started').map((e) => e.reason), ['start', 'vote_cap']);
    assert.equal(result.finalAnswer, 'RIGHT');
  });

  it('gives each stage the whole round cap', async () => {
    const team = runTeam(team3('WRONG-A', 'WRONG-B'), { orchestrator: { escalation: STAGES, maxRounds: 2 } });
    const result = await team.result;
    assert.deepEqual(team.of('stage_started').map((e) => e.reason), ['start', 'disagreement']);
    assert.equal(result.reason, 'consensus');
    assert.equal(team.of('round_started').length, 4);
  });

  it('an agreed answer that fails a required check calls the next stage', async () => {
    const result: CheckResult = { name: 'tests', required: true, status: 'failed', exitCode: 1, durationMs: 0, output: '1 failing', cached: false };
    const checks: AnswerChecks = { mode: 'inform', names: ['tests'], run: async (_v, _s, onResult) => (onResult(result), [result]) };
    const workspace = { snapshot: async () => ({ id: 'tree', files: [], bytesWritten: 0 }) };
    const team = runTeam(team3('RIGHT', 'RIGHT').map((m) => ({ ...m, workspace })), { orchestrator: { escalation: STAGES }, checks });
    await team.result;
    assert.deepEqual(team.of('stage_started').map((e) => e.reason), ['start', 'failing_check']);
  });

  it('the user escalates: the next stage joins at once with reason user_note; none is left after the last', async () => {
    const team = runTeam(team3('RIGHT', 'RIGHT'), { orchestrator: { escalation: STAGES } });
    team.orchestrator.escalate();
    await team.result;
    assert.deepEqual(team.of('stage_started').map((e) => [e.stage, e.reason]), [[1, 'start'], [2, 'user_note']]);
    // Asked while round 1 ran: c starts with the next round.
    assert.deepEqual(team.of('round_started').map((e) => e.agentIds.includes('c')), [false, true]);
    assert.throws(() => team.orchestrator.escalate(), /not running/);
    const plain = runTeam(team3('RIGHT', 'RIGHT'));
    assert.throws(() => plain.orchestrator.escalate(), /no escalation stages/);
    await plain.result;
  });

  it('a note to every agent reaches a stage that joins later; one to an agent not called yet is refused in words', async () => {
    const members = team3('WRONG-A', 'WRONG-B');
    const team = runTeam(members, { orchestrator: { escalation: STAGES } });
    const clock = team.clock;
    clock.setTimeout(() => {
      team.orchestrator.note('Answer in one word.');
      assert.throws(() => team.orchestrator.note('hi', { agentId: 'c' }), /'c' has not joined the run/);
    }, 50);
    await team.result;
    assert.match(requestText(team.requests('c')[0]), /Answer in one word\./);
    assert.ok(team.of('note_delivered').some((e) => e.agentId === 'c'));
  });

  it('an agent of stage 1 that never calls a tool is not set aside while a stage is to come: its answers are news', async () => {
    // b's silent turn outlasts a's answer, so it has seen everything of stage 1 when it waits.
    const members = team3('A', 'unused');
    members[1] = { id: 'b', script: (req) => (/<agent3> RIGHT <end of/.test(requestText(req)) ? reply.vote('agent3', 'right') : { text: 'I think so.', delayMs: 80 }) };
    const team = runTeam(members, { orchestrator: { escalation: STAGES } });
    const result = await team.result;
    assert.deepEqual(team.of('stage_started').map((e) => e.reason), ['start', 'agent_failed'], 'its silence calls the next stage');
    assert.equal(team.providers.b.callCount, 4, 'three silent replies, then its last call once c answered');
    assert.ok(team.of('vote_cast').some((e) => e.vote.voterId === 'b' && e.vote.targetLabel === 'agent3.1'));
    assert.equal(team.of('agent_failed').length, 0);
    assert.equal(result.winnerLabel, 'agent3.1');
  });

  it('an agent of stage 1 the user cancels does not call the next stage', async () => {
    const team = runTeam(team3('RIGHT', 'RIGHT'), { orchestrator: { escalation: STAGES } });
    team.clock.setTimeout(() => team.orchestrator.cancelAgent('b'), 50);
    const result = await team.result;
    assert.deepEqual(team.of('stage_started').map((e) => e.reason), ['start']);
    assert.equal(team.providers.c.callCount, 0);
    assert.equal(result.winnerLabel, 'agent1.1');
  });
});

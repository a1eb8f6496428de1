// The vote viewer's escalation stages: what it derives from the reduced state and the run's plan, and its words.

import assert from 'node:assert/strict';
import type { RunEvent, RunEventBody, StageReason } from '../core/engine/events';
import { reduceEvents } from '../core/engine/run-state';
import { agentStage, escalateNow, escalationOf, joinedText, notCalledText, stageEntryText, stageOfText } from './stage-words';
import { reduceView } from './state';

const agent = (id: string, i: number) => ({ id, label: `agent${i + 1}`, model: 'm', provider: 'p', priced: false });
const stamp = (bodies: RunEventBody[]): RunEvent[] => bodies.map((b, i) => ({ ...b, seq: i + 1, t: i * 1000 }) as RunEvent);
const PLAN = [['a', 'b'], ['c'], ['d']];
const BODIES: RunEventBody[] = [
  { type: 'run_started', runId: 'r', question: 'q', agents: ['a', 'b', 'c', 'd'].map(agent), startedAt: '2026-01-01T00:00:00.000Z', finalAnswerMode: 'as_is' },
  { type: 'stage_started', stage: 1, agents: ['a', 'b'], reason: 'start' },
  { type: 'round_started', round: 1, agentIds: ['a', 'b'] },
  { type: 'stage_started', stage: 2, agents: ['c'], reason: 'disagreement' },
];
const EVENTS = stamp(BODIES);

describe('vote viewer: escalation stages', () => {
  it('stage 1 of 3: the agents of later stages are not called yet, each with the stage that would call it', () => {
    const view = escalationOf(reduceEvents(EVENTS.slice(0, 2)), PLAN)!;
    assert.deepEqual(view, {
      stages: [{ stage: 1, agents: ['a', 'b'], reason: 'start' }],
      current: 1,
      totalStages: 3,
      notCalled: [
        { agentId: 'c', stage: 2 },
        { agentId: 'd', stage: 3 },
      ],
    });
    assert.equal(stageOfText(view), 'Stage 1 of 3');
    assert.deepEqual(agentStage(view, 'a'), { called: true, stage: 1, reason: 'start' });
    assert.deepEqual(agentStage(view, 'c'), { called: false, stage: 2 });
    assert.equal(agentStage(view, 'nobody'), null);
  });

  it('a stage that joins: its agents were called, and why', () => {
    const view = escalationOf(reduceEvents(EVENTS), PLAN)!;
    assert.equal(view.current, 2);
    assert.deepEqual(view.notCalled, [{ agentId: 'd', stage: 3 }]);
    assert.deepEqual(agentStage(view, 'c'), { called: true, stage: 2, reason: 'disagreement' });
    assert.equal(stageOfText(view), 'Stage 2 of 3');
  });

  it('a past run (no plan kept) still shows who was not called, without a stage count', () => {
    const view = escalationOf(reduceEvents(EVENTS.slice(0, 2)), undefined)!;
    assert.equal(view.totalStages, null);
    assert.deepEqual(view.notCalled, [
      { agentId: 'c', stage: null },
      { agentId: 'd', stage: null },
    ]);
    assert.equal(stageOfText(view), 'Stage 1');
    assert.equal(escalateNow(view, { phase: 'coordinating' }, true, false).shown, false);
  });

  it('a run without stages has none; before stage 1 is announced nobody is listed as not called', () => {
    assert.equal(escalationOf(reduceEvents(EVENTS.slice(0, 1)), undefined), null);
    const early = escalationOf(reduceEvents(EVENTS.slice(0, 1)), PLAN)!;
    assert.deepEqual([early.current, early.notCalled, stageOfText(early)], [0, [], 'Stage 1 of 3']);
    assert.equal(escalateNow(early, { phase: 'coordinating' }, false, false).shown, false, 'stage 1 is not there yet');
  });

  it('Escalate now: in a live run with a stage left, not while one is asked for, not in a past or finished run', () => {
    const state = reduceEvents(EVENTS.slice(0, 2));
    const view = escalationOf(state, PLAN);
    const offer = escalateNow(view, state, false, false);
    assert.deepEqual([offer.shown, offer.enabled, offer.next, offer.label], [true, true, 2, 'Escalate now: call stage 2']);
    assert.equal(offer.title, 'Call stage 2 now (c): its agents join at the next round');
    assert.deepEqual([escalateNow(view, state, false, true).shown, escalateNow(view, state, false, true).enabled], [true, false]);
    assert.equal(escalateNow(view, state, true, false).shown, false, 'read-only');
    assert.equal(escalateNow(view, { phase: 'presenting' }, false, false).shown, false, 'the final answer is being written');
    assert.equal(escalateNow(view, { phase: 'done' }, false, false).shown, false);
    const last = reduceEvents(stamp([...BODIES, { type: 'stage_started', stage: 3, agents: ['d'], reason: 'user_note' }]));
    assert.equal(escalateNow(escalationOf(last, PLAN), last, false, false).shown, false, 'no stage left');
    assert.equal(escalateNow(null, state, false, false).shown, false, 'no stages');
  });

  it('words: the header, a column, an agent not called, and the timeline entry (one per stage_started)', () => {
    assert.equal(joinedText(2, 'disagreement'), 'joined in stage 2: the agents so far voted for different answers');
    assert.equal(joinedText(3, 'user_note'), 'joined in stage 3: you asked for it');
    assert.equal(notCalledText(2, false), 'not called yet (stage 2)');
    assert.equal(notCalledText(2, true), 'not called: the run ended before stage 2');
    assert.equal(notCalledText(null, false), 'not called yet');
    assert.equal(stageEntryText(1, ['agent1', 'agent2'], 'start'), 'Stage 1 starts with agent1, agent2');
    const reasons: StageReason[] = ['disagreement', 'failing_check', 'agent_failed', 'vote_cap', 'user_note', 'min_agreeing'];
    const texts = reasons.map((r) => stageEntryText(2, ['agent3'], r));
    assert.equal(new Set(texts).size, reasons.length, 'each reason has its own words');
    for (const t of texts) assert.match(t, /^Stage 2: agent3 joined, because \S/);
    const timeline = reduceView(EVENTS).extras.timeline.filter((e) => e.kind === 'stage');
    assert.deepEqual(
      timeline.map((e) => [e.label, e.detail]),
      [
        ['S1', 'Stage 1 starts with agent1, agent2'],
        ['S2', 'Stage 2: agent3 joined, because the agents so far voted for different answers'],
      ],
    );
  });
});

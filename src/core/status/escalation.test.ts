// The escalation stages as status.json and the progress line show them, from the one reduced state.

import assert from 'node:assert/strict';
import type { RunEvent, RunEventBody } from '../engine/events';
import { reduceEvents } from '../engine/run-state';
import { describeEvent } from './describe';
import { buildStatus } from './status-file';

const agent = (id: string, i: number) => ({ id, label: `agent${i + 1}`, model: 'm', provider: 'p', priced: false });
const stamp = (bodies: RunEventBody[]): RunEvent[] => bodies.map((b, i) => ({ ...b, seq: i + 1, t: i * 1000 }) as RunEvent);
const EVENTS = stamp([
  { type: 'run_started', runId: 'r', question: 'q', agents: ['a', 'b', 'c', 'd'].map(agent), startedAt: '2026-01-01T00:00:00.000Z', finalAnswerMode: 'as_is' },
  { type: 'stage_started', stage: 1, agents: ['a', 'b'], reason: 'start' },
  { type: 'round_started', round: 1, agentIds: ['a', 'b'] },
  { type: 'round_started', round: 2, agentIds: ['a', 'b'] },
  { type: 'stage_started', stage: 2, agents: ['c'], reason: 'disagreement' },
]);

describe('status: escalation', () => {
  it('status.json has the stages so far, in order, with why and after which round, and who is not called yet', () => {
    const status = buildStatus(reduceEvents(EVENTS), '/logs', 0);
    assert.deepEqual(status.escalation, {
      current_stage: 2,
      stages: [
        { stage: 1, agents: ['a', 'b'], reason: 'start', after_round: 0, at_seconds: 1 },
        { stage: 2, agents: ['c'], reason: 'disagreement', after_round: 2, at_seconds: 4 },
      ],
      not_called: ['d'],
    });
  });

  it('status.json has no escalation block in a run without stages', () => {
    assert.equal(buildStatus(reduceEvents(EVENTS.slice(0, 1)), '/logs', 0).escalation, null);
  });

  it('the progress line says which stage starts, who joins and why', () => {
    const state = reduceEvents(EVENTS);
    assert.match(describeEvent(EVENTS[1], state) ?? '', /stage 1: agent1 \(a\), agent2 \(b\) start \(the run starts with it\)/);
    assert.match(describeEvent(EVENTS[4], state) ?? '', /stage 2: agent3 \(c\) join \(the agents so far voted for different answers\)$/);
  });
});

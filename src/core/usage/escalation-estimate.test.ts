import assert from 'node:assert/strict';
import { estimateEscalatingRun } from './escalation-estimate';
import { estimateRun, type EstimateInput } from './estimate';

const INPUT: EstimateInput = {
  agents: [
    { id: 'cheap-a', model: 'gpt-4o-mini' },
    { id: 'cheap-b', model: 'gpt-4o-mini' },
    { id: 'strong-c', model: 'gpt-4o' },
  ],
  question: 'What is 2 + 2?',
  maxNewAnswersPerAgent: 2,
  maxRounds: 10,
  finalAnswer: 'as_is',
};

describe('estimate with escalation', () => {
  const stages = { stages: [['cheap-a', 'cheap-b'], ['strong-c']], minAgreeing: 1 };
  const esc = estimateEscalatingRun(INPUT, stages);
  const full = estimateRun(INPUT);
  const stage1 = estimateRun({ ...INPUT, agents: INPUT.agents.slice(0, 2) });

  it('best case: stage 1 agrees alone', () => {
    assert.deepEqual([esc.calls.min, esc.inputTokens.min, esc.costUsd?.min], [stage1.calls.min, stage1.inputTokens.min, stage1.costUsd?.min]);
    assert.equal(esc.calls.min, 4);
    assert.ok(esc.costUsd!.min < full.costUsd!.min);
  });

  it('worst case: stage 1 to its limits, then the whole team to its limits', () => {
    assert.equal(esc.calls.max, stage1.calls.max + full.calls.max);
    assert.ok(Math.abs(esc.costUsd!.max - (stage1.costUsd!.max + full.costUsd!.max)) < 1e-12);
    assert.match(esc.assumptions[0], /minimum = stage 1 \(cheap-a, cheap-b\) agrees alone.*maximum = all 2 stages called/);
  });

  it('best case when stage 1 is smaller than min_agreeing: the stages up to the first that can agree', () => {
    const needsThree = estimateEscalatingRun(INPUT, { stages: [['cheap-a', 'cheap-b'], ['strong-c']], minAgreeing: 3 });
    assert.deepEqual([needsThree.calls.min, needsThree.costUsd?.min], [full.calls.min, full.costUsd?.min]);
    assert.equal(needsThree.calls.max, esc.calls.max);
    assert.match(needsThree.assumptions[0], /minimum = stages 1 to 2 \(cheap-a, cheap-b, strong-c\) agree as one team, the first with the 3 agents/);
  });
});

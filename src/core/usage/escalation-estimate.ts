// The pre-run estimate for a team in escalation stages (orchestrator.escalation): the best case is the first stage
// with enough agents for min_agreeing (usually stage 1) agreeing alone; the worst calls every stage, each running to
// the limits with the agents joined so far.

import type { Escalation } from '../config/types';
import { estimateRun, type EstimateInput, type RunEstimate } from './estimate';

export function estimateEscalatingRun(input: EstimateInput, escalation: Escalation): RunEstimate {
  // Each stage's run, with the agents joined by then, in config order (their labels do not change).
  const perStage = escalation.stages.map((_, k) => {
    const joined = new Set(escalation.stages.slice(0, k + 1).flat());
    return estimateRun({ ...input, agents: input.agents.filter((a) => joined.has(a.id)) });
  });
  // A stage with fewer agents than min_agreeing cannot end the run: the best case needs the stages up to one that can.
  const joinedCounts = escalation.stages.map((_, k) => escalation.stages.slice(0, k + 1).flat().length);
  const enough = joinedCounts.findIndex((n) => n >= escalation.minAgreeing);
  const bestStage = enough === -1 ? perStage.length - 1 : enough;
  const best = perStage[bestStage];
  const full = perStage[perStage.length - 1];
  const worst = (pick: (e: RunEstimate) => number) => perStage.reduce((total, e) => total + pick(e), 0);
  const bestCase =
    bestStage === 0
      ? `stage 1 (${escalation.stages[0].join(', ')}) agrees alone and no later stage is called`
      : `stages 1 to ${bestStage + 1} (${escalation.stages.slice(0, bestStage + 1).flat().join(', ')}) agree as one team, ` +
        `the first with the ${escalation.minAgreeing} agents min_agreeing asks for, and no later stage is called (approximate: ` +
        'stage 1 first runs a round alone, and agents that join may only vote)';
  return {
    calls: { min: best.calls.min, max: worst((e) => e.calls.max) },
    inputTokens: { min: best.inputTokens.min, max: worst((e) => e.inputTokens.max) },
    outputTokens: { min: best.outputTokens.min, max: worst((e) => e.outputTokens.max) },
    costUsd: full.costUsd && {
      min: best.costUsd?.min ?? 0,
      max: worst((e) => e.costUsd?.max ?? 0),
      partial: full.costUsd.partial,
      unpricedAgentIds: full.costUsd.unpricedAgentIds,
    },
    assumptions: [
      `Escalation: minimum = ${bestCase}; maximum = all ${escalation.stages.length} stages called, ` +
        'each running to the limits with the agents joined so far (an upper bound: the answer cap is per agent over the whole run).',
      ...full.assumptions,
    ],
  };
}

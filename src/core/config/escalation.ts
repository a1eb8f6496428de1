// `orchestrator.escalation` (ours; upstream has none): the team in ordered stages. A run starts with stage 1 alone and
// calls the next stage only when the agents so far do not settle it (see engine/escalation.ts for the rule).

import { z } from 'zod';
import { closestName } from './edit-distance';
import type { Path, Report } from './report';
import type { Escalation } from './types';

export const EscalationSchema = z.object({
  /** Agent ids per stage, in order. */
  stages: z.array(z.array(z.string().min(1))).min(1).nullish(),
  /** The first K agents in config order are stage 1, the rest stage 2. */
  start: z.int().positive().nullish(),
  /** A stage ends the run only when at least this many agents agree. */
  min_agreeing: z.int().positive().nullish(),
});

/** "did you mean …" for an id that is not the team's. */
function near(id: string, ids: readonly string[]): string {
  const name = closestName(id, ids, 2);
  return name ? ` (did you mean ${name}?)` : '';
}

/**
 * The stages as the engine takes them, or undefined when the config has none. Agents the stages do not list are not
 * refused: they form a last stage of their own, in config order, with a warning, since a team member left out is
 * more likely an oversight than a wish to never call it (and dropping it silently would change the team).
 */
export function toEscalation(raw: z.infer<typeof EscalationSchema> | null | undefined, ids: readonly string[], report: Report): Escalation | undefined {
  if (!raw) return undefined;
  const at: Path = ['orchestrator', 'escalation'];
  const hasStages = raw.stages != null;
  const hasStart = raw.start != null;
  if (hasStages === hasStart) {
    report.error(at, `orchestrator.escalation: give either stages: (e.g. [[${ids.slice(0, 2).join(', ')}], [${ids.slice(2).join(', ') || '…'}]]) or start: K (the first K agents are stage 1), ${hasStages ? 'not both' : 'one of them'}`);
    return undefined;
  }
  let stages: string[][];
  if (raw.start != null) {
    if (raw.start >= ids.length) {
      report.error([...at, 'start'], `orchestrator.escalation.start: ${raw.start} leaves no agent for a later stage (the team has ${ids.length}); use at most ${ids.length - 1}`);
      return undefined;
    }
    stages = [ids.slice(0, raw.start), ids.slice(raw.start)];
  } else {
    const seen = new Map<string, string>();
    let bad = false;
    stages = raw.stages!.map((stage, i) => {
      if (stage.length === 0) {
        report.error([...at, 'stages', i], `orchestrator.escalation.stages[${i}] is empty: list the ids of the agents that join at stage ${i + 1}`);
        bad = true;
      }
      return stage.filter((id, j) => {
        const path = [...at, 'stages', i, j];
        const where = `orchestrator.escalation.stages[${i}][${j}]`;
        if (!ids.includes(id)) {
          report.error(path, `${where}: no agent has id "${id}"${near(id, ids)}; the team: ${ids.join(', ')}`);
          bad = true;
          return false;
        }
        if (seen.has(id)) {
          report.error(path, `${where}: agent "${id}" is already in ${seen.get(id)}; each agent joins at most once`);
          bad = true;
          return false;
        }
        seen.set(id, where);
        return true;
      });
    });
    if (bad) return undefined;
    const rest = ids.filter((id) => !seen.has(id));
    if (rest.length > 0) {
      stages.push(rest);
      report.warn([...at, 'stages'], `orchestrator.escalation.stages does not list ${rest.join(', ')}: ${rest.length === 1 ? 'it joins' : 'they join'} in a last stage of ${rest.length === 1 ? 'its' : 'their'} own (stage ${stages.length})`);
    }
    if (stages.length < 2) {
      report.error([...at, 'stages'], 'orchestrator.escalation.stages: one stage holds the whole team, so there is nothing to escalate to; give at least two stages');
      return undefined;
    }
  }
  const minAgreeing = raw.min_agreeing ?? 1;
  if (minAgreeing > stages[0].length) {
    report.warn([...at, 'min_agreeing'], `orchestrator.escalation.min_agreeing: ${minAgreeing} is more than stage 1's ${stages[0].length} agent(s), so stage 1 never ends the run alone`);
  }
  return { stages, minAgreeing };
}

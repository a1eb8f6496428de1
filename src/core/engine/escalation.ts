// Escalation: the team in stages (orchestrator.escalation). A run starts with stage 1's agents alone; where it
// would end, the stage rule decides whether the agents so far settle it or the next stage joins the running
// coordination (seeing the board as any agent does). Pure: the orchestrator gathers the picture and acts on it.

import type { Escalation } from '../config/types';
import type { EscalationTrigger } from './events';

/** What the agents of the stages so far left at the point where the run would end. */
export interface StagePicture {
  /** Per live agent of the joined stages: the answer version (agentK.M) its current vote is for, or null. */
  votes: readonly (string | null)[];
  /** Agents of the joined stages that failed since the current stage started. */
  failedSinceStageStart: number;
  /** The run would end at a cap (every agent vote-only, or the round cap), not by every agent voting freely. */
  capped: boolean;
  minAgreeing: number;
  /** Whether that answer version failed a required check (runs with checks; false when it has no results). */
  failsChecks: (label: string) => boolean;
}

/**
 * Null when the stage may end the run: every live agent voted for the same answer version, at least `minAgreeing`
 * of them, with no failure since the stage began, and that version passed the required checks. Otherwise the
 * reason to call the next stage, the first that applies in this order.
 */
export function escalationTrigger(p: StagePicture): EscalationTrigger | null {
  if (p.failedSinceStageStart > 0 || p.votes.length === 0) return 'agent_failed';
  const cast = p.votes.filter((v): v is string => v !== null);
  const versions = new Set(cast);
  if (versions.size > 1) return p.capped ? 'vote_cap' : 'disagreement';
  // Only a cap ends a stage before every vote is in.
  if (cast.length < p.votes.length) return 'vote_cap';
  if (cast.length < p.minAgreeing) return 'min_agreeing';
  if (p.failsChecks(cast[0])) return 'failing_check';
  return null;
}

/** Which stage the run is at, and who joins next. */
export class Stages {
  /** 0-based index of the current stage. */
  private current = 0;

  constructor(private readonly config: Escalation) {}

  get minAgreeing(): number {
    return this.config.minAgreeing;
  }

  /** 1-based, as events and views count. */
  get stage(): number {
    return this.current + 1;
  }

  first(): readonly string[] {
    return this.config.stages[0];
  }

  get hasNext(): boolean {
    return this.current + 1 < this.config.stages.length;
  }

  /** Moves to the next stage and returns its agents' ids. */
  advance(): readonly string[] {
    if (!this.hasNext) throw new Error('no stage left to call');
    this.current++;
    return this.config.stages[this.current];
  }
}

/**
 * The stages over the agents this run has (a front end may run part of the configured team, as `massgen eval` runs
 * each member alone): ids it lacks are dropped, agents no stage lists join in a last stage of their own, empty stages
 * go. Null when fewer than two stages remain: nothing to escalate to.
 */
export function stagesFor(config: Escalation | undefined, ids: readonly string[]): Escalation | null {
  if (!config) return null;
  const listed = new Set(config.stages.flat());
  const stages = [...config.stages.map((s) => s.filter((id) => ids.includes(id))), ids.filter((id) => !listed.has(id))].filter((s) => s.length > 0);
  return stages.length < 2 ? null : { stages, minAgreeing: config.minAgreeing };
}

// What the vote viewer shows of a run's escalation stages (orchestrator.escalation), and the words for it: which
// stages were called and why, who was not called yet and in which stage they would join, and whether "Escalate now"
// can call one more. Derived from the engine's RunState (its reducer records each `stage_started`) and the run's
// stage plan (ShownRun.stages, from the host); the reasons are worded once, by the engine's `stageWhy` (the log,
// status and the CLI say the same).

import type { StageReason } from '../core/engine/events';
import { stageWhy, wasCalled, type RunState } from '../core/engine/run-state';

export interface CalledStage {
  /** 1-based. */
  stage: number;
  agents: string[];
  reason: StageReason;
}

export interface EscalationView {
  /** The stages called so far, in order (the last is the current one). */
  stages: CalledStage[];
  /** The current stage (0 before stage 1 is announced). */
  current: number;
  /** The stages the run has in all; null when not known (a past run: the plan is not kept with it). */
  totalStages: number | null;
  /** The agents not called yet, in the run's order, with the stage that would call them (null: not known). */
  notCalled: { agentId: string; stage: number | null }[];
}

/**
 * The run's stages as the viewer shows them; null for a run without stages. `plan`: each stage's agent ids in the
 * order the engine calls them (the host knows it for a live run).
 */
export function escalationOf(state: RunState, plan: readonly (readonly string[])[] | undefined): EscalationView | null {
  if (!state.escalation && !plan) return null;
  const stages = (state.escalation?.stages ?? []).map(({ stage, agents, reason }) => ({ stage, agents, reason }));
  const stageOf = (id: string) => (plan ? plan.findIndex((s) => s.includes(id)) + 1 || null : null);
  return {
    stages,
    current: stages.at(-1)?.stage ?? 0,
    totalStages: plan ? plan.length : null,
    // Before stage 1 is announced every agent would count as called (the reducer has no stages yet): none is listed.
    notCalled: state.escalation ? state.agents.filter((a) => !wasCalled(state, a.id)).map((a) => ({ agentId: a.id, stage: stageOf(a.id) })) : [],
  };
}

/** Where an agent stands in the stages: the stage that called it and why, or the one that would (null: not known). */
export function agentStage(view: EscalationView, agentId: string): { called: true; stage: number; reason: StageReason } | { called: false; stage: number | null } | null {
  const called = view.stages.find((s) => s.agents.includes(agentId));
  if (called) return { called: true, stage: called.stage, reason: called.reason };
  const waiting = view.notCalled.find((n) => n.agentId === agentId);
  return waiting ? { called: false, stage: waiting.stage } : null;
}

/** The header's words: "Stage 1 of 2" (or "Stage 1" when the plan is not known). */
export function stageOfText(view: EscalationView): string {
  return `Stage ${Math.max(1, view.current)}${view.totalStages !== null ? ` of ${view.totalStages}` : ''}`;
}

/** An agent of a stage that joined later: "joined in stage 2: the agents so far voted for different answers". */
export function joinedText(stage: number, reason: StageReason): string {
  return `joined in stage ${stage}: ${stageWhy(reason)}`;
}

/** An agent not called: "not called yet (stage 2)" while the run goes on; afterwards, that the run ended first. */
export function notCalledText(stage: number | null, ended: boolean): string {
  if (ended) return stage === null ? 'not called: the run ended before its stage' : `not called: the run ended before stage ${stage}`;
  return stage === null ? 'not called yet' : `not called yet (stage ${stage})`;
}

/** The timeline's entry for a `stage_started`: who started or joined, and why. */
export function stageEntryText(stage: number, names: readonly string[], reason: StageReason): string {
  const who = names.join(', ');
  return reason === 'start' ? `Stage ${stage} starts with ${who}` : `Stage ${stage}: ${who} joined, because ${stageWhy(reason)}`;
}

/**
 * Escalate now: shown in a live run (agents still working) with a stage left to call; `pending` while the page
 * waits for the stage it asked for (or the host's refusal).
 */
export function escalateNow(
  view: EscalationView | null,
  state: Pick<RunState, 'phase'>,
  readOnly: boolean,
  pending: boolean,
): { shown: boolean; enabled: boolean; next: number; label: string; title: string } {
  const next = (view?.current ?? 0) + 1;
  const left = view !== null && view.totalStages !== null && view.current >= 1 && next <= view.totalStages;
  const shown = left && !readOnly && (state.phase === 'coordinating' || state.phase === 'idle');
  const joining = view?.notCalled.filter((n) => n.stage === next).map((n) => n.agentId) ?? [];
  return {
    shown,
    enabled: shown && !pending,
    next,
    label: `Escalate now: call stage ${next}`,
    title: pending ? `Calling stage ${next}…` : `Call stage ${next} now${joining.length ? ` (${joining.join(', ')})` : ''}: its agents join at the next round`,
  };
}

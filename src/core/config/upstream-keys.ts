// Upstream's orchestration keys whose meaning carries over, mapped to ours (massgen-upstream-v0.1.91.md §1b, §2, §3,
// §12). Where ours can only come near upstream's meaning, a warning says what is done instead, so the run is never
// different from what the file says without the user being told.

import type { UPSTREAM_SENSITIVITIES } from './schema';
import type { Path, Report } from './report';
import type { AgentConfig, FinalAnswerMode, Sensitivity } from './types';

type UpstreamSensitivity = (typeof UPSTREAM_SENSITIVITIES)[number];

/** Upstream's later voting variants and the nearest of our three prompts. */
const NEAREST_SENSITIVITY: Readonly<Record<Exclude<UpstreamSensitivity, Sensitivity>, { ours: Sensitivity; what: string }>> = {
  roi: { ours: 'balanced', what: 'return-on-improvement voting' },
  roi_balanced: { ours: 'balanced', what: 'return-on-improvement voting' },
  // A high improvement threshold means voting sooner, a low one means improving longer.
  roi_conservative: { ours: 'lenient', what: 'return-on-improvement voting' },
  roi_aggressive: { ours: 'strict', what: 'return-on-improvement voting' },
  sequential: { ours: 'balanced', what: 'strict-to-lenient voting by round' },
  adversarial: { ours: 'strict', what: 'red-team voting' },
  consistency: { ours: 'strict', what: 're-derivation voting' },
  diversity: { ours: 'balanced', what: 'diversity voting' },
  reflective: { ours: 'balanced', what: 'reflective voting' },
  checklist: { ours: 'strict', what: 'checklist voting' },
  checklist_scored: { ours: 'strict', what: 'scored checklist voting' },
  checklist_gated: { ours: 'strict', what: 'checklist-gated voting' },
};

export function mapSensitivity(value: UpstreamSensitivity, path: Path, who: string, report: Report): Sensitivity {
  if (value === 'lenient' || value === 'balanced' || value === 'strict') return value;
  const { ours, what } = NEAREST_SENSITIVITY[value];
  report.warn(path, `${who}voting_sensitivity ${value} (upstream's ${what}) is not implemented here; using ${ours}, the nearest`);
  return ours;
}

/**
 * The run's sensitivity: the engine gives every agent the same one. Per-agent values (upstream's override) decide
 * when every agent ends up with the same value; when they differ, the orchestrator's (or the default) is used, saying so.
 */
export function runSensitivity(orchestrator: Sensitivity | undefined, agents: readonly AgentConfig[], fallback: Sensitivity, report: Report): Sensitivity {
  const base = orchestrator ?? fallback;
  if (!agents.some((a) => a.votingSensitivity)) return base;
  const effective = agents.map((a) => a.votingSensitivity ?? base);
  if (effective.every((s) => s === effective[0])) return effective[0];
  const listed = agents.map((a, i) => `${a.id}: ${effective[i]}`).join(', ');
  const index = agents.findIndex((a) => a.votingSensitivity);
  report.warn(['agents', index, 'voting_sensitivity'], `agents differ in voting_sensitivity (${listed}); one sensitivity applies to every agent here: using ${base}`);
  return base;
}

const STRATEGIES: Readonly<Record<'winner_reuse' | 'winner_present' | 'synthesize', FinalAnswerMode>> = {
  winner_reuse: 'as_is',
  // Upstream's presentation turn: the winner writes the final answer seeing every answer, as our synthesize does.
  winner_present: 'synthesize',
  synthesize: 'synthesize',
};

export function finalAnswerMode(
  orch: { final_answer?: FinalAnswerMode | null; final_answer_strategy?: keyof typeof STRATEGIES | null; skip_final_presentation?: boolean | null },
  fallback: FinalAnswerMode,
  report: Report,
): FinalAnswerMode {
  const fromStrategy = orch.final_answer_strategy ? STRATEGIES[orch.final_answer_strategy] : orch.skip_final_presentation ? 'as_is' : undefined;
  if (orch.final_answer && fromStrategy && orch.final_answer !== fromStrategy) {
    report.warn(['orchestrator', 'final_answer_strategy'], `orchestrator.final_answer (${orch.final_answer}) overrides the final answer strategy (${fromStrategy})`);
  }
  return orch.final_answer ?? fromStrategy ?? fallback;
}

/**
 * Upstream's run-wide cap on new answers, as the per-agent cap the engine has: its share for each agent (at least 1),
 * so the run never takes more answers than the cap; a per-agent cap that is lower still wins.
 */
export function answersPerAgent(perAgent: number | null, global: number | null | undefined, agentCount: number, report: Report): number | null {
  if (!global || agentCount === 0) return perAgent;
  const share = Math.max(1, Math.floor(global / agentCount));
  const cap = perAgent === null ? share : Math.min(perAgent, share);
  report.warn(['orchestrator', 'max_new_answers_global'], `orchestrator.max_new_answers_global (${global}) is applied as at most ${cap} answer(s) per agent ` +
    `(the engine caps answers per agent; ${agentCount} agent(s))`);
  return cap;
}

/** Upstream's default grace after a round timeout (timeout_settings.round_timeout_grace_seconds). */
const UPSTREAM_GRACE_SECONDS = 120;

/**
 * The turn timeout from upstream's round timeouts when ours is not set: upstream lets a round run to its timeout plus
 * the grace and then only accepts an answer or a vote; here the turn ends there (and is retried as any timed-out turn).
 */
export function turnTimeoutSeconds(
  t: { agent_turn_timeout_seconds?: number | null; initial_round_timeout_seconds?: number | null; subsequent_round_timeout_seconds?: number | null; round_timeout_grace_seconds?: number | null } | null | undefined,
  fallback: number,
): number {
  if (t?.agent_turn_timeout_seconds != null) return t.agent_turn_timeout_seconds;
  const round = Math.max(t?.initial_round_timeout_seconds ?? 0, t?.subsequent_round_timeout_seconds ?? 0);
  return round > 0 ? round + (t?.round_timeout_grace_seconds ?? UPSTREAM_GRACE_SECONDS) : fallback;
}

/** Upstream's debug mode: no coordination, the first agent's answer is the result. Here: the first agent alone, one answer. */
export function skipCoordination(agents: AgentConfig[], report: Report): AgentConfig[] {
  const [first, ...rest] = agents;
  if (!first) return agents;
  report.warn(['orchestrator', 'skip_coordination_rounds'], `orchestrator.skip_coordination_rounds: only the first agent (${first.id}) runs, with one answer` +
    (rest.length ? `; ${rest.map((a) => a.id).join(', ')} ${rest.length === 1 ? 'does' : 'do'} not run` : ''));
  return [first];
}

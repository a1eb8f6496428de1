// The systems an eval scores on every item: the team as configured, each of its agents alone, and optionally the
// self-consistency baseline (one model sampled N times, majority answer) — so a gain can be told apart from "one of
// the models is simply better" (the member rows) and from "more samples help" (the baseline). With escalation stages
// (the config's orchestrator.escalation, or --escalation), also the team in those stages, while `team` is then the
// whole team from the start: the pair shows whether escalation keeps the team's accuracy at less of its cost.

import { closestName } from '../config/edit-distance';
import type { AgentConfig, Escalation, MassGenConfig } from '../config/types';
import { backendPricing } from '../usage/cost';

export type SystemSpec =
  | { id: 'team'; kind: 'team'; agents: string[] }
  | { id: 'team-escalating'; kind: 'team-escalating'; agents: string[]; stages: string[][]; minAgreeing: number }
  | { id: string; kind: 'member'; agent: string; model: string }
  | { id: 'self-consistency'; kind: 'self-consistency'; agent: string; model: string; samples: number };

export type SystemKind = SystemSpec['kind'];

/** Names the summary and results use for things other than agents. */
export const RESERVED_IDS = ['team', 'team-escalating', 'self-consistency', 'oracle'] as const;

export interface BaselineOptions {
  kind: 'self-consistency';
  /** The agent sampled; default: the one whose model costs most per output token (a proxy for the strongest). */
  agent?: string;
  /** Samples per item; default: the team's size, so the baseline gets as many first answers as the team. */
  samples?: number;
}

/** --escalation: the first K agents are stage 1, the rest stage 2; or the stages by agent id. */
export type EscalationOption = { start: number } | { stages: string[][] };

export class SystemsError extends Error {}

export function evalSystems(config: MassGenConfig, baseline?: BaselineOptions, escalation?: EscalationOption): SystemSpec[] {
  for (const a of config.agents) {
    if ((RESERVED_IDS as readonly string[]).includes(a.id)) throw new SystemsError(`agent id '${a.id}' names a system of the eval's own (${RESERVED_IDS.join(', ')}); give the agent another id in the config`);
  }
  const systems: SystemSpec[] = [
    { id: 'team', kind: 'team', agents: config.agents.map((a) => a.id) },
    ...config.agents.map((a) => ({ id: a.id, kind: 'member' as const, agent: a.id, model: a.backend.model })),
  ];
  const stages = escalation ? escalationOf(escalation, config) : config.orchestrator.escalation;
  if (stages) systems.splice(1, 0, { id: 'team-escalating', kind: 'team-escalating', agents: config.agents.map((a) => a.id), stages: stages.stages, minAgreeing: stages.minAgreeing });
  if (baseline) {
    const agent = baseline.agent ? config.agents.find((a) => a.id === baseline.agent) : strongestGuess(config.agents);
    if (!agent) throw new SystemsError(`--baseline-agent '${baseline.agent}' is not an agent of the config (${config.agents.map((a) => a.id).join(', ')})`);
    systems.push({ id: 'self-consistency', kind: 'self-consistency', agent: agent.id, model: agent.backend.model, samples: baseline.samples ?? Math.max(config.agents.length, 2) });
  }
  return systems;
}

/**
 * The stages --escalation asks for, checked against the team. Agents the stages do not list join in a last stage of
 * their own, as in the config's `stages:`; `min_agreeing` is the config's, else 1.
 */
export function escalationOf(option: EscalationOption, config: MassGenConfig): Escalation {
  const ids = config.agents.map((a) => a.id);
  const minAgreeing = config.orchestrator.escalation?.minAgreeing ?? 1;
  if ('start' in option) {
    if (option.start < 1 || option.start >= ids.length) throw new SystemsError(`--escalation ${option.start}: stage 1 takes the first K agents and stage 2 the rest, so K must be between 1 and ${ids.length - 1} (the team has ${ids.length})`);
    return { stages: [ids.slice(0, option.start), ids.slice(option.start)], minAgreeing };
  }
  const seen = new Set<string>();
  option.stages.forEach((stage, i) => {
    if (stage.length === 0) throw new SystemsError(`--escalation: stage ${i + 1} is empty; list agent ids with ',' inside a stage and ';' between stages, e.g. "${ids.slice(0, -1).join(',')};${ids.at(-1)}"`);
    for (const id of stage) {
      if (!ids.includes(id)) {
        const near = closestName(id, ids, 2);
        throw new SystemsError(`--escalation: no agent has id '${id}'${near ? ` (did you mean ${near}?)` : ''}; the team: ${ids.join(', ')}`);
      }
      if (seen.has(id)) throw new SystemsError(`--escalation: agent '${id}' is in more than one stage; each agent joins once`);
      seen.add(id);
    }
  });
  const rest = ids.filter((id) => !seen.has(id));
  const stages = rest.length ? [...option.stages, rest] : [...option.stages];
  if (stages.length < 2) throw new SystemsError('--escalation: one stage holds the whole team, so there is nothing to escalate to; give at least two stages');
  return { stages, minAgreeing };
}

/** Stages in one line: "a, b → c". */
export function stagesText(stages: readonly (readonly string[])[]): string {
  return stages.map((s) => s.join(', ')).join(' → ');
}

/**
 * The agent whose model is priced highest per output token, first in config order on ties or without prices.
 * Decided before any call, from the config alone, so every shard of a CI matrix samples the same agent.
 */
export function strongestGuess(agents: readonly AgentConfig[]): AgentConfig {
  let best = agents[0];
  let bestPrice = backendPricing(best.backend).pricing?.outputPerMillion ?? -1;
  for (const a of agents.slice(1)) {
    const price = backendPricing(a.backend).pricing?.outputPerMillion ?? -1;
    if (price > bestPrice) {
      best = a;
      bestPrice = price;
    }
  }
  return best;
}

/** The agents a system's runs use (the team: all of them). */
export function agentsOf(system: SystemSpec, config: MassGenConfig): AgentConfig[] {
  if (system.kind === 'team' || system.kind === 'team-escalating') return config.agents;
  return config.agents.filter((a) => a.id === system.agent);
}

/**
 * Where an agent's requests go, for the per-provider limit: the family and the server (scheme, host, port, path;
 * never the credentials or query a URL may carry).
 */
export function providerKey(agent: AgentConfig): string {
  const url = agent.backend.baseUrl;
  if (!url) return `${agent.backend.family} (default endpoint)`;
  try {
    const u = new URL(url);
    return `${agent.backend.family} ${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return `${agent.backend.family} ${url.replace(/[?#].*$/, '')}`;
  }
}

/** The distinct providers a system's runs use. */
export function providerKeys(system: SystemSpec, config: MassGenConfig): string[] {
  return [...new Set(agentsOf(system, config).map(providerKey))].sort();
}

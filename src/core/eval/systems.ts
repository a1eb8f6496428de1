// The systems an eval scores on every item: the team as configured, each of its agents alone, and optionally the
// self-consistency baseline (one model sampled N times, majority answer) — so a gain can be told apart from "one of
// the models is simply better" (the member rows) and from "more samples help" (the baseline).

import type { AgentConfig, MassGenConfig } from '../config/types';
import { backendPricing } from '../usage/cost';

export type SystemSpec =
  | { id: 'team'; kind: 'team'; agents: string[] }
  | { id: string; kind: 'member'; agent: string; model: string }
  | { id: 'self-consistency'; kind: 'self-consistency'; agent: string; model: string; samples: number };

export type SystemKind = SystemSpec['kind'];

/** Names the summary and results use for things other than agents. */
export const RESERVED_IDS = ['team', 'self-consistency', 'oracle'] as const;

export interface BaselineOptions {
  kind: 'self-consistency';
  /** The agent sampled; default: the one whose model costs most per output token (a proxy for the strongest). */
  agent?: string;
  /** Samples per item; default: the team's size, so the baseline gets as many first answers as the team. */
  samples?: number;
}

export class SystemsError extends Error {}

export function evalSystems(config: MassGenConfig, baseline?: BaselineOptions): SystemSpec[] {
  for (const a of config.agents) {
    if ((RESERVED_IDS as readonly string[]).includes(a.id)) throw new SystemsError(`agent id '${a.id}' names a system of the eval's own (${RESERVED_IDS.join(', ')}); give the agent another id in the config`);
  }
  const systems: SystemSpec[] = [
    { id: 'team', kind: 'team', agents: config.agents.map((a) => a.id) },
    ...config.agents.map((a) => ({ id: a.id, kind: 'member' as const, agent: a.id, model: a.backend.model })),
  ];
  if (baseline) {
    const agent = baseline.agent ? config.agents.find((a) => a.id === baseline.agent) : strongestGuess(config.agents);
    if (!agent) throw new SystemsError(`--baseline-agent '${baseline.agent}' is not an agent of the config (${config.agents.map((a) => a.id).join(', ')})`);
    systems.push({ id: 'self-consistency', kind: 'self-consistency', agent: agent.id, model: agent.backend.model, samples: baseline.samples ?? Math.max(config.agents.length, 2) });
  }
  return systems;
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
  if (system.kind === 'team') return config.agents;
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

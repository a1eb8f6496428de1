// Files we cannot run at all, refused before any other check in one line each: what is not supported and what to
// use instead. Without this a config of agent-program backends (Claude Code, Codex…) or a MassGen v1 file would get
// a message per key it has, none of which says the one thing that matters.

import { AGENT_PROGRAM_BACKENDS } from './backends';
import { field, showPath, type Path, type Report } from './report';

/** Upstream's V1 keywords (config_validator.py V1_KEYWORDS), which upstream itself refuses. */
const V1_KEYS = ['models', 'model_configs', 'num_agents', 'max_rounds', 'consensus_threshold', 'voting_enabled', 'enable_voting'];

/** Top-level keys that make a file a run config (anything else alone is some other file, e.g. upstream's rate_limits.yaml). */
const RUN_KEYS = ['agents', 'agent', 'orchestrator', 'timeout_settings'];

/** Reports the one reason `raw` cannot be run and returns true, or returns false when it is a config we read. */
export function refuseUnrunnable(raw: Record<string, unknown>, report: Report): boolean {
  const keys = Object.keys(raw);
  const hasAgents = raw.agents != null || raw.agent != null;
  const v1 = V1_KEYS.filter((k) => k in raw);
  if (v1.length > 0 && !hasAgents) {
    report.error([v1[0]], `this is a MassGen v1 config (top-level ${v1.join(', ')}), a format upstream MassGen no longer reads either: ` +
      'write an agents: list with a backend: {type, model} per agent, as in examples/openai-three-agents.yaml');
    return true;
  }
  if (!keys.some((k) => RUN_KEYS.includes(k))) {
    const listed = keys.length ? ` (its top-level keys: ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''})` : '';
    report.error([], `not a MassGen run config: it has no agents: list${listed}; a config names its agents, e.g. agents: [{id: a, backend: {type: openai, model: gpt-5-mini}}]`);
    return true;
  }
  return refuseAgentPrograms(raw, report);
}

/** One line for every agent whose backend is an agent program, grouped by type, at the first such agent's line. */
function refuseAgentPrograms(raw: Record<string, unknown>, report: Report): boolean {
  const entries: [Path, unknown][] = Array.isArray(raw.agents)
    ? raw.agents.map((a, i) => [['agents', i], a])
    : raw.agent != null ? [[['agent'], raw.agent]] : [];
  const byType = new Map<string, { labels: string[]; first: Path }>();
  for (const [at, agent] of entries) {
    const type = field(field(agent, 'backend'), 'type');
    if (typeof type !== 'string' || !Object.hasOwn(AGENT_PROGRAM_BACKENDS, type.toLowerCase())) continue;
    const id = field(agent, 'id');
    const label = `${showPath(at)}${typeof id === 'string' ? ` (${id})` : ''}`;
    const group = byType.get(type.toLowerCase()) ?? { labels: [], first: [...at, 'backend', 'type'] };
    group.labels.push(label);
    byType.set(type.toLowerCase(), group);
  }
  if (byType.size === 0) return false;
  const clauses = [...byType].map(([type, { labels }]) => {
    const { what, why, instead } = AGENT_PROGRAM_BACKENDS[type];
    const who = labels.length > 3 ? `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more` : labels.join(', ');
    return `${who} use${labels.length === 1 ? 's' : ''} type ${type}, ${what}: an agent program, not a model API, which MassGen for VS Code ` +
      `does not drive (of those it runs claude_code and codex) because ${why}; use ${instead}`;
  });
  report.error([...byType.values()][0].first, clauses.join('; '));
  return true;
}

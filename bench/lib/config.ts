// A MassGen config for a benchmark team: OpenAI-compatible agents (a fake server's base URL, or an in-process
// provider put in by the run session's `extraProviders`), default orchestrator settings unless overridden.

import { DEFAULT_ORCHESTRATOR, type MassGenConfig, type OrchestratorConfig, type TimeoutConfig } from '../../src/core/config/types';

export function benchConfig(agents: { id: string; model: string; baseUrl?: string }[], orchestrator: Partial<OrchestratorConfig>, timeouts: TimeoutConfig): MassGenConfig {
  return {
    agents: agents.map((a) => ({ id: a.id, backend: { type: 'chatcompletion', family: 'openai-compatible', model: a.model, ...(a.baseUrl ? { baseUrl: a.baseUrl } : {}) } })),
    orchestrator: { ...DEFAULT_ORCHESTRATOR, ...orchestrator },
    timeouts,
    source: 'benchmark',
  };
}

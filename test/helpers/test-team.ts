// Test support: builds a team of scripted agents and runs the engine, collecting events. Used by the engine's
// tests and the benchmark.

import { DEFAULT_ORCHESTRATOR, type OrchestratorConfig, type Pricing, type TimeoutConfig } from '../../src/core/config/types';
import { ScriptedProvider, type Script } from '../../src/core/providers/scripted';
import type { ModelProvider, ModelRequest } from '../../src/core/providers/types';
import type { PromptCachePolicy } from '../../src/core/usage/cache';
import type { EventOf, RunEvent, RunEventType } from '../../src/core/engine/events';
import { Orchestrator } from '../../src/core/engine/orchestrator';
import type { AgentToolbox, AgentWorkspace, AnswerChecks, RunResult } from '../../src/core/engine/ports';
import type { RetryPolicy } from '../../src/core/engine/retry';
import { realClock, type Clock } from '../../src/core/util/clock';
import { FakeClock } from './fake-clock';

export interface TeamMember {
  id: string;
  script: Script;
  toolbox?: AgentToolbox;
  workspace?: AgentWorkspace;
  systemMessage?: string;
  pricing?: Pricing | null;
  contextWindow?: number;
  promptCache?: PromptCachePolicy;
  /** The model it stands for (default `model-<id>`): members with the same model and cache share one backend's cache. */
  model?: string;
  /** A provider of the test's own instead of the scripted one (its `script` is then unused). */
  provider?: ModelProvider;
}

export interface TeamRun {
  orchestrator: Orchestrator;
  providers: Record<string, ScriptedProvider>;
  events: RunEvent[];
  result: Promise<RunResult>;
  /** The clock the run is on: schedule a test's own steps (a cancel, a note) on it. */
  clock: Clock;
  of<T extends RunEventType>(type: T): EventOf<T>[];
  requests(agentId: string): ModelRequest[];
}

export const FAST_RETRY: Partial<RetryPolicy> = { baseDelayMs: 1, maxDelayMs: 5 };

export function runTeam(
  members: TeamMember[],
  opts: {
    task?: string;
    orchestrator?: Partial<OrchestratorConfig>;
    timeouts?: Partial<TimeoutConfig>;
    retry?: Partial<RetryPolicy>;
    signal?: AbortSignal;
    checks?: AnswerChecks;
    /**
     * The run's and the scripted replies' clock. A FakeClock makes `delayMs`, back-offs and timeouts scripted time:
     * `result` then drives it (FakeClock.run), so the run's order depends on the script alone, not on the machine.
     */
    clock?: Clock;
  } = {},
): TeamRun {
  const providers: Record<string, ScriptedProvider> = {};
  for (const m of members) providers[m.id] = new ScriptedProvider(m.model ?? `model-${m.id}`, m.script, m.promptCache, opts.clock);
  const events: RunEvent[] = [];
  const orchestrator = new Orchestrator({
    task: opts.task ?? 'What is 2 + 2?',
    agents: members.map((m) => ({ id: m.id, provider: m.provider ?? providers[m.id], toolbox: m.toolbox, workspace: m.workspace, systemMessage: m.systemMessage, pricing: m.pricing, contextWindow: m.contextWindow })),
    orchestrator: { ...DEFAULT_ORCHESTRATOR, ...opts.orchestrator },
    timeouts: { orchestratorTimeoutSeconds: 30, agentTurnTimeoutSeconds: 10, ...opts.timeouts },
    retry: { ...FAST_RETRY, ...opts.retry },
    signal: opts.signal,
    checks: opts.checks,
    clock: opts.clock,
    onEvent: (e) => events.push(e),
    now: () => new Date(2026, 0, 2, 3, 4, 5),
    random: () => 0.5,
  });
  const clock = opts.clock ?? realClock;
  const result = orchestrator.run();
  return {
    orchestrator,
    providers,
    events,
    clock,
    result: clock instanceof FakeClock ? clock.run(result) : result,
    of: <T extends RunEventType>(type: T) => events.filter((e): e is EventOf<T> => e.type === type),
    requests: (agentId: string) => providers[agentId].requests,
  };
}

/** True when the request offers (or shows) any answer, i.e. the agent may vote. */
export function boardHasAnswers(request: ModelRequest): boolean {
  return request.messages.some((m) => m.role === 'user' && /<agent\d+> /.test(m.content));
}

// The engine's ports: what a front end hands the engine (agents, their toolboxes, options) and what it gets back.
// Tool adapters (mcp/, workspace/) implement `AgentToolbox` from here, so they depend on the port, not the engine.

import type { OrchestratorConfig, Pricing, TimeoutConfig } from '../config/types';
import type { ModelProvider, ToolCall, ToolSpec } from '../providers/types';
import type { AnswerChange, CheckResult, EndReason, RunEvent, WinnerVerification, WorkspaceInfo } from './events';
import type { Clock } from '../util/clock';
import type { RetryPolicy } from './retry';

/** Non-coordination tools an agent may use inside a turn (file tools, MCP). */
export interface AgentToolbox {
  /** The tools offered to the model; read after `start` has settled. */
  tools: ToolSpec[];
  /**
   * Called once, before the agent's first turn (connect servers, list their tools). A failure is reported as an
   * event and the agent goes on with whatever tools are available: a broken tool server never fails the run.
   */
  start?(signal: AbortSignal): Promise<void>;
  execute(call: ToolCall, signal: AbortSignal): Promise<{ ok: boolean; content: string }>;
  /** Called once when the run ends, however it ends (consensus, limits, cancel, errors). */
  close?(): Promise<void>;
}

/** An agent's copy of the workspace, as the engine needs it: a snapshot bound to each answer version. */
export interface AgentWorkspace {
  /** Records the copy as answer version `versionLabel` (agentK.M); rejects, in words, when the copy cannot be read. */
  snapshot(versionLabel: string, signal: AbortSignal): Promise<AnswerChange>;
}

/** The project's checks, run by the engine on every answer version of a workspace run (see src/core/checks). */
export interface AnswerChecks {
  mode: 'inform' | 'gate';
  /** The checks' names, in the order they run. */
  names: readonly string[];
  /**
   * Runs every check on the version's snapshot, reporting each result as it ends. Never rejects: a check that cannot
   * run is an 'error' result, one stopped by `signal` a 'cancelled' one.
   */
  run(version: { label: string; change: AnswerChange }, signal: AbortSignal, onResult: (result: CheckResult) => void): Promise<CheckResult[]>;
}

export interface EngineAgent {
  id: string;
  provider: ModelProvider;
  systemMessage?: string;
  temperature?: number;
  maxTokens?: number;
  toolbox?: AgentToolbox;
  /** In a workspace run: the agent's copy, snapshotted at each `new_answer`. */
  workspace?: AgentWorkspace;
  /** Prices for cost and the cost budget; null or absent = unknown (counted in tokens and calls only). */
  pricing?: Pricing | null;
  /** The model's context window in tokens, when known (else the provider's own `contextWindow`, if any). */
  contextWindow?: number;
}

export interface RunOptions {
  task: string;
  agents: EngineAgent[];
  orchestrator: OrchestratorConfig;
  timeouts: TimeoutConfig;
  retry?: Partial<RetryPolicy>;
  onEvent: (event: RunEvent) => void;
  /** External cancel (Ctrl-C, the Cancel button, a chat cancellation). */
  signal?: AbortSignal;
  runId?: string;
  /** The folder a workspace run works on, for the run record (`run_started`). */
  workspace?: WorkspaceInfo;
  /** Workspace runs with checks: run on each answer version before it joins the board. */
  checks?: AnswerChecks;
  /** Clock for the prompt's CURRENT TIME; fixed for the run so the prompt prefix stays cacheable. Default: `clock`. */
  now?: () => Date;
  /**
   * Every time the engine reads or waits for (timeouts, back-offs, durations, event times); default the real clock.
   * Tests pass a fake one (test/helpers/fake-clock.ts) so their interleavings do not depend on the machine's load.
   */
  clock?: Clock;
  random?: () => number;
}

export interface RunResult {
  reason: EndReason;
  winnerId: string | null;
  winnerLabel: string | null;
  finalAnswer: string | null;
  /** Set when the run ended without any usable answer, or every agent failed. */
  error?: string;
  durationMs: number;
  /** Runs with checks: how the winner stands against them. */
  verification?: WinnerVerification;
}

// The port a coding agent's program is driven through (Claude Code through the Claude Agent SDK, Codex through the
// Codex SDK): a session in the agent's own folder that takes one message at a time and runs the program's own loop
// (its file and shell tools) until its turn ends. The coordination tools reach it through an MCP server named
// `massgen` that the session serves; `harness-provider.ts` makes such a session a ModelProvider for the engine.

import type { ToolSpec, Usage } from '../providers/types';

/** One of the program's own tool calls (an edit, a command) as it happened, for the viewer and the progress lines. */
export type HarnessToolEvent =
  | { phase: 'call'; id: string; name: string; arguments: string }
  | { phase: 'result'; id: string; name: string; ok: boolean; summary: string };

/** What a turn reports while it runs. */
export interface HarnessSink {
  text(delta: string): void;
  reasoning(delta: string): void;
  tool(event: HarnessToolEvent): void;
  /** Usage of one or more model requests of the turn, as the program reported it (cached tokens included). */
  usage(usage: Usage): void;
}

/** What the session serves as the `massgen` MCP server: the coordination tools, and their calls. */
export interface CoordinationEndpoint {
  tools: ToolSpec[];
  /** A call of a coordination tool; returns the text the program gets back at once. */
  onCall(name: string, args: unknown): string;
  /** Read-only tools over the run's files (peers/agentK/, context/), run when called (see reading-tools.ts). */
  reading?: { tools: ToolSpec[]; call(name: string, args: unknown): Promise<{ ok: boolean; content: string }> };
}

export interface HarnessSession {
  /**
   * Sends `message` and runs the program until its turn ends, resolving with its last text. Rejects with a
   * ProviderError (`aborted` when `signal` stopped it; the session is unusable afterwards).
   */
  run(message: string, sink: HarnessSink, signal: AbortSignal): Promise<{ text: string }>;
  /** Stops the program and every process it started. Idempotent; never rejects. */
  close(): Promise<void>;
}

export interface HarnessDriver {
  /** e.g. "claude_code claude-sonnet-4-5 (/usr/bin/claude)". */
  readonly description: string;
  readonly model: string;
  /** Starts a session whose system prompt ends with `system` and whose `massgen` MCP server is `coordination`. */
  open(setup: { system: string; coordination: CoordinationEndpoint }, signal: AbortSignal): Promise<HarnessSession>;
}

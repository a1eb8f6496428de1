// What the part-2 real-model tests share: a team config on the real llama-server (greedy, capped, bounded) and the
// checks every run must pass whatever the small model says: a named end reason, no stack trace in the output.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EndReason } from '../../../src/core/engine/events';

export interface RealTeamOptions {
  /** Team size (2–3 keeps a run to a few minutes at one thread). */
  agents: number;
  /** Each reply's cap: a 135M model can ramble to any length; this bounds a call's time. */
  maxTokens: number;
  /** orchestrator.max_new_answers_per_agent. */
  answersPerAgent: number;
  /** Whole-run and per-turn bounds (timeout_settings), failure guards the engine must honour. */
  runSeconds: number;
  turnSeconds: number;
  /** orchestrator.budget.max_calls: a hard stop if the model keeps calling tools. */
  maxCalls?: number;
}

/**
 * Writes a team YAML on `server` (llama-server, or the tool-forcing proxy in front of it) into `dir`; returns its path. Temperature 0 makes llama-server sample greedily, so
 * the run does not depend on a seed (the config has no seed key: upstream's `extra_body` is read no further).
 */
export function writeRealTeam(dir: string, server: { origin: string; model: string }, o: RealTeamOptions): string {
  const file = join(dir, `team-${o.agents}x${o.maxTokens}.yaml`);
  const agents = Array.from({ length: o.agents }, (_, i) =>
    `  - id: ${String.fromCharCode(97 + i)}\n` +
    `    backend: { type: chatcompletion, model: ${server.model}, base_url: ${server.origin}/v1, temperature: 0, max_tokens: ${o.maxTokens}, context_window: 8192 }\n`,
  ).join('');
  writeFileSync(
    file,
    `agents:\n${agents}` +
      `orchestrator:\n  max_new_answers_per_agent: ${o.answersPerAgent}\n` +
      (o.maxCalls ? `  budget: { max_calls: ${o.maxCalls} }\n` : '') +
      `timeout_settings:\n  orchestrator_timeout_seconds: ${o.runSeconds}\n  agent_turn_timeout_seconds: ${o.turnSeconds}\n`,
  );
  return file;
}

export const END_REASONS: readonly EndReason[] = ['consensus', 'answer_cap', 'majority', 'max_rounds', 'timeout', 'budget', 'cancelled', 'user_stop', 'all_failed'];

/** A JavaScript stack frame ("    at fn (file.js:12:3)"): what a user must never see from the CLI. */
const STACK_FRAME = /^\s+at (?:.+ \()?(?:\/|node:|file:).*:\d+(?::\d+)?\)?$/m;

export function assertNoStackTrace(text: string, where: string): void {
  const frame = STACK_FRAME.exec(text);
  assert.equal(frame, null, `${where} holds a stack trace: ${frame?.[0]}\n${text.slice(-2000)}`);
}

/** Wall time of `fn`, printed for the report (measured, never asserted). */
export async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await fn();
  } finally {
    console.log(`      [time] ${what}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }
}

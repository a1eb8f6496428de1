// Runs one project check on one answer version's checkout: the configured command, in the command sandbox (the
// checkout the only writable place, no network, no API key in the environment), killed at the check's timeout. The
// result keeps the end of the output, where test runners report what failed. Never throws.

import { describeEnd } from '../sandbox/result-text';
import { DEFAULT_COMMAND_LIMITS, type CommandLimits } from '../sandbox/policy';
import { planSandbox } from '../sandbox/plan';
import { runCommand } from '../sandbox/runner';
import type { SandboxInfo } from '../sandbox/sandbox';
import type { CheckSpec } from '../config/types';
import type { CheckResult, CheckStatus } from '../engine/events';
import type { EndKind } from '../sandbox/runner';

/** The end of a check's output kept in its result (and shown to the agents, shorter, in their prompts). */
export const CHECK_OUTPUT_KEPT_CHARS = 4000;

export interface CheckEnvironment {
  sandbox: SandboxInfo;
  /** Host folders the check may read (the project's dependencies its checkout links to). */
  readOnlyPaths?: readonly string[];
  /** API keys the run knows: no variable holding one reaches the check. */
  knownSecrets?: readonly string[];
  parentEnv?: Readonly<Record<string, string | undefined>>;
  limits?: Partial<CommandLimits>;
}

const STATUS_OF: Record<EndKind, CheckStatus> = {
  exited: 'failed', // unless the exit code is 0
  timeout: 'timeout',
  aborted: 'cancelled',
  killed: 'cancelled',
  'output-limit': 'failed',
  'disk-limit': 'failed',
  'start-failed': 'error',
};

export async function runCheck(spec: CheckSpec, folder: string, env: CheckEnvironment, signal: AbortSignal): Promise<CheckResult> {
  const limits: CommandLimits = { ...DEFAULT_COMMAND_LIMITS, ...env.limits, maxTimeoutSeconds: Math.max(DEFAULT_COMMAND_LIMITS.maxTimeoutSeconds, spec.timeoutSeconds) };
  const base = { name: spec.name, required: spec.required, cached: false };
  const planned = planSandbox(env.sandbox.kind, folder, { network: false, readOnlyPaths: env.readOnlyPaths });
  if (!planned.ok) return { ...base, status: 'error', exitCode: null, durationMs: 0, output: `the check could not be sandboxed: ${planned.reason}` };
  const { end, output } = await runCommand({
    command: spec.command,
    plan: planned.plan,
    sandbox: env.sandbox,
    environment: { parent: env.parentEnv ?? process.env, knownSecrets: env.knownSecrets },
    timeoutMs: spec.timeoutSeconds * 1000,
    limits,
    signal,
  });
  const status: CheckStatus = end.kind === 'exited' && end.exitCode === 0 && !end.signal ? 'passed' : STATUS_OF[end.kind];
  // How it ended, when the output alone does not say (a timeout, a kill, a start failure).
  const how = end.kind === 'exited' ? '' : `[${describeEnd(end, limits, spec.timeoutSeconds)}]\n`;
  const text = `${how}${output.text}`;
  const kept = text.length > CHECK_OUTPUT_KEPT_CHARS ? `…${text.slice(-CHECK_OUTPUT_KEPT_CHARS)}` : text;
  return { ...base, status, exitCode: end.kind === 'exited' ? end.exitCode : null, durationMs: end.durationMs, output: kept };
}

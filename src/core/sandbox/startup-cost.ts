// What the sandbox adds to every command: the median wall time of `true` run through the runner in the sandbox
// against the same without one, in a throwaway folder. For the benchmark (`npm run bench`) and the docs.

import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { planSandbox, type SandboxPlan } from './plan';
import { DEFAULT_COMMAND_LIMITS } from './policy';
import { runCommand } from './runner';
import { detectSandbox, NO_SANDBOX, type SandboxInfo } from './sandbox';

export interface StartupCost {
  /** The sandbox measured (none: there is nothing to compare, both figures are unsandboxed). */
  sandbox: SandboxInfo['kind'];
  runs: number;
  sandboxedMedianMs: number;
  unsandboxedMedianMs: number;
  /** sandboxed − unsandboxed. */
  overheadMs: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall time of one `true` through the runner, in ms. */
async function timeOne(sandbox: SandboxInfo, plan: SandboxPlan): Promise<number> {
  const started = process.hrtime.bigint();
  const { end } = await runCommand({ command: 'true', plan, sandbox, environment: { parent: process.env }, timeoutMs: 30_000, limits: DEFAULT_COMMAND_LIMITS });
  if (end.kind !== 'exited' || end.exitCode !== 0) throw new Error(`"true" did not succeed (${sandbox.kind}): ${end.kind}, exit code ${end.exitCode}${end.message ? `, ${end.message}` : ''}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function planFor(sandbox: SandboxInfo, folder: string): SandboxPlan {
  const planned = planSandbox(sandbox.kind, folder, { network: false });
  if (!planned.ok) throw new Error(planned.reason);
  return planned.plan;
}

/** Median wall time of `true`, sandboxed (the detected sandbox) and not, over `runs` runs each (interleaved). */
export async function measureStartupCost(runs = 30, sandbox?: SandboxInfo): Promise<StartupCost> {
  const info = sandbox ?? (await detectSandbox());
  const folder = await mkdtemp(path.join(os.tmpdir(), 'massgen-startup-cost-'));
  try {
    const sandboxedPlan = planFor(info, folder);
    const plainPlan = planFor(NO_SANDBOX, folder);
    const sandboxed: number[] = [];
    const unsandboxed: number[] = [];
    // Interleaved, after a warm-up of each, so a drift in machine load affects both alike.
    for (let i = -2; i < runs; i++) {
      const s = await timeOne(info, sandboxedPlan);
      const u = await timeOne(NO_SANDBOX, plainPlan);
      if (i < 0) continue;
      sandboxed.push(s);
      unsandboxed.push(u);
    }
    const s = median(sandboxed);
    const u = median(unsandboxed);
    return { sandbox: info.kind, runs, sandboxedMedianMs: s, unsandboxedMedianMs: u, overheadMs: s - u };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

// Scenario 8: what the sandbox adds to every agent command (issue 13). `true` and `node -e 0` run through the real
// runner (src/core/sandbox/runner.ts: the shell prelude, the scrubbed environment, a process group, the disk
// watch) in a folder of the scenario's temp dir, once in the detected sandbox (bubblewrap on Linux) and once
// without one, interleaved (the order alternating) after two warm-up rounds; medians. The sandbox's own
// `measureStartupCost` (what the docs quote) is run too, as a cross-check of the `true` figure, and a bare spawn of
// `/bin/true` shows what any command costs before the runner adds anything.

import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { detectSandbox, measureStartupCost, NO_SANDBOX, type SandboxInfo } from '../../src/core/sandbox';
import { planSandbox, type SandboxPlan } from '../../src/core/sandbox/plan';
import { DEFAULT_COMMAND_LIMITS } from '../../src/core/sandbox/policy';
import { runCommand } from '../../src/core/sandbox/runner';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { median } from '../lib/stats';

const COMMANDS = ['true', 'node -e 0'] as const;
type Command = (typeof COMMANDS)[number];

function planFor(sandbox: SandboxInfo, folder: string): SandboxPlan {
  const planned = planSandbox(sandbox.kind, folder, { network: false });
  if (!planned.ok) throw new Error(`cannot plan the ${sandbox.kind} sandbox for ${folder}: ${planned.reason}`);
  return planned.plan;
}

/** Wall time of one command through the runner (ms); a failure is a crash, not a figure. */
async function timeOne(command: Command, sandbox: SandboxInfo, plan: SandboxPlan): Promise<number> {
  const t0 = performance.now();
  const { end, output } = await runCommand({ command, plan, sandbox, environment: { parent: process.env }, timeoutMs: 30_000, limits: DEFAULT_COMMAND_LIMITS });
  const t = performance.now() - t0;
  if (end.kind !== 'exited' || end.exitCode !== 0) {
    throw new Error(`"${command}" failed (${sandbox.kind}): ${end.kind}, exit code ${end.exitCode}${end.message ? `, ${end.message}` : ''}; output: ${output.text.slice(0, 200)}`);
  }
  return t;
}

/** A bare spawn of /bin/true, waited for: the floor of any command. */
function bareTrue(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('/bin/true', [], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - t0));
  });
}

export const sandbox: Scenario = {
  name: 'sandbox',
  title: '8. Sandbox start-up per command (bubblewrap vs none)',
  async run(ctx: BenchContext) {
    const r = new Results();
    const runs = ctx.quick ? 10 : 30;
    const info = await detectSandbox();
    r.info('sandbox', info.kind === 'none' ? info.description : `${info.kind}: ${info.description}`);
    for (const w of info.warnings) r.info('  warning', w);
    r.figure('sandbox', { kind: info.kind, executable: info.executable, description: info.description, warnings: info.warnings });
    if (info.kind === 'none') {
      r.goal('sandbox.startup.overhead_ms', '`true`: added per command, sandboxed − unsandboxed (median)', null, '<=', 50, ' ms', { note: 'n/a: no sandbox (install bubblewrap)' });
      return r.result();
    }

    const folder = join(ctx.tmp, 'copy');
    await mkdir(folder, { recursive: true });
    const plans = { sandboxed: planFor(info, folder), plain: planFor(NO_SANDBOX, folder) };
    const times: Record<Command, { sandboxed: number[]; plain: number[] }> = { true: { sandboxed: [], plain: [] }, 'node -e 0': { sandboxed: [], plain: [] } };
    const bare: number[] = [];
    for (let i = -2; i < runs; i++) {
      for (const command of COMMANDS) {
        const pair: Array<['sandboxed' | 'plain', SandboxInfo]> = [
          ['sandboxed', info],
          ['plain', NO_SANDBOX],
        ];
        for (const [which, sb] of i % 2 ? pair.reverse() : pair) {
          const t = await timeOne(command, sb, plans[which]);
          if (i >= 0) times[command][which].push(t);
        }
      }
      const b = await bareTrue();
      if (i >= 0) bare.push(b);
    }
    const med = (command: Command) => ({ sandboxed: median(times[command].sandboxed), plain: median(times[command].plain) });
    const t = med('true');
    const n = med('node -e 0');
    r.goal('sandbox.startup.overhead_ms', '`true`: added per command, sandboxed − unsandboxed (median)', t.sandboxed - t.plain, '<=', 50, ' ms', { digits: 1 });
    r.info('  `true`: sandboxed vs unsandboxed (median)', `${fmt(t.sandboxed, 1)} ms vs ${fmt(t.plain, 1)} ms: ×${fmt(t.sandboxed / t.plain, 2)}`);
    r.info('  `node -e 0`: sandboxed vs unsandboxed (median)', `${fmt(n.sandboxed, 1)} ms vs ${fmt(n.plain, 1)} ms: +${fmt(n.sandboxed - n.plain, 1)} ms, ×${fmt(n.sandboxed / n.plain, 2)}`);
    r.info('  for scale: a bare spawn of /bin/true (no runner, no shell)', `${fmt(median(bare), 1)} ms`);
    const lib = await measureStartupCost(runs, info);
    r.info('  cross-check: measureStartupCost() (`true`, its own loop)', `${fmt(lib.sandboxedMedianMs, 1)} ms vs ${fmt(lib.unsandboxedMedianMs, 1)} ms: +${fmt(lib.overheadMs, 1)} ms`);
    r.figure('true', { sandboxedMs: t.sandboxed, unsandboxedMs: t.plain, addedMs: t.sandboxed - t.plain, ratio: t.sandboxed / t.plain, runs: times.true });
    r.figure('node', { sandboxedMs: n.sandboxed, unsandboxedMs: n.plain, addedMs: n.sandboxed - n.plain, ratio: n.sandboxed / n.plain, runs: times['node -e 0'] });
    r.figure('bareTrueMs', median(bare));
    r.figure('measureStartupCost', lib);
    r.note(
      `${runs} runs of each (after 2 warm-up rounds), sandboxed and unsandboxed interleaved in alternating order; wall time from runCommand() to its end, through the real runner ` +
        '(shell prelude with ulimits, scrubbed environment, own process group, disk watch). Unsandboxed, the runner makes and removes a private temp folder per command (bubblewrap mounts a tmpfs instead): that cost is in the unsandboxed figure.',
    );
    return r.result();
  },
};

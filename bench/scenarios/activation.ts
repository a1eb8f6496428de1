// Scenario 2b: extension activation time.
//   * In real VS Code (the code-server rig of test/vscode/, see its README): test/vscode/run-ext-tests.js runs
//     bench/vscode/index.js in the extension host, which waits for the workbench's own start-up to settle, times
//     `ext.activate()`, then reads VS Code's own figure ("Activation: N ms" = code loading + activate call) from
//     Developer: Show Running Extensions. The goal is checked on VS Code's figure. Skipped in --quick mode (~25 s)
//     and when the rig is not installed (test/vscode/rig/setup.sh).
//   * Outside VS Code, always: bench/vscode/activate-proxy.js loads dist/extension.js in plain Node with a stub
//     `vscode` and calls activate(): module load vs the activate() body, median of several fresh processes.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { median } from '../lib/stats';

function exec(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // The runner has its own hard timeout and cleans up after itself; this is the last resort.
    const timer = setTimeout(() => child.kill('SIGTERM'), opts.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface RigFigures {
  activateMs: number;
  wasActive: boolean;
  vscode: string;
  running: { ownMs: number | null; othersMs: number[]; startup: boolean | null } | null;
  runningError: string | null;
}

export function rigMissing(root: string): string | null {
  const rig = join(root, 'test', 'vscode', 'rig', 'node_modules');
  if (!existsSync(join(rig, '.bin', 'code-server'))) return 'the rig is not installed (bash test/vscode/rig/setup.sh)';
  if (!existsSync(join(rig, 'playwright-core'))) return 'playwright-core missing from the rig';
  if (!existsSync(process.env.CHROMIUM ?? '/usr/bin/chromium')) return 'no Chromium at /usr/bin/chromium';
  return null;
}

async function rigRun(ctx: BenchContext, i: number): Promise<RigFigures> {
  const ws = join(ctx.tmp, `ws-${i}`);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'README.md'), '# bench workspace\n');
  // ARTIFACTS_DIR in our temp dir: the runner empties it at start, and must not touch the tests' artifacts.
  const env = { ...process.env, ARTIFACTS_DIR: join(ctx.tmp, `artifacts-${i}`), TEST_TIMEOUT_MS: '150000' };
  const runner = join(ctx.root, 'test', 'vscode', 'run-ext-tests.js');
  // The extension under test is the bench's production build (ctx.ext), not the repository's dist/.
  const res = await exec(process.execPath, [runner, ctx.ext, join(ctx.root, 'bench', 'vscode', 'index'), ws], { cwd: ctx.root, env, timeoutMs: 200_000 });
  const line = res.stdout.split('\n').find((l) => l.startsWith('BENCH_ACTIVATION '));
  if (!line) throw new Error(`the VS Code rig gave no activation figure (exit ${res.code}): ${(res.stdout + res.stderr).split('\n').slice(-8).join(' | ')}`);
  return JSON.parse(line.slice('BENCH_ACTIVATION '.length)) as RigFigures;
}

export const activation: Scenario = {
  name: 'activation',
  title: '2b. Extension activation time',
  async run(ctx: BenchContext) {
    const r = new Results();
    const bundle = join(ctx.dist, 'extension.js');
    const proxy = join(ctx.root, 'bench', 'vscode', 'activate-proxy.js');
    const loads: number[] = [];
    const activates: number[] = [];
    const firstUses: number[] = [];
    for (let i = 0; i < (ctx.quick ? 3 : 7); i++) {
      const res = await exec(process.execPath, [proxy, bundle], { cwd: ctx.tmp, timeoutMs: 30_000 });
      const out = JSON.parse(res.stdout.trim().split('\n').pop() ?? '{}') as { loadMs?: number; activateMs?: number; firstUseMs?: number; error?: string };
      if (out.error || out.loadMs === undefined) throw new Error(`activate-proxy failed: ${out.error ?? res.stderr}`);
      loads.push(out.loadMs);
      activates.push(out.activateMs!);
      firstUses.push(out.firstUseMs!);
    }
    const proxyMs = median(loads) + median(activates);
    r.figure('proxy', { loadMs: median(loads), activateMs: median(activates), firstUseMs: median(firstUses) });

    const missing = ctx.quick ? 'skipped in --quick mode' : rigMissing(ctx.root);
    let rig: RigFigures | null = null;
    let rigError: string | null = missing;
    if (!missing) {
      try {
        ctx.log('activation: starting VS Code (code-server rig), ~25 s');
        rig = await rigRun(ctx, 0);
      } catch (e) {
        rigError = (e as Error).message;
      }
    }
    const own = rig?.running?.ownMs ?? null;
    if (rig && !rig.wasActive && own !== null) {
      r.goal('activation.vscode_ms', 'VS Code activation (its own figure: load + activate)', own, '<=', 50, ' ms', { digits: 0 });
    } else if (rig && !rig.wasActive) {
      r.goal('activation.vscode_ms', 'VS Code activation (ext.activate() from a test)', rig.activateMs, '<=', 50, ' ms', { digits: 0, note: rig.runningError ?? undefined });
    } else {
      r.goal('activation.vscode_ms', 'VS Code activation', null, '<=', 50, ' ms', { note: rig?.wasActive ? 'already active before the test ran' : (rigError ?? 'not measured') });
    }
    if (rig) {
      r.info('  ext.activate() timed from the extension host', `${fmt(rig.activateMs, 0)} ms (VS Code ${rig.vscode})`);
      if (rig.running?.othersMs.length) r.info('  other extensions in the same window (start-up, for scale)', `median ${fmt(median(rig.running.othersMs), 0)} ms`);
      r.figure('vscode', rig);
    }
    r.info('  plain Node, stub vscode: load dist/extension.js + activate()', `${fmt(median(loads), 1)} ms + ${fmt(median(activates), 2)} ms (median of ${loads.length})`);
    r.info('  then the first command: load dist/runtime.js + create the services', `${fmt(median(firstUses), 1)} ms (once per window, on first use)`);
    r.figure('proxy_total_ms', proxyMs);
    return r.result();
  },
};

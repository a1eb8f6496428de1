// The benchmark: runs the scenarios in bench/scenarios/, prints a table for humans and, last, one JSON line with
// every figure. `npm run bench` builds the production bundles first. Missed goals are findings, not failures: the
// exit code is non-zero only when a scenario crashed.
//
//   npm run bench                                   all scenarios (a few minutes on 2 cores)
//   npm run bench -- --quick                        a smoke run of every scenario (seconds; small sizes, no VS Code, no VSIX)
//   npm run bench -- --only consensus,scale         some scenarios (names: see --list)
//   npm run bench -- --list
// Progress goes to stderr; the table and the JSON line to stdout (also saved as bench/results/latest.json).

import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildProduction } from './lib/build';
import { table, type Goal, type Scenario, type ScenarioResult } from './lib/report';
import { activation } from './scenarios/activation';
import { checks } from './scenarios/checks';
import { consensus } from './scenarios/consensus';
import { escalation } from './scenarios/escalation';
import { harness } from './scenarios/harness';
import { overhead } from './scenarios/overhead';
import { realModel } from './scenarios/real-model';
import { sandbox } from './scenarios/sandbox';
import { scale } from './scenarios/scale';
import { sizes } from './scenarios/size';
import { startup } from './scenarios/startup';
import { stress } from './scenarios/stress';
import { upstream } from './scenarios/upstream';
import { viewer } from './scenarios/viewer';
import { workspace } from './scenarios/workspace';

const SCENARIOS: Scenario[] = [overhead, startup, activation, consensus, upstream, viewer, scale, sizes, workspace, sandbox, stress, checks, escalation, harness, realModel];

interface Args {
  quick: boolean;
  only: string[] | null;
  list: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { quick: false, only: null, list: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') args.quick = true;
    else if (a === '--list') args.list = true;
    else if (a === '--only' || a === '--scenario') args.only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a.startsWith('--only=')) args.only = a.slice(7).split(',').filter(Boolean);
    else if (!a.startsWith('-')) args.only = [...(args.only ?? []), a];
    else throw new Error(`unknown option ${a} (use --quick, --only NAME[,NAME], --list)`);
  }
  return args;
}

const STATUS: Record<string, string> = { met: 'ok', missed: 'MISSED', 'not measured': 'n/a', info: '' };

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (args.list) {
    for (const s of SCENARIOS) process.stdout.write(`${s.name.padEnd(12)} ${s.title}\n`);
    return 0;
  }
  const unknown = (args.only ?? []).filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const chosen = SCENARIOS.filter((s) => !args.only || args.only.includes(s.name));
  const root = resolve(__dirname, '..');
  const notes: string[] = [];
  // The bench's own production build, as an extension folder: dist/ of the repository is rebuilt by others meanwhile.
  const ext = mkdtempSync(join(tmpdir(), 'massgen-bench-ext-'));
  const build = await buildProduction(root, ext);
  for (const f of ['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore']) if (existsSync(join(root, f))) copyFileSync(join(root, f), join(ext, f));
  cpSync(join(root, 'media'), join(ext, 'media'), { recursive: true });
  process.stderr.write(`[bench] production build for the bench: ${build.ms} ms (${ext})\n`);

  const started = performance.now();
  const loadBefore = loadavg()[0];
  const results: Record<string, { durationMs: number; result?: ScenarioResult; error?: string }> = {};
  for (const s of chosen) {
    const tmp = mkdtempSync(join(tmpdir(), `massgen-bench-${s.name}-`));
    const t0 = performance.now();
    process.stderr.write(`[bench] ${s.title}${args.quick ? ' (quick)' : ''}\n`);
    try {
      const result = await s.run({ quick: args.quick, root, ext, dist: build.dist, tmp, log: (m) => process.stderr.write(`[bench]   ${m}\n`) });
      results[s.name] = { durationMs: performance.now() - t0, result };
    } catch (err) {
      results[s.name] = { durationMs: performance.now() - t0, error: (err as Error).stack ?? String(err) };
      process.stderr.write(`[bench]   CRASHED: ${(err as Error).stack ?? err}\n`);
    } finally {
      if (!process.env.BENCH_KEEP_TMP) rmSync(tmp, { recursive: true, force: true });
    }
  }

  // ---- the table
  const out: string[] = [];
  const loadAfter = loadavg()[0];
  // The machines are shared: a load well above the CPU count makes wall-clock figures (long tasks, start-up) noisy.
  if (Math.max(loadBefore, loadAfter) > cpus().length * 1.5) notes.push(`the machine was busy (1-min load ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} on ${cpus().length} CPUs): wall-clock figures are pessimistic.`);
  out.push('', `MassGen benchmark${args.quick ? ' (--quick: smoke run, small sizes)' : ''} — node ${process.version}, ${cpus().length} CPUs, load ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`, ...notes.map((n) => `note: ${n}`), '');
  const goals: (Goal & { scenario: string })[] = [];
  for (const s of chosen) {
    const r = results[s.name];
    out.push(`${s.title}  [${(r.durationMs / 1000).toFixed(1)} s]`);
    if (r.error) {
      out.push(`  CRASHED: ${r.error.split('\n')[0]}`, '');
      continue;
    }
    const res = r.result!;
    goals.push(...res.goals.map((g) => ({ ...g, scenario: s.name })));
    const lines = res.rows.map((row) => [`  ${row.label}`, row.value, row.goal ?? '', STATUS[row.status ?? 'info'] ?? '']);
    out.push(table(['  figure', 'value', 'goal', ''], lines));
    for (const n of res.notes) out.push(`  · ${n}`);
    out.push('');
  }
  const met = goals.filter((g) => g.status === 'met');
  const missed = goals.filter((g) => g.status === 'missed');
  const unmeasured = goals.filter((g) => g.status === 'not measured');
  const crashed = chosen.filter((s) => results[s.name].error).map((s) => s.name);
  out.push(`Goals: ${met.length} met, ${missed.length} missed, ${unmeasured.length} not measured${crashed.length ? `; CRASHED: ${crashed.join(', ')}` : ''}.`);
  for (const g of missed) out.push(`  MISSED ${g.id}: ${g.value} (goal ${g.op} ${g.threshold}${g.unit})`);
  out.push('');
  process.stdout.write(out.join('\n') + '\n');

  // ---- the JSON line, last
  const json = {
    bench: 'massgen-vscode',
    quick: args.quick,
    node: process.version,
    cpus: cpus().length,
    load: [Number(loadBefore.toFixed(2)), Number(loadAfter.toFixed(2))],
    date: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
    summary: { met: met.length, missed: missed.map((g) => g.id), notMeasured: unmeasured.map((g) => g.id), crashed },
    goals: Object.fromEntries(goals.map((g) => [g.id, { value: g.value, op: g.op, threshold: g.threshold, unit: g.unit.trim(), status: g.status, ...(g.note ? { note: g.note } : {}) }])),
    figures: Object.fromEntries(chosen.map((s) => [s.name, results[s.name].result?.figures ?? { error: results[s.name].error?.split('\n')[0] }])),
  };
  const line = JSON.stringify(json);
  try {
    mkdirSync(join(root, 'bench', 'results'), { recursive: true });
    writeFileSync(join(root, 'bench', 'results', args.quick ? 'latest-quick.json' : 'latest.json'), `${line}\n`);
  } catch {
    /* a read-only checkout still gets the line on stdout */
  }
  process.stdout.write(`${line}\n`);
  if (!process.env.BENCH_KEEP_TMP) rmSync(ext, { recursive: true, force: true });
  return crashed.length ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`[bench] ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  },
);

// Scenario 10: the project's checks (issue 14). A team of 4 scripted agents in a real git repository, through the run
// session with real copies, snapshots, checkouts and the real sandbox: agents 1 and 3 make one change, 2 and 4
// another, all four answers arrive together, then everyone votes. The check is `node check.js`, which takes
// CHECK_MS. Measured, medians over alternating repeats:
//
// * checks per distinct change: checks that actually ran (not reused) / distinct changes among the answers (goal 1.0);
// * time the checks add to the run: from the first check's start to the last check's end in the run (the agents wait for
//   nothing else then), over one check alone through the same runner (goal ≤ 1.1: the two distinct changes are
//   checked in parallel, not one after another). The whole run with and without checks is shown beside it; on a
//   shared machine that difference is noisier than the span.

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCheck } from '../../src/core/checks/run-check';
import type { CheckSpec } from '../../src/core/config/types';
import type { RunEvent } from '../../src/core/engine/events';
import { reply, ScriptedProvider, type Script } from '../../src/core/providers/scripted';
import { RunSession } from '../../src/core/run/session';
import { detectSandbox } from '../../src/core/sandbox';
import { benchConfig } from '../lib/config';
import { makeAddProject } from '../../test/helpers/repo';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { median } from '../lib/stats';

const CHECK_MS = 1000;
const CHECK: CheckSpec = { name: 'tests', command: 'node check.js', timeoutSeconds: 60, required: true };
const CHANGES = ['exports.add = (a, b) => a + b;\n', 'exports.add = (a, b) => b + a;\n'];

/** The tests' add project, with a check that takes CHECK_MS. */
function makeRepo(dir: string): void {
  makeAddProject(dir, { 'check.js': `setTimeout(() => { const { add } = require('./src/add'); process.exit(add(2, 3) === 5 ? 0 : 1); }, ${CHECK_MS});\n` });
}

/** Agent i writes change i % 2, answers, then votes for agent1. */
function script(i: number): Script {
  return (request, call) => {
    if (call === 0) return { toolCalls: [{ name: 'write_file', arguments: { path: 'src/add.js', content: CHANGES[i % 2] } }] };
    const answered = request.messages.some((m) => m.role === 'tool' && /recorded/.test(m.content));
    return answered || call > 1 ? reply.vote('agent1', 'it adds') : reply.answer(`Fixed add(), variant ${i % 2}.`);
  };
}

async function runOnce(repo: string, baseDir: string, withChecks: boolean): Promise<{ ms: number; events: RunEvent[] }> {
  const config = benchConfig(
    Array.from({ length: 4 }, (_, i) => ({ id: `a${i + 1}`, model: `scripted-${i + 1}` })),
    withChecks ? { checks: [CHECK], verification: 'inform' } : {},
    { orchestratorTimeoutSeconds: 120, agentTurnTimeoutSeconds: 60 },
  );
  const providers = Array.from({ length: 4 }, (_, i) => new ScriptedProvider(`scripted-${i + 1}`, script(i)));
  const session = new RunSession({
    task: 'Fix add().',
    config,
    extraProviders: (a) => providers[Number(a.id.slice(1)) - 1],
    files: { kind: 'workspace', source: repo, baseDir },
  });
  const events: RunEvent[] = [];
  session.subscribe((e) => events.push(e));
  const t0 = performance.now();
  const result = await session.start();
  const ms = performance.now() - t0;
  if (!result.winnerId) throw new Error(`the run ended without a winner: ${result.reason} ${result.error ?? ''}`);
  return { ms, events };
}

export const checks: Scenario = {
  name: 'checks',
  title: '10. Checks: once per distinct change, in parallel',
  async run(ctx: BenchContext) {
    const r = new Results();
    const sandbox = await detectSandbox();
    if (sandbox.requiresApproval) {
      r.goal('checks.added_vs_single', 'time the checks add ÷ one check alone', null, '<=', 1.1, '×', { note: 'n/a: no sandbox (install bubblewrap)' });
      return r.result();
    }
    const repo = await mkdtemp(join(ctx.tmp, 'repo-'));
    makeRepo(repo);
    const baseDir = join(await mkdtemp(join(tmpdir(), 'massgen-bench-checks-')), 'copies');
    const repeats = ctx.quick ? 1 : 5;

    // One check alone, through the same runner, in a checkout-like folder.
    const lone = join(ctx.tmp, 'lone');
    await mkdir(join(lone, 'src'), { recursive: true });
    await writeFile(join(lone, 'src', 'add.js'), CHANGES[0]);
    await writeFile(join(lone, 'check.js'), `setTimeout(() => process.exit(0), ${CHECK_MS});\n`);
    const single: number[] = [];
    for (let i = 0; i <= repeats; i++) {
      const t0 = performance.now();
      const res = await runCheck(CHECK, lone, { sandbox }, new AbortController().signal);
      if (res.status !== 'passed') throw new Error(`the lone check did not pass: ${res.status} ${res.output}`);
      if (i > 0) single.push(performance.now() - t0);
    }

    const withTimes: number[] = [];
    const withoutTimes: number[] = [];
    const spans: number[] = [];
    let ran = 0;
    let distinct = 0;
    await runOnce(repo, baseDir, true); // warm-up
    for (let i = 0; i < repeats; i++) {
      for (const withChecks of i % 2 ? [false, true] : [true, false]) {
        const { ms, events } = await runOnce(repo, baseDir, withChecks);
        (withChecks ? withTimes : withoutTimes).push(ms);
        if (!withChecks) continue;
        const finished = events.filter((e): e is Extract<RunEvent, { type: 'check_finished' }> => e.type === 'check_finished');
        if (finished.some((e) => e.result.status !== 'passed')) throw new Error(`a check did not pass: ${JSON.stringify(finished.map((e) => e.result))}`);
        ran += finished.filter((e) => !e.result.cached).length;
        const started = events.filter((e) => e.type === 'checks_started').map((e) => e.t);
        spans.push(Math.max(...finished.map((e) => e.t)) - Math.min(...started));
        distinct += new Set(events.flatMap((e) => (e.type === 'answer_added' && e.change ? [e.change.id] : []))).size;
      }
    }
    const added = median(withTimes) - median(withoutTimes);
    const span = median(spans);
    const one = median(single);
    r.goal('checks.per_distinct_change', 'checks run ÷ distinct changes (4 answers, 2 distinct)', ran / distinct, '<=', 1, '×', { digits: 2 });
    r.goal('checks.added_vs_single', 'time the checks add to the run ÷ one check alone', span / one, '<=', 1.1, '×', { digits: 2 });
    r.info('  first check started → last check ended (median)', `${fmt(span, 0)} ms`);
    r.info('  whole run with checks vs without (median)', `${fmt(median(withTimes), 0)} ms vs ${fmt(median(withoutTimes), 0)} ms: +${fmt(added, 0)} ms`);
    r.info('  one check alone (median)', `${fmt(one, 0)} ms (the command sleeps ${CHECK_MS} ms)`);
    r.info('  for scale: the 4 checks one after another', `${fmt(4 * one, 0)} ms`);
    r.figure('checks', { spansMs: spans, withMs: withTimes, withoutMs: withoutTimes, singleMs: single, addedMs: added, ran, distinct });
    r.note(`${repeats} run(s) with and without checks, alternating, after a warm-up; ${sandbox.description.split(':')[0]}; the machine's cores bound how many checks run at once.`);
    return r.result();
  },
};

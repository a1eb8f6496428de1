// Scenario 4: streaming to the vote viewer. 8 agents × 200 tokens/s for 30 s through the host's coalescing into the
// webview in headless Chromium: host→webview messages per second, long tasks (> 50 ms), memory growth.
//
// The Chromium measurement is the viewer's own script, written with the viewer; the bench runs it as a child process
// and reads its figures rather than re-implementing it:
//
//   node --require tsx/cjs test/webview/throughput.ts <seconds> <agents> <tokensPerSecond>
//   → prints its figures and writes them as JSON to bench/results/vote-viewer-throughput.json
//     ({ messagesPerSecond: { mean, max }, longTasks: number[], caughtUp, ... }); the bench reads that file (when the
//     script wrote it during this run) and falls back to the printed lines.
//
// HOOK: when the script is missing, its goals are reported "not measured". The script reports no memory figure, so
// bench/lib/viewer-heap.ts wraps its `measureThroughput` (a short and a long run, heap after a forced GC at the end of
// each) for the memory goal. Alongside, always: the host's coalescer alone, fed the same stream in virtual time.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../../src/core/engine/events';
import { EventCoalescer } from '../../src/host/viewer/coalescer';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';

export const THROUGHPUT_SCRIPTS = ['test/webview/throughput.ts', 'test/webview/throughput.js', 'test/webview/throughput.mjs'];

/** The coalescer under a virtual clock: every token a delta event, timers fired in time order. */
export function coalescerRate(agents: number, tokensPerSecond: number, seconds: number): { messagesPerSecond: number; eventsPerSecond: number; maxEventsPerMessage: number } {
  let now = 0;
  const timers: { due: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  let messages = 0;
  let maxEvents = 0;
  const coalescer = new EventCoalescer(
    (batch) => {
      messages++;
      maxEvents = Math.max(maxEvents, batch.events.length);
    },
    {
      setTimer: (fn, ms) => {
        const t = { due: now + ms, fn, id: nextId++ };
        timers.push(t);
        return t.id;
      },
      clearTimer: (id) => {
        const i = timers.findIndex((t) => t.id === id);
        if (i >= 0) timers.splice(i, 1);
      },
    },
  );
  const fireUntil = (t: number) => {
    for (;;) {
      timers.sort((a, b) => a.due - b.due);
      if (!timers.length || timers[0].due > t) break;
      const timer = timers.shift()!;
      now = timer.due;
      timer.fn();
    }
    now = t;
  };
  const interval = 1000 / tokensPerSecond;
  let seq = 0;
  const total = Math.floor(seconds * tokensPerSecond);
  for (let k = 0; k < total; k++) {
    for (let a = 0; a < agents; a++) {
      const t = k * interval + (a * interval) / agents;
      fireUntil(t);
      const event = { type: 'text_delta', agentId: `a${a + 1}`, text: 'tok ', seq: ++seq, t } as RunEvent;
      coalescer.push(event);
    }
  }
  fireUntil(seconds * 1000 + 1000);
  return { messagesPerSecond: messages / seconds, eventsPerSecond: seq / seconds, maxEventsPerMessage: maxEvents };
}

/** Finds a numeric figure in the script's JSON by any of several spellings. */
function pick(obj: Record<string, unknown>, patterns: RegExp[]): number | null {
  for (const p of patterns) {
    for (const [k, v] of Object.entries(obj)) {
      if (!p.test(k)) continue;
      if (typeof v === 'number') return v;
      if (Array.isArray(v)) return v.length;
      if (v && typeof v === 'object') {
        const inner = pick(v as Record<string, unknown>, [/^max$/i, /count|total|growth|mb|value/i]);
        if (inner !== null) return inner;
      }
    }
  }
  return null;
}

function runChild(root: string, args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', ...args], { cwd: root, env: { ...process.env, BENCH: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The figures of the throughput script: its JSON file if it wrote one during this run, else its printed lines. */
function readThroughput(root: string, since: number, stdout: string): Record<string, unknown> | null {
  const file = join(root, 'bench', 'results', 'vote-viewer-throughput.json');
  if (existsSync(file) && statSync(file).mtimeMs >= since) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      /* fall back to stdout */
    }
  }
  const last = stdout.trim().split('\n').reverse().find((l) => l.trim().startsWith('{'));
  if (last) {
    try {
      return JSON.parse(last) as Record<string, unknown>;
    } catch {
      /* fall through */
    }
  }
  const m = /host→webview messages: (\d+) \(([\d.]+)\/s mean, (\d+)\/s max/.exec(stdout);
  const lt = /(\d+) long tasks > 50 ms/.exec(stdout);
  if (!m && !lt) return null;
  return { messages: m ? Number(m[1]) : undefined, messagesPerSecond: m ? { mean: Number(m[2]), max: Number(m[3]) } : undefined, longTasks: lt ? Number(lt[1]) : undefined };
}

export const viewer: Scenario = {
  name: 'viewer',
  title: '4. Streaming to the vote viewer (8 agents × 200 tokens/s)',
  async run(ctx: BenchContext) {
    const r = new Results();
    const proxy = coalescerRate(8, 200, ctx.quick ? 5 : 30);
    r.figure('coalescer', proxy);

    const script = THROUGHPUT_SCRIPTS.find((f) => existsSync(join(ctx.root, f)));
    let figures: Record<string, unknown> | null = null;
    let why = `HOOK: ${THROUGHPUT_SCRIPTS[0]} not there yet`;
    if (script) {
      const seconds = ctx.quick ? 3 : 30;
      ctx.log(`viewer: ${script}, ${seconds} s of streaming in headless Chromium`);
      const since = Date.now() - 1000;
      const res = await runChild(ctx.root, [script, String(seconds), '8', '200'], 240_000);
      figures = readThroughput(ctx.root, since, res.stdout);
      if (!figures) why = `${script} gave no figures (exit ${res.code}): ${(res.stderr || res.stdout).trim().split('\n').slice(-2).join(' | ')}`;
      else r.figure('throughput_script', figures);
    }
    const rate = figures ? pick(figures, [/^messagesPerSecond$/i, /messages?.?per.?s/i, /msgs?.?per.?s/i]) : null;
    const longTasks = figures ? pick(figures, [/^longTasks$/i, /long.?tasks?/i]) : null;
    // Why a figure is missing (a measured figure needs no note).
    const missing = (value: number | null) => (value !== null ? undefined : figures ? `${script} did not report it` : why);
    r.goal('viewer.messages_per_second', 'host→webview messages per second (max over 1-s windows)', rate, '<=', 60, '', { digits: 1, note: missing(rate) });
    if (figures) {
      const mps = figures.messagesPerSecond as { mean?: number } | undefined;
      r.info('  mean messages per second; page caught up', `${typeof mps?.mean === 'number' ? fmt(mps.mean, 1) : '?'}; ${String(figures.caughtUp ?? '?')}`);
    }
    r.goal('viewer.long_tasks', 'long tasks > 50 ms in the webview', longTasks, '<=', 0, '', { digits: 0, note: missing(longTasks) });

    // Memory: the same measurement, short then long; heap after a forced GC at the end of each.
    let heap: { growthMB: number; heapShortMB: number; heapLongMB: number; domNodesShort: number; domNodesLong: number; shortSeconds: number; longSeconds: number } | null = null;
    let heapWhy = script ? 'skipped in --quick mode' : why;
    if (script && !ctx.quick && existsSync(join(ctx.root, 'test', 'webview', 'throughput-run.ts'))) {
      ctx.log('viewer: webview heap, 5 s and 30 s runs');
      const res = await runChild(ctx.root, [join('bench', 'lib', 'viewer-heap.ts'), '5', '30', '8', '200'], 240_000);
      const line = res.stdout.trim().split('\n').pop() ?? '';
      try {
        heap = JSON.parse(line);
      } catch {
        heapWhy = `heap probe failed (exit ${res.code}): ${res.stderr.trim().split('\n').slice(-1)[0] ?? ''}`;
      }
    } else if (script && !ctx.quick) {
      heapWhy = 'test/webview/throughput-run.ts (measureThroughput) not found';
    }
    r.goal('viewer.heap_growth_mb', 'webview heap growth after warm-up (5 s → 30 s run)', heap ? heap.growthMB : null, '<=', 2, ' MB', { digits: 2, note: heap ? undefined : heapWhy });
    if (heap) {
      r.info('  webview heap after GC; DOM elements', `${fmt(heap.heapShortMB, 1)} MB → ${fmt(heap.heapLongMB, 1)} MB; ${heap.domNodesShort} → ${heap.domNodesLong} elements`);
      r.figure('heap', heap);
    }
    // A reopened or reloaded viewer renders the whole run from one snapshot (bench/lib/viewer-snapshot.ts).
    let snapshot: { small: { kb: number; ms: number }; large: { kb: number; ms: number }; ratio: number } | null = null;
    let snapshotWhy = why;
    if (script) {
      ctx.log('viewer: snapshot render, 8 agents × 1 and × 4 answers of 12 KB');
      const res = await runChild(ctx.root, [join('bench', 'lib', 'viewer-snapshot.ts'), ctx.quick ? '2' : '7'], 240_000);
      try {
        snapshot = JSON.parse(res.stdout.trim().split('\n').pop() ?? '');
      } catch {
        snapshotWhy = `snapshot probe failed (exit ${res.code}): ${res.stderr.trim().split('\n').slice(-1)[0] ?? ''}`;
      }
    }
    r.goal('viewer.snapshot.kb_time_ratio', 'snapshot render, time per KB: 4 answers / 1 answer per agent', snapshot ? snapshot.ratio : null, '<=', 1.5, '', { digits: 2, note: snapshot ? undefined : snapshotWhy });
    if (snapshot) {
      r.info('  snapshot render (median of reloads)', `${fmt(snapshot.small.ms, 0)} ms for ${fmt(snapshot.small.kb, 0)} KB; ${fmt(snapshot.large.ms, 0)} ms for ${fmt(snapshot.large.kb, 0)} KB`);
      r.figure('snapshot', snapshot);
    }
    r.info(
      '  host coalescer alone (virtual time, no browser)',
      `${fmt(proxy.messagesPerSecond, 1)} messages/s for ${fmt(proxy.eventsPerSecond, 0)} delta events/s (≤ ${proxy.maxEventsPerMessage} events per message)`,
    );
    if (!figures) r.note(why);
    return r.result();
  },
};

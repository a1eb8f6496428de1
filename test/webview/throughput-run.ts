// The throughput measurement shared by the short test (throughput.test.ts, 5 s) and the benchmark
// (throughput.ts, 30 s): N agents streaming T tokens/s each (one text_delta per token, the worst case) through the
// real host hub and coalescer into the real page in Chromium. Counts host→webview messages per second and the
// page's long tasks (> 50 ms, from the Long Tasks API), and how far the page's DOM lags behind the host.

import type { RunEvent, RunEventBody } from '../../src/core/engine/events';
import { createHarness, launchChromium, servePage, ViewerPage, webviewBundle } from './harness';
import { streamingLoad } from './scenarios';

export interface ThroughputOptions {
  agents: number;
  tokensPerSecond: number;
  seconds: number;
  width?: number;
  surface?: 'view' | 'panel';
}

export interface ThroughputResult {
  agents: number;
  tokensPerSecond: number;
  seconds: number;
  events: number;
  messages: number;
  messagesPerSecond: { mean: number; max: number };
  bytesPerSecond: number;
  longTasks: number[];
  renders: number;
  /** The page's slowest frame render and delta application (ms). */
  maxRenderMs: number;
  maxDeltaMs: number;
  /** Every column shows the last line its agent streamed. */
  caughtUp: boolean;
  /** From the last event to the page showing it in every column. */
  catchUpMs: number;
  eventLoopLagMs: number;
}

export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputResult> {
  const browser = await launchChromium();
  const server = await servePage(await webviewBundle());
  const h = await createHarness(browser, server, { hub: { headDelayMs: 1000 } });
  try {
    const agents = Array.from({ length: options.agents }, (_, i) => ({ id: `agent-${i + 1}`, label: `agent${i + 1}`, model: 'bench-model', provider: 'bench', priced: true }));
    let seq = 0;
    const started = Date.now();
    const ev = (body: RunEventBody): RunEvent => ({ ...body, seq: ++seq, t: Date.now() - started }) as RunEvent;
    const run = h.source.start('bench', `${options.agents} agents × ${options.tokensPerSecond} tokens/s`, [
      ev({ type: 'run_started', runId: 'bench', question: 'Throughput benchmark', agents, startedAt: new Date(started).toISOString(), finalAnswerMode: 'as_is' }),
      ev({ type: 'round_started', round: 1, agentIds: agents.map((a) => a.id) }),
      ...agents.map((a) => ev({ type: 'turn_started', agentId: a.id, round: 1, boardRevision: 0, voteOnly: false })),
    ]);
    const page = await ViewerPage.open(h, { theme: 'dark', surface: options.surface ?? 'panel', width: options.width ?? 1600, height: 1000 });
    await page.settle();
    await page.page.evaluate(() => {
      const w = window as unknown as { __long: number[] };
      w.__long = [];
      (window as unknown as { __longAt: number[] }).__longAt = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          w.__long.push(e.duration);
          (window as unknown as { __longAt: number[] }).__longAt.push(e.startTime);
        }
      }).observe({ type: 'longtask' });
    });
    const perSecond = new Map<number, number>();
    let bytes = 0;
    const messagesBefore = page.toPage.length;
    const t0 = Date.now();
    // Count what the host posts, per wall-clock second.
    const countFrom = page.toPage.length;
    let counted = countFrom;
    const counter = setInterval(() => {
      const now = Math.floor((Date.now() - t0) / 1000);
      for (; counted < page.toPage.length; counted++) {
        perSecond.set(now, (perSecond.get(now) ?? 0) + 1);
        bytes += JSON.stringify(page.toPage[counted]).length;
      }
    }, 20);
    let events = 0;
    let maxLag = 0;
    for (const { atMs, bodies } of streamingLoad(options.agents, options.tokensPerSecond, options.seconds)) {
      const wait = t0 + atMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      else maxLag = Math.max(maxLag, -wait);
      for (const b of bodies) {
        run.emit(ev(b));
        events++;
      }
    }
    // A last, recognizable line per agent: the page has caught up when every column shows its own.
    for (const a of agents) run.emit(ev({ type: 'text_delta', agentId: a.id, text: `\n\nEND-OF-STREAM-${a.id}\n` }));
    const endAt = Date.now();
    // Wait until every column shows its last line; how long that took is catchUpMs, the bound only a failure guard.
    const caughtUp = await page.page
      .waitForFunction(
        (ids) => {
          const cols = Array.from(document.querySelectorAll('.agent'));
          return cols.length === ids.length && cols.every((e, i) => (e.querySelector('.output .stream')?.textContent ?? '').trimEnd().endsWith(`END-OF-STREAM-${ids[i]}`));
        },
        agents.map((a) => a.id),
        { timeout: 30_000, polling: 25 },
      )
      .then(
        () => true,
        () => false,
      );
    const catchUpMs = Date.now() - endAt;
    await new Promise((r) => setTimeout(r, 100));
    clearInterval(counter);
    for (; counted < page.toPage.length; counted++) bytes += JSON.stringify(page.toPage[counted]).length;
    await page.settle();
    const elapsed = (Date.now() - t0) / 1000;
    const { longTasks, renders, maxRenderMs, maxDeltaMs } = await page.page.evaluate(() => {
      const w = window as unknown as { __long: number[]; massgenViewer: { stats: { renders: number; maxRenderMs: number; maxDeltaMs: number } } };
      return {
        longTasks: w.__long,
        maxRenderMs: w.massgenViewer.stats.maxRenderMs,
        maxDeltaMs: w.massgenViewer.stats.maxDeltaMs,
        renders: w.massgenViewer.stats.renders,
      };
    });
    const messages = page.toPage.length - messagesBefore;
    const counts = [...perSecond.values()];
    await page.close();
    return {
      agents: options.agents,
      tokensPerSecond: options.tokensPerSecond,
      seconds: options.seconds,
      events,
      messages,
      messagesPerSecond: { mean: messages / elapsed, max: Math.max(0, ...counts) },
      bytesPerSecond: bytes / elapsed,
      longTasks,
      renders,
      maxRenderMs,
      maxDeltaMs,
      caughtUp,
      catchUpMs,
      eventLoopLagMs: maxLag,
    };
  } finally {
    h.hub.dispose();
    await browser.close();
    await server.close();
  }
}

export function describeResult(r: ThroughputResult): string {
  return [
    `${r.agents} agents × ${r.tokensPerSecond} tokens/s for ${r.seconds} s: ${r.events} engine events`,
    `host→webview messages: ${r.messages} (${r.messagesPerSecond.mean.toFixed(1)}/s mean, ${r.messagesPerSecond.max}/s max; goal ≤ 60/s), ${(r.bytesPerSecond / 1024).toFixed(1)} KB/s`,
    `page: ${r.renders} renders (slowest ${r.maxRenderMs.toFixed(1)} ms; slowest delta ${r.maxDeltaMs.toFixed(1)} ms), ${r.longTasks.length} long tasks > 50 ms${r.longTasks.length ? ` (${r.longTasks.map((d) => d.toFixed(0)).join(', ')} ms)` : ''} (goal 0), caught up: ${r.caughtUp} (${r.catchUpMs} ms after the last event)`,
    `generator lag max ${r.eventLoopLagMs} ms`,
  ].join('\n');
}

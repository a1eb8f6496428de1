// Benchmark: 8 agents × 200 tokens/s for 30 s (or as given) through the host coalescer into the page in Chromium.
//   npx tsx test/webview/throughput.ts [seconds] [agents] [tokensPerSecond]
// Prints the figures (and writes them as JSON to bench/results/vote-viewer-throughput.json); exits 1 when a goal
// is missed (≤ 60 host→webview messages/s, no long task > 50 ms in the page).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumAvailable, CHROMIUM_PATH, ROOT } from './harness';
import { describeResult, measureThroughput } from './throughput-run';

async function main(): Promise<number> {
  if (!chromiumAvailable) {
    console.error(`skipped: no Chromium at ${CHROMIUM_PATH} (install Debian's chromium or set CHROMIUM)`);
    return 0;
  }
  const [seconds = 30, agents = 8, tokensPerSecond = 200] = process.argv.slice(2).map(Number);
  const r = await measureThroughput({ agents, tokensPerSecond, seconds });
  console.log(describeResult(r));
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'vote-viewer-throughput.json'), JSON.stringify({ ...r, at: new Date().toISOString() }, null, 2) + '\n');
  const ok = r.messagesPerSecond.max <= 60 && r.longTasks.length === 0 && r.caughtUp;
  if (!ok) console.error('goal missed');
  return ok ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);

// `massgen eval` through the real CLI with a team of SmolLM2-135M agents on the real llama-server, on the bundled
// 20-question dataset (examples/eval/real-model-20.jsonl). What a 135M model gets right is not the point; the eval
// must finish, give every item × system a result or a named error, put numbers (not NaN or null) in its accuracy
// figures, and write a report.html that real Chromium renders with a row per item and a row per system.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { cliSuite, readJsonl, runCli } from '../helpers/cli';
import { describeInChromium, launchChromium, ROOT } from '../webview/harness';
import { useForcedServer } from './lib/forced-server';
import { assertNoStackTrace, isEndReason } from './lib/outcome';
import { writeTeamConfig } from './lib/team-config';
import { timed } from './lib/timed';

const work = mkdtempSync(join(tmpdir(), 'massgen-real-eval-'));
const DATASET = resolve(ROOT, 'examples', 'eval', 'real-model-20.jsonl');
const ITEMS = readFileSync(DATASET, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
/** The team and each member alone: what the eval scores without a baseline. */
const SYSTEMS = ['team', 'a', 'b'];
/** The test's bound; the eval is killed a little before it, so a failing run leaves no process behind. */
const TEST_GUARD_MS = 60 * 60_000;

describeInChromium('real model: massgen eval on 20 questions with a SmolLM2 team on llama-server', function () {
  this.timeout(TEST_GUARD_MS);
  const suite = cliSuite(work);
  // The server (two slots: two runs at a time), then Chromium, each closed on its own whatever failed.
  const forced = useForcedServer({ slots: 2 });
  let browser: Browser | undefined;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  it('finishes all 20 items, a result or a named error for each, numeric accuracies, a report Chromium renders', async () => {
    assert.equal(ITEMS.length, 20);
    // The cheapest team that is still a team: two agents, one answer each, short replies; two runs at a time, one
    // per server slot (a 135M model's batch of two costs far less than two calls one after the other).
    const { server, proxy } = forced();
    const config = writeTeamConfig(work, 'eval-team', {
      api: 'openai',
      origin: proxy.origin,
      agents: SYSTEMS.slice(1),
      maxTokens: 200,
      timeoutSeconds: 300,
      turnTimeoutSeconds: 120,
      orchestrator: { max_new_answers_per_agent: 1, budget: { max_calls: 8 } },
    });
    const out = join(work, 'eval');
    const r = await timed('eval, 20 items × (team of 2 + each alone)', () =>
      runCli(suite.cli, ['eval', '--config', config, '--dataset', DATASET, '--out', out, '--concurrency', '2', '--per-provider', '2'], { cwd: work, env: { TMPDIR: mkdtempSync(join(work, 'tmp-')) }, guardMs: TEST_GUARD_MS - 5 * 60_000 }),
    );
    assert.notEqual(r.code, null, `the eval did not end within the test's bound and was killed\nstderr:\n${r.stderr.slice(-4000)}`);
    const output = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr.slice(-4000)}\nserver:\n${server.log().slice(-1500)}`;
    assertNoStackTrace(r.stdout, 'stdout');
    assertNoStackTrace(r.stderr, 'stderr');

    // Every item × system: exactly one row, scored (a boolean) or failed with a named error, and a named end.
    const rows = readJsonl(join(out, 'results.jsonl'));
    assert.equal(rows.length, ITEMS.length * SYSTEMS.length, output);
    // Exit 0 when every run answered; runs without an answer (the 135M model rambling past max_tokens inside its
    // call, which llama-server answers with HTTP 500) make it 2, and the eval says how many and how to rerun them.
    const failed = rows.filter((x) => x.error !== undefined).length;
    if (failed === 0) assert.equal(r.code, 0, output);
    else {
      assert.equal(r.code, 2, output);
      assert.match(r.stderr, new RegExp(`^${failed} run\\(s\\) gave no answer \\(first: .*--resume runs them again`, 'ms'));
    }
    for (const item of ITEMS) {
      for (const system of SYSTEMS) {
        const mine = rows.filter((x) => x.item === item && x.system === system);
        assert.equal(mine.length, 1, `${item} × ${system}: one row`);
        const row = mine[0];
        assert.equal(typeof row.correct, 'boolean', `${item} × ${system} is scored`);
        if (row.error !== undefined) {
          assert.ok(typeof row.error === 'string' && row.error.trim(), `${item} × ${system}: the error is named`);
          assertNoStackTrace(row.error as string, `${item} × ${system}'s error`);
        }
        if (system === 'team') assert.ok(isEndReason(row.end_reason), `${item}: the team's run ended for a named reason (${row.end_reason})`);
      }
    }

    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.equal(summary.complete, true);
    for (const system of SYSTEMS) {
      const s = summary.systems[system];
      assert.equal(s.n, ITEMS.length, `${system}: n`);
      assert.ok(Number.isFinite(s.accuracy) && s.accuracy >= 0 && s.accuracy <= 1, `${system}: accuracy is a number (${s.accuracy})`);
      assert.ok(Math.abs(s.accuracy - s.correct / s.n) < 1e-4, `${system}: accuracy = right / n (to the 4 places summary.json keeps)`);
      assert.ok(Array.isArray(s.ci95) && s.ci95.every(Number.isFinite), `${system}: a 95% interval`);
      assert.ok(s.calls >= ITEMS.length, `${system}: at least a call per item`);
    }
    assert.ok(Number.isFinite(summary.oracle.accuracy), 'the oracle accuracy is a number');
    const figures = SYSTEMS.map((s) => `${s} ${summary.systems[s].correct}/20 (${summary.systems[s].calls} calls, ${summary.systems[s].errors} errors, ${summary.systems[s].seconds.toFixed(0)} s)`);
    console.log(`      [eval] ${figures.join('; ')}; oracle ${summary.oracle.correct}/20; team ends: ${JSON.stringify(countBy(rows.filter((x) => x.system === 'team').map((x) => String(x.end_reason))))}`);

    // report.html in real Chromium: the systems table names every system and the oracle, the item table has 20 rows.
    const context = await browser!.newContext({ viewport: { width: 1200, height: 900 }, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(pathToFileURL(join(out, 'report.html')).href);
      const tables = page.locator('table');
      assert.equal(await tables.count(), 2, 'the systems table and the item table');
      const systemRows = (await tables.nth(0).locator('tbody tr td:first-child').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      assert.equal(systemRows.length, SYSTEMS.length + 1, `a row per system and the oracle: ${systemRows.join(' | ')}`);
      assert.match(systemRows[0], /^team \(a, b\)$/);
      assert.match(systemRows[1], /^a alone /);
      assert.match(systemRows[2], /^b alone /);
      assert.match(systemRows[3], /^oracle /);
      for (const [i, system] of SYSTEMS.entries()) {
        const right = await tables.nth(0).locator('tbody tr').nth(i).locator('td').nth(1).innerText();
        assert.equal(right, `${summary.systems[system].correct}/20`, `${system}'s right count as summary.json has it`);
      }
      const itemHeads = await tables.nth(1).locator('thead th').allInnerTexts();
      assert.deepEqual(itemHeads, ['item', 'expected', ...SYSTEMS]);
      assert.deepEqual(await tables.nth(1).locator('tbody tr td:first-child').allInnerTexts(), ITEMS, 'a row per item, in dataset order');
      assert.match(await page.locator('.headline').innerText(), /The team (beats|ties|trails) its best member/);
      assert.deepEqual(errors, [], 'the page loads with no error (its CSP blocks nothing it needs)');
      await page.screenshot({ path: join(ROOT, 'test-artifacts', 'real-model', 'eval-report.png'), fullPage: false });
    } finally {
      await context.close();
    }
  });
});

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

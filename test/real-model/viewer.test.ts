// The vote viewer in real Chromium showing a real run: a team of SmolLM2-135M agents on the real llama-server runs
// through the `massgen` CLI, and its recorded events (<log dir>/events.jsonl) are replayed into the viewer through
// the real host hub, as the webview tests replay scripted runs. The page must show each answer the model wrote,
// the tally as the engine counted it, the winner and the end reason; the screenshot is kept in test-artifacts/.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '../../src/core/engine/events';
import { cliSuite, readJsonl, runCli } from '../helpers/cli';
import { startLlamaServer, type LlamaServer } from '../helpers/llama-server';
import { describeInChromium, replay, ROOT, useViewerRig } from '../webview/harness';
import { startToolForcingProxy, type ToolForcingProxy } from './lib/tool-forcing-proxy';
import { assertNoStackTrace, END_REASONS, timed, writeRealTeam } from './lib/real-team';

const work = mkdtempSync(join(tmpdir(), 'massgen-real-viewer-'));
const SHOTS = join(ROOT, 'test-artifacts', 'real-model');
const AGENTS = 3;
const QUESTION = 'What is the capital of France? Answer in one short sentence.';

type Of<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

/** Words of model text as the page shows them after markdown (letters and digits only). */
const words = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

describeInChromium('real model: the vote viewer shows a real SmolLM2 team run', function () {
  this.timeout(20 * 60_000);
  const suite = cliSuite(work);
  const rig = useViewerRig();
  let server: LlamaServer | undefined;
  let proxy: ToolForcingProxy | undefined;

  before(async () => {
    server = await startLlamaServer();
    proxy = await startToolForcingProxy(server);
  });
  after(async () => {
    await proxy?.close();
    await server?.close();
  });

  it('answers, the tally, the winner and the end reason of the recorded run appear in the page', async () => {
    const config = writeRealTeam(work, { origin: proxy!.origin, model: server!.model }, { agents: AGENTS, maxTokens: 128, answersPerAgent: 1, runSeconds: 600, turnSeconds: 240, maxCalls: 30 });
    const logDir = join(work, 'logs');
    const r = await timed(`team run, ${AGENTS} agents`, () => runCli(suite.cli, ['run', '--automation', '--config', config, '--log-dir', logDir, QUESTION], { cwd: work, env: { TMPDIR: mkdtempSync(join(work, 'tmp-')) } }));
    const output = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
    assertNoStackTrace(r.stdout + r.stderr, 'the CLI output');
    const events = readJsonl(join(logDir, 'events.jsonl')) as unknown as RunEvent[];
    const end = events.find((e): e is Of<'run_ended'> => e.type === 'run_ended');
    assert.ok(end && END_REASONS.includes(end.reason), `the run ended for a named reason\n${output}`);
    const answers = events.filter((e): e is Of<'answer_added'> => e.type === 'answer_added');
    const votes = events.filter((e): e is Of<'vote_cast'> => e.type === 'vote_cast');
    const winner = events.find((e): e is Of<'winner_selected'> => e.type === 'winner_selected');
    console.log(`      [run] end ${end.reason}, ${answers.length} answer(s), ${votes.length} vote(s), winner ${winner?.label ?? 'none'}, ${events.length} events`);
    // Without an answer there is nothing of the model's to show: the run itself is then the finding.
    assert.ok(answers.length > 0, `the real team wrote at least one answer\n${output}`);

    const h = await rig.harness();
    const run = h.source.start('real-run', QUESTION, events.slice(0, 1), QUESTION);
    await replay(run, events.slice(1));
    const p = await rig.open(h, { theme: 'dark', surface: 'panel', height: 1100 });
    const page = p.page;

    // A column per agent; each answer version under its agent, with the model's words.
    assert.equal(await page.locator('.agent').count(), AGENTS);
    for (const a of answers) {
      const version = page.locator(`.agent[data-agent="${a.agentId}"] details.answer[data-label="${a.label}"]`);
      assert.equal(await version.count(), 1, `${a.label} is shown under ${a.agentId}`);
      if ((await version.getAttribute('open')) === null) await version.locator('summary').click();
      await p.settle();
      const shown = words(await version.locator('.answer-body').innerText()).join(' ');
      const wrote = words(a.content).slice(0, 12).join(' ');
      assert.ok(shown.includes(wrote), `${a.label}'s text is shown: wrote "${wrote}", shown "${shown.slice(0, 200)}"`);
    }

    // The tally: a row per agent's latest answer, the engine's counts, the winner highlighted.
    const latest = new Map(answers.map((a) => [a.agentId, a.label]));
    const rows = page.locator('.tally-row');
    assert.deepEqual((await rows.locator('.tally-label').allInnerTexts()).sort(), [...latest.values()].sort());
    if (winner) {
      assert.equal(await page.locator('.tally-row.winner .tally-label').innerText(), winner.label);
      if (winner.basis === 'current_votes') {
        // The engine counts votes per agent (its latest answer).
        for (const [agentId, label] of latest) {
          const count = await page.locator('.tally-row', { has: page.locator('.tally-label', { hasText: label }) }).locator('.tally-count').innerText();
          assert.equal(Number(count), winner.votes[agentId] ?? 0, `${label}'s vote count as the engine tallied it`);
        }
      }
      assert.match(await page.locator('.result .result-winner').innerText(), new RegExp(`Winner ${winner.label.replace('.', '\\.')} \\(${winner.agentId}\\)`));
    }
    assert.ok((await page.locator('.result .end-reason').innerText()).trim().length > 0, 'the end reason is shown');
    assert.equal(await page.locator('.timeline-grid .tl-answer').count(), answers.length, 'an answer mark per answer on the timeline');
    assert.equal(await page.locator('.timeline-grid .tl-vote').count(), votes.length, 'a vote mark per vote');
    assert.deepEqual(await p.cspViolations(), []);
    assert.deepEqual(p.pageErrors, []);

    mkdirSync(SHOTS, { recursive: true });
    await p.settle();
    await page.screenshot({ path: join(SHOTS, 'viewer-real-run.png'), fullPage: true });
  });
});

// The vote viewer in real Chromium showing a real run: a team of SmolLM2-135M agents on the real llama-server runs
// through the `massgen` CLI, and its recorded events (<log dir>/events.jsonl) are replayed into the viewer through
// the real host hub, as the webview tests replay scripted runs. The page must show each answer the model wrote,
// the tally as the engine counted it, the winner and the end reason; the screenshot is kept in test-artifacts/.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import type { RunEvent } from '../../src/core/engine/events';
import { NEW_ANSWER } from '../../src/core/engine/tool-names';
import { MAX_NESTING } from '../../webview/markdown';
import { cliSuite, readJsonl, runCli } from '../helpers/cli';
import { describeInChromium, replay, ROOT, useViewerRig } from '../webview/harness';
import { useForcedServer } from './lib/forced-server';
import { assertNamedEnd } from './lib/outcome';
import { asToolCall, replyText, reportedUsage, startRecordingProxy, toolCallArguments } from './lib/recording-proxy';
import { agentOf, writeTeamConfig } from './lib/team-config';
import { timed } from './lib/timed';

const work = mkdtempSync(join(tmpdir(), 'massgen-real-viewer-'));
const SHOTS = join(ROOT, 'test-artifacts', 'real-model');
const AGENTS = ['a', 'b', 'c'];
const RUN_SECONDS = 600;
const QUESTION = 'What is the capital of France? Answer in one short sentence.';

type Of<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

/** Words of text (letters and digits only). */
const words = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/** Whether `part` appears in `whole` in order (other words may come between). */
const inOrder = (part: string[], whole: string[]) => {
  let next = 0;
  for (const w of whole) if (next < part.length && w === part[next]) next++;
  return next === part.length;
};

/** Markdown as the viewer parses it (webview/markdown.ts: markdown-it with these options), as HTML. */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false, maxNesting: MAX_NESTING });

/** What the model wrote in a reply: its text, or else the string values of its tool call's arguments. */
function modelWords(events: Parameters<typeof replyText>[0]): string {
  const text = replyText(events).trim();
  if (text) return text;
  const args = toolCallArguments(events);
  try {
    const values = Object.values(JSON.parse(args) as Record<string, unknown>).filter((v): v is string => typeof v === 'string');
    if (values.join('').trim()) return values.join('\n').trim();
  } catch {
    // not JSON (cut or malformed): the arguments as written
  }
  return args.trim();
}

describeInChromium('real model: the vote viewer shows a real SmolLM2 team run', function () {
  this.timeout(20 * 60_000);
  const suite = cliSuite(work);
  const rig = useViewerRig();
  const forced = useForcedServer();

  it('answers, the tally, the winner and the end reason of the recorded run appear in the page', async () => {
    // Forced calls cut at max_tokens fail on the server (HTTP 500), so the team may write no answer by itself: the
    // first whole reply, whoever's it is, is made a valid new_answer of what the model wrote in it.
    let answerFor: string | undefined;
    const recorder = await startRecordingProxy(forced().proxy.origin, {
      rewrite: () =>
        answerFor
          ? undefined
          : ({ request, events }) => {
              if (answerFor || !reportedUsage(events)) return undefined;
              answerFor = agentOf(request);
              return asToolCall(events, NEW_ANSWER, JSON.stringify({ content: modelWords(events) || 'Paris is the capital of France.' }));
            },
    });
    const config = writeTeamConfig(work, 'viewer-team', {
      api: 'openai',
      origin: recorder.origin,
      agents: AGENTS,
      maxTokens: 128,
      timeoutSeconds: RUN_SECONDS,
      turnTimeoutSeconds: 240,
      orchestrator: { max_new_answers_per_agent: 1, budget: { max_calls: 30 } },
    });
    const logDir = join(work, 'logs');
    const r = await timed(`team run, ${AGENTS.length} agents`, () =>
      runCli(suite.cli, ['run', '--config', config, '--log-dir', logDir, QUESTION], { cwd: work, env: { TMPDIR: mkdtempSync(join(work, 'tmp-')) }, guardMs: (RUN_SECONDS + 60) * 1000 }),
    ).finally(() => recorder.close());
    const output = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
    assert.notEqual(r.code, null, `the CLI did not end within its own bound and was killed\n${output}`);
    assertNamedEnd(r, logDir);
    const events = readJsonl(join(logDir, 'events.jsonl')) as unknown as RunEvent[];
    const end = events.find((e): e is Of<'run_ended'> => e.type === 'run_ended');
    assert.ok(end, `a run_ended event\n${output}`);
    const answers = events.filter((e): e is Of<'answer_added'> => e.type === 'answer_added');
    const votes = events.filter((e): e is Of<'vote_cast'> => e.type === 'vote_cast');
    const winner = events.find((e): e is Of<'winner_selected'> => e.type === 'winner_selected');
    console.log(`      [run] end ${end.reason}, ${answers.length} answer(s), ${votes.length} vote(s), winner ${winner?.label ?? 'none'}, ${events.length} events`);
    // The answer given is on the board (or an equal one already was), unless no reply ever came whole (the failures
    // are then shown) or the run was stopped first.
    if (answerFor && end.reason !== 'timeout' && end.reason !== 'budget') assert.ok(answers.length > 0, `agent ${answerFor}'s new_answer was not taken\n${output}`);

    const h = await rig.harness();
    const run = h.source.start('real-run', QUESTION, events.slice(0, 1), QUESTION);
    await replay(run, events.slice(1));
    const p = await rig.open(h, { theme: 'dark', surface: 'panel', height: 1100 });
    const page = p.page;

    // A column per agent; each answer version under its agent, with the model's words as the viewer's markdown
    // renders them (the page's own text, so lists, links, HTML and entities read the same on both sides).
    assert.equal(await page.locator('.agent').count(), AGENTS.length);
    for (const a of answers) {
      const version = page.locator(`.agent[data-agent="${a.agentId}"] details.answer[data-label="${a.label}"]`);
      assert.equal(await version.count(), 1, `${a.label} is shown under ${a.agentId}`);
      if ((await version.getAttribute('open')) === null) await version.locator('summary').click();
      await p.settle();
      const shown = words((await version.locator('.answer-body').textContent()) ?? '');
      const rendered = await page.evaluate((html) => {
        const t = document.createElement('template');
        t.innerHTML = html;
        return t.content.textContent ?? '';
      }, md.render(a.content));
      const wrote = words(rendered).slice(0, 12);
      assert.ok(inOrder(wrote, shown), `${a.label}'s text is shown: wrote "${wrote.join(' ')}", shown "${shown.join(' ').slice(0, 200)}"`);
    }
    if (answers.length === 0) {
      // A run without an answer: it is shown as failed, with each failed agent's error.
      assert.equal(await page.locator('.result.failed').count(), 1, 'the run is shown as failed');
      for (const f of events.filter((e): e is Of<'agent_failed'> => e.type === 'agent_failed')) {
        const error = page.locator(`.agent[data-agent="${f.agentId}"] .agent-error`);
        assert.ok(await error.isVisible(), `agent ${f.agentId}'s failure is shown`);
        assert.ok((await error.innerText()).trim().length > 0, `agent ${f.agentId}'s failure is said`);
      }
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

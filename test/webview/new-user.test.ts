// What a new user saw in the vote viewer (issue 27), in real Chromium: agents named by the user's ids first, one cost
// wording for unpriced models, runs that say Cancelled / Failed / Done with their own icons and colours, proper
// plurals, long model names in a narrow sidebar, a long timeline that keeps its start, the start page without a chat
// model, the run waiting for the checks answer, and a viewer showing an older run offering the latest.

import assert from 'node:assert/strict';
import type { RunEvent, RunEventBody } from '../../src/core/engine/events';
import { MAX_TIMELINE } from '../../src/protocol/state';
import { eventually } from '../helpers/eventually';
import { describeInChromium, replay, useViewerRig, type FakeRun, type Harness, type ViewerPage } from './harness';

const LONG_MODEL = 'accounts/fireworks/models/llama-v3p1-405b-instruct-long-context-preview-2026';

/** Events with seq and t filled in, from the given seq on. */
function events(bodies: RunEventBody[], from = 1): RunEvent[] {
  return bodies.map((b, i) => ({ ...b, seq: from + i, t: (from + i) * 100 }) as RunEvent);
}

/** Two agents on unpriced models: `claude` (label agent1, a long model name) and `agent2` (its id is its label). */
const started: RunEventBody = {
  type: 'run_started',
  runId: 'r',
  question: 'Fix the bug',
  agents: [
    { id: 'claude', label: 'agent1', model: LONG_MODEL, provider: 'openai-compatible', priced: false },
    { id: 'agent2', label: 'agent2', model: 'qwen', provider: 'openai-compatible', priced: false },
  ],
  startedAt: '2026-12-02T08:00:00.000Z',
  finalAnswerMode: 'as_is',
};
const streaming: RunEventBody[] = [
  started,
  { type: 'round_started', round: 1, agentIds: ['claude', 'agent2'] },
  { type: 'turn_started', agentId: 'claude', round: 1, boardRevision: 0, voteOnly: false },
  { type: 'turn_started', agentId: 'agent2', round: 1, boardRevision: 0, voteOnly: false },
  { type: 'text_delta', agentId: 'claude', text: 'Looking at the parser first.' },
];
const unpriced = (agentId: string): RunEventBody => ({ type: 'usage', agentId, usage: { inputTokens: 900, cachedInputTokens: 0, outputTokens: 100 }, costUsd: null, phase: 'coordination' });
const failed: RunEventBody[] = [
  unpriced('claude'),
  { type: 'agent_failed', agentId: 'claude', error: '500 Internal Server Error', cause: 'provider' },
  { type: 'agent_failed', agentId: 'agent2', error: '500 Internal Server Error', cause: 'provider' },
  { type: 'run_ended', reason: 'all_failed', winnerId: null, durationMs: 4000, error: 'Every agent failed.' },
];
const won: RunEventBody[] = [
  unpriced('claude'),
  { type: 'answer_added', agentId: 'claude', label: 'agent1.1', version: 1, content: 'Fixed: the parser checks its input.', boardRevision: 1 },
  unpriced('agent2'),
  { type: 'vote_cast', vote: { voterId: 'agent2', targetId: 'claude', targetLabel: 'agent1.1', reason: 'It is right.', seenRevision: 1 } },
  { type: 'vote_cast', vote: { voterId: 'claude', targetId: 'claude', targetLabel: 'agent1.1', reason: 'Mine is right.', seenRevision: 1 } },
  { type: 'winner_selected', agentId: 'claude', label: 'agent1.1', votes: { claude: 2 }, tieBreak: false, basis: 'current_votes' },
  { type: 'final_answer', agentId: 'claude', label: 'agent1.1', content: 'Fixed: the parser checks its input.', mode: 'as_is' },
  { type: 'run_ended', reason: 'consensus', winnerId: 'claude', durationMs: 6000 },
];
const cancelled: RunEventBody[] = [{ type: 'run_ended', reason: 'cancelled', winnerId: null, durationMs: 3000 }];

const text = (p: ViewerPage, selector: string) => p.page.locator(selector).first().innerText();

/** The header's phase: its text, icon and the icon's colour, once it matches `re`. */
async function phase(p: ViewerPage, re: RegExp): Promise<{ text: string; icon: string; color: string }> {
  return eventually(async () => {
    const got = await p.page.locator('.run-header .phase').evaluate((el) => {
      const icon = el.querySelector('.codicon')!;
      return { text: (el as HTMLElement).innerText.trim(), icon: Array.from(icon.classList).find((c) => c.startsWith('codicon-')) ?? '', color: getComputedStyle(icon).color };
    });
    return re.test(got.text) && got;
  }, { what: `the phase to match ${re}` });
}

/** The runs list's rows: the title, the meta line and the icon. */
function runRows(p: ViewerPage): Promise<{ title: string; meta: string; icon: string; color: string }[]> {
  return p.page.locator('.run-item').evaluateAll((els) =>
    els.map((el) => {
      const icon = el.querySelector('.codicon')!;
      return {
        title: (el.querySelector('.run-item-title') as HTMLElement).innerText,
        meta: (el.querySelector('.run-item-meta') as HTMLElement).innerText,
        icon: Array.from(icon.classList).find((c) => c.startsWith('codicon-')) ?? '',
        color: getComputedStyle(icon).color,
      };
    }),
  );
}

async function startRun(h: Harness, id: string, title: string, bodies: RunEventBody[]): Promise<FakeRun> {
  const all = events(bodies);
  const run = h.source.start(id, title, all.slice(0, 1));
  await replay(run, all.slice(1));
  return run;
}

describeInChromium('vote viewer: what a new user hits (issue 27)', function () {
  this.timeout(90_000);
  const { harness, open } = useViewerRig();

  it('names agents by the user\'s ids first, the anonymous label as a tag (once); a long model name wraps in a narrow sidebar', async () => {
    const h = await harness();
    await startRun(h, 'run-names', 'Fix the bug', streaming);
    const p = await open(h, { theme: 'dark', width: 300, height: 800 });
    const heads = await p.page.locator('.agent .agent-name').allInnerTexts();
    assert.deepEqual(heads.map((t) => t.replace(/\s+/g, ' ').trim()), ['claude agent1', 'agent2']);
    assert.deepEqual(await p.page.locator('.agent .agent-tag').allInnerTexts(), ['agent1'], 'the label only where it differs from the id');
    const rows = await p.page.locator('.roster-row').allInnerTexts();
    assert.match(rows[0].replace(/\s+/g, ' '), /^claude agent1 /);
    assert.match(rows[1].replace(/\s+/g, ' '), /^agent2 (?!agent2)/);
    const model = await p.page.locator('.agent[data-agent="claude"] .agent-model').evaluate((el) => ({ text: el.textContent, clipped: el.scrollWidth > el.clientWidth, height: el.clientHeight }));
    assert.ok(model.text?.includes(LONG_MODEL), model.text ?? '');
    assert.equal(model.clipped, false, 'the whole model name is shown');
    assert.ok(model.height > 20, `it wraps onto more lines: ${model.height}px`);
    await p.screenshot('new-user-names-narrow');
  });

  it('unpriced models read "cost unknown" while streaming, after a failure and after success; no "(s)" anywhere', async () => {
    const h = await harness();
    const run = await startRun(h, 'run-cost', 'Fix the bug', streaming);
    const p = await open(h, { theme: 'light' });
    await eventually(async () => /Looking at the parser/.test(await text(p, '.agent[data-agent="claude"]')), { what: 'the stream' });
    assert.match(await text(p, '.run-header .usage'), /cost unknown/, 'while streaming, before any call finished');
    assert.doesNotMatch(await text(p, '.run-header .usage'), /\$0/);
    await replay(run, events(won, streaming.length + 1));
    await phase(p, /^Done/);
    assert.match(await text(p, '.run-header .usage'), /cost unknown/, 'after success');
    assert.match(await p.page.locator('.run-header .usage').getAttribute('title') ?? '', /\n2 calls\n/);
    assert.match(await text(p, '.agent[data-agent="claude"] .agent-usage'), /cost unknown · 1 call$/);
    const failedRun = await startRun(h, 'run-cost-failed', 'Fix it again', [...streaming, ...failed]);
    const f = await open(h, { theme: 'light', state: { runId: failedRun.id, follow: false } });
    await phase(f, /^Failed/);
    assert.match(await text(f, '.run-header .usage'), /cost unknown/, 'after a failure');
    for (const row of await runRows(f)) assert.match(row.meta, /cost unknown/, row.meta);
    const words = await f.page.evaluate(() => [document.body.innerText, ...Array.from(document.querySelectorAll('[title], [aria-label]')).flatMap((e) => [e.getAttribute('title') ?? '', e.getAttribute('aria-label') ?? ''])].join('\n'));
    assert.doesNotMatch(words, /\w\(s\)/, 'proper singulars and plurals');
  });

  it('the header and the runs list say Cancelled, Failed (all agents failed) and Done, each with its own icon and colour', async () => {
    const h = await harness();
    await startRun(h, 'run-done', 'The one that worked', [...streaming, ...won]);
    await startRun(h, 'run-failed', 'The one that failed', [...streaming, ...failed]);
    await startRun(h, 'run-cancelled', 'The one I cancelled', [...streaming, ...cancelled]);
    const seen: Record<string, { text: string; icon: string; color: string }> = {};
    for (const [id, re] of [['run-done', /^Done · Consensus$/], ['run-failed', /^Failed \(all agents failed\)$/], ['run-cancelled', /^Cancelled$/]] as const) {
      const p = await open(h, { theme: 'dark', state: { runId: id, follow: false } });
      seen[id] = await phase(p, re);
      await p.screenshotOf(`new-user-phase-${id}`, '.run-header');
    }
    assert.deepEqual(Object.values(seen).map((s) => s.icon), ['codicon-pass', 'codicon-error', 'codicon-circle-slash']);
    assert.equal(new Set(Object.values(seen).map((s) => s.color)).size, 3, `three colours: ${JSON.stringify(seen)}`);
    const rows = await runRows((await open(h, { theme: 'dark' })));
    const byTitle = Object.fromEntries(rows.map((r) => [r.title, r]));
    assert.match(byTitle['The one that worked'].meta, /Done · Consensus · winner agent1\.1 · 2 agents/);
    assert.match(byTitle['The one that failed'].meta, /Failed \(all agents failed\)/);
    assert.match(byTitle['The one I cancelled'].meta, /Cancelled/);
    assert.deepEqual([byTitle['The one that worked'].icon, byTitle['The one that failed'].icon, byTitle['The one I cancelled'].icon], ['codicon-pass', 'codicon-error', 'codicon-circle-slash']);
    assert.equal(new Set(rows.map((r) => r.color)).size, 3, `three colours in the list: ${JSON.stringify(rows)}`);
  });

  it('a long run\'s timeline keeps its first events reachable and says how many in between are not kept', async () => {
    const h = await harness();
    const rounds = MAX_TIMELINE + 40;
    const bodies: RunEventBody[] = [started, ...Array.from({ length: rounds }, (_, i): RunEventBody => ({ type: 'round_started', round: i + 1, agentIds: ['claude', 'agent2'] }))];
    await startRun(h, 'run-long', 'A long run', bodies);
    const p = await open(h, { theme: 'dark' });
    const labels = await eventually(async () => {
      const l = await p.page.locator('.timeline-grid .tl-round').allInnerTexts();
      return l.at(-1) === `R${rounds}` && l;
    }, { what: 'the newest round on the timeline' });
    assert.equal(labels[0], 'R1', 'the first round is still there');
    assert.equal(labels.length, MAX_TIMELINE);
    assert.match(await text(p, '.timeline-grid .tl-gap'), /… 40 …/);
    assert.equal(await p.page.locator('.timeline-grid .tl-gap').getAttribute('aria-label'), '40 events not kept');
    // Scrolled back to its start, the first round is in view.
    const shown = await p.page.evaluate(() => {
      const scroller = document.querySelector('.timeline-scroll') as HTMLElement;
      scroller.scrollLeft = 0;
      const first = document.querySelector('.timeline-grid .tl-round')!.getBoundingClientRect();
      const box = scroller.getBoundingClientRect();
      return first.left >= box.left && first.right <= box.right;
    });
    assert.equal(shown, true);
  });

  it('without a chat model, the start page leads with what works; with one, with the chat', async () => {
    const h = await harness();
    const primary = (p: ViewerPage) => p.page.locator('.empty vscode-button:not([secondary])').allInnerTexts();
    h.services.setupValue = { source: 'settings', from: 'massgen.agents in your User settings', agents: [{ id: 'fast', provider: 'openai', model: 'gpt-4.1-mini' }], problem: null, chatModel: false };
    await h.hub.setupChanged();
    const p = await open(h, { theme: 'light' });
    assert.deepEqual(await primary(p), ['Run on Selection']);
    const page = await text(p, '.empty');
    assert.doesNotMatch(page, /Ask @massgen in Chat/);
    assert.match(page, /@massgen in the Chat view needs a VS Code chat model/);
    await p.screenshot('new-user-start-no-chat-model');
    h.services.setupValue = { source: 'chat-models', from: 'your VS Code chat models', agents: [], problem: { text: 'No VS Code chat models are available.', fix: 'settings' }, chatModel: false };
    await h.hub.setupChanged();
    await eventually(async () => (await primary(p))[0] === 'Configure agents…', { what: 'Configure agents first' });
    assert.equal(await p.page.getByRole('button', { name: 'Configure agents…' }).count(), 1, 'the fix once, not twice');
    h.services.setupValue = { ...h.services.setupValue, agents: [{ id: 'gpt-4o', provider: 'vscode-lm', model: 'copilot/gpt-4o' }], problem: null, chatModel: true };
    await h.hub.setupChanged();
    await eventually(async () => (await primary(p))[0] === 'Ask @massgen in Chat', { what: 'the chat first again' });
  });

  it('a run waiting for the checks answer shows at once instead of the last run; its buttons go once settled, the card once started', async () => {
    const h = await harness();
    await startRun(h, 'run-before', 'The previous run', [...streaming, ...won]);
    const p = await open(h, { theme: 'dark', width: 320, height: 700 });
    await phase(p, /^Done/);
    const answers: boolean[] = [];
    const card = h.source.pending.ask({ title: 'Add input validation (app)', command: 'npm test', why: 'package.json\'s test script (“node test.js”)' }, (use) => answers.push(use));
    await eventually(async () => (await p.page.locator('.pending-run').count()) === 1, { what: 'the pending run' });
    assert.match(await text(p, '.pending-run'), /Add input validation \(app\)[\s\S]*Waiting for your answer about checks[\s\S]*npm test/);
    assert.equal(await p.page.locator('.run-header').isVisible(), false, 'the previous run is not shown meanwhile');
    await p.screenshot('new-user-pending-checks');
    await p.page.getByRole('button', { name: 'Use npm test as a check' }).click();
    await eventually(() => answers.length === 1, { what: 'the answer at the host' });
    assert.deepEqual(answers, [true]);
    card.settled();
    await eventually(async () => /Starting the run…/.test(await text(p, '.pending-run')), { what: 'the card to say the run starts' });
    assert.equal(await p.page.locator('.pending-run vscode-button').count(), 0, 'no buttons once settled');
    await startRun(h, 'run-next', 'Add input validation (app)', streaming);
    card.dispose();
    await eventually(async () => (await p.page.locator('.pending-run').count()) === 0 && (await p.page.locator('.run-header').isVisible()), { what: 'the new run instead of the card' });
    assert.match(await text(p, '.run-title'), /Add input validation \(app\)/);
  });

  it('a run still going stays in sight under the checks card until it ends; then the card takes its place', async () => {
    const h = await harness();
    const run = await startRun(h, 'run-live', 'The live run', streaming);
    const p = await open(h, { theme: 'dark', width: 320, height: 700 });
    const card = h.source.pending.ask({ title: 'Add input validation (app)', command: 'npm test', why: 'package.json\'s test script (“node test.js”)' }, () => undefined);
    await eventually(async () => (await p.page.locator('.pending-run').count()) === 1, { what: 'the pending run' });
    assert.equal(await p.page.locator('.run-header').isVisible(), true, 'the live run is not hidden by the card');
    assert.match(await text(p, '.run-header .run-title'), /The live run/);
    await replay(run, events(won, streaming.length + 1));
    await eventually(async () => !(await p.page.locator('.run-header').isVisible()), { what: 'the finished run to give the card its place' });
    card.dispose();
  });

  it('a viewer showing an older run says which run it is and offers the latest once a newer one exists, finished or not', async () => {
    const h = await harness();
    await startRun(h, 'run-old', 'The older run', [...streaming, ...won]);
    const p = await open(h, { theme: 'dark', surface: 'panel', state: { runId: 'run-old', follow: false } });
    assert.match(await text(p, '.run-when'), /^Started \d{4}-\d\d-\d\d \d\d:\d\d$/);
    assert.equal(await p.page.locator('.banner.newer').isVisible(), false);
    const newer = events([{ ...started, startedAt: '2026-12-02T09:00:00.000Z' } as RunEventBody, ...streaming.slice(1), ...won]);
    const run = h.source.start('run-new', 'The newer run', newer.slice(0, 1));
    await replay(run, newer.slice(1));
    await eventually(async () => (await p.page.locator('.banner.newer').isVisible()) && /A newer run finished: The newer run\./.test(await text(p, '.banner.newer')), { what: 'the newer run, finished, offered' });
    await p.page.locator('.banner.newer').getByRole('button', { name: 'Show the latest run' }).click();
    await eventually(async () => /The newer run/.test(await text(p, '.run-title')), { what: 'the latest run shown' });
    assert.match(await text(p, '.run-when'), /· the latest run$/);
    assert.equal(await p.page.locator('.banner.newer').isVisible(), false);
  });
});

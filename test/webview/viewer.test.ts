// The vote viewer bundle in real headless Chromium, fed by the real host hub replaying recorded engine runs: DOM
// assertions, hostile model output, the snapshot/delta protocol across a lost delta and a reload, keyboard and
// ARIA, reduced motion, and screenshots in light, dark and high-contrast themes (test-artifacts/screenshots/).

import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import type { RunEvent, RunEventBody } from '../../src/core/engine/events';
import { reduceEvents } from '../../src/core/engine/run-state';
import { RunHistory } from '../../src/host/viewer/history';
import { COLUMNS_PER_FRAME } from '../../webview/scheduler';
import { describeInChromium, MemoryFs, replay, useViewerRig, ViewerPage } from './harness';
import { bigRun, fullRun, hostileRun, midRun, tieRun } from './scenarios';
import type { ThemeName } from './themes';
import { eventually } from '../helpers/eventually';

const THEMES: ThemeName[] = ['light', 'dark'];

/** The locator's text once it matches (the page repaints on its own schedule). textContent, not innerText: a
 * column scrolled out of view is not rendered (content-visibility), so it has no innerText. */
async function textMatching(locator: Locator, re: RegExp): Promise<string> {
  return eventually(async () => {
    const text = (await locator.textContent()) ?? '';
    return re.test(text) && text;
  }, { what: `text matching ${re}` });
}

/** Waits until the page's clicks have reached the host as `count` commands (they go through postMessage). */
const hostCommands = (h: { services: { commands: unknown[] } }, count: number) => eventually(() => h.services.commands.length >= count, { what: `${count} commands at the host` });

describeInChromium('vote viewer in Chromium', function () {
  this.timeout(90_000);
  const rig = useViewerRig();
  const { harness, open, pages } = rig;
  let full: RunEvent[];
  let tie: RunEvent[];
  let hostile: RunEvent[];
  let mid: RunEvent[];

  before(async () => {
    [full, tie, hostile, mid] = await Promise.all([fullRun(), tieRun(), hostileRun(), midRun().then((m) => m.events)]);
  });

  async function assertClean(p: ViewerPage): Promise<void> {
    assert.deepEqual(await p.cspViolations(), [], 'no CSP violations');
    assert.deepEqual(p.pageErrors, [], 'no page errors');
  }

  it('start page: what MassGen is, how to start, the next run\'s team and where it is set; its buttons ask the host', async () => {
    const h = await harness();
    h.services.setupValue = {
      source: 'chat-models',
      from: 'your VS Code chat models',
      agents: ['reviewer', 'engineer', 'creative'].map((p) => ({ id: `gpt-4o-${p}`, provider: 'vscode-lm', model: 'copilot/gpt-4o' })),
      problem: null,
    };
    await h.hub.setupChanged();
    for (const theme of THEMES) {
      const p = await open(h, { theme });
      const text = await p.page.locator('.empty').innerText();
      assert.match(text, /Several AI agents work on your task in parallel/);
      assert.match(text, /Run on Selection/);
      assert.match(text, /@massgen/);
      assert.match(text, /From your VS Code chat models:/);
      assert.match(text.replace(/\s+/g, ' '), /gpt-4o-reviewer copilot\/gpt-4o · vscode-lm/);
      await p.screenshot(`empty-view-${theme}`);
      await assertClean(p);
    }
    h.services.setupValue = {
      source: 'settings',
      from: 'massgen.agents in your User settings',
      agents: [{ id: 'fast', provider: 'openai', model: 'gpt-4.1-mini' }, { id: 'agent2', provider: 'anthropic', model: 'claude-haiku-4-5' }],
      problem: { text: 'Agent \'fast\' needs OPENAI_API_KEY.', fix: 'setApiKey', envVar: 'OPENAI_API_KEY' },
    };
    await h.hub.setupChanged();
    const p = pages[pages.length - 1];
    await p.settle();
    const agents = await p.page.locator('.setup-agents li').allInnerTexts();
    assert.deepEqual(agents.map((t) => t.replace(/\s+/g, ' ').trim()), ['fast gpt-4.1-mini · openai', 'agent2 claude-haiku-4-5 · anthropic']);
    assert.match(await p.page.locator('.setup-source').innerText(), /From massgen\.agents in your User settings/);
    assert.match(await p.page.locator('.setup-problem').innerText(), /needs OPENAI_API_KEY/);
    await p.screenshot('empty-view-missing-key');
    await p.page.getByRole('button', { name: 'Ask @massgen in Chat' }).click();
    await p.page.getByRole('button', { name: 'Run on the current selection' }).click();
    await p.page.getByRole('button', { name: 'Set API Key…' }).click();
    await p.page.getByRole('button', { name: 'Configure agents…' }).click();
    await p.settle();
    await hostCommands(h, 4);
    assert.deepEqual(h.services.commands, [
      ['workbench.action.chat.open', { query: '@massgen ', isPartialQuery: true }],
      ['massgen.runOnSelection'],
      ['massgen.setApiKey', 'OPENAI_API_KEY'],
      ['workbench.action.openSettings', 'massgen.agents'],
    ]);
  });

  it('a finished run: columns, badges, answer versions, critiques with stale votes, tally, timeline, result and actions', async () => {
    const h = await harness();
    h.services.applyStates.set('run-full', { kind: 'selection', status: 'ready', target: 'src/config.ts' });
    const run = h.source.start('run-full', 'Refactor parseConfig() in src/config.ts', full.slice(0, 1));
    await replay(run, full.slice(1));
    const state = reduceEvents(full);
    for (const theme of [...THEMES, 'hc'] as ThemeName[]) {
      const p = await open(h, { theme, surface: 'panel' });
      await p.screenshot(`finished-panel-${theme}`);
      await assertClean(p);
    }
    const p = pages[0];
    const page = p.page;
    // Header
    assert.match(await page.locator('.phase').innerText(), /Done · Consensus/);
    assert.match(await page.locator('.run-header .usage').innerText(), /tokens · ≥ \$/);
    assert.equal(await page.locator('.cancel-run').isVisible(), false, 'no Cancel once done');
    assert.equal(await page.locator('.meter-row').count(), 2, 'cost and tokens budgets');
    // Columns: one per agent, with name, model, badge and usage.
    const columns = page.locator('.agent');
    assert.equal(await columns.count(), 5);
    const heads = await page.locator('.agent .agent-name').allInnerTexts();
    // The user's id first, the anonymous label after it as a tag.
    assert.deepEqual(heads.map((t) => t.replace(/\s+/g, ' ')), state.agents.map((a) => `${a.id} ${a.label}`));
    const badges = await page.locator('.agent .badge-text').allInnerTexts();
    assert.deepEqual(badges, ['voted', 'voted', 'voted', 'failed', 'voted']);
    assert.match(await page.locator('.agent[data-agent="security-auditor"] .agent-error').innerText(), /500 Internal Server Error/);
    assert.match(await page.locator('.agent[data-agent="careful-reviewer"] .tools').innerText(), /read_file\s+path: "src\/config.ts"/);
    // Answer versions, the latest open; critiques under the version they judged, stale ones struck through.
    const b = page.locator('.agent[data-agent="pragmatic-engineer"]');
    assert.deepEqual(await b.locator('.answer-label').allInnerTexts(), ['agent2.1', 'agent2.2']);
    assert.equal(await b.locator('details.answer[data-label="agent2.2"]').getAttribute('open'), '');
    assert.equal(await b.locator('details.answer[data-label="agent2.1"]').getAttribute('open'), null);
    assert.match(await b.locator('details.answer[data-label="agent2.2"] .answer-body').innerText(), /keep JSON errors apart/);
    assert.equal(await b.locator('[data-label="agent2.2"] .critique').count(), 4);
    const stale = b.locator('[data-label="agent2.1"] .critique.stale');
    assert.equal(await stale.count(), 2);
    assert.equal(await stale.first().locator('s.critique-reason').count(), 1, 'struck through');
    assert.match(await stale.first().locator('.stale-why').textContent() ?? '', /No longer counts: new answer agent2.2/);
    assert.match(await b.locator('[data-label="agent2.1"] .answer-stale').innerText(), /2 stale/);
    // Opening an older version renders it on demand.
    await b.locator('[data-label="agent2.1"] summary').click();
    await b.locator('[data-label="agent2.1"] .answer-body p').first().waitFor();
    assert.match(await b.locator('[data-label="agent2.1"] .answer-body').innerText(), /safeParse/);
    // Tally: the winner highlighted with its voters.
    const winner = page.locator('.tally-row.winner');
    assert.equal(await winner.count(), 1);
    assert.match(await winner.innerText(), /agent2\.2[\s\S]*4[\s\S]*from agent1, agent2, agent3, agent5/);
    assert.equal(await page.locator('.tie-break').count(), 0);
    // Timeline: a lane per agent (and the run), with answers, votes, stale votes, restarts, retries, failures.
    assert.equal(await page.locator('.lane-head').count(), 6);
    for (const [kind, n] of [
      ['answer', state.answers.length],
      ['vote', state.votes.length],
      ['stale', 3],
      ['failed', 1],
      ['winner', 1],
    ] as const) {
      assert.equal(await page.locator(`.timeline-grid .tl-${kind}`).count(), n, kind);
    }
    assert.ok((await page.locator('.timeline-grid .tl-restart').count()) >= 1);
    assert.ok((await page.locator('.timeline-grid .tl-retry').count()) >= 1);
    // Answer labels say what they mean on hover.
    assert.equal(await page.locator('details.answer[data-label="agent2.2"] .answer-label').getAttribute('title'), 'agent2.2 = agent2\'s second answer');
    assert.equal(await page.locator('.tally-label', { hasText: 'agent2.2' }).getAttribute('title'), 'agent2.2 = agent2\'s second answer');
    // Result and actions.
    const result = page.locator('.result');
    assert.match(await result.locator('.end-reason').innerText(), /^Consensus$/);
    assert.match(await result.locator('.result-winner').innerText(), /Winner agent2\.2 \(pragmatic-engineer\)/);
    assert.match(await result.locator('.final-answer').innerText(), /keep JSON errors apart/);
    assert.equal(await result.getByRole('button', { name: 'Apply the winner' }).count(), 0, 'no Apply before the diff was shown');
    await result.getByRole('button', { name: 'Review the winner\u2019s diff' }).click();
    await result.getByRole('button', { name: 'Copy the final answer' }).click();
    await result.getByRole('button', { name: 'Open the MassGen log' }).click();
    await hostCommands(h, 2);
    await eventually(() => h.services.copied.length, { what: 'the final answer copied' });
    assert.deepEqual(h.services.commands, [['massgen.previewRun', 'run-full'], ['massgen.showLog']]);
    assert.deepEqual(h.services.copied, [state.finalAnswer!.content]);
    await p.settle();
    assert.match(await page.locator('.notice').innerText(), /copied/);
    // An https link in model output opens through the host.
    await page.locator('.final-answer a', { hasText: 'zod docs' }).click();
    await eventually(() => h.services.opened.length, { what: 'the link opened by the host' });
    assert.deepEqual(h.services.opened, ['https://zod.dev/api#numbers']);
    assert.equal(page.url().endsWith('/panel.html'), true, 'the page did not navigate');
  });

  it('the result follows the winner\'s apply state: review, then Apply or Discard, then Applied with Undo; no code, no Apply', async () => {
    const h = await harness();
    const run = h.source.start('run-apply', 'Refactor parseConfig() in src/config.ts', full.slice(0, 1));
    await replay(run, full.slice(1));
    const p = await open(h, { theme: 'dark' });
    const result = p.page.locator('.result');
    const set = async (apply: Parameters<typeof h.services.applyStates.set>[1]) => {
      h.services.applyStates.set('run-apply', apply);
      h.hub.applyChanged('run-apply');
      await p.settle();
    };
    const buttons = async () => (await result.locator('.apply-actions vscode-button').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))) as string[];
    await set({ kind: 'selection', status: 'previewing', target: 'src/config.ts' });
    assert.deepEqual(await buttons(), ['Apply the winner', 'Discard the winner']);
    await result.getByRole('button', { name: 'Apply the winner' }).click();
    await result.getByRole('button', { name: 'Discard the winner' }).click();
    await set({ kind: 'selection', status: 'applied', target: 'src/config.ts' });
    assert.deepEqual(await buttons(), ['Undo the apply']);
    assert.match(await result.locator('.applied').innerText(), /Applied to src\/config\.ts/);
    await p.screenshotOf('result-applied-dark', '.result-section');
    await result.getByRole('button', { name: 'Undo the apply' }).click();
    await set({ kind: 'selection', status: 'noCode', target: 'src/config.ts', note: 'Nothing to apply to src/config.ts: the winning answer has no typescript code block.' });
    assert.deepEqual(await buttons(), []);
    assert.match(await result.locator('.apply-note').innerText(), /no typescript code block/);
    await set({ kind: 'files', status: 'ready', target: '3 files' });
    assert.deepEqual(await buttons(), ['Review and apply the winner\u2019s changes']);
    await hostCommands(h, 3);
    assert.deepEqual(h.services.commands, [['massgen.applyRun', 'run-apply'], ['massgen.discardWinner', 'run-apply'], ['massgen.undoRun', 'run-apply']]);
    await assertClean(p);
  });

  it('a live run: streaming, thinking, a retry counting down, Cancel, per-agent Cancel, collapsing columns', async () => {
    const h = await harness();
    const cut = mid.length - 30;
    const run = h.source.start('run-live', 'Refactor parseConfig() in src/config.ts', mid.slice(0, 1));
    await replay(run, mid.slice(1, cut));
    const p = await open(h, { theme: 'dark', width: 320 });
    const tailEmittedAt = performance.now();
    await replay(run, mid.slice(cut), 3, 25);
    await p.settle();
    const page = p.page;
    assert.equal(await page.locator('.agent[data-status="streaming"]').count(), 2);
    assert.equal(await page.locator('.agent[data-status="thinking"]').count(), 1);
    const streaming = page.locator('.agent[data-status="streaming"]').first();
    assert.match(await streaming.locator('.output .stream').innerText(), /Result type[\s\S]*zod/);
    assert.equal(await streaming.locator('.output .stream code').count() > 0, true, 'markdown rendered');
    assert.match(await streaming.locator('.agent-usage').innerText(), /· ~\d+ streaming$/, 'live token counts while the call streams');
    const thinking = page.locator('.agent[data-status="thinking"]');
    assert.equal(await thinking.locator('details.reasoning').isVisible(), true);
    assert.equal(await thinking.locator('details.reasoning').getAttribute('open'), null, 'reasoning collapsed');
    const retry = page.locator('.agent .badge.kind-retrying .badge-text');
    const firstText = await textMatching(retry, /retrying in \d+ s/);
    const first = Number(/retrying in (\d+) s/.exec(firstText)?.[1]);
    // The page counts from the retry's time in the run: what was left when the last event came, less the time since
    // (measured, however long the machine took to show it).
    const retryEvent = mid.find((e) => e.type === 'retry' && e.delayMs === 60_000) as Extract<RunEvent, { type: 'retry' }>;
    const leftAtLastEvent = (retryEvent.t + retryEvent.delayMs - mid[mid.length - 1].t) / 1000;
    const since = (performance.now() - tailEmittedAt) / 1000;
    assert.ok(first <= Math.ceil(leftAtLastEvent) && first >= Math.floor(leftAtLastEvent - since), `${first} s left, ${leftAtLastEvent} s at the last event, ${since} s since`);
    // Counts down: a later second shows up (the page's own clock; nothing but time passing makes it change).
    await eventually(async () => Number(/retrying in (\d+) s/.exec(await textMatching(retry, /retrying in \d+ s/))?.[1]) <= first - 1, { what: `the countdown to go below ${first} s` });
    assert.equal(await page.locator('.cancel-run').isVisible(), true);
    assert.match(await page.locator('.phase').innerText(), /Round \d/);
    for (const theme of THEMES) {
      const q = await open(h, { theme, width: 320 });
      await q.screenshot(`live-view-${theme}`);
      const wide = await open(h, { theme, surface: 'panel', width: 1280, height: 1000 });
      await wide.screenshot(`live-panel-${theme}`, false);
      await assertClean(q);
    }
    await page.locator('.cancel-run').click();
    const agentId = await streaming.getAttribute('data-agent');
    await streaming.locator('.agent-cancel').click();
    await eventually(() => run.cancelledAgents.length, { what: 'the agent\'s cancel to reach the host' });
    assert.equal(run.cancelled, true);
    assert.deepEqual(run.cancelledAgents, [agentId]);
    // Collapsing a column is kept in the page state.
    await streaming.locator('.agent-collapse').click();
    assert.equal(await streaming.getAttribute('class'), 'agent collapsed');
    const saved = await page.evaluate(() => (window as unknown as { __savedState: { collapsed: string[] } }).__savedState);
    assert.deepEqual(saved.collapsed, [agentId]);
    await p.screenshot('live-view-collapsed-dark');
    await assertClean(p);
  });

  it('a burst to every column is repainted a few columns per frame, and ends exactly as a full render does', async () => {
    const h = await harness();
    const agents = Array.from({ length: 8 }, (_, i) => ({ id: `agent-${i + 1}`, label: `agent${i + 1}`, model: 'm', provider: 'p', priced: true }));
    let seq = 0;
    const ev = (body: RunEventBody): RunEvent => ({ ...body, seq: ++seq, t: seq }) as RunEvent;
    const run = h.source.start('run-burst', 'Burst', [
      ev({ type: 'run_started', runId: 'run-burst', question: 'Burst', agents, startedAt: '2026-01-02T03:04:05.000Z', finalAnswerMode: 'as_is' }),
      ev({ type: 'round_started', round: 1, agentIds: agents.map((a) => a.id) }),
      ...agents.map((a) => ev({ type: 'turn_started', agentId: a.id, round: 1, boardRevision: 0, voteOnly: false })),
    ]);
    const p = await open(h, { theme: 'dark', surface: 'panel', width: 1600 });
    // The number of columns each rendering callback changed (mutations are delivered after each callback).
    await p.page.evaluate(() => {
      const w = window as unknown as { __touched: number[] };
      w.__touched = [];
      new MutationObserver((records) => {
        const columns = new Set(records.map((r) => (r.target instanceof Element ? r.target : r.target.parentElement)?.closest('.agent')));
        w.__touched.push(columns.size);
      }).observe(document.querySelector('.columns')!, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    // Three bursts to every column: the page renders each in steps; a second page renders the end from a snapshot.
    for (let burst = 1; burst <= 3; burst++) {
      for (const a of agents) run.emit(ev({ type: 'text_delta', agentId: a.id, text: `## ${a.id}, part ${burst}\n\nSome **markdown** and \`code\`.\n\n${'word '.repeat(150)}\n\n- one\n- two\n\ntail ${burst} of ${a.id}` }));
      await p.settle();
    }
    const ends = await p.page.evaluate(() => Array.from(document.querySelectorAll('.agent .output .stream'), (e) => e.textContent ?? ''));
    assert.deepEqual(ends.map((t) => /tail 3 of (\S+)$/.exec(t.trimEnd())?.[1]), agents.map((a) => a.id), 'every column shows its latest text');
    const touched = await p.page.evaluate(() => (window as unknown as { __touched: number[] }).__touched);
    assert.ok(touched.length >= 3 * Math.ceil(8 / COLUMNS_PER_FRAME), `repainted in ${touched.length} steps`);
    assert.ok(Math.max(...touched) <= COLUMNS_PER_FRAME, `columns changed per frame: ${touched.join(', ')}`);
    const columnsHtml = (q: ViewerPage) => q.page.evaluate(() => Array.from(document.querySelectorAll('.agent'), (e) => `${e.querySelector('.agent-usage')!.outerHTML}${e.querySelector('.output')!.outerHTML}`));
    const fresh = await open(h, { theme: 'dark', surface: 'panel', width: 1600 });
    assert.deepEqual(await columnsHtml(p), await columnsHtml(fresh), 'the same DOM as a full render of the final state');
    await assertClean(p);
  });

  it('states the tie-break', async () => {
    const h = await harness();
    const run = h.source.start('run-tie', 'Pick the better data structure', tie.slice(0, 1));
    await replay(run, tie.slice(1));
    const p = await open(h, { theme: 'light', surface: 'panel', width: 900 });
    assert.match(await p.page.locator('.tie-break').innerText(), /Tie between agent1\.1 and agent2\.1 \(1 vote each\): broken by agent order, so agent1\.1 wins\./);
    await p.screenshot('tie-panel-light');
    await assertClean(p);
  });

  it('hostile model output renders inert and readable', async () => {
    const h = await harness();
    const run = h.source.start('run-hostile', 'Hostile', hostile.slice(0, 1));
    await replay(run, hostile.slice(1));
    const p = await open(h, { theme: 'dark', surface: 'panel', width: 1100 });
    const requests: string[] = [];
    p.page.on('request', (r) => requests.push(r.url()));
    const page = p.page;
    // Open every answer so all of them are rendered.
    for (const s of await page.locator('details.answer:not([open]) > summary').all()) await s.click();
    await p.settle();
    await new Promise((r) => setTimeout(r, 300));
    const report = await page.evaluate(() => {
      const root = document.getElementById('root')!;
      const all = Array.from(root.querySelectorAll('*'));
      return {
        pwned: (window as unknown as { __pwned?: string }).__pwned ?? null,
        scripts: document.scripts.length,
        forbidden: all.filter((e) => /^(SCRIPT|IMG|IFRAME|STYLE|OBJECT|EMBED|FORM|INPUT|SVG|MATH|LINK|META)$/i.test(e.tagName)).map((e) => e.tagName),
        handlers: all.flatMap((e) => Array.from(e.attributes).filter((a) => /^on/i.test(a.name) || (a.name === 'style' && e.closest('.md'))).map((a) => `${e.tagName}[${a.name}]`)),
        hrefs: Array.from(root.querySelectorAll('[href]')).map((e) => e.getAttribute('href')),
        blocked: Array.from(root.querySelectorAll('.md-blocked-link')).map((e) => e.textContent),
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        columns: Array.from(document.querySelectorAll('.agent')).map((e) => e.getBoundingClientRect().width),
        text: root.innerText,
      };
    });
    assert.equal(report.pwned, null, 'no injected code ran');
    assert.equal(report.scripts, 1, 'only our script');
    assert.deepEqual(report.forbidden, []);
    assert.deepEqual(report.handlers, []);
    assert.ok(report.hrefs.length > 0);
    assert.ok(report.hrefs.every((href) => href?.startsWith('https://')), JSON.stringify(report.hrefs));
    // command: and http: links are kept as (inert) text; markdown-it itself refuses javascript:, data: and file:.
    for (const name of ['run a command', 'plain http']) assert.ok(report.blocked.includes(name), `${name} is shown as text, not a link`);
    for (const literal of ['[click me](javascript:', '[data](data:text/html', '[file](file:///etc/passwd)']) assert.ok(report.text.includes(literal), literal);
    // An image is never loaded: it becomes a link (opened only on click, through the host, https only).
    assert.equal(await page.locator('a.md-image', { hasText: '[image: exfiltrate]' }).first().getAttribute('href'), 'https://evil.example/leak.png?secret=TOKEN');
    assert.equal(report.overflow, 0, 'no horizontal overflow of the page');
    assert.ok(report.columns.every((w) => w <= 721), JSON.stringify(report.columns));
    for (const visible of ['<script>window.__pwned', 'END-OF-HOSTILE-ANSWER', 'level 199', 'quote 59', 'It <b>renders</b> everything.', 'Explain <script>window.__pwned="task"</script>']) {
      assert.ok(report.text.includes(visible) || (await page.locator('.task-text').textContent())?.includes(visible), `readable: ${visible}`);
    }
    // Clicks on blocked links do nothing; a safe link goes through the host.
    await page.locator('.md-blocked-link', { hasText: 'run a command' }).first().click();
    await page.locator('a[href="https://example.com/docs?a=1&b=2"]').first().click();
    await eventually(() => h.services.opened.length, { what: 'the safe link opened by the host' });
    assert.deepEqual(h.services.opened, ['https://example.com/docs?a=1&b=2']);
    assert.ok(requests.every((u) => u.startsWith(rig.server.origin)), `no request leaves the page's origin: ${requests.join(', ')}`);
    assert.deepEqual(rig.server.leaks, []);
    await p.screenshot('hostile-panel-dark');
    await assertClean(p);
  });

  it('protocol: a lost delta makes the page ask for a snapshot; a reload restores from a snapshot; a past run reopens read-only', async () => {
    const fs = new MemoryFs();
    const h = await harness(new RunHistory(fs, { warn: () => undefined }));
    let deltas = 0;
    const p = await open(h, { theme: 'dark', surface: 'panel', filter: (m) => !(m.type === 'delta' && ++deltas === 4) });
    const run = h.source.start('run-gap', 'Gap test', full.slice(0, 1));
    await replay(run, full.slice(1), 4, 30);
    await p.waitFor((m) => m.type === 'resync');
    const count = async () => ({ answers: await p.page.locator('details.answer').count(), votes: await p.page.locator('.critique').count(), final: await p.page.locator('.final-answer').innerText() });
    const expected = reduceEvents(full);
    // The snapshot it asked for brings every answer and vote back.
    const before = await eventually(async () => {
      await p.settle();
      const now = await count();
      return now.answers === expected.answers.length && now.votes === expected.votes.length && now;
    }, { what: 'the snapshot to show every answer and vote' });
    // Reload: the page asks again and gets the same projection.
    p.fromPage.length = 0;
    await p.page.reload();
    await p.waitFor((m) => m.type === 'ready');
    await p.settle();
    assert.deepEqual(await count(), before);
    // The run was stored when it ended; a new window (new hub, no live runs) reopens it read-only.
    assert.ok(fs.files.has('run-run-gap.json'));
    const h2 = await harness(new RunHistory(fs, { warn: () => undefined }));
    await new Promise((r) => setTimeout(r, 20));
    const q = await open(h2, { theme: 'light', surface: 'panel', state: { runId: null, follow: true, collapsed: [], closed: [] } });
    await q.page.getByRole('button', { name: /Gap test/ }).click();
    // The stored run is read and sent to the page: then it shows as read-only.
    await eventually(async () => {
      await q.settle();
      return q.page.locator('.banner.readonly').isVisible();
    }, { what: 'the past run to show as read-only' });
    assert.equal(await q.page.locator('.result .apply-actions vscode-button').count(), 0, 'a past run offers nothing to apply');
    assert.equal(await q.page.locator('.agent-cancel:visible').count(), 0);
    assert.equal(await q.page.locator('details.answer').count(), expected.answers.length);
    await q.screenshot('past-run-panel-light');
    await assertClean(q);
  });

  it('a narrow sidebar with four agents: every agent at a glance, the cards stacked without gaps, a row shows its card', async () => {
    const h = await harness();
    const four = bigRun(4, 2, 1);
    const run = h.source.start('run-four', 'Four agents', four.slice(0, 1));
    await replay(run, four.slice(1));
    for (const theme of THEMES) {
      const p = await open(h, { theme, width: 300, height: 700 });
      const rows = p.page.locator('.roster-row');
      assert.equal(await rows.count(), 4);
      for (const box of await rows.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
        assert.ok(box.left >= 0 && box.right <= 300 && box.height > 0, `a roster row fits the sidebar: ${JSON.stringify(box)}`);
      }
      assert.match((await rows.first().innerText()).replace(/\s+/g, ' '), /agent-1 agent1 voted → agent1\.2/);
      const page = await p.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, list: document.querySelector('.columns')!.getBoundingClientRect().width }));
      assert.ok(page.scroll <= page.client, `nothing is wider than the sidebar: ${JSON.stringify(page)}`);
      const cards = (await p.page.locator('article.agent').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) as DOMRect[];
      cards.forEach((c, i) => {
        assert.ok(c.left >= 0 && c.right <= 300 && Math.abs(c.width - page.list) < 1, `card ${i + 1} fills the sidebar's width, not off to the side: ${JSON.stringify(c)}`);
        if (i) assert.ok(c.top >= cards[i - 1].bottom && c.top - cards[i - 1].bottom <= 12, `card ${i + 1} follows card ${i} without a gap`);
      });
      await p.screenshot(`narrow-four-agents-${theme}`);
      await p.screenshotOf(`narrow-four-agents-${theme}-agents`, '.agents-section');
      await rows.nth(3).click();
      await p.settle();
      const shown = await p.page.locator('article.agent[data-agent="agent-4"]').evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
      assert.ok(shown.top > -1 && shown.top < 700, `the row brought agent4's card into view: ${JSON.stringify(shown)}`);
      assert.equal(await p.page.evaluate(() => document.activeElement?.getAttribute('data-agent')), 'agent-4', 'and moved the focus to it');
      await assertClean(p);
    }
    const wide = await open(h, { theme: 'dark', surface: 'panel', width: 1280 });
    assert.equal(await wide.page.locator('.roster').isVisible(), false, 'side by side, no roster');
    const tops = await wide.page.locator('article.agent').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size, 1, `columns side by side in a wide panel: ${tops}`);
  });

  // How fast the snapshot renders is measured by the bench (`viewer` scenario); here, that one snapshot builds it all.
  it('a large run (8 agents × 4 answers of 12 KB) renders from one snapshot: no need to retain hidden webviews', async () => {
    const h = await harness();
    const big = bigRun(8, 4, 12);
    const run = h.source.start('run-big', 'Large run', big.slice(0, 1));
    await replay(run, big.slice(1), 50, 1);
    const p = await open(h, { theme: 'dark', surface: 'panel' });
    p.fromPage.length = 0;
    await p.page.reload();
    await p.waitFor((m) => m.type === 'ready');
    await p.settle();
    const stats = await p.page.evaluate(() => (window as unknown as { massgenViewer: { stats: { snapshots: number; resyncs: number } } }).massgenViewer.stats);
    assert.deepEqual({ snapshots: stats.snapshots, resyncs: stats.resyncs }, { snapshots: 1, resyncs: 0 });
    assert.equal(await p.page.locator('details.answer').count(), 32);
    await assertClean(p);
  });

  it('keyboard and screen readers: every control is named, reachable with Tab and works with the keyboard', async () => {
    const h = await harness();
    const run = h.source.start('run-kbd', 'Keyboard', full.slice(0, 1));
    await replay(run, full.slice(1));
    const p = await open(h, { theme: 'dark', surface: 'panel' });
    const unnamed = await p.page.evaluate(() => {
      const controls = Array.from(document.querySelectorAll('button, vscode-button, summary, [role="button"], [tabindex="0"], a[href]'));
      return controls
        .filter((e) => !(e as HTMLElement).closest('[hidden]'))
        .filter((e) => !(e.getAttribute('aria-label') || (e.textContent ?? '').trim()))
        .map((e) => e.outerHTML.slice(0, 120));
    });
    assert.deepEqual(unnamed, []);
    // Tab moves through the controls in order; Enter toggles a column.
    const visited = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await p.page.keyboard.press('Tab');
      visited.add(await p.page.evaluate(() => (document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '').trim().slice(0, 40)));
    }
    assert.ok(visited.size > 20, `Tab reached ${visited.size} distinct controls`);
    const collapse = p.page.locator('.agent-collapse').first();
    await collapse.focus();
    await p.page.keyboard.press('Enter');
    assert.equal(await collapse.getAttribute('aria-expanded'), 'false');
    const focusRing = await collapse.evaluate((e) => getComputedStyle(e).outlineStyle);
    assert.notEqual(focusRing, 'none', 'visible focus');
    await p.page.keyboard.press('Enter');
    assert.equal(await collapse.getAttribute('aria-expanded'), 'true');
  });

  it('respects reduced motion', async () => {
    const h = await harness();
    const run = h.source.start('run-motion', 'Motion', mid.slice(0, 1));
    await replay(run, mid.slice(1));
    const moving = await open(h, { theme: 'dark' });
    const still = await open(h, { theme: 'dark', reducedMotion: true });
    const animation = (p: ViewerPage) => p.page.locator('.phase .codicon-modifier-spin').first().evaluate((e) => getComputedStyle(e).animationName);
    assert.notEqual(await animation(moving), 'none');
    assert.equal(await animation(still), 'none');
  });
});

// The vote viewer in VS Code's sidebar (about 300 px wide) with a team of four: every agent must be visible at a
// glance, not one column with the others off to the side. And the viewer as an editor tab, opened on one run: it says
// which run it shows, and offers the latest once a newer run exists.
'use strict';
const vscode = require('vscode');
const { assert, EXTENSION_ID, FAKE_VENDOR, FAKE_MODEL_ID, until, waitForFakeModel, fakeLm, screenshot, playwright } = require('./helpers');

const FOUR = ['ada', 'brian', 'chen', 'dana'].map((id) => ({ id, provider: 'vscode-lm', model: `${FAKE_VENDOR}/${FAKE_MODEL_ID}`, systemMessage: `You are ${id}.` }));

describe('The vote viewer in a narrow sidebar', function () {
  this.timeout(90000);
  let api;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await waitForFakeModel();
    await vscode.workspace.getConfiguration('massgen').update('agents', FOUR, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await fakeLm.reset();
    await vscode.workspace.getConfiguration('massgen').update('agents', undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows all four agents at once, each in the sidebar\u2019s width', async () => {
    const run = await api.runs.start({ task: 'Name a prime number', title: 'Four agents in the sidebar', prompt: 'Name a prime number' });
    await run.result;
    await vscode.commands.executeCommand('massgen.showVoteViewer', { runId: run.id });
    const seen = await until(async () => {
      const found = await playwright(async ({ webviewFrames }) => {
        for (const frame of await webviewFrames()) {
          const rows = await frame.$$('.roster-row');
          if (rows.length < 4) continue;
          const { width, scrollWidth } = await frame.evaluate(() => ({ width: document.documentElement.clientWidth, scrollWidth: document.documentElement.scrollWidth }));
          await (await frame.$('.agents-section')).scrollIntoViewIfNeeded();
          const boxes = await Promise.all(rows.map((r) => r.evaluate((e) => ({ ...e.getBoundingClientRect().toJSON(), text: e.innerText, visible: e.checkVisibility() }))));
          const cards = await frame.$$eval('article.agent', (els) => els.map((e) => e.getBoundingClientRect().toJSON()));
          return { width, scrollWidth, boxes, cards };
        }
        return null;
      });
      return found;
    }, 20000, 'the roster of four agents');
    await screenshot('sidebar-four-agents');
    assert.ok(seen.width < 540, `the sidebar is narrow: ${seen.width} px`);
    // Each row names the agent by the user's id first (its anonymous label after).
    assert.deepStrictEqual(seen.boxes.map((b) => b.text.split(/\s+/).slice(0, 2)), [['ada', 'agent1'], ['brian', 'agent2'], ['chen', 'agent3'], ['dana', 'agent4']], 'every agent has a row');
    for (const b of seen.boxes) assert.ok(b.visible && b.left >= 0 && b.right <= seen.width, `each row fits the sidebar: ${JSON.stringify(b)}`);
    assert.ok(seen.scrollWidth <= seen.width, `nothing is wider than the sidebar (${seen.scrollWidth} > ${seen.width} px)`);
    for (const c of seen.cards) assert.ok(c.left >= 0 && c.right <= seen.width, `every card fits the sidebar, stacked: ${JSON.stringify(c)}`);
  });

  it('the editor-tab viewer opened on a run says which run it is, and offers the latest once a newer run exists', async () => {
    const first = await api.runs.start({ task: 'Name a prime number', title: 'The first question', prompt: 'Name a prime number' });
    await first.result;
    await vscode.commands.executeCommand('massgen.openVoteViewerPanel', { runId: first.id });
    /** The editor tab's page (body[data-surface=panel]): its run title, the when line, the newer-run banner. */
    const panel = () =>
      playwright(async ({ webviewFrames }) => {
        for (const frame of await webviewFrames()) {
          if (!(await frame.$('body[data-surface="panel"] .run-header'))) continue;
          return frame.evaluate(() => {
            const text = (s) => document.querySelector(s)?.innerText.trim() ?? null;
            const banner = document.querySelector('.banner.newer');
            return { title: text('.run-title'), when: text('.run-when'), newer: banner && !banner.hidden ? banner.innerText.replace(/\s+/g, ' ').trim() : null };
          });
        }
        return null;
      });
    const shown = await until(async () => {
      const p = await panel();
      return p && p.title === 'The first question' && p;
    }, 20000, 'the editor tab on the first run');
    assert.match(shown.when, /^Started \d{4}-\d\d-\d\d \d\d:\d\d$/, 'it says which run it is');
    assert.strictEqual(shown.newer, null);
    const tab = await playwright(async ({ page }) => page.locator('.tabs-container .tab.active').innerText());
    assert.match(tab, /MassGen: The first question/);

    const second = await api.runs.start({ task: 'Name an even prime', title: 'The second question', prompt: 'Name an even prime' });
    await second.result;
    const offered = await until(async () => {
      const p = await panel();
      return p && p.newer && /finished/.test(p.newer) && p;
    }, 20000, 'the newer run offered in the editor tab');
    assert.strictEqual(offered.title, 'The first question', 'still the run it was opened on');
    assert.match(offered.newer, /A newer run finished: The second question\. Show the latest run/);
    await screenshot('viewer-panel-newer-run');
    const clicked = await playwright(async ({ webviewFrames }) => {
      for (const frame of await webviewFrames()) {
        const button = await frame.$('body[data-surface="panel"] .banner.newer button');
        if (button) return button.click().then(() => true);
      }
      return false;
    });
    assert.strictEqual(clicked, true);
    const latest = await until(async () => {
      const p = await panel();
      return p && p.title === 'The second question' && p;
    }, 20000, 'the latest run in the editor tab');
    assert.match(latest.when, /· the latest run$/);
    assert.strictEqual(latest.newer, null);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

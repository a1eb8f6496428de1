// The vote viewer in VS Code's sidebar (about 300 px wide) with a team of four: every agent must be visible at a
// glance, not one column with the others off to the side.
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
    assert.deepStrictEqual(seen.boxes.map((b) => b.text.split(/\s+/)[1]), ['ada', 'brian', 'chen', 'dana'], 'every agent has a row');
    for (const b of seen.boxes) assert.ok(b.visible && b.left >= 0 && b.right <= seen.width, `each row fits the sidebar: ${JSON.stringify(b)}`);
    assert.ok(seen.scrollWidth <= seen.width, `nothing is wider than the sidebar (${seen.scrollWidth} > ${seen.width} px)`);
    for (const c of seen.cards) assert.ok(c.left >= 0 && c.right <= seen.width, `every card fits the sidebar, stacked: ${JSON.stringify(c)}`);
  });
});

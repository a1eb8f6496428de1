// Shared helpers for the tests that run inside the extension host (see ../README.md).
'use strict';
const assert = require('assert');
const fs = require('fs');
const http = require('http');
const path = require('path');
const util = require('util');
const vscode = require('vscode');

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
/** The extension under test, `publisher.name` from the repo's package.json. */
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
/** Vendor of the test-only fake chat model (fake-lm-ext), and its default model id. */
const FAKE_VENDOR = 'massgen-fake';
const FAKE_MODEL_ID = 'fake-agent';
const FAKE_DEFAULT_ANSWER = 'Answer from the fake test model (massgen-fake/fake-agent).';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** run-ext-tests.js prints the extension-host log lines that start with this (see index.js). */
const OUTPUT_MARK = '[vscode-test] ';
/** console.log for tests: shown on the runner's terminal (plain console.log only reaches vscode-logs/automation.log). */
const log = (...args) => console.log(OUTPUT_MARK + util.format(...args));

/** Polls `fn` until it returns something truthy; throws `what` after `ms`. */
async function until(fn, ms = 15000, what = 'condition') {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(150);
  }
}

/** The fake chat models, once the helper extension has registered them (it activates on startup finished). */
async function waitForFakeModel(ms = 30000) {
  return until(async () => {
    const models = await vscode.lm.selectChatModels({ vendor: FAKE_VENDOR });
    return models.length ? models : null;
  }, ms, `a chat model of vendor ${FAKE_VENDOR}`);
}

/** Scripting the fake model (see fake-lm-ext/extension.js for the options). */
const fakeLm = {
  configure: (options) => vscode.commands.executeCommand('massgenFakeLm.configure', options),
  reset: () => vscode.commands.executeCommand('massgenFakeLm.reset'),
  requests: () => vscode.commands.executeCommand('massgenFakeLm.requests'),
};

// ---- the runner's control endpoint (run-ext-tests.js): screenshots, webview DOM, Playwright steps
const RUNNER = process.env.MASSGEN_TEST_RUNNER;

function callRunner(action, body, timeoutMs = 60000) {
  if (!RUNNER) return Promise.reject(new Error('MASSGEN_TEST_RUNNER is not set: not running under test/vscode/run-ext-tests.js'));
  const url = new URL(`${RUNNER}/${action}`);
  const data = JSON.stringify(body || {});
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        let json;
        try { json = JSON.parse(text); } catch { return reject(new Error(`runner ${action}: bad reply ${res.statusCode} ${text.slice(0, 200)}`)); }
        if (res.statusCode !== 200) return reject(new Error(`runner ${action} failed: ${json.error}`));
        resolve(json);
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`runner ${action} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * Saves a PNG of the whole workbench as test-artifacts/screenshots/<name>.png; returns its path, or null where no runner
 * takes screenshots (@vscode/test-electron). Tests that need the runner's webview/Playwright calls skip there instead.
 */
async function screenshot(name, { fullPage = false } = {}) {
  if (!RUNNER) return null;
  return (await callRunner('screenshot', { name, fullPage })).path;
}

/**
 * Reads `property` (textContent, innerText, innerHTML, outerHTML, value, or an attribute name) of every element matching
 * `selector` inside any open webview; waits up to timeoutMs for a match. Returns { found, values }.
 */
async function webview(selector, { property = 'textContent', timeoutMs = 10000 } = {}) {
  return callRunner('webview', { selector, property, timeoutMs }, timeoutMs + 30000);
}

/**
 * Runs `fn` in the runner process with Playwright: `fn({ page, webviewFrames, screenshot, sleep }, arg)`. `fn` is sent as
 * source text, so it cannot use this file's variables: pass data through `arg` (JSON) and return JSON.
 * Example: await playwright(async ({ page }) => { await page.keyboard.press('F1'); return page.title(); })
 */
async function playwright(fn, arg, timeoutMs = 60000) {
  return (await callRunner('eval', { fn: fn.toString(), arg }, timeoutMs)).value;
}

/**
 * Clicks the (enabled) control named `name` (its aria-label, or a button's text) in any open webview, waiting up to
 * timeoutMs for it; false when it never appeared. The page may repaint between finding the control and clicking it
 * (a loaded machine widens that window): a control detached meanwhile is looked up again.
 */
function clickInViewer(name, timeoutMs = 30000) {
  return playwright(async ({ webviewFrames, sleep }, a) => {
    for (const end = Date.now() + a.timeoutMs; Date.now() < end; await sleep(200)) {
      for (const frame of await webviewFrames()) {
        const button = (await frame.$(`[aria-label="${a.name}"]:not([disabled])`)) || (await frame.$(`button:text-is("${a.name}")`));
        if (!button) continue;
        try {
          await button.click();
          return true;
        } catch (err) {
          if (!/not attached to the DOM/.test(String(err && err.message))) throw err;
        }
      }
    }
    return false;
  }, { name, timeoutMs }, timeoutMs + 30000);
}

/** Shows the vote viewer's start page (its header's "New run" when a run is shown); returns the page's text. */
async function openStartPage() {
  await vscode.commands.executeCommand('massgen.showVoteViewer');
  await playwright(async ({ webviewFrames, sleep }) => {
    for (let i = 0; i < 75; i++) {
      for (const frame of await webviewFrames()) {
        if (await frame.$('.empty')) return true;
        const button = await frame.$('[aria-label="New run"]');
        if (button) {
          try {
            await button.click();
            return true;
          } catch (err) {
            // Repainted between finding and clicking it: look again.
            if (!/not attached to the DOM/.test(String(err && err.message))) throw err;
          }
        }
      }
      await sleep(200);
    }
    throw new Error('neither the start page nor a "New run" button in the vote viewer');
  });
  return (await webview('.empty', { property: 'innerText', timeoutMs: 15000 })).values.join('\n');
}

// ---- scripting coordination requests of the fake model (req as fakeLm's handler gets it)
/** The request offers the tool `name` (e.g. 'vote', 'write_file', 'execute_command'). */
const offers = (req, name) => req.tools.includes(name);
/** Everything the request's messages say, tool calls and tool results included. */
const requestText = (req) => req.messages.map((m) => m.text).join('\n');
/** The agent already called `name` in this conversation (the fake writes calls as `name {json}`). */
const called = (req, name) => req.messages.some((m) => m.role === 'assistant' && m.text.includes(`${name} {`));
/** CURRENT ANSWERS (or an UPDATE) in the request shows an answer of agent `label`. */
const showsAnswerOf = (req, label) => new RegExp(`<${label}>[\\s\\S]*?<end of ${label}>`).test(requestText(req));

// ---- the extension's storage: where it keeps the agents' copies of the workspace
/**
 * The `workspaces` folders the extension keeps agents' copies in (context.storageUri, else globalStorageUri, + /workspaces),
 * found from its log folder: in code-server both live in the user-data dir (<data>/logs/…, <data>/User/…Storage/<id>).
 */
function copiesDirs(logUri) {
  let data = logUri.fsPath;
  while (path.basename(data) !== 'logs' && path.dirname(data) !== data) data = path.dirname(data);
  data = path.dirname(data);
  const user = path.join(data, 'User');
  const candidates = [path.join(user, 'globalStorage', EXTENSION_ID, 'workspaces')];
  const ws = path.join(user, 'workspaceStorage');
  if (fs.existsSync(ws)) for (const id of fs.readdirSync(ws)) candidates.push(path.join(ws, id, EXTENSION_ID, 'workspaces'));
  return candidates.filter((d) => fs.existsSync(d));
}
/** Every entry of those folders (run folders are named by run id). */
function copiesEntries(logUri) {
  return copiesDirs(logUri).flatMap((d) => fs.readdirSync(d).map((name) => path.join(d, name)));
}

// ---- notifications (toasts are not shown while the test driver runs the workbench: the notification center is)
/** Clears the notification center. */
const clearNotifications = () => vscode.commands.executeCommand('notifications.clearAll');
/**
 * Waits for a notification whose text contains `text`, then clicks its button labelled exactly `button`. Returns the
 * notification's text, or throws when it does not appear within timeoutMs. `screenshotName` saves the center first.
 */
async function clickNotificationButton(text, button, { timeoutMs = 30000, screenshotName } = {}) {
  await vscode.commands.executeCommand('notifications.showList');
  return playwright(async ({ page, sleep, screenshot }, a) => {
    const item = page.locator('.notifications-center .notification-list-item').filter({ hasText: a.text }).first();
    await item.waitFor({ state: 'visible', timeout: a.timeoutMs });
    await sleep(200);
    const message = await item.innerText();
    if (a.screenshotName) await screenshot(a.screenshotName);
    const esc = a.button.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await item.locator('.monaco-button').filter({ hasText: new RegExp(`^\\s*${esc}\\s*$`) }).first().click();
    return message;
  }, { text, button, timeoutMs, screenshotName: screenshotName || null }, timeoutMs + 30000);
}
/** The texts of the notifications in the center now. */
async function notificationTexts() {
  await vscode.commands.executeCommand('notifications.showList');
  return playwright(async ({ page }) => page.locator('.notifications-center .notification-list-item').allInnerTexts());
}

// ---- VS Code's refactor preview (a WorkspaceEdit with an entry needing confirmation opens it in the panel)
const PREVIEW_ROWS = '.part.panel .bulk-edit-panel .monaco-list-row';
const PREVIEW_BOX = '.monaco-custom-toggle, .monaco-checkbox, input[type="checkbox"]';

const refactorPreview = {
  /** Waits until the preview lists a change whose row mentions `fileName`; returns the rows' texts. */
  rows: (fileName, timeoutMs = 20000) =>
    playwright(async ({ page, sleep }, a) => {
      const pane = page.locator('.part.panel .bulk-edit-panel');
      await pane.locator('.monaco-list-row').filter({ hasText: a.fileName }).first().waitFor({ state: 'visible', timeout: a.timeoutMs });
      await sleep(300);
      return pane.locator('.monaco-list-row').allInnerTexts();
    }, { fileName, timeoutMs }, timeoutMs + 30000),
  /** Every row of the preview: its text and aria-checked ('true' / 'false'). */
  ticks: () =>
    playwright(async ({ page }, a) => {
      const out = [];
      for (const row of await page.locator(a.ROWS).all()) out.push({ text: (await row.innerText()).replace(/\s+/g, ' ').trim(), checked: await row.locator(a.BOX).first().getAttribute('aria-checked') });
      return out;
    }, { ROWS: PREVIEW_ROWS, BOX: PREVIEW_BOX }),
  /** Sets the tick of the first row whose text has `text` (the winner's changes come ticked); returns its aria-checked. */
  setTick: (text, value) =>
    playwright(async ({ page, sleep }, a) => {
      const row = page.locator(a.ROWS).filter({ hasText: a.text }).first();
      await row.waitFor({ state: 'visible', timeout: 20000 });
      const box = row.locator(a.BOX).first();
      if ((await box.getAttribute('aria-checked')) !== String(a.value)) await box.click();
      await sleep(200);
      return box.getAttribute('aria-checked');
    }, { ROWS: PREVIEW_ROWS, BOX: PREVIEW_BOX, text, value }),
  /** Unfolds the first row whose text has `text` (a file: its single edits appear as rows below it). */
  unfold: (text) =>
    playwright(async ({ page, sleep }, a) => {
      const row = page.locator(a.ROWS).filter({ hasText: a.text }).first();
      await row.waitFor({ state: 'visible', timeout: 20000 });
      if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
      await sleep(300);
      return row.getAttribute('aria-expanded');
    }, { ROWS: PREVIEW_ROWS, text }),
  /** Clicks the preview's Apply or Discard button. */
  click: (label) =>
    playwright(async ({ page }, name) => {
      await page.locator('.part.panel .bulk-edit-panel').getByRole('button', { name, exact: true }).click();
      return true;
    }, label),
  /** Whether the preview is showing changes (its Apply button is; after Apply or Discard the pane goes away). */
  open: () => playwright(async ({ page }) => page.locator('.part.panel .bulk-edit-panel').getByRole('button', { name: 'Apply', exact: true }).isVisible()),
};

// ---- the User settings as a person edits them (settings.json in its editor; VS Code then reloads the settings)
const userSettings = {
  /** Sets `key` in the User settings.json (`undefined` removes it) and saves it. */
  async set(key, value) {
    await vscode.commands.executeCommand('workbench.action.openSettingsJson');
    const editor = await until(() => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.path.endsWith('/User/settings.json') && e;
    }, 10000, 'the User settings.json editor');
    const doc = editor.document;
    const json = doc.getText().trim() ? JSON.parse(doc.getText()) : {};
    if (value === undefined && !(key in json)) return;
    if (value === undefined) delete json[key];
    else json[key] = value;
    await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), JSON.stringify(json, null, 2)));
    // Saved as a person does (File: Save on the active editor). In code-server the extension host's doc.save() of the
    // User settings.json returns false and saves nothing; only auto save (now off, see run-ext-tests.js) used to.
    await vscode.commands.executeCommand('workbench.action.files.save');
    await until(() => !doc.isDirty, 10000, 'the User settings.json to be saved');
  },
};

/**
 * Asks in the chat view and returns the last response's text once it offers "Open vote viewer" (the run is over),
 * waiting up to `waitMs`; `onFakeModel`: the request is made on the fake chat model.
 */
async function askInChat(query, { onFakeModel = false, waitMs = 90000 } = {}) {
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, ...(onFakeModel ? { modelSelector: { vendor: FAKE_VENDOR, id: FAKE_MODEL_ID } } : {}) });
  return playwright(async ({ page }, timeout) => {
    const response = page.locator('.interactive-response').last();
    await response.getByText('Open vote viewer').waitFor({ timeout });
    return response.innerText();
  }, waitMs, waitMs + 30000);
}

module.exports = {
  assert, log, askInChat, OUTPUT_MARK, EXTENSION_ID, FAKE_VENDOR, FAKE_MODEL_ID, FAKE_DEFAULT_ANSWER, sleep, until, waitForFakeModel, fakeLm,
  runnerAvailable: !!RUNNER, callRunner, screenshot, webview, playwright, clickInViewer, openStartPage,
  offers, requestText, called, showsAnswerOf, copiesDirs, copiesEntries, clearNotifications, clickNotificationButton, notificationTexts, refactorPreview, userSettings,
};

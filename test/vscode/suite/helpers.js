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

module.exports = {
  assert, log, OUTPUT_MARK, EXTENSION_ID, FAKE_VENDOR, FAKE_MODEL_ID, FAKE_DEFAULT_ANSWER, sleep, until, waitForFakeModel, fakeLm,
  runnerAvailable: !!RUNNER, callRunner, screenshot, webview, playwright,
};

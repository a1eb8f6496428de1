// Extension-tests entry for the benchmark (run by test/vscode/run-ext-tests.js inside code-server's real extension
// host, see bench/scenarios/activation.ts). It measures how long activating the extension takes:
//   * `ext.activate()` from the test: loading dist/extension.js and running activate(), as VS Code does on the first
//     activation event (skipped if something activated the extension before the test got to run);
//   * VS Code's own numbers, from the Running Extensions view (load + activate call), read through the runner.
// It prints one marked line `BENCH_ACTIVATION {json}` and the suite's closing line.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const { performance } = require('perf_hooks');
const util = require('util');
const vscode = require('vscode');

const MARK = '[vscode-test] ';
const log = (...a) => console.log(MARK + util.format(...a));
// The id is the repository's (the extension under test is a production build of it, see bench/run.ts).
const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;

/** The runner's `eval` action: runs a function with Playwright's page in the runner (see test/vscode/README.md). */
function runnerEval(fn, arg, timeoutMs = 30000) {
  const base = process.env.MASSGEN_TEST_RUNNER;
  if (!base) return Promise.reject(new Error('no MASSGEN_TEST_RUNNER'));
  const data = JSON.stringify({ fn: fn.toString(), arg });
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(`${base}/eval`), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        try {
          const json = JSON.parse(text);
          if (res.statusCode !== 200) reject(new Error(json.error));
          else resolve(json.value);
        } catch (e) {
          reject(e);
        }
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('runner eval timed out')));
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * Opens Developer: Show Running Extensions and reads every row: VS Code's own "Activation: N ms" (code loading +
 * activate call, as its extension host measured them).
 */
async function runningExtensions() {
  await vscode.commands.executeCommand('workbench.action.showRuntimeExtensions');
  const names = [EXTENSION_ID, pkg.displayName];
  // The list is virtual and sorted slowest first: a fast extension's row is rendered only once scrolled to, so
  // collect rows while scrolling down with the mouse wheel.
  const rows = await runnerEval(async ({ page, sleep }, names) => {
    const seen = new Map();
    const mine = () => [...seen.values()].find((t) => names.some((n) => t.includes(n)));
    for (let i = 0; i < 60 && !mine(); i++) {
      const texts = await page.evaluate(() => [...document.querySelectorAll('.monaco-list-row')].map((r) => r.innerText || r.textContent || '')).catch(() => []);
      for (const t of texts.filter((t) => /Activation:/.test(t))) seen.set(t.split('\n')[0], t);
      const box = await page.locator('.monaco-list-rows').filter({ hasText: 'Activation:' }).first().boundingBox().catch(() => null);
      if (box) {
        await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height, 300) / 2);
        await page.mouse.wheel(0, 300);
      }
      await sleep(150);
    }
    if (mine()) return [...seen.values()];
    throw new Error(`no row for ${names.join(' / ')} in Running Extensions; rows: ${JSON.stringify([...seen.keys()]).slice(0, 600)}`);
  }, names);
  const parse = (t) => {
    const m = /Activation:\s*([\d.]+)\s*ms/.exec(t);
    return m ? Number(m[1]) : null;
  };
  const ours = rows.find((t) => names.some((n) => t.includes(n)));
  const others = rows.filter((t) => t !== ours).map(parse).filter((n) => n !== null);
  return { ownMs: ours ? parse(ours) : null, othersMs: others, startup: ours ? /Startup Activation/.test(ours) : null };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

exports.run = async function run() {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} not found`);
  // Let the workbench's own start-up activations finish first: measured alone, not in their crowd.
  await sleep(Number(process.env.BENCH_SETTLE_MS || 4000));
  const wasActive = ext.isActive;
  const t0 = performance.now();
  await ext.activate();
  const activateMs = performance.now() - t0;
  let running = null;
  let runningError = null;
  try {
    running = await runningExtensions();
  } catch (e) {
    runningError = String((e && e.message) || e);
  }
  log('BENCH_ACTIVATION ' + JSON.stringify({ activateMs, wasActive, vscode: vscode.version, running, runningError }));
  log('1 passed, 0 failed, 0 skipped');
};

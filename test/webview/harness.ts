// Runs the vote viewer bundle in real headless Chromium (Debian's /usr/bin/chromium through playwright-core; no
// browser download), on exactly the page the extension serves (src/host/viewer/html.ts: same CSP, nonce, links),
// with a stub acquireVsCodeApi whose postMessage reaches a real ViewerHub in Node. The hub is fed by fake runs
// that replay recorded engine events, so the whole path (host coalescer → protocol → webview reducer → DOM) runs.

import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { RunEvent } from '../../src/core/engine/events';
import type { RunHistory } from '../../src/host/viewer/history';
import { makeNonce, viewerHtml } from '../../src/host/viewer/html';
import type { ViewerConnection } from '../../src/host/viewer/connection';
import { ViewerHub, type HubOptions } from '../../src/host/viewer/hub';
import type { HostMessage, WebviewMessage } from '../../src/protocol/messages';
import { eventually } from '../helpers/eventually';
import { FakeRun, FakeServices, FakeSource } from './fakes';
import { THEMES, type ThemeName } from './themes';

export { FakeRun, FakeServices, FakeSource, MemoryFs } from './fakes';

export const CHROMIUM_PATH = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
export const ROOT = resolve(__dirname, '..', '..');
/** Where the screenshots go (VIEWER_SHOTS_DIR overrides; the real-VS-Code runner empties test-artifacts/screenshots). */
export const SHOTS = process.env.VIEWER_SHOTS_DIR ?? join(ROOT, 'test-artifacts', 'screenshots', 'vote-viewer');

export const chromiumAvailable = existsSync(CHROMIUM_PATH);

/** `describe` when Chromium is installed, else a skipped suite that says why. */
export function describeInChromium(title: string, fn: (this: Mocha.Suite) => void): void {
  if (chromiumAvailable) describe(title, fn);
  else describe.skip(`${title} (skipped: no Chromium at ${CHROMIUM_PATH}; install Debian's chromium or set CHROMIUM)`, fn);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS.filter((a) => a !== '--headless') });
}

let bundle: Promise<string> | undefined;

/** Builds the production webview bundle once per process, into a temp directory. */
export function webviewBundle(): Promise<string> {
  bundle ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'massgen-webview-'));
    const { buildWebview } = await import('../../webview/build.mjs');
    await buildWebview({ outdir: dir, production: true });
    return dir;
  })();
  return bundle;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json' };

export interface PageServer {
  origin: string;
  /** Requests for paths the page should never load (e.g. /leak*): a remote-image exfiltration would show here. */
  leaks: string[];
  close(): Promise<void>;
}

/** Serves the bundle and the viewer page (`/view.html`, `/panel.html`) on 127.0.0.1. */
export async function servePage(dir: string): Promise<PageServer> {
  const leaks: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/view.html' || path === '/panel.html') {
      const html = viewerHtml({
        cspSource: origin,
        nonce: makeNonce(),
        scriptUri: `${origin}/main.js`,
        styleUri: `${origin}/main.css`,
        codiconUri: `${origin}/codicon.css`,
        surface: path === '/panel.html' ? 'panel' : 'view',
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
      return;
    }
    if (path === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    const file = join(dir, path.replace(/^\/+/, ''));
    if (!file.startsWith(dir) || !existsSync(file) || path === '/') {
      leaks.push(path);
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, leaks, close: () => new Promise((r) => server.close(() => r())) };
}

// ---- the page --------------------------------------------------------------------------------------------------

export interface OpenOptions {
  theme?: ThemeName;
  width?: number;
  height?: number;
  surface?: 'view' | 'panel';
  reducedMotion?: boolean;
  /** The page state VS Code would hand back (acquireVsCodeApi().getState()). */
  state?: unknown;
  /** Drop host→webview messages for which this returns false (to simulate lost deltas). */
  filter?: (message: HostMessage) => boolean;
}

export interface Harness {
  browser: Browser;
  server: PageServer;
  source: FakeSource;
  services: FakeServices;
  hub: ViewerHub;
}

export async function createHarness(browser: Browser, server: PageServer, options: { history?: RunHistory | null; hub?: HubOptions } = {}): Promise<Harness> {
  const source = new FakeSource();
  const services = new FakeServices();
  const hub = new ViewerHub(source, options.history ?? null, services, options.hub);
  return { browser, server, source, services, hub };
}

export class ViewerPage {
  /** Messages the page sent to the host, in order. */
  readonly fromPage: WebviewMessage[] = [];
  /** Messages the host posted to the page, in order (after the filter). */
  readonly toPage: HostMessage[] = [];
  readonly pageErrors: string[] = [];
  connection!: ViewerConnection;
  private queue: Promise<unknown> = Promise.resolve();
  private messageListener: ((raw: unknown) => void) | null = null;

  private constructor(readonly harness: Harness, readonly context: BrowserContext, readonly page: Page, readonly options: OpenOptions) {}

  static async open(harness: Harness, options: OpenOptions = {}): Promise<ViewerPage> {
    const theme = THEMES[options.theme ?? 'dark'];
    const surface = options.surface ?? 'view';
    const context = await harness.browser.newContext({
      viewport: { width: options.width ?? (surface === 'view' ? 380 : 1280), height: options.height ?? 900 },
      colorScheme: theme.colorScheme,
      reducedMotion: options.reducedMotion ? 'reduce' : 'no-preference',
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const vp = new ViewerPage(harness, context, page, options);
    page.on("pageerror", (e) => { vp.pageErrors.push(String(e)); if (process.env.DEBUG_VIEWER) console.log("pageerror", e); });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') vp.pageErrors.push(`console.${m.type()}: ${m.text()}`);
    });
    await page.exposeBinding('__massgenToHost', (_source, message: WebviewMessage) => {
      vp.fromPage.push(message);
      vp.messageListener?.(message);
    });
    // tsx compiles these tests with esbuild's keepNames: functions sent to the page call its __name helper.
    await page.addInitScript('globalThis.__name = (fn) => fn;');
    const background = surface === 'view' ? theme.vars['--vscode-sideBar-background'] : theme.vars['--vscode-editor-background'];
    await page.addInitScript(
      ({ vars, bodyClass, kind, background, state }) => {
        const w = window as unknown as Record<string, unknown>;
        w.__csp = [];
        document.addEventListener('securitypolicyviolation', (e) => (w.__csp as string[]).push(`${e.violatedDirective} ${e.blockedURI}`));
        let saved: unknown = state;
        w.acquireVsCodeApi = () => ({
          postMessage: (m: unknown) => (w.__massgenToHost as (m: unknown) => void)(m),
          getState: () => saved,
          setState: (s: unknown) => {
            saved = s;
            w.__savedState = s;
            return s;
          },
        });
        // Init scripts run before the document has an <html> element: theme it as soon as there is one.
        const theme = () => {
          const root = document.documentElement;
          if (!root || root.dataset.themed) return Boolean(root);
          root.dataset.themed = '1';
          for (const [k, v] of Object.entries(vars)) root.style.setProperty(k, v);
          root.style.setProperty('background', background);
          return true;
        };
        const mark = () => {
          if (!document.body || document.body.classList.contains(bodyClass)) return Boolean(document.body);
          document.body.classList.add(bodyClass);
          document.body.dataset.vscodeThemeKind = kind;
          return true;
        };
        if (!(theme() && mark())) {
          const obs = new MutationObserver(() => {
            if (theme() && mark()) obs.disconnect();
          });
          obs.observe(document, { childList: true, subtree: true });
        }
      },
      { vars: theme.vars, bodyClass: theme.bodyClass, kind: theme.kind, background, state: (options.state ?? null) as object | null },
    );
    vp.connect();
    await page.goto(`${harness.server.origin}/${surface}.html`);
    await vp.waitFor((m) => m.type === 'ready');
    return vp;
  }

  /** Connects (again) to the hub, as the extension does when a webview is resolved. */
  connect(initial?: { runId: string | null; follow: boolean }): void {
    this.connection?.dispose();
    this.connection = this.harness.hub.connect(
      {
        post: (message) => {
          if (this.options.filter && !this.options.filter(message)) return true;
          this.toPage.push(message);
          this.queue = this.queue.then(() => this.page.evaluate((m) => window.postMessage(m, '*'), message).catch(() => undefined));
          return true;
        },
        onMessage: (listener) => {
          this.messageListener = listener;
          return { dispose: () => (this.messageListener = null) };
        },
      },
      initial,
    );
  }

  /** Waits until the host's messages so far have been delivered and the page has rendered them (streamed text is
   * repainted at most every 100 ms, a few columns per frame: until a frame goes by without a render). */
  async settle(): Promise<void> {
    await this.queue;
    await this.page.evaluate(async () => {
      const stats = (window as unknown as { massgenViewer: { stats: { renders: number } } }).massgenViewer.stats;
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      await new Promise((r) => setTimeout(r, 120));
      for (let seen = -1; seen !== stats.renders; ) {
        seen = stats.renders;
        await frame();
      }
      await frame();
    });
    await this.queue;
  }

  waitFor(predicate: (m: WebviewMessage) => boolean): Promise<WebviewMessage> {
    return eventually(() => this.fromPage.find(predicate), { what: () => `a matching message from the page (it sent: ${this.fromPage.map((m) => m.type).join(', ') || 'nothing'})` });
  }

  cspViolations(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  }

  async screenshot(name: string, fullPage = true): Promise<string> {
    mkdirSync(SHOTS, { recursive: true });
    const path = join(SHOTS, `${name}.png`);
    await this.settle();
    await this.page.screenshot({ path, fullPage });
    return path;
  }

  /** A screenshot of one element (the first `selector` matches), e.g. an agent column with an open diff. */
  async screenshotOf(name: string, selector: string): Promise<string> {
    mkdirSync(SHOTS, { recursive: true });
    const path = join(SHOTS, `${name}.png`);
    await this.settle();
    await this.page.locator(selector).first().screenshot({ path });
    return path;
  }

  async close(): Promise<void> {
    this.connection?.dispose();
    await this.context.close();
  }
}

export interface ViewerRig {
  /** The page server (its origin, and what leaked past it). */
  readonly server: PageServer;
  /** The pages opened so far by the running test, newest last (closed after each test). */
  readonly pages: ViewerPage[];
  /** A host hub over a fake run source, as the suites use it (disposed after the suite). */
  harness(history?: RunHistory | null): Promise<Harness>;
  /** A page on `h`, settled. */
  open(h: Harness, options?: OpenOptions): Promise<ViewerPage>;
}

/**
 * Chromium, the page server and the clean-up every viewer suite needs, registered as mocha hooks of the calling
 * `describe`: pages close after each test; hubs, the browser and the server after the suite.
 */
export function useViewerRig(): ViewerRig {
  let browser: Browser | undefined;
  let server: PageServer | undefined;
  const pages: ViewerPage[] = [];
  const harnesses: Harness[] = [];
  before(async () => {
    [browser, server] = await Promise.all([launchChromium(), webviewBundle().then(servePage)]);
  });
  after(async () => {
    for (const h of harnesses) h.hub.dispose();
    await browser?.close();
    await server?.close();
  });
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.close();
  });
  const started = (): { browser: Browser; server: PageServer } => {
    if (!browser || !server) throw new Error('the viewer rig is not started (use it inside describeInChromium)');
    return { browser, server };
  };
  return {
    get server() {
      return started().server;
    },
    pages,
    async harness(history = null) {
      const { browser, server } = started();
      const h = await createHarness(browser, server, { history, hub: { coalescer: { intervalMs: 20 }, headDelayMs: 200 } });
      harnesses.push(h);
      return h;
    },
    async open(h, options = {}) {
      const p = await ViewerPage.open(h, options);
      pages.push(p);
      await p.settle();
      return p;
    },
  };
}

/** Emits events into a run, yielding to the event loop every `chunk` events (so the coalescer timers can run). */
export async function replay(run: FakeRun, events: RunEvent[], chunk = 25, pauseMs = 5): Promise<void> {
  for (let i = 0; i < events.length; i++) {
    run.emit(events[i]);
    if ((i + 1) % chunk === 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
}

export function tmpDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

// Vote viewer bundle (browser, strict CSP): the page the host's ViewerHub talks to. See src/protocol/messages.ts for
// the protocol and webview/app.ts for the rendering.

import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { App } from './app';
import { connectHost } from './bridge';

const root = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
const host = connectHost();
const report = (message: string) => host.post({ type: 'log', level: 'error', message: message.slice(0, 3900) });
window.addEventListener('error', (e) => report(`${e.message} at ${e.filename}:${e.lineno}`));
window.addEventListener('unhandledrejection', (e) => report(`unhandled rejection: ${String(e.reason)}`));

const app = new App(host, root);
window.addEventListener('message', (e: MessageEvent) => app.receive(e.data));
// For the Chromium tests (counters only; no control over the page).
(window as unknown as { massgenViewer: { stats: App['stats'] } }).massgenViewer = { stats: app.stats };
host.post({ type: 'ready', runId: host.ui.follow ? null : host.ui.runId, follow: host.ui.follow });

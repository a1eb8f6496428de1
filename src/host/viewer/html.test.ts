import assert from 'node:assert/strict';
import { contentSecurityPolicy, makeNonce, viewerHtml } from './html';

describe('vote viewer: page and CSP', () => {
  const html = viewerHtml({
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    nonce: 'N0nce+/=',
    scriptUri: 'https://x/dist/webview/main.js',
    styleUri: 'https://x/dist/webview/main.css',
    codiconUri: 'https://x/dist/webview/codicon.css',
    surface: 'panel',
    title: '"><script>alert(1)</script>',
  });

  it('allows only our nonce’d script and our own styles, fonts and images; nothing remote, no network', () => {
    const csp = contentSecurityPolicy('https://file+.vscode-resource.vscode-cdn.net', 'abc');
    assert.match(csp, /^default-src 'none'; /);
    assert.match(csp, /script-src 'nonce-abc'(;|$)/);
    assert.match(csp, /style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net(;|$)/);
    assert.match(csp, /img-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net(;|$)/);
    assert.match(csp, /connect-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https:(;| )|data:|\*/);
  });

  it('carries the CSP, one nonce’d script, no inline script or style, and escapes what it interpolates', () => {
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;|<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0], /nonce="N0nce\+\/="/);
    assert.match(scripts[0], /src="https:\/\/x\/dist\/webview\/main\.js"/);
    assert.doesNotMatch(html, /<style|style="/);
    assert.doesNotMatch(html, /<script>alert/);
    assert.match(html, /data-surface="panel"/);
    assert.match(html, /id="vscode-codicon-stylesheet"/);
  });

  it('makes a fresh 128-bit nonce each time', () => {
    const a = makeNonce();
    assert.notEqual(a, makeNonce());
    assert.equal(Buffer.from(a, 'base64').length, 16);
  });
});

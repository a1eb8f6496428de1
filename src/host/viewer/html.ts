// The vote viewer's page: a strict CSP (nothing but our nonce'd script, our stylesheets and font; no inline
// styles, no images or fonts from anywhere else, no network), no boot data in the HTML (everything arrives as
// messages). Pure, so the Chromium tests load exactly this page.

import { randomBytes } from 'node:crypto';

export interface ViewerHtmlParams {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  /** Which webview this is: the sidebar view or the editor panel (the page hides "open in editor" in the panel). */
  surface: 'view' | 'panel';
  title?: string;
}

/** A fresh nonce per page: 128 random bits (not Math.random). */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function viewerHtml(p: ViewerHtmlParams): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(p.cspSource, p.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link id="vscode-codicon-stylesheet" rel="stylesheet" href="${attr(p.codiconUri)}">
<link rel="stylesheet" href="${attr(p.styleUri)}">
<title>${attr(p.title ?? 'MassGen Vote Viewer')}</title>
</head>
<body data-surface="${p.surface === 'panel' ? 'panel' : 'view'}">
<div id="root" aria-busy="true"><p class="boot">Loading the vote viewer…</p></div>
<script nonce="${attr(p.nonce)}" src="${attr(p.scriptUri)}"></script>
</body>
</html>
`;
}

// Links in model output open only through the host, and only https: no command:, file:, javascript:, data:,
// vscode: or http: URIs, no credentials in the URL. Both sides use this check; the host's is the one that counts.

export const MAX_LINK_LENGTH = 4096;

/** The normalized URL when `href` may be opened, else null. */
export function safeExternalLink(href: string): string | null {
  if (typeof href !== 'string' || href.length === 0 || href.length > MAX_LINK_LENGTH) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s]/.test(href)) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || !url.hostname || url.username || url.password) return null;
  return url.href;
}

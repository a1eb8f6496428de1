// URLs as they may be shown: a base URL can carry a key (user:password@, ?key=…, a ${VAR} expanded into either), and
// what is shown reaches events, status.json, logs and the vote viewer.

/** A URL without credentials, query or fragment (a key may hide in any of them). */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    // Unchanged when there is nothing to hide, so it reads as the user wrote it.
    if (!u.username && !u.password && !u.search && !u.hash) return url;
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '').replace(/\/\/[^/@]*@/, '//');
  }
}

/** `text` with every URL in it shown as `publicUrl` shows one (an error's cause may quote the request's URL). */
export function hideUrlSecrets(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, (url) => publicUrl(url));
}

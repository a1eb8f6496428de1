/** Text squeezed to one line of at most `max` characters (with an ellipsis when cut), for progress lines and labels. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** How many leading characters two texts have in common. */
export function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** `text` with CRLF line ends as LF: a CRLF checkout and the LF text read from git compare equal. */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

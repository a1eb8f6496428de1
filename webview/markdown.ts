// Model output → DOM, inert: markdown-it with raw HTML off, then DOMPurify with a small allowlist (no images, no
// forms, no styles, no SVG/MathML), links kept only when https (and opened only through the host on click).
// Markdown nested deeper than markdown-it will parse is shown as plain text rather than silently cut short.

import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { safeExternalLink } from '../src/protocol/links';

export const MAX_NESTING = 40;

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false, maxNesting: MAX_NESTING });

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// Images never load (the CSP would block remote ones anyway, and they can leak data): a link to them instead.
md.renderer.rules.image = (tokens, idx, options, env, self): string => {
  const token = tokens[idx];
  const alt = self.renderInlineAsText(token.children ?? [], options, env) || 'image';
  const src = String(token.attrGet('src') ?? '');
  return `<a class="md-image" href="${escapeHtml(src)}">[image: ${escapeHtml(alt)}]</a>`;
};

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 's', 'del', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span',
];

let configured = false;
function purifier(): typeof DOMPurify {
  if (!configured) {
    configured = true;
    // Configured once: passing the config to every sanitize() call re-parses it each time (slow while streaming).
    DOMPurify.setConfig({
      ALLOWED_TAGS,
      ALLOWED_ATTR: ['href', 'title', 'start', 'class', 'rel'],
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      RETURN_DOM_FRAGMENT: true,
    });
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.nodeName !== 'A') return;
      const href = node.getAttribute('href');
      const safe = href ? safeExternalLink(href) : null;
      if (safe) {
        node.setAttribute('href', safe);
        node.setAttribute('title', safe);
        node.setAttribute('rel', 'noopener noreferrer');
      } else {
        node.removeAttribute('href');
        node.classList.add('md-blocked-link');
        node.setAttribute('title', href ? `Not a link that can be opened (only https): ${href.slice(0, 200)}` : 'Not a link');
      }
    });
  }
  return DOMPurify;
}

function sanitize(html: string): DocumentFragment {
  return purifier().sanitize(html) as unknown as DocumentFragment;
}

/** Unbroken runs this long get their own horizontally scrolling line (see `isolateLongTokens`). */
export const LONG_TOKEN = 400;
const LONG_RUN = new RegExp(`\\S{${LONG_TOKEN},}`, 'g');

/**
 * Moves each very long unbroken run of text (a hostile "word" of 20,000 characters, a base64 blob) into a
 * `span.long-token` that scrolls sideways instead of wrapping. Wrapping such a run can take seconds of layout on
 * every resize with some fonts; a scrolling line keeps every character and costs nothing. Code blocks already
 * scroll, so they are left alone.
 */
export function isolateLongTokens(root: Node): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const hits: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n as Text;
    if (text.data.length >= LONG_TOKEN && !text.parentElement?.closest('pre, .long-token')) hits.push(text);
  }
  for (const text of hits) {
    const data = text.data;
    LONG_RUN.lastIndex = 0;
    if (!LONG_RUN.test(data)) continue;
    LONG_RUN.lastIndex = 0;
    const parts: Node[] = [];
    let last = 0;
    for (let m = LONG_RUN.exec(data); m; m = LONG_RUN.exec(data)) {
      if (m.index > last) parts.push(document.createTextNode(data.slice(last, m.index)));
      const span = document.createElement('span');
      span.className = 'long-token';
      span.textContent = m[0];
      span.title = `${m[0].length} characters without a break (scroll sideways)`;
      parts.push(span);
      last = m.index + m[0].length;
    }
    if (last < data.length) parts.push(document.createTextNode(data.slice(last)));
    text.replaceWith(...parts);
  }
}

/** Text as it is (no markdown), with long unbroken runs isolated. */
export function plainText(text: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  frag.append(text);
  isolateLongTokens(frag);
  return frag;
}

function plain(text: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  const div = document.createElement('div');
  div.className = 'md-plain';
  div.append(plainText(text));
  frag.append(div);
  return frag;
}

/** Markdown → sanitized DOM. */
export function renderMarkdown(text: string): DocumentFragment {
  if (!text) return document.createDocumentFragment();
  const tokens = md.parse(text, {});
  // markdown-it stops parsing (dropping the rest) when blocks nest past maxNesting: show such text as it is.
  let deepest = 0;
  for (const t of tokens) if (t.level > deepest) deepest = t.level;
  if (deepest >= MAX_NESTING - 1) return plain(text);
  const frag = sanitize(md.renderer.render(tokens, md.options, {}));
  isolateLongTokens(frag);
  return frag;
}

/** Splits markdown into block chunks at blank lines outside fenced code, each at most about `size` characters. */
export function chunkMarkdown(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const chunks: string[] = [];
  let start = 0;
  let fence: string | null = null;
  let lineStart = 0;
  let lastBreak = -1;
  while (lineStart < text.length) {
    let end = text.indexOf('\n', lineStart);
    if (end < 0) end = text.length;
    const line = text.slice(lineStart, end);
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (marker) {
      if (fence === null) fence = marker[1];
      else if (marker[1][0] === fence[0] && marker[1].length >= fence.length && line.trim() === marker[1]) fence = null;
    }
    if (fence === null && line.trim() === '') lastBreak = end + 1;
    if (end + 1 - start >= size && lastBreak > start) {
      chunks.push(text.slice(start, lastBreak));
      start = lastBreak;
    }
    lineStart = end + 1;
  }
  if (start < text.length) chunks.push(text.slice(start));
  return chunks;
}

const CHUNK = 16_000;

/**
 * Renders a (possibly long) answer into `target`: short texts at once, long ones in chunks on later tasks so no
 * single task blocks the page. Returns a cancel function.
 */
export function renderInto(target: HTMLElement, text: string): () => void {
  target.replaceChildren();
  const chunks = chunkMarkdown(text, CHUNK);
  let cancelled = false;
  let i = 0;
  const step = () => {
    if (cancelled) return;
    target.append(renderMarkdown(chunks[i++]));
    if (i < chunks.length) setTimeout(step, 0);
  };
  step();
  return () => {
    cancelled = true;
  };
}

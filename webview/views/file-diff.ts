// One file's diff: hunk headers, added, removed and context lines, monospace, in the theme's diff colours. A file
// of 20,000 lines never becomes 20,000 rows of DOM at once: rows are added DIFF_CHUNK_ROWS at a time ("Show more"),
// and a chunk scrolled out of view costs no layout or paint (content-visibility). Lines are model output: text
// nodes only, invisible characters written out, very long lines clipped.

import type { DiffRow, FileDiff } from '../diff-parse';
import { h, setClass, setHidden, setText } from '../dom';
import { visible } from '../format';

export const DIFF_CHUNK_ROWS = 400;
/** Characters of one line shown (a minified file can have a megabyte on one line). */
const MAX_LINE_CHARS = 2000;

const integer = new Intl.NumberFormat('en-US');

function row(r: DiffRow): HTMLElement {
  if (r.kind === 'hunk' || r.kind === 'meta') return h('div', { class: `diff-row diff-${r.kind}`, text: visible(r.text) });
  const text = visible(r.text);
  const clipped = text.length > MAX_LINE_CHARS;
  return h(
    'div',
    { class: `diff-row diff-${r.kind}` },
    // Line numbers as attributes shown by CSS: not part of the text that is read out or copied.
    h('span', { class: 'diff-no', attrs: { 'aria-hidden': 'true', 'data-o': r.oldNo, 'data-n': r.newNo } }),
    h('span', { class: 'diff-text', text: clipped ? `${text.slice(0, MAX_LINE_CHARS)}…` : text, title: clipped ? `Line clipped: ${integer.format(text.length)} characters` : undefined }),
  );
}

export class FileDiffView {
  readonly el: HTMLElement;
  private readonly lines = h('div', { class: 'diff-lines' });
  private readonly scroll: HTMLElement;
  private readonly shownText = h('span', { class: 'diff-shown' });
  private readonly more: HTMLButtonElement;
  private readonly foot: HTMLElement;
  private shown = 0;

  constructor(private readonly file: FileDiff, name: string) {
    this.more = h('button', { class: 'link-btn diff-more', attrs: { type: 'button' }, on: { click: () => this.showMore() } });
    this.foot = h('div', { class: 'diff-foot' }, this.shownText, this.more);
    this.scroll = h('div', { class: 'diff-scroll', attrs: { tabindex: 0, role: 'region', 'aria-label': `Diff of ${name}` } }, this.lines);
    this.el = h('div', { class: 'diff' }, this.scroll, this.foot);
    // Gutters as wide as the largest line number (CSSOM: allowed by the CSP, unlike a style attribute), and none
    // for a side without lines (an added or deleted file): columns are narrow.
    let last = 0;
    let old = false;
    let now = false;
    for (const r of file.rows) {
      if (r.oldNo !== null) old = true;
      if (r.newNo !== null) now = true;
      last = Math.max(last, r.oldNo ?? 0, r.newNo ?? 0);
    }
    this.el.style.setProperty('--mg-digits', String(Math.max(3, String(last).length)));
    setClass(this.el, 'no-old', !old);
    setClass(this.el, 'no-new', !now);
    this.showMore();
  }

  /** Renders the next DIFF_CHUNK_ROWS rows. */
  showMore(): void {
    const rows = this.file.rows;
    const end = Math.min(rows.length, this.shown + DIFF_CHUNK_ROWS);
    const chunk = h('div', { class: 'diff-chunk' });
    for (let i = this.shown; i < end; i++) chunk.append(row(rows[i]));
    this.lines.append(chunk);
    this.shown = end;
    const left = rows.length - end;
    // The last chunk hides the button: keep the keyboard in the diff rather than dropping focus to the page.
    if (left === 0 && document.activeElement === this.more) this.scroll.focus();
    setHidden(this.foot, left === 0);
    setText(this.shownText, `${integer.format(end)} of ${integer.format(rows.length)} lines shown`);
    setText(this.more, `Show ${integer.format(Math.min(DIFF_CHUNK_ROWS, left))} more`);
  }
}

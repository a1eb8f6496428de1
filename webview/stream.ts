// The live stream tail of one agent, rendered as markdown incrementally: completed blocks (up to a blank line
// outside fenced code) are rendered once and kept as DOM; only the growing last block is re-rendered. The DOM keeps
// about as much text as the RunState's stream tail; a runaway block (a huge code fence or an endless line) is
// shown by its end. Completed blocks are grouped in pages of about PAGE_CHARS: the stream shows its last lines only,
// and a page scrolled out of view costs no layout or paint on a streaming frame (CSS content-visibility); the
// oldest text is dropped a page at a time.

import { STREAM_TAIL_CHARS } from '../src/protocol/state';
import { renderMarkdown } from './markdown';

/** Characters of completed blocks kept in the DOM. */
export const STREAM_DOM_CHARS = STREAM_TAIL_CHARS + 1000;
const PARTIAL_MAX = 6000;
const PARTIAL_KEEP = 4000;
const PAGE_CHARS = 1000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Completed blocks and the unfinished rest. Blank lines inside fenced code do not end a block. */
export function splitBlocks(text: string): { blocks: string[]; rest: string } {
  const blocks: string[] = [];
  let start = 0;
  let pos = 0;
  let fence: string | null = null;
  let content = false;
  for (;;) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) break;
    const line = text.slice(pos, nl);
    const marker = FENCE.exec(line);
    if (marker) {
      if (fence === null) fence = marker[1];
      else if (marker[1][0] === fence[0] && marker[1].length >= fence.length && line.trim() === marker[1]) fence = null;
      content = true;
    } else if (fence === null && line.trim() === '') {
      if (content) {
        blocks.push(text.slice(start, nl + 1));
        start = nl + 1;
        content = false;
      }
    } else {
      content = true;
    }
    pos = nl + 1;
  }
  return { blocks, rest: text.slice(start) };
}

/** The opening line (and its offset) of a fence left open at the end of `text`, if any. */
export function openFence(text: string): { line: string; index: number } | null {
  let fence: string | null = null;
  let opener: { line: string; index: number } | null = null;
  let index = 0;
  for (const line of text.split('\n')) {
    const marker = FENCE.exec(line);
    if (marker) {
      if (fence === null) {
        fence = marker[1];
        opener = { line: line.trim(), index };
      } else if (marker[1][0] === fence[0] && marker[1].length >= fence.length && line.trim() === marker[1]) {
        fence = null;
        opener = null;
      }
    }
    index += line.length + 1;
  }
  return opener;
}

export class StreamView {
  readonly el: HTMLElement;
  private readonly blocksEl: HTMLElement;
  private readonly tailEl: HTMLElement;
  private partial = '';
  private renderedPartial = '';
  /** Characters of each page of completed blocks, oldest first (one per child of blocksEl). */
  private readonly pageChars: number[] = [];
  private total = 0;
  private dirty = false;
  private clipped = false;
  private length = 0;

  constructor(className: string) {
    this.el = document.createElement('div');
    this.el.className = className;
    this.blocksEl = document.createElement('div');
    this.tailEl = document.createElement('div');
    this.tailEl.className = 'stream-tail';
    this.el.append(this.blocksEl, this.tailEl);
  }

  /** Characters received since the last reset. */
  get size(): number {
    return this.length;
  }

  reset(text = ''): void {
    this.blocksEl.replaceChildren();
    this.tailEl.replaceChildren();
    this.pageChars.length = 0;
    this.total = 0;
    this.partial = text;
    this.renderedPartial = '';
    this.clipped = false;
    this.length = text.length;
    this.dirty = true;
  }

  append(text: string): void {
    this.partial += text;
    this.length += text.length;
    this.dirty = true;
  }

  /** Renders what arrived since the last call; false when nothing changed. */
  render(): boolean {
    if (!this.dirty) return false;
    this.dirty = false;
    const { blocks, rest } = splitBlocks(this.partial);
    for (const b of blocks) {
      let page = this.blocksEl.lastElementChild;
      if (!page || this.pageChars[this.pageChars.length - 1] >= PAGE_CHARS) {
        page = this.blocksEl.appendChild(document.createElement('div'));
        page.className = 'stream-page';
        this.pageChars.push(0);
      }
      const div = document.createElement('div');
      div.className = 'stream-block';
      div.append(renderMarkdown(b));
      page.append(div);
      this.pageChars[this.pageChars.length - 1] += b.length;
      this.total += b.length;
    }
    this.partial = rest;
    if (this.partial.length > PARTIAL_MAX) {
      const fence = openFence(this.partial);
      const cut = this.partial.length - PARTIAL_KEEP;
      const kept = this.partial.slice(cut);
      // Cut inside a code fence: reopen it, so the kept end still renders as code.
      this.partial = fence && fence.index < cut ? `${fence.line}\n${kept}` : kept;
      this.clipped = true;
    }
    while (this.total > STREAM_DOM_CHARS && this.pageChars.length > 0) {
      this.blocksEl.firstElementChild?.remove();
      this.total -= this.pageChars.shift()!;
      this.clipped = true;
    }
    if (this.partial !== this.renderedPartial) {
      this.tailEl.replaceChildren(renderMarkdown(this.partial));
      this.renderedPartial = this.partial;
    }
    this.el.classList.toggle('clipped', this.clipped);
    return true;
  }
}

// The smallest set of line edits that turns one text into another, as offsets into the first: an editor applies
// them as separate replacements, so a reviewed change shows only the lines that changed instead of the whole file
// struck through and written again.

import { diffLines } from 'diff';

export interface TextEdit {
  /** Offsets into the original text: replace [start, end) with `text`. */
  start: number;
  end: number;
  text: string;
}

/** Edits in order, not overlapping; applying them all to `before` gives `after`. */
export function lineEdits(before: string, after: string): TextEdit[] {
  const edits: TextEdit[] = [];
  let offset = 0;
  let pending: TextEdit | null = null;
  for (const part of diffLines(before, after)) {
    if (!part.added && !part.removed) {
      if (pending) edits.push(pending);
      pending = null;
      offset += part.value.length;
      continue;
    }
    pending ??= { start: offset, end: offset, text: '' };
    if (part.removed) {
      offset += part.value.length;
      pending.end = offset;
    } else {
      pending.text += part.value;
    }
  }
  if (pending) edits.push(pending);
  return edits;
}

/** `before` with the edits applied (for tests and for checking a plan before it is applied). */
export function applyEdits(before: string, edits: readonly TextEdit[]): string {
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += before.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + before.slice(at);
}

// Re-anchoring a selection after the document changed underneath a run. The agents worked on a snapshot
// (`originalDoc`); by the time the winning answer arrives the user may have typed elsewhere. We map the snapshot's
// selection offsets into the current text and succeed only when every edit lies outside the selection, so that
// `currentDoc.slice(start, end)` is byte-for-byte the text the agents saw. Pure: strings and UTF-16 offsets only
// (the same offsets VS Code's `document.offsetAt` uses, CRLF counting as two characters).
//
// Method: a document whose only change is its line endings (LF <-> CRLF) is mapped by line and column; otherwise
// common prefix/suffix first (cheap, settles the usual "typed somewhere else" case); if that coarse edit
// touches the selection, a line diff of the changed region, then a word diff (words, whitespace runs, single
// punctuation characters) of any line hunk that still touches the selection, so an edit on the same line but
// outside the selected text is tolerated. Words rather than characters: a character diff of a rewritten line finds
// spurious common letters and would happily anchor an insertion point inside text that no longer exists.
//
// Boundary rules: an insertion exactly at the selection start goes before it, one exactly at the end goes after it;
// for an empty selection (an insertion point) text inserted at the point goes before it (the point moves right,
// like a caret). A replacement or deletion that overlaps a selected character, or an insertion strictly inside the
// selection, is a conflict and the re-anchor is refused.

import { diffLines, diffWordsWithSpace, type ChangeObject } from 'diff';
import { commonPrefixLength, toLf } from '../util/text';

export interface ReanchorInput {
  /** The document text the agents saw. */
  originalDoc: string;
  /** The document text now. */
  currentDoc: string;
  /** Selection offsets in `originalDoc`; `start === end` is an insertion point. */
  start: number;
  end: number;
}

export type ReanchorResult =
  | { ok: true; start: number; end: number; shifted: boolean }
  | { ok: false; reason: string; kind: 'invalid-range' | 'changed' | 'deleted' | 'too-different' };

/** Diffs give up after this long and the re-anchor is refused rather than blocking the extension host. */
const DIFF_TIMEOUT_MS = 1500;
/** Word-level refinement is skipped for hunks larger than this (each side), keeping the line verdict. */
const MAX_REFINE = 200_000;

/** An edit in the original document's coordinates: old [os, oe) became new [ns, ne). */
interface Edit {
  os: number;
  oe: number;
  ns: number;
  ne: number;
}

type Side = 'before' | 'after' | 'conflict';

function classify(ed: Edit, s: number, e: number): Side {
  if (ed.oe <= s) return 'before'; // includes an insertion exactly at the start (and at an empty selection's point)
  if (ed.os >= e) return 'after'; // includes an insertion exactly at the end
  return 'conflict';
}

function mapThrough(edits: readonly Edit[], s: number, e: number): { start: number; end: number } | Edit[] {
  let delta = 0;
  const conflicts: Edit[] = [];
  for (const ed of edits) {
    const side = classify(ed, s, e);
    if (side === 'before') delta += (ed.ne - ed.ns) - (ed.oe - ed.os);
    else if (side === 'conflict') conflicts.push(ed);
  }
  return conflicts.length > 0 ? conflicts : { start: s + delta, end: e + delta };
}

/** Turns a change list into edits; `null` if the change list does not reproduce both texts' lengths. */
function editsFromChanges(changes: readonly ChangeObject<string>[], oldBase: number, newBase: number, oldLen: number, newLen: number): Edit[] | null {
  const edits: Edit[] = [];
  let o = oldBase;
  let n = newBase;
  let pending: Edit | null = null;
  for (const ch of changes) {
    const len = ch.value.length;
    if (ch.added) {
      pending ??= { os: o, oe: o, ns: n, ne: n };
      n += len;
      pending.ne = n;
    } else if (ch.removed) {
      pending ??= { os: o, oe: o, ns: n, ne: n };
      o += len;
      pending.oe = o;
    } else {
      if (pending) edits.push(pending);
      pending = null;
      o += len;
      n += len;
    }
  }
  if (pending) edits.push(pending);
  if (o !== oldBase + oldLen || n !== newBase + newLen) return null;
  return edits;
}

function commonSuffix(a: string, b: string, limit: number): number {
  let i = 0;
  while (i < limit && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/** 1-based line number of `offset`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** 0-based line index and column of `offset`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const lineStart = offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
  return { line: lineAt(text, offset) - 1, column: offset - lineStart };
}

/** Offset of a line/column, the column clamped to the line's content (before its `\r\n` or `\n`). */
function lineColumnOffset(text: string, { line, column }: { line: number; column: number }): number {
  let lineStart = 0;
  for (let i = 0; i < line; i++) lineStart = text.indexOf('\n', lineStart) + 1;
  const nl = text.indexOf('\n', lineStart);
  const contentEnd = nl === -1 ? text.length : nl > lineStart && text[nl - 1] === '\r' ? nl - 1 : nl;
  return Math.min(lineStart + column, contentEnd);
}

function describeLines(text: string, s: number, e: number): string {
  const first = lineAt(text, s);
  const last = e > s ? lineAt(text, e - 1) : first;
  return first === last ? `line ${first}` : `lines ${first}–${last}`;
}

function refuse(doc: string, s: number, e: number, conflicts: readonly Edit[]): ReanchorResult {
  if (s === e) {
    const ed = conflicts[0]!;
    return {
      ok: false,
      kind: 'changed',
      reason: `The insertion point (line ${lineAt(doc, s)}) is inside text that was ${ed.ne > ed.ns ? 'changed' : 'deleted'} (${describeLines(doc, ed.os, ed.oe)}) while the agents were working.`,
    };
  }
  const where = describeLines(doc, s, e);
  let removedInside = 0;
  for (const ed of conflicts) removedInside += Math.max(0, Math.min(ed.oe, e) - Math.max(ed.os, s));
  if (removedInside === e - s) {
    const replaced = conflicts.some((ed) => ed.ne > ed.ns);
    return { ok: false, kind: 'deleted', reason: `The selected text (${where}) was ${replaced ? 'deleted or replaced' : 'deleted'} while the agents were working.` };
  }
  const first = conflicts[0]!;
  const detail = first.os === first.oe
    ? `text inserted at line ${lineAt(doc, first.os)}`
    : `${describeLines(doc, Math.max(first.os, s), Math.min(first.oe, e))} ${first.ne > first.ns ? 'edited' : 'partly deleted'}`;
  const more = conflicts.length > 1 ? `, and ${conflicts.length - 1} more change${conflicts.length > 2 ? 's' : ''}` : '';
  return { ok: false, kind: 'changed', reason: `The selected text (${where}) was changed while the agents were working (${detail}${more}).` };
}

/**
 * Maps `[start, end)` from `originalDoc` into `currentDoc`. Succeeds when all edits between the two texts lie
 * outside the selection (the offsets shift by the edits before it); refuses when the selected text itself was
 * changed or deleted. On success `currentDoc.slice(start, end) === originalDoc.slice(input.start, input.end)`.
 */
export function reanchorSelection(input: ReanchorInput): ReanchorResult {
  const { originalDoc: oldDoc, currentDoc: newDoc, start: s, end: e } = input;
  if (!Number.isInteger(s) || !Number.isInteger(e) || s < 0 || e < s || e > oldDoc.length) {
    return { ok: false, kind: 'invalid-range', reason: `Selection ${s}–${e} is not a valid range in the original document (length ${oldDoc.length}).` };
  }
  if (oldDoc === newDoc) return { ok: true, start: s, end: e, shifted: false };

  const done = (m: { start: number; end: number }): ReanchorResult => {
    // Belt and braces: by construction the selection lies in unchanged text; never hand back a wrong range.
    if (newDoc.slice(m.start, m.end) !== oldDoc.slice(s, e)) {
      return { ok: false, kind: 'changed', reason: `The selected text (${describeLines(oldDoc, s, e)}) could not be located reliably in the current document.` };
    }
    return { ok: true, start: m.start, end: m.end, shifted: m.start !== s || m.end !== e };
  };

  // 0. Only the line endings changed (LF <-> CRLF): map by line and column instead of diffing every line.
  if ((oldDoc.includes('\r') || newDoc.includes('\r')) && toLf(oldDoc) === toLf(newDoc)) {
    if (/[\r\n]/.test(oldDoc.slice(s, e))) {
      return { ok: false, kind: 'changed', reason: `The document's line endings were converted (LF ↔ CRLF) while the agents were working, which changed the selected text (${describeLines(oldDoc, s, e)}).` };
    }
    const start = lineColumnOffset(newDoc, lineColumn(oldDoc, s));
    return done({ start, end: start + (e - s) });
  }

  // 1. One coarse edit between the common prefix and the common suffix.
  const pre = commonPrefixLength(oldDoc, newDoc);
  const suf = commonSuffix(oldDoc, newDoc, Math.min(oldDoc.length, newDoc.length) - pre);
  const oE = oldDoc.length - suf;
  const nE = newDoc.length - suf;
  const coarse = mapThrough([{ os: pre, oe: oE, ns: pre, ne: nE }], s, e);
  if (!Array.isArray(coarse)) return done(coarse);

  // 2. Line diff of the changed region, widened to whole lines (the widening stays inside the common prefix/suffix).
  const from = pre === 0 ? 0 : oldDoc.lastIndexOf('\n', pre - 1) + 1;
  const nl = oldDoc.indexOf('\n', oE);
  const oldTo = nl === -1 ? oldDoc.length : nl + 1;
  const newTo = nl === -1 ? newDoc.length : nE + (nl + 1 - oE);
  const oldMid = oldDoc.slice(from, oldTo);
  const newMid = newDoc.slice(from, newTo);
  const lineChanges = diffLines(oldMid, newMid, { timeout: DIFF_TIMEOUT_MS });
  const lineEdits = lineChanges && editsFromChanges(lineChanges, from, from, oldMid.length, newMid.length);
  if (!lineEdits) {
    return { ok: false, kind: 'too-different', reason: `The document changed too much while the agents were working to locate the selection (${describeLines(oldDoc, s, e)}).` };
  }

  // 3. Word diff of replaced line hunks that touch the selection.
  const edits: Edit[] = [];
  for (const ed of lineEdits) {
    const refinable = classify(ed, s, e) === 'conflict' && ed.oe > ed.os && ed.ne > ed.ns
      && ed.oe - ed.os <= MAX_REFINE && ed.ne - ed.ns <= MAX_REFINE;
    if (!refinable) {
      edits.push(ed);
      continue;
    }
    const oldPart = oldDoc.slice(ed.os, ed.oe);
    const newPart = newDoc.slice(ed.ns, ed.ne);
    const wordChanges = diffWordsWithSpace(oldPart, newPart, { timeout: DIFF_TIMEOUT_MS });
    const sub = wordChanges && editsFromChanges(wordChanges, ed.os, ed.ns, oldPart.length, newPart.length);
    edits.push(...(sub ?? [ed]));
  }

  const fine = mapThrough(edits, s, e);
  return Array.isArray(fine) ? refuse(oldDoc, s, e, fine) : done(fine);
}

/** `doc` with `[start, end)` replaced by `replacement`. Throws a RangeError on an invalid range. */
export function applyToText(doc: string, start: number, end: number, replacement: string): string {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > doc.length) {
    throw new RangeError(`applyToText: invalid range ${start}–${end} for a text of length ${doc.length}`);
  }
  return doc.slice(0, start) + replacement + doc.slice(end);
}

/**
 * Lines added and removed going from `before` to `after` (a changed line counts once in each), for the UI's
 * "+3 −1" summary. A final line without a newline differs from the same line with one, as in `git diff`.
 */
export function lineDiffStats(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  if (before === after) return { added, removed };
  for (const ch of diffLines(before, after)) {
    if (ch.added) added += ch.count;
    else if (ch.removed) removed += ch.count;
  }
  return { added, removed };
}

// Splits a unified, git-style patch into files and display rows for the diff view. The text is model-made (file
// names and lines are whatever an agent wrote) and may be cut short by the host's size cap, so this never throws
// and never trusts a count: hunk lengths only decide where a hunk ends (a removed line "-- x" reads as "--- x",
// which must not start a new file). One pass, linear in the text: a 50,000-line patch takes milliseconds.

export type RowKind = 'hunk' | 'add' | 'del' | 'ctx' | 'meta';

export interface DiffRow {
  kind: RowKind;
  /** The line without its +/-/space prefix (a hunk row: its whole `@@ … @@` header; meta: `\ No newline…`). */
  text: string;
  /** Line numbers in the old and new file (null where the row has none). */
  oldNo: number | null;
  newNo: number | null;
}

export interface FileDiff {
  /** The file's path (the old one for a deleted file); '' when the patch never names it. */
  path: string;
  /** The path before a rename or copy, when it differs. */
  oldPath: string | null;
  /** Binary content: a "Binary files … differ" line or a GIT binary patch (whose data is skipped). */
  binary: boolean;
  rows: DiffRow[];
}

export interface ParsedPatch {
  files: FileDiff[];
  /** Lines outside any file (text before the first header, garbage between files). */
  stray: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Git's C-style quoting of unusual paths: "a/x\"y\303\251" (octal escapes are UTF-8 bytes). */
function unquote(quoted: string): string {
  const bytes: number[] = [];
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '"': 34, '\\': 92 };
  const encoder = new TextEncoder();
  for (let i = 1; i < quoted.length - 1; i++) {
    const c = quoted[i];
    if (c !== '\\') {
      bytes.push(...encoder.encode(c));
      continue;
    }
    const next = quoted[++i] ?? '';
    const octal = /^[0-7]{3}/.exec(quoted.slice(i, i + 3));
    if (octal) {
      bytes.push(parseInt(octal[0], 8) & 0xff);
      i += 2;
    } else bytes.push(escapes[next] ?? next.charCodeAt(0));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path of a `--- ` / `+++ ` line (null for /dev/null), without its a/ or b/ prefix or a trailing tab part. */
function headerPath(raw: string, prefix: 'a/' | 'b/'): string | null {
  const quoted = raw.startsWith('"') && raw.length > 1;
  const path = quoted ? unquote(raw.slice(0, raw.lastIndexOf('"') + 1)) : raw.split('\t')[0];
  if (path === '/dev/null') return null;
  return path.startsWith(prefix) ? path.slice(2) : path;
}

/** A path from a `rename from/to` line (quoted or not). */
function plainPath(raw: string): string {
  return raw.startsWith('"') && raw.endsWith('"') && raw.length > 1 ? unquote(raw) : raw;
}

/** Paths from `diff --git a/X b/Y`: quoted tokens, an unquoted `a/P b/P` split in the middle, or at " b/". */
function gitHeaderPaths(rest: string): { oldPath: string; path: string } {
  if (rest.includes('"')) {
    const m = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
    if (m) return { oldPath: headerPath(m[1], 'a/') ?? '', path: headerPath(m[2], 'b/') ?? '' };
  }
  const p = (rest.length - 5) / 2;
  if (rest.startsWith('a/') && rest.slice(2 + p, 5 + p) === ' b/' && rest.slice(2, 2 + p) === rest.slice(5 + p)) {
    return { oldPath: rest.slice(2, 2 + p), path: rest.slice(5 + p) };
  }
  const cut = rest.indexOf(' b/');
  if (cut > 0) return { oldPath: headerPath(rest.slice(0, cut), 'a/') ?? '', path: rest.slice(cut + 3) };
  return { oldPath: rest, path: rest };
}

interface HunkState {
  oldLeft: number;
  newLeft: number;
  oldNo: number;
  newNo: number;
  /** The header had line numbers (a malformed one gives rows without numbers). */
  numbered: boolean;
}

/** Reads one line inside a hunk; false when the line is not a diff line (the hunk ended early). */
function hunkLine(file: FileDiff, h: HunkState, line: string): boolean {
  const c = line[0];
  const no = (n: number) => (h.numbered ? n : null);
  // Tools that strip trailing spaces turn an empty context line into an empty line.
  if (c === ' ' || line === '') {
    file.rows.push({ kind: 'ctx', text: line.slice(1), oldNo: no(h.oldNo++), newNo: no(h.newNo++) });
    h.oldLeft--;
    h.newLeft--;
  } else if (c === '-') {
    file.rows.push({ kind: 'del', text: line.slice(1), oldNo: no(h.oldNo++), newNo: null });
    h.oldLeft--;
  } else if (c === '+') {
    file.rows.push({ kind: 'add', text: line.slice(1), oldNo: null, newNo: no(h.newNo++) });
    h.newLeft--;
  } else if (c === '\\') {
    file.rows.push({ kind: 'meta', text: line, oldNo: null, newNo: null });
  } else {
    return false;
  }
  return true;
}

function hunkHeader(line: string): HunkState {
  const m = HUNK.exec(line);
  // A header without numbers: take lines while they look like diff lines.
  if (!m) return { oldLeft: Infinity, newLeft: Infinity, oldNo: 0, newNo: 0, numbered: false };
  return { oldLeft: m[2] === undefined ? 1 : Number(m[2]), newLeft: m[4] === undefined ? 1 : Number(m[4]), oldNo: Number(m[1]), newNo: Number(m[3]), numbered: true };
}

export function parsePatch(text: string): ParsedPatch {
  const files: FileDiff[] = [];
  let stray = 0;
  let file: FileDiff | null = null;
  /** The current file has had its ---/+++ pair (another pair starts the next file). */
  let named = false;
  let hunk: HunkState | null = null;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const clean = (i: number) => (lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i]);

  for (let i = 0; i < lines.length; i++) {
    const line = clean(i);
    if (file && hunk && (hunk.oldLeft > 0 || hunk.newLeft > 0)) {
      if (hunkLine(file, hunk, line)) continue;
      // Shorter than its header said (a cut or hand-made patch): read the line as a header.
      hunk = null;
    }
    if (line.startsWith('diff --git ')) {
      const names = gitHeaderPaths(line.slice('diff --git '.length));
      file = { path: names.path, oldPath: names.oldPath, binary: false, rows: [] };
      files.push(file);
      named = false;
      hunk = null;
    } else if (line.startsWith('--- ') && i + 1 < lines.length && lines[i + 1].startsWith('+++ ')) {
      const oldPath = headerPath(line.slice(4), 'a/');
      const newPath = headerPath(clean(i + 1).slice(4), 'b/');
      // A patch without `diff --git` lines: each ---/+++ pair starts a file (git writes none for a binary file).
      if (!file || named || file.binary || file.rows.length > 0) {
        file = { path: '', oldPath: null, binary: false, rows: [] };
        files.push(file);
      }
      file.path = newPath ?? oldPath ?? '';
      file.oldPath = oldPath;
      named = true;
      hunk = null;
      i++;
    } else if (line.startsWith('@@')) {
      if (!file) {
        file = { path: '', oldPath: null, binary: false, rows: [] };
        files.push(file);
      }
      hunk = hunkHeader(line);
      file.rows.push({ kind: 'hunk', text: line, oldNo: null, newNo: null });
    } else if (file && line.startsWith('\\')) {
      // "\ No newline at end of file" after a hunk's last line.
      file.rows.push({ kind: 'meta', text: line, oldNo: null, newNo: null });
    } else if (file && file.rows.length === 0) {
      // Extended headers, before the file's first hunk. The base85 data of a GIT binary patch lands here too (its
      // lines start with a letter, never with a diff marker) and is never shown.
      if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
      else if (line.startsWith('rename from ') || line.startsWith('copy from ')) file.oldPath = plainPath(line.slice(line.indexOf(' from ') + 6));
      else if (line.startsWith('rename to ') || line.startsWith('copy to ')) file.path = plainPath(line.slice(line.indexOf(' to ') + 4));
      // Other extended headers (index, modes, similarity) say nothing the view shows.
    } else {
      stray++;
    }
  }
  for (const f of files) if (f.oldPath === f.path) f.oldPath = null;
  return { files, stray };
}

/** The diff of `path` in a parsed patch (by its new path, else its old one). */
export function fileDiffOf(patch: ParsedPatch, path: string): FileDiff | undefined {
  return patch.files.find((f) => f.path === path) ?? patch.files.find((f) => f.oldPath === path);
}

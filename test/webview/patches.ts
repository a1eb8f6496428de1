// Git-style patch text for the diff tests, written the way `git diff --binary` writes it: a file added, modified
// (hunks with context) or deleted, and a binary file. Each builder also returns the ChangedFile the engine would
// list for it, so a scenario's counts and its patch agree.

import type { ChangedFile } from '../../src/core/engine/events';

export interface FilePatch {
  text: string;
  file: ChangedFile;
}

const hash = (path: string, salt: number) => {
  let h = salt;
  for (const c of path) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h.toString(16).padStart(7, '0').slice(0, 7);
};

const prefixed = (sign: string, lines: readonly string[]) => lines.map((l) => `${sign}${l}\n`).join('');

export function addedFile(path: string, lines: readonly string[]): FilePatch {
  const text = `diff --git a/${path} b/${path}\nnew file mode 100644\nindex 0000000..${hash(path, 2)}\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${prefixed('+', lines)}`;
  return { text, file: { path, status: 'added', added: lines.length, removed: 0 } };
}

export function deletedFile(path: string, lines: readonly string[]): FilePatch {
  const text = `diff --git a/${path} b/${path}\ndeleted file mode 100644\nindex ${hash(path, 1)}..0000000\n--- a/${path}\n+++ /dev/null\n@@ -1,${lines.length} +0,0 @@\n${prefixed('-', lines)}`;
  return { text, file: { path, status: 'deleted', added: 0, removed: lines.length } };
}

export interface Hunk {
  /** First line of the hunk in the old file (1-based). */
  at: number;
  before?: readonly string[];
  removed: readonly string[];
  added: readonly string[];
  after?: readonly string[];
}

/** A modified file; hunks in order, each with its context lines. */
export function modifiedFile(path: string, hunks: readonly Hunk[]): FilePatch {
  let text = `diff --git a/${path} b/${path}\nindex ${hash(path, 1)}..${hash(path, 2)} 100644\n--- a/${path}\n+++ b/${path}\n`;
  let shift = 0;
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    const before = h.before ?? [];
    const after = h.after ?? [];
    const oldLen = before.length + h.removed.length + after.length;
    const newLen = before.length + h.added.length + after.length;
    text += `@@ -${h.at},${oldLen} +${h.at + shift},${newLen} @@\n${prefixed(' ', before)}${prefixed('-', h.removed)}${prefixed('+', h.added)}${prefixed(' ', after)}`;
    shift += h.added.length - h.removed.length;
    added += h.added.length;
    removed += h.removed.length;
  }
  return { text, file: { path, status: 'modified', added, removed } };
}

/** A binary file as `git diff --binary` writes it (base85 data, never shown). */
export function binaryFile(path: string, status: 'added' | 'modified' = 'modified'): FilePatch {
  const header = status === 'added' ? `new file mode 100644\nindex 0000000..${hash(path, 2)}\n` : `index ${hash(path, 1)}..${hash(path, 2)} 100644\n`;
  const text = `diff --git a/${path} b/${path}\n${header}GIT binary patch\nliteral 12\nTc\${NkU|?WiU|?WiNZAI2\n\nliteral 8\nPc\${NkU|?Wi;Nt)Q1QY;d\n\n`;
  return { text, file: { path, status, added: null, removed: null } };
}

export function joinPatches(parts: readonly FilePatch[]): { patch: string; files: ChangedFile[] } {
  return { patch: parts.map((p) => p.text).join(''), files: parts.map((p) => p.file) };
}

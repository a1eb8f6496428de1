// File tools offered to an agent inside its turn: read_file, write_file, list_directory, edit_file. Paths are
// relative to the agent's own scratch folder; `peers/<agentK>/…` is a read-only view of every agent's folder in
// the run (the agent's own included, so the view does not reveal which label is the agent's). Everything goes
// through the path guard, and every failure comes back as `{ ok: false, content }` with a message the model can
// act on: `execute` never throws. Messages show only virtual paths, never host paths.

import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, mkdir, open, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { AgentToolbox } from '../engine/ports';
import type { ToolCall, ToolSpec } from '../providers/types';
import { checkPathSyntax, isNoAccessName, isWriteProtectedName, resolveInRoot } from './path-guard';
import { PEERS_PREFIX, type Scratch } from './scratch';

export const READ_FILE = 'read_file';
export const WRITE_FILE = 'write_file';
export const LIST_DIRECTORY = 'list_directory';
export const EDIT_FILE = 'edit_file';

export interface FileToolLimits {
  /** Characters of file content returned by one read_file (the rest is reachable with start_line). */
  maxReadChars: number;
  /** Files larger than this are not read at all. */
  maxReadFileBytes: number;
  /** Largest content one write_file (or the file after edit_file) may have, in UTF-8 bytes. */
  maxWriteBytes: number;
  /** Entries shown by one list_directory. */
  maxListEntries: number;
}

export const DEFAULT_FILE_TOOL_LIMITS: FileToolLimits = {
  maxReadChars: 50_000,
  maxReadFileBytes: 8 * 1024 * 1024,
  maxWriteBytes: 1024 * 1024,
  maxListEntries: 500,
};

type Result = { ok: boolean; content: string };
type ScratchView = Pick<Scratch, 'labels' | 'folderOf'>;

const PATH_HELP =
  `Paths are relative to your own working folder (e.g. "src/index.ts"; use forward slashes). ` +
  `"${PEERS_PREFIX}/agentK/<path>" reads another agent's folder (read-only; agentK as in CURRENT ANSWERS).`;

function fileToolSpecs(limits: FileToolLimits): ToolSpec[] {
  const pathProp = (what: string) => ({ type: 'string', description: `${what}. ${PATH_HELP}` });
  return [
    {
      name: READ_FILE,
      description:
        `Read a UTF-8 text file and return its exact content. ${PATH_HELP} Output longer than ${limits.maxReadChars} characters ` +
        `is cut at a line boundary with a note; call again with start_line to continue. Binary files cannot be read.`,
      parameters: {
        type: 'object',
        properties: {
          path: pathProp('File to read'),
          start_line: { type: 'integer', minimum: 1, description: 'First line to return (1-based). Default 1.' },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
    {
      name: WRITE_FILE,
      description:
        `Create or overwrite a text file in your own folder with the given content (parent folders are created). ` +
        `You cannot write under "${PEERS_PREFIX}/" (other agents' folders are read-only). At most ${limits.maxWriteBytes} bytes per write. ` +
        `Paths are relative to your own folder (e.g. "src/index.ts").`,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File to write, relative to your own folder, e.g. "src/index.ts".' },
          content: { type: 'string', description: 'The complete new content of the file.' },
        },
        required: ['path', 'content'],
        additionalProperties: false,
      },
    },
    {
      name: LIST_DIRECTORY,
      description:
        `List one folder (not recursive): folders end with "/", files show their size in bytes. ${PATH_HELP} ` +
        `Without a path, lists your own folder; "${PEERS_PREFIX}" lists the agents' folders.`,
      parameters: {
        type: 'object',
        properties: { path: pathProp('Folder to list; default "." (your own folder)') },
        required: [],
        additionalProperties: false,
      },
    },
    {
      name: EDIT_FILE,
      description:
        `Replace one exact occurrence of old_text with new_text in a text file in your own folder. old_text must match the ` +
        `file exactly (whitespace and line breaks included) and occur exactly once; include surrounding lines to make it unique. ` +
        `Other agents' folders under "${PEERS_PREFIX}/" cannot be edited. Paths are relative to your own folder.`,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File to edit, relative to your own folder.' },
          old_text: { type: 'string', description: 'Exact text to replace; must occur exactly once in the file.' },
          new_text: { type: 'string', description: 'Replacement text (may be empty to delete old_text).' },
        },
        required: ['path', 'old_text', 'new_text'],
        additionalProperties: false,
      },
    },
  ];
}

/** Where a virtual path points: the peers listing itself, or a folder root plus a path inside it. */
type Route =
  | { ok: true; kind: 'peers-root' }
  | { ok: true; kind: 'folder'; root: string; inner: string; display: (relative: string) => string }
  | { ok: false; reason: string };

function fail(tool: string, message: string): Result {
  return { ok: false, content: `${tool} failed: ${message}` };
}

function describeFsError(err: unknown, shown: string): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `"${shown}" does not exist; use list_directory to see what is there`;
    case 'EISDIR':
      return `"${shown}" is a folder, not a file; use list_directory`;
    case 'ENOTDIR':
      return `part of "${shown}" is a file, not a folder`;
    case 'ELOOP':
      return `"${shown}" is a symbolic link; it cannot be used`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied for "${shown}"`;
    case 'ENOSPC':
    case 'EDQUOT':
      return 'no space left for the scratch folder';
    case 'ENAMETOOLONG':
      return `the path "${shown}" is too long`;
    default:
      return `"${shown}" could not be accessed (${code ?? 'unexpected error'})`;
  }
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Decodes strict UTF-8 text; null for binary (NUL bytes) or another encoding. A BOM is kept, so writes round-trip. */
export function decodeText(buf: Buffer): string | null {
  if (buf.subarray(0, 8192).includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf);
  } catch {
    return null;
  }
}

async function readWhole(absolute: string): Promise<Buffer> {
  const handle = await open(absolute, constants.O_RDONLY | NOFOLLOW);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

async function writeWhole(absolute: string, content: string): Promise<void> {
  const handle = await open(absolute, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o644);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Start indexes of every (possibly overlapping) occurrence of `needle`, up to `cap`. */
function occurrences(text: string, needle: string, cap = 1000): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1 && found.length < cap; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/**
 * The file toolbox for one agent. `agentLabel` picks the agent's own (writable) folder; every folder of the run
 * is readable under `peers/<label>/`.
 */
export function createFileToolbox(scratch: ScratchView, agentLabel: string, limits: Partial<FileToolLimits> = {}): AgentToolbox {
  const lim: FileToolLimits = { ...DEFAULT_FILE_TOOL_LIMITS, ...limits };
  const ownFolder = scratch.folderOf(agentLabel); // throws for an unknown label: a host bug, at construction time
  const labels = [...scratch.labels];
  const tools = fileToolSpecs(lim);

  function route(input: unknown, access: 'read' | 'write', allowRoot: boolean): Route {
    const syntax = checkPathSyntax(input ?? '.', { allowRoot: true });
    if (!syntax.ok) return syntax;
    const segs = syntax.segments;
    if (segs.length > 0 && segs[0].toLowerCase() === PEERS_PREFIX) {
      if (access === 'write') {
        return { ok: false, reason: `"${PEERS_PREFIX}/" holds the agents' folders and is read-only; write in your own folder with a path without "${PEERS_PREFIX}/", e.g. "src/index.ts"` };
      }
      if (segs.length === 1) {
        return allowRoot ? { ok: true, kind: 'peers-root' } : { ok: false, reason: `"${PEERS_PREFIX}" is a folder; use list_directory` };
      }
      const label = labels.find((l) => l.toLowerCase() === segs[1].toLowerCase());
      if (!label) return { ok: false, reason: `there is no agent folder "${segs[1]}"; ${PEERS_PREFIX}/ contains ${labels.join(', ')}` };
      const inner = segs.slice(2).join('/') || '.';
      if (inner === '.' && !allowRoot) return { ok: false, reason: `"${PEERS_PREFIX}/${label}" is a folder; use list_directory` };
      return { ok: true, kind: 'folder', root: scratch.folderOf(label), inner, display: (rel) => (rel === '.' ? `${PEERS_PREFIX}/${label}` : `${PEERS_PREFIX}/${label}/${rel}`) };
    }
    if (segs.length === 0 && !allowRoot) return { ok: false, reason: 'the path names your folder itself, not a file; give a file path such as "src/index.ts"' };
    return { ok: true, kind: 'folder', root: ownFolder, inner: syntax.relative, display: (rel) => rel };
  }

  async function readText(tool: string, root: string, inner: string, display: (r: string) => string): Promise<{ ok: true; text: string; absolute: string; shown: string } | { ok: false; result: Result }> {
    const target = await resolveInRoot(root, inner, { access: tool === READ_FILE ? 'read' : 'write' });
    if (!target.ok) return { ok: false, result: fail(tool, target.reason) };
    const shown = display(target.relative);
    if (!target.exists) return { ok: false, result: fail(tool, `"${shown}" does not exist; use list_directory to see what is there`) };
    if (target.kind === 'directory') return { ok: false, result: fail(tool, `"${shown}" is a folder, not a file; use list_directory`) };
    const st = await lstat(target.absolute);
    if (st.size > lim.maxReadFileBytes) {
      return { ok: false, result: fail(tool, `"${shown}" is ${st.size} bytes, larger than the ${lim.maxReadFileBytes}-byte limit for reading`) };
    }
    const text = decodeText(await readWhole(target.absolute));
    if (text === null) return { ok: false, result: fail(tool, `"${shown}" is not UTF-8 text (binary or another encoding); only text files can be read or edited`) };
    return { ok: true, text, absolute: target.absolute, shown };
  }

  async function readFile(args: Record<string, unknown>): Promise<Result> {
    const startLine = args.start_line === undefined ? 1 : args.start_line;
    if (typeof startLine !== 'number' || !Number.isInteger(startLine) || startLine < 1) return fail(READ_FILE, 'start_line must be a whole number ≥ 1');
    const r = route(args.path, 'read', false);
    if (!r.ok) return fail(READ_FILE, r.reason);
    if (r.kind === 'peers-root') return fail(READ_FILE, `"${PEERS_PREFIX}" is a folder; use list_directory`);
    const file = await readText(READ_FILE, r.root, r.inner, r.display);
    if (!file.ok) return file.result;
    const { text, shown } = file;
    if (text.length === 0) return { ok: true, content: `[${shown} is empty: 0 bytes]` };
    const lines = text.split(/(?<=\n)/); // keeps each line's "\n"
    if (startLine > lines.length) return fail(READ_FILE, `"${shown}" has ${lines.length} lines; start_line ${startLine} is past the end`);
    const rest = lines.slice(startLine - 1).join('');
    if (rest.length <= lim.maxReadChars) return { ok: true, content: rest };
    // Cut at the last line break inside the limit when there is one, so start_line can continue exactly.
    let cut = rest.lastIndexOf('\n', lim.maxReadChars - 1) + 1;
    if (cut === 0) cut = lim.maxReadChars;
    const shownPart = rest.slice(0, cut);
    const complete = shownPart.endsWith('\n');
    const newlines = occurrences(shownPart, '\n', Infinity).length;
    const endLine = startLine + (complete ? newlines : newlines + 1) - 1;
    const cutLine = complete ? '' : ` Line ${endLine} is longer than ${lim.maxReadChars} characters and was cut.`;
    const note =
      `\n[truncated: showing lines ${startLine}-${endLine} of ${lines.length} (${cut} of ${rest.length} characters from line ${startLine}).${cutLine} ` +
      (endLine < lines.length ? `Call read_file with start_line ${endLine + 1} to continue.]` : 'This is the last line.]');
    return { ok: true, content: shownPart + note };
  }

  async function writeFileTool(args: Record<string, unknown>): Promise<Result> {
    if (typeof args.content !== 'string') return fail(WRITE_FILE, '"content" must be a string with the complete file content');
    const r = route(args.path, 'write', false);
    if (!r.ok) return fail(WRITE_FILE, r.reason);
    if (r.kind === 'peers-root') return fail(WRITE_FILE, `"${PEERS_PREFIX}/" is read-only`);
    const bytes = Buffer.byteLength(args.content, 'utf8');
    if (bytes > lim.maxWriteBytes) {
      return fail(WRITE_FILE, `content is ${bytes} bytes; the limit is ${lim.maxWriteBytes} bytes per write. Write a smaller file or split it into several files`);
    }
    const target = await resolveInRoot(r.root, r.inner, { access: 'write' });
    if (!target.ok) return fail(WRITE_FILE, target.reason);
    const shown = r.display(target.relative);
    if (target.kind === 'directory') return fail(WRITE_FILE, `"${shown}" is a folder; give a file path inside it`);
    try {
      await mkdir(path.dirname(target.absolute), { recursive: true });
      await writeWhole(target.absolute, args.content);
    } catch (err) {
      return fail(WRITE_FILE, describeFsError(err, shown));
    }
    return { ok: true, content: `Wrote ${bytes} bytes to ${shown} (${target.exists ? 'replaced the existing file' : 'new file'}).` };
  }

  async function listDirectory(args: Record<string, unknown>): Promise<Result> {
    const r = route(args.path, 'read', true);
    if (!r.ok) return fail(LIST_DIRECTORY, r.reason);
    if (r.kind === 'peers-root') {
      const body = labels.map((l) => `${l}/`).join('\n');
      return { ok: true, content: `${PEERS_PREFIX}/ (read-only; one folder per agent, labels as in CURRENT ANSWERS):\n${body}` };
    }
    const target = await resolveInRoot(r.root, r.inner, { access: 'read', allowRoot: true });
    if (!target.ok) return fail(LIST_DIRECTORY, target.reason);
    const shown = r.display(target.relative);
    if (!target.exists) return fail(LIST_DIRECTORY, `"${shown}" does not exist`);
    if (target.kind !== 'directory') return fail(LIST_DIRECTORY, `"${shown}" is a file; use read_file`);
    const names = (await readdir(target.absolute)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const lines: string[] = [];
    let hidden = 0;
    for (const name of names) {
      if (isNoAccessName(name)) {
        hidden++;
        continue;
      }
      let st: Stats;
      try {
        st = await lstat(path.join(target.absolute, name));
      } catch {
        continue; // removed meanwhile
      }
      const ro = isWriteProtectedName(name) ? ' (read-only)' : '';
      if (st.isSymbolicLink()) lines.push(`${name} (symbolic link)`);
      else if (st.isDirectory()) lines.push(`${name}/${ro}`);
      else if (st.isFile()) lines.push(`${name} (${st.size} bytes)${ro}`);
      else lines.push(`${name} (special file, not usable)`);
    }
    const atOwnRoot = r.root === ownFolder && target.relative === '.';
    if (atOwnRoot) lines.push(`${PEERS_PREFIX}/ (read-only view of every agent's folder in this run)`);
    const total = lines.length;
    const visible = lines.slice(0, lim.maxListEntries);
    const header = `${shown === '.' ? 'Your folder' : shown + '/'} (${total} ${total === 1 ? 'entry' : 'entries'}):`;
    const notes: string[] = [];
    if (total > visible.length) notes.push(`[${total - visible.length} more entries not shown; list a subfolder to narrow down]`);
    if (hidden > 0) notes.push(`[${hidden} protected ${hidden === 1 ? 'entry' : 'entries'} (such as .git or .env) hidden]`);
    if (total === 0) notes.push('[empty folder]');
    return { ok: true, content: [header, ...visible, ...notes].join('\n') };
  }

  async function editFile(args: Record<string, unknown>): Promise<Result> {
    const { old_text: oldText, new_text: newText } = args;
    if (typeof oldText !== 'string' || typeof newText !== 'string') return fail(EDIT_FILE, '"old_text" and "new_text" must both be strings');
    if (oldText === '') return fail(EDIT_FILE, '"old_text" is empty; give the exact text to replace (use write_file to create a file)');
    if (oldText === newText) return fail(EDIT_FILE, '"old_text" and "new_text" are identical; nothing would change');
    const r = route(args.path, 'write', false);
    if (!r.ok) return fail(EDIT_FILE, r.reason);
    if (r.kind === 'peers-root') return fail(EDIT_FILE, `"${PEERS_PREFIX}/" is read-only`);
    const file = await readText(EDIT_FILE, r.root, r.inner, r.display);
    if (!file.ok) return file.result;
    const { text, shown } = file;
    const found = occurrences(text, oldText);
    if (found.length === 0) {
      const crlf = text.includes('\r\n') && oldText.includes('\n') && !oldText.includes('\r\n') ? ' The file uses CRLF ("\\r\\n") line endings.' : '';
      return fail(EDIT_FILE, `old_text was not found in "${shown}". read_file it and copy the exact text, including whitespace and line breaks.${crlf}`);
    }
    if (found.length > 1) {
      const at = found.slice(0, 5).map((i) => lineNumberAt(text, i));
      const more = found.length > 5 ? ', …' : '';
      const count = found.length >= 1000 ? 'at least 1000' : String(found.length);
      return fail(EDIT_FILE, `old_text occurs ${count} times in "${shown}" (starting on lines ${at.join(', ')}${more}); include more surrounding text so it matches exactly once`);
    }
    const updated = text.slice(0, found[0]) + newText + text.slice(found[0] + oldText.length);
    const bytes = Buffer.byteLength(updated, 'utf8');
    if (bytes > lim.maxWriteBytes) return fail(EDIT_FILE, `the edited file would be ${bytes} bytes; the limit is ${lim.maxWriteBytes} bytes`);
    try {
      await writeWhole(file.absolute, updated);
    } catch (err) {
      return fail(EDIT_FILE, describeFsError(err, shown));
    }
    return { ok: true, content: `Edited ${shown}: replaced 1 occurrence starting on line ${lineNumberAt(text, found[0])}.` };
  }

  const handlers: Record<string, (args: Record<string, unknown>) => Promise<Result>> = {
    [READ_FILE]: readFile,
    [WRITE_FILE]: writeFileTool,
    [LIST_DIRECTORY]: listDirectory,
    [EDIT_FILE]: editFile,
  };

  return {
    tools,
    async execute(call: ToolCall, signal: AbortSignal): Promise<Result> {
      const name = String(call?.name);
      const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
      if (!handler) return { ok: false, content: `unknown tool "${name}"; the file tools are ${Object.keys(handlers).join(', ')}` };
      if (signal?.aborted) return fail(name, 'the run was cancelled');
      let args: unknown;
      try {
        args = call.arguments === undefined || call.arguments === '' ? {} : JSON.parse(call.arguments);
      } catch (err) {
        return fail(name, `the arguments are not valid JSON (${(err as Error).message}); send an object such as {"path": "src/index.ts"}`);
      }
      if (args === null || typeof args !== 'object' || Array.isArray(args)) return fail(name, 'the arguments must be a JSON object');
      try {
        return await handler(args as Record<string, unknown>);
      } catch (err) {
        // Unexpected failures still come back as a tool result, without host paths.
        const rawPath = (args as Record<string, unknown>).path;
        const shown = typeof rawPath === 'string' ? rawPath.slice(0, 200) : '(path)';
        return fail(name, describeFsError(err, shown));
      }
    },
  };
}

// File tools offered to an agent inside its turn: read_file, write_file, list_directory, edit_file, search_files.
// Two kinds of run use them: a chat /edit (own folder = the agent's scratch folder, peers/agentK/ = the live
// scratch folders) and a workspace run (own folder = the agent's copy of the project, peers/agentK/ = agentK's
// current answer snapshot, context/<name>/ = read-only reference folders). virtual-paths.ts maps the paths the
// model gives onto those trees, so the handlers (list_directory and search_files have files of their own) do not
// care which tree they read. The tools are declared through the tool kit (core/tools): every failure comes back as
// `{ ok: false, content }` with a message the model can act on. Messages show only virtual paths, never host paths.

import type { z } from 'zod';
import type { AgentToolbox } from '../engine/ports';
import { defineToolbox, tool } from '../tools/kit';
import { failed as fail, type ToolResult as Result } from '../tools/types';
import { checkPathSyntax, isNoAccessName, resolveInRoot } from './path-guard';
import { folderTree, snapshotTree, type ReadableTree } from './readable-tree';
import { writeFileInRoot } from './safe-fs';
import { listTool } from './list-directory';
import type { Scratch } from './scratch';
import { searchTool } from './search-files';
import {
  DEFAULT_FILE_TOOL_LIMITS,
  EDIT_FILE,
  EDIT_FILE_ARGS,
  fileToolSpecs,
  LIST_DIRECTORY,
  LIST_DIRECTORY_ARGS,
  READ_FILE,
  READ_FILE_ARGS,
  SEARCH_FILES,
  SEARCH_FILES_ARGS,
  WRITE_FILE,
  WRITE_FILE_ARGS,
  type FileToolLimits,
} from './tool-specs';
import type { TreeEntry, TreeView } from './types';
import { routeFile, routeWrite, type Layout } from './virtual-paths';

export { DEFAULT_FILE_TOOL_LIMITS, EDIT_FILE, LIST_DIRECTORY, READ_FILE, SEARCH_FILES, WRITE_FILE, type FileToolLimits } from './tool-specs';

/** The port a workspace run supplies for peers/: each agent's current answer version. */
export interface PeerViews {
  /** Every agent's label in config order, the agent's own included (peers/ must not reveal which one it is). */
  readonly labels: readonly string[];
  /** Files of agent `label`'s current answer version; undefined while it has none. Asked on every tool call. */
  view(label: string): TreeView | undefined;
}

/** A read-only reference folder (upstream's `context_paths` entry with `permission: read`). */
export interface ContextFolder {
  /** Shown as context/<name>/: letters, digits, ".", "-" and "_", unique ignoring case. */
  name: string;
  /** Host path of the folder. */
  folder: string;
}

export interface WorkspaceFolders {
  /** Host path of the agent's own copy of the project: the only folder it writes. */
  own: string;
  peers: PeerViews;
  context?: readonly ContextFolder[];
}

type ScratchView = Pick<Scratch, 'labels' | 'folderOf'>;
interface Ctx {
  layout: Layout;
  /** Host path of the own folder, for writes. */
  ownFolder: string;
  lim: FileToolLimits;
}
/** One tool's work, with the arguments its schema (tool-specs.ts) validated. */
type Handler<S extends z.ZodType> = (ctx: Ctx, args: z.output<S>, signal: AbortSignal) => Promise<Result>;

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
      return `"${shown}" is, or is inside, a symbolic link; it cannot be used`;
    case 'ENOTREG':
    case 'ENXIO':
      return `"${shown}" is not a regular file (a pipe, socket or device, or a file with other hard links); it cannot be used`;
    case 'EMOVED':
      return `a folder on the path of "${shown}" was moved or replaced while it was opened; try again`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied for "${shown}"`;
    case 'ENOSPC':
    case 'EDQUOT':
      return 'no space left on the disk for your folder';
    case 'ENAMETOOLONG':
      return `the path "${shown}" is too long`;
    default:
      return `"${shown}" could not be accessed (${code ?? 'unexpected error'})`;
  }
}

/** Decodes strict UTF-8 text; null for binary (NUL bytes) or another encoding. A BOM is kept, so writes round-trip. */
export function decodeText(buf: Buffer): string | null {
  if (buf.subarray(0, 8192).includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf);
  } catch {
    return null;
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

/** Why `entry` cannot be read as a text file, or null when it can. */
function notReadable(entry: TreeEntry | null, shown: string, maxBytes: number): string | null {
  if (!entry) return `"${shown}" does not exist; use list_directory to see what is there`;
  switch (entry.kind) {
    case 'directory':
      return `"${shown}" is a folder, not a file; use list_directory`;
    case 'symlink':
      return `"${shown}" is a symbolic link; links are not followed here, read the file it points to instead`;
    case 'submodule':
      return `"${shown}" is a git submodule, whose files are not part of this copy`;
    case 'file':
      return entry.size > maxBytes ? `"${shown}" is ${entry.size} bytes, larger than the ${maxBytes}-byte limit for reading` : null;
  }
}

async function loadText(tool: string, tree: ReadableTree, inner: string, shown: string, lim: FileToolLimits): Promise<{ ok: true; text: string } | { ok: false; result: Result }> {
  const found = await tree.lookup(inner);
  if (!found.ok) return { ok: false, result: fail(tool, found.reason) };
  const problem = notReadable(found.entry, shown, lim.maxReadFileBytes);
  if (problem) return { ok: false, result: fail(tool, problem) };
  const data = await tree.readFile(inner, lim.maxReadFileBytes);
  if (data === null) return { ok: false, result: fail(tool, `"${shown}" changed while it was read; try again`) };
  if (data.length > lim.maxReadFileBytes) return { ok: false, result: fail(tool, `"${shown}" is larger than the ${lim.maxReadFileBytes}-byte limit for reading`) };
  const text = decodeText(data);
  if (text === null) return { ok: false, result: fail(tool, `"${shown}" is not UTF-8 text (binary or another encoding); only text files can be read or edited`) };
  return { ok: true, text };
}

const readFile: Handler<typeof READ_FILE_ARGS> = async ({ layout, lim }, args) => {
  const startLine = args.start_line ?? 1;
  const place = routeFile(layout, args.path);
  if (!place.ok) return fail(READ_FILE, place.reason);
  const shown = place.shown(place.inner);
  const file = await loadText(READ_FILE, place.tree, place.inner, shown, lim);
  if (!file.ok) return file.result;
  const { text } = file;
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
};

const writeFile: Handler<typeof WRITE_FILE_ARGS> = async ({ layout, ownFolder, lim }, args) => {
  const place = routeWrite(layout, args.path);
  if (!place.ok) return fail(WRITE_FILE, place.reason);
  const bytes = Buffer.byteLength(args.content, 'utf8');
  if (bytes > lim.maxWriteBytes) {
    return fail(WRITE_FILE, `content is ${bytes} bytes; the limit is ${lim.maxWriteBytes} bytes per write. Write a smaller file or split it into several files`);
  }
  const target = await resolveInRoot(ownFolder, place.inner, { access: 'write' });
  if (!target.ok) return fail(WRITE_FILE, target.reason);
  const shown = target.relative;
  if (target.kind === 'directory') return fail(WRITE_FILE, `"${shown}" is a folder; give a file path inside it`);
  try {
    await writeFileInRoot(ownFolder, target.absolute, args.content);
  } catch (err) {
    return fail(WRITE_FILE, describeFsError(err, shown));
  }
  return { ok: true, content: `Wrote ${bytes} bytes to ${shown} (${target.exists ? 'replaced the existing file' : 'new file'}).` };
};

// Upstream's edit_file calls them old_string/new_string; models trained on it may send those names.
const EDIT_ALIASES = [['old_text', 'old_string'], ['new_text', 'new_string']] as const;

const editFile: Handler<typeof EDIT_FILE_ARGS> = async ({ layout, ownFolder, lim }, args) => {
  for (const [name, alias] of EDIT_ALIASES) {
    if (args[name] !== undefined && args[alias] !== undefined && args[name] !== args[alias]) return fail(EDIT_FILE, `give "${name}" or "${alias}", not both`);
  }
  const oldText = args.old_text ?? args.old_string;
  const newText = args.new_text ?? args.new_string;
  if (typeof oldText !== 'string' || typeof newText !== 'string') return fail(EDIT_FILE, '"old_text" and "new_text" must both be strings');
  if (oldText === '') return fail(EDIT_FILE, '"old_text" is empty; give the exact text to replace (use write_file to create a file)');
  if (oldText === newText) return fail(EDIT_FILE, '"old_text" and "new_text" are identical; nothing would change');
  const place = routeWrite(layout, args.path);
  if (!place.ok) return fail(EDIT_FILE, place.reason);
  const shown = place.inner;
  const file = await loadText(EDIT_FILE, layout.own, place.inner, shown, lim);
  if (!file.ok) return file.result;
  const { text } = file;
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
  const target = await resolveInRoot(ownFolder, place.inner, { access: 'write' });
  if (!target.ok) return fail(EDIT_FILE, target.reason);
  try {
    await writeFileInRoot(ownFolder, target.absolute, updated);
  } catch (err) {
    return fail(EDIT_FILE, describeFsError(err, shown));
  }
  return { ok: true, content: `Edited ${shown}: replaced 1 occurrence starting on line ${lineNumberAt(text, found[0])}.` };
};

const listDirectory: Handler<typeof LIST_DIRECTORY_ARGS> = async ({ layout, lim }, args) => {
  const r = await listTool(layout, lim, args);
  return r.ok ? r : fail(LIST_DIRECTORY, r.reason);
};

const searchFiles: Handler<typeof SEARCH_FILES_ARGS> = async ({ layout, lim }, args, signal) => {
  const r = await searchTool(layout, lim, args, signal);
  return r.ok ? r : fail(SEARCH_FILES, r.reason);
};

function toolbox(ctx: Ctx): AgentToolbox {
  const specs = fileToolSpecs(ctx.lim, { livePeers: ctx.layout.peers.live, contextNames: [...ctx.layout.context.keys()] });
  return defineToolbox({
    family: 'file tools',
    tools: [
      tool({ spec: specs.read, args: READ_FILE_ARGS, run: (args, signal) => readFile(ctx, args, signal) }),
      tool({ spec: specs.write, args: WRITE_FILE_ARGS, run: (args, signal) => writeFile(ctx, args, signal) }),
      tool({ spec: specs.list, args: LIST_DIRECTORY_ARGS, run: (args, signal) => listDirectory(ctx, args, signal) }),
      tool({ spec: specs.edit, args: EDIT_FILE_ARGS, run: (args, signal) => editFile(ctx, args, signal) }),
      tool({ spec: specs.search, args: SEARCH_FILES_ARGS, run: (args, signal) => searchFiles(ctx, args, signal) }),
    ],
    example: '{"path": "src/index.ts"}',
    // Unexpected failures are the file system's, worded for the path the model gave (never the host path).
    describeError: (err, args) => {
      const { path: given } = args as { path?: string };
      return describeFsError(err, given === undefined ? '(path)' : given.slice(0, 200));
    },
  });
}

/**
 * The file toolbox for one agent of a chat /edit run. `agentLabel` picks the agent's own (writable) scratch
 * folder; every agent's live folder is readable under `peers/<label>/`.
 */
export function createFileToolbox(scratch: ScratchView, agentLabel: string, limits: Partial<FileToolLimits> = {}): AgentToolbox {
  const ownFolder = scratch.folderOf(agentLabel); // throws for an unknown label: a host bug, at construction time
  const trees = new Map(scratch.labels.map((label) => [label, folderTree(scratch.folderOf(label))]));
  const layout: Layout = {
    own: folderTree(ownFolder),
    peers: { labels: [...scratch.labels], live: true, tree: (label) => trees.get(label) },
    context: new Map(),
  };
  return toolbox({ layout, ownFolder, lim: { ...DEFAULT_FILE_TOOL_LIMITS, ...limits } });
}

const SAFE_CONTEXT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function contextTrees(folders: readonly ContextFolder[]): Map<string, ReadableTree> {
  const trees = new Map<string, ReadableTree>();
  const seen = new Set<string>();
  for (const { name, folder } of folders) {
    if (!SAFE_CONTEXT_NAME.test(name) || !checkPathSyntax(name).ok || isNoAccessName(name)) {
      throw new Error(`unsafe reference folder name ${JSON.stringify(name)}: use letters, digits, ".", "-" and "_", starting with a letter or digit`);
    }
    if (seen.has(name.toLowerCase())) throw new Error(`duplicate reference folder name ${JSON.stringify(name)}`);
    seen.add(name.toLowerCase());
    trees.set(name, folderTree(folder));
  }
  return trees;
}

/**
 * The file toolbox for one agent of a workspace run: its own copy of the project (read/write), every agent's
 * current answer under `peers/<label>/` and the reference folders under `context/<name>/` (read-only).
 * Throws for an unsafe or duplicate reference folder name (a host bug, at construction time).
 */
export function createWorkspaceToolbox(folders: WorkspaceFolders, limits: Partial<FileToolLimits> = {}): AgentToolbox {
  const { peers } = folders;
  const layout: Layout = {
    own: folderTree(folders.own),
    peers: {
      labels: [...peers.labels],
      live: false,
      tree: (label) => {
        const view = peers.view(label);
        return view && snapshotTree(view);
      },
    },
    context: contextTrees(folders.context ?? []),
  };
  return toolbox({ layout, ownFolder: folders.own, lim: { ...DEFAULT_FILE_TOOL_LIMITS, ...limits } });
}

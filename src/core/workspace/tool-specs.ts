// Names, limits, model-facing descriptions and argument schemas of the file tools. Names and argument names are
// upstream MassGen's, so models trained on its tools call them without guessing. The wording about peers/ and
// context/ depends on the run: live folders in a chat /edit, each agent's current answer in a workspace run.

import { z } from 'zod';
import type { ToolSpec } from '../providers/types';
import { PEERS_PREFIX } from './scratch';

export const READ_FILE = 'read_file';
export const WRITE_FILE = 'write_file';
export const LIST_DIRECTORY = 'list_directory';
export const EDIT_FILE = 'edit_file';
export const SEARCH_FILES = 'search_files';

/** The top-level name under which read-only reference folders appear (only when a run has any). */
export const CONTEXT_PREFIX = 'context';

export interface FileToolLimits {
  /** Characters of file content returned by one read_file (the rest is reachable with start_line). */
  maxReadChars: number;
  /** Files larger than this are not read at all. */
  maxReadFileBytes: number;
  /** Largest content one write_file (or the file after edit_file) may have, in UTF-8 bytes. */
  maxWriteBytes: number;
  /** Entries shown by one list_directory. */
  maxListEntries: number;
  /** Matching lines returned by one search_files. */
  maxSearchMatches: number;
  /** Characters of one matching line shown by search_files (minified files have megabyte lines). */
  maxSearchLineChars: number;
  /** A search_files call gives up after this long (a hostile pattern must not hold a turn). */
  searchTimeoutMs: number;
}

export const DEFAULT_FILE_TOOL_LIMITS: FileToolLimits = {
  maxReadChars: 50_000,
  maxReadFileBytes: 8 * 1024 * 1024,
  maxWriteBytes: 1024 * 1024,
  maxListEntries: 500,
  maxSearchMatches: 200,
  maxSearchLineChars: 300,
  searchTimeoutMs: 10_000,
};

// The schemas check types; what a path may name is path-guard.ts's and virtual-paths.ts's to say (a missing path
// means "."), and the search's pattern rules are search-files.ts's. Messages leave the field's name out; the kit
// puts it first.
const PATH = z.string({ error: 'must be a string, e.g. "src/index.ts"' }).optional();
const TEXT = z.string({ error: 'must be a string' }).optional();
const START_LINE = 'must be a whole number ≥ 1';

export const READ_FILE_ARGS = z.object({ path: PATH, start_line: z.int({ error: START_LINE }).min(1, { error: START_LINE }).optional() });
export const WRITE_FILE_ARGS = z.object({ path: PATH, content: z.string({ error: 'must be a string with the complete file content' }) });
export const LIST_DIRECTORY_ARGS = z.object({ path: PATH });
/** old_string and new_string are upstream's names, which models trained on it may send. */
export const EDIT_FILE_ARGS = z.object({ path: PATH, old_text: TEXT, new_text: TEXT, old_string: TEXT, new_string: TEXT });
export const SEARCH_FILES_ARGS = z.object({
  pattern: z.string({ error: 'must be a non-empty string: a regular expression such as "TODO|FIXME"' }).min(1, { error: 'must be a non-empty string: a regular expression such as "TODO|FIXME"' }),
  path: PATH,
  glob: z.unknown().optional(),
});

/** What the descriptions say about the virtual folders. */
export interface SpecLayout {
  /** peers/ shows live folders (chat /edit) rather than each agent's current answer (workspace runs). */
  livePeers: boolean;
  /** Names of the read-only reference folders under context/ (empty: no context/). */
  contextNames: readonly string[];
}

function pathHelp(layout: SpecLayout): string {
  const peers = layout.livePeers
    ? `"${PEERS_PREFIX}/agentK/<path>" reads another agent's folder (read-only; agentK as in CURRENT ANSWERS).`
    : `"${PEERS_PREFIX}/agentK/<path>" reads agentK's files as of its current answer (read-only; agentK as in CURRENT ANSWERS).`;
  const context = layout.contextNames.length
    ? ` "${CONTEXT_PREFIX}/<name>/<path>" reads a reference folder (read-only): ${layout.contextNames.join(', ')}.`
    : '';
  return `Paths are relative to your own working folder (e.g. "src/index.ts"; use forward slashes). ${peers}${context}`;
}

/** The five specs, in the order they are offered. */
export function fileToolSpecs(limits: FileToolLimits, layout: SpecLayout): Record<'read' | 'write' | 'list' | 'edit' | 'search', ToolSpec> {
  const help = pathHelp(layout);
  const withContext = layout.contextNames.length > 0;
  const readOnly = withContext ? `"${PEERS_PREFIX}/" or "${CONTEXT_PREFIX}/"` : `"${PEERS_PREFIX}/"`;
  const trees = withContext ? `your folder, ${PEERS_PREFIX}/agentK or ${CONTEXT_PREFIX}/<name>` : `your folder or ${PEERS_PREFIX}/agentK`;
  const pathProp = (what: string) => ({ type: 'string', description: `${what}. ${help}` });
  return {
    read: {
      name: READ_FILE,
      description:
        `Read a UTF-8 text file and return its exact content. ${help} Output longer than ${limits.maxReadChars} characters ` +
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
    write: {
      name: WRITE_FILE,
      description:
        `Create or overwrite a text file in your own folder with the given content (parent folders are created). ` +
        `You cannot write under ${readOnly} (read-only). At most ${limits.maxWriteBytes} bytes per write. ` +
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
    list: {
      name: LIST_DIRECTORY,
      description:
        `List one folder (not recursive): folders end with "/", files show their size in bytes. ${help} ` +
        `Without a path, lists your own folder; "${PEERS_PREFIX}" lists the agents' folders` +
        (withContext ? `; "${CONTEXT_PREFIX}" lists the reference folders.` : '.'),
      parameters: {
        type: 'object',
        properties: { path: pathProp('Folder to list; default "." (your own folder)') },
        required: [],
        additionalProperties: false,
      },
    },
    edit: {
      name: EDIT_FILE,
      description:
        `Replace one exact occurrence of old_text with new_text in a text file in your own folder. old_text must match the ` +
        `file exactly (whitespace and line breaks included) and occur exactly once; include surrounding lines to make it unique. ` +
        `Files under ${readOnly} cannot be edited. Paths are relative to your own folder.`,
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
    search: {
      name: SEARCH_FILES,
      description:
        `Search file contents line by line with a regular expression (PCRE-like, e.g. "function\\s+load" or "TODO|FIXME"); ` +
        `returns "path:line: text" lines. Searches your own folder unless path names a folder or file to search instead. ${help} ` +
        `Files ignored by .gitignore and protected names (.git, .env, …) are skipped. At most ${limits.maxSearchMatches} matches ` +
        `are returned and long lines are cut; narrow down with path or glob.`,
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: 'Regular expression matched against each line, e.g. "class \\w+Error".' },
          path: pathProp('Folder or file to search; default "." (your own folder)'),
          glob: {
            type: 'string',
            description:
              'Only files matching this glob: one without "/" matches file names at any depth ("*.ts", "*.{ts,tsx}"); one with "/" ' +
              `is relative to the top of the searched tree (${trees}), e.g. "src/**/*.test.ts".`,
          },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
    },
  };
}

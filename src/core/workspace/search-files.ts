// search_files: a regular-expression search over one tree (the own folder, a peer's answer, a reference folder),
// run by the tree's backend (git grep), so it honours .gitignore and is fast on large trees. This file checks the
// model's arguments (typed by the tool kit), which are hostile until proven otherwise, and renders matches with virtual paths, capped.

import { isNoAccessName } from './path-guard';
import { PEERS_PREFIX } from './scratch';
import type { FileToolLimits } from './tool-specs';
import { labelsWithFiles, routeRead, type Layout, type Refusal } from './virtual-paths';

export type SearchOutcome = { ok: true; content: string } | Refusal;

/** Longest regular expression accepted by search_files, in characters. */
const MAX_PATTERN_CHARS = 1000;
const MAX_GLOB_CHARS = 500;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** search_files' arguments once the kit has checked their types (SEARCH_FILES_ARGS): pattern is a non-empty string. */
type SearchArgs = { pattern: string; path?: string; glob?: unknown };

function parseSearchArgs(args: SearchArgs): { ok: true; pattern: string; glob?: string } | Refusal {
  const { pattern, glob } = args;
  const refuse = (reason: string): Refusal => ({ ok: false, reason });
  if (pattern.length > MAX_PATTERN_CHARS) return refuse(`the pattern is ${pattern.length} characters long; the limit is ${MAX_PATTERN_CHARS}. Search for a shorter, distinctive part`);
  if (CONTROL_CHARS.test(pattern)) return refuse('the pattern contains a line break or another control character; lines are matched one at a time, so search for one line (write "\\t" for a tab)');
  if (glob === undefined) return { ok: true, pattern };
  if (typeof glob !== 'string' || glob === '' || glob.length > MAX_GLOB_CHARS || CONTROL_CHARS.test(glob)) {
    return refuse(`"glob" must be a file-name pattern of at most ${MAX_GLOB_CHARS} characters, such as "*.ts" or "src/**/*.test.ts"`);
  }
  // A leading ":" would be read as git pathspec magic; "/" and ".." would point outside the searched folder.
  if (/^[:/]/.test(glob) || glob.split('/').includes('..')) return refuse('"glob" is relative to the top of the searched folder and cannot start with "/" or ":" or contain ".."; e.g. "*.ts"');
  return { ok: true, pattern, glob };
}

/** Runs one search_files call; the caller turns a refusal into the tool's failure result. */
export async function searchTool(layout: Layout, lim: FileToolLimits, args: SearchArgs, signal: AbortSignal): Promise<SearchOutcome> {
  const parsed = parseSearchArgs(args);
  if (!parsed.ok) return parsed;
  const { pattern, glob } = parsed;
  const place = routeRead(layout, args.path);
  if (!place.ok) return place;
  if (place.kind === 'index') {
    const names = place.top === PEERS_PREFIX ? labelsWithFiles(layout.peers) : [...layout.context.keys()];
    const example = names.length ? `, e.g. path "${place.top}/${names[0]}"` : ' (no agent has an answer yet)';
    return { ok: false, reason: `"${place.top}" holds one folder each; search one of them${example}` };
  }
  const { tree, inner } = place;
  const where = place.shown(inner);
  const found = await tree.lookup(inner);
  if (!found.ok) return found;
  if (!found.entry) return { ok: false, reason: `"${where}" does not exist; use list_directory to see what is there` };
  const result = await tree.grep(pattern, {
    path: inner === '.' ? undefined : inner,
    glob,
    maxMatches: lim.maxSearchMatches,
    timeoutMs: lim.searchTimeoutMs,
    signal,
  });
  if (!result.ok) return result;
  // Defence in depth: whatever the search backend returns, protected names never reach the model.
  const matches = result.matches.filter((m) => !m.path.split('/').some(isNoAccessName));
  const scope = `${where === '.' ? 'your folder' : `"${where}"`}${glob === undefined ? '' : ` (files matching "${glob}")`}`;
  if (matches.length === 0) return { ok: true, content: `No matches for ${JSON.stringify(pattern)} in ${scope}.` };
  let cutLines = false;
  const lines = matches.map((m) => {
    const long = m.text.length > lim.maxSearchLineChars;
    cutLines ||= long;
    return `${place.shown(m.path)}:${m.line}: ${long ? `${m.text.slice(0, lim.maxSearchLineChars)}…` : m.text}`;
  });
  if (result.truncated) lines.push(`[stopped at ${lim.maxSearchMatches} matches; narrow down with a more specific pattern, a path (a folder or file) or a glob such as "*.ts"]`);
  if (cutLines) lines.push(`[lines longer than ${lim.maxSearchLineChars} characters were cut ("…"); read_file with start_line shows a whole line]`);
  return { ok: true, content: lines.join('\n') };
}

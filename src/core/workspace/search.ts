// Text search with git grep: over a snapshot's tree (a peer's answer) or over a live folder (an agent's own copy,
// a read-only reference folder; `--no-index`, honouring .gitignore). Same flags, same parsing, same limits: the
// total number of matches is capped here (git's --max-count is per file), a slow pattern is killed after a
// timeout, and protected names (.git, .env…) are never searched or shown. Symlinks are not followed by git grep.

import { stat } from 'node:fs/promises';
import { checkNamePolicy, checkPathSyntax, isNoAccessName, NO_ACCESS_NAMES } from './path-guard';
import { streamGit } from './git-stream';
import { shadowEnv } from './shadow-repo';
import type { GrepMatch, GrepOptions, GrepResult } from './types';

export const DEFAULT_GREP_TIMEOUT_MS = 15_000;
/** Longest line text returned; a minified file's one-megabyte line would otherwise fill a model's context. */
export const MAX_MATCH_TEXT_CHARS = 1000;
const MAX_GLOB_ALTERNATIVES = 64;

// Whether this git has PCRE (-P, close to JavaScript's syntax); learnt on first use, else -E.
let perlRegex: boolean | undefined;

/** `a{b,c}d` → [abd, acd], nested too; at most MAX_GLOB_ALTERNATIVES results. Pure. */
export function expandBraces(glob: string): string[] {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '{' && depth++ === 0) open = i;
    else if (c === '}' && depth > 0 && --depth === 0) {
      const parts: string[] = [];
      let start = open + 1;
      let d = 0;
      for (let j = open + 1; j < i; j++) {
        const cj = glob[j];
        if (cj === '\\') j++;
        else if (cj === '{') d++;
        else if (cj === '}') d--;
        else if (cj === ',' && d === 0) {
          parts.push(glob.slice(start, j));
          start = j + 1;
        }
      }
      parts.push(glob.slice(start, i));
      if (parts.length === 1) continue; // "{x}" is literal
      const head = glob.slice(0, open);
      const tails = expandBraces(glob.slice(i + 1));
      const out: string[] = [];
      for (const part of parts) for (const mid of expandBraces(part)) for (const tail of tails) out.push(head + mid + tail);
      return out.slice(0, MAX_GLOB_ALTERNATIVES);
    }
  }
  return [glob];
}

/** git pathspecs for a glob relative to the root: one without "/" matches a file name at any depth. Pure. */
export function globPathspecs(glob: string): string[] {
  return expandBraces(glob).map((g) => `:(glob)${g.includes('/') ? g.replace(/^\/+/, '') : `**/${g}`}`);
}

/** Never searched: protected names as files or folders, at any depth, in any case. */
const NO_ACCESS_PATHSPECS = NO_ACCESS_NAMES.flatMap((n) => [`:(exclude,icase,glob)**/${n}`, `:(exclude,icase,glob)**/${n}/**`]);

interface Scope {
  pathspecs: string[];
  /** Whether a result path (relative to the root) is in scope: under `path`, and not a protected name. */
  keep(path: string): boolean;
}

/** What to search, from the options; a refusal in words for a bad path or glob. Pure. */
export function searchScope(options: Pick<GrepOptions, 'path' | 'glob'>): Scope | { reason: string } {
  let under: string | null = null;
  if (options.path !== undefined) {
    const syntax = checkPathSyntax(options.path, { allowRoot: true });
    if (!syntax.ok) return { reason: syntax.reason };
    const policy = checkNamePolicy(syntax.segments, 'read');
    if (policy) return { reason: policy };
    if (syntax.relative !== '.') under = syntax.relative;
  }
  let positive: string[] = under === null ? [] : [`:(literal)${under}`];
  if (options.glob !== undefined) {
    if (options.glob.split('/').includes('..') || options.glob.includes('\0')) return { reason: 'the glob cannot contain ".." or a NUL byte' };
    positive = globPathspecs(options.glob); // "path" is then checked below: git combines pathspecs with "or"
  }
  return {
    pathspecs: [...positive, ...NO_ACCESS_PATHSPECS],
    keep: (p) => (under === null || p === under || p.startsWith(`${under}/`)) && !p.split('/').some(isNoAccessName),
  };
}

/**
 * Incremental parser of `git grep -n -z` output: `name NUL line NUL text LF`. Names may hold newlines (they end at
 * the NUL); text ends at the newline. Pure apart from its buffer.
 */
export class GrepParser {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly stripPrefix = '') {}

  push(chunk: Buffer): GrepMatch[] {
    const data = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const out: GrepMatch[] = [];
    let start = 0;
    for (;;) {
      const nameEnd = data.indexOf(0, start);
      const lineEnd = nameEnd < 0 ? -1 : data.indexOf(0, nameEnd + 1);
      const textEnd = lineEnd < 0 ? -1 : data.indexOf(0x0a, lineEnd + 1);
      if (textEnd < 0) break;
      let name = data.subarray(start, nameEnd).toString('utf8');
      if (this.stripPrefix !== '' && name.startsWith(this.stripPrefix)) name = name.slice(this.stripPrefix.length);
      let text = data.subarray(lineEnd + 1, textEnd).toString('utf8').replace(/\r$/, '');
      if (text.length > MAX_MATCH_TEXT_CHARS) text = `${text.slice(0, MAX_MATCH_TEXT_CHARS)}…`;
      out.push({ path: name, line: Number(data.subarray(nameEnd + 1, lineEnd).toString('latin1')), text });
      start = textEnd + 1;
    }
    this.pending = data.subarray(start);
    return out;
  }
}

/** git's complaint about a pattern or a failed search, in words for the model. Pure. */
export function grepFailure(stderr: string): string {
  const first = stderr.trim().split('\n').find((l) => l.trim() !== '') ?? 'git grep failed';
  const invalid = /^fatal: (?:-e option|command line), '.*': (.+)$/.exec(first);
  if (invalid) return `the pattern is not a valid regular expression: ${invalid[1]}`;
  const limit = /pcre2?_\w*match failed[^:]*: (.+)$/i.exec(first);
  if (limit) return `the pattern is too costly to run (${limit[1]}); simplify it, e.g. avoid nested repetition such as "(a+)+"`;
  return `the search failed: ${first.replace(/^(fatal|error): /, '')}`;
}

interface GrepTarget {
  /** Arguments after the pattern (a tree id), or none for the working folder. */
  revs: string[];
  /** `--no-index --exclude-standard` for a live folder. */
  noIndex: boolean;
  cwd: string;
  env?: Record<string, string>;
  /** What git puts before each name (the tree id and a colon). */
  stripPrefix: string;
}

async function runGrep(target: GrepTarget, pattern: string, options: GrepOptions, perl: boolean): Promise<GrepResult | 'no-perl'> {
  const scope = searchScope(options);
  if ('reason' in scope) return { ok: false, reason: scope.reason };
  const args = [
    'grep', '--no-color', '--no-column', '--no-full-name', '-n', '-I', '-z', perl ? '-P' : '-E',
    ...(options.ignoreCase ? ['-i'] : []),
    ...(target.noIndex ? ['--no-index', '--exclude-standard'] : ['--no-recurse-submodules']),
    '-e', pattern, ...target.revs, '--', ...scope.pathspecs,
  ];
  const parser = new GrepParser(target.stripPrefix);
  const matches: GrepMatch[] = [];
  let truncated = false;
  const timeoutMs = options.timeoutMs ?? DEFAULT_GREP_TIMEOUT_MS;
  const end = await streamGit(
    args,
    (chunk) => {
      for (const m of parser.push(chunk)) {
        if (!scope.keep(m.path)) continue;
        if (matches.length >= options.maxMatches) {
          truncated = true;
          return true;
        }
        matches.push(m);
      }
      return false;
    },
    { cwd: target.cwd, env: target.env, signal: options.signal, timeoutMs },
  );
  if (end.cancelled) return { ok: false, reason: 'the search was cancelled' };
  if (end.timedOut) {
    return { ok: false, reason: `the search took longer than ${Math.round(timeoutMs / 100) / 10} s and was stopped; narrow it (a path or a glob) or simplify the pattern` };
  }
  if (end.stopped || end.exitCode === 0 || end.exitCode === 1) return { ok: true, matches, truncated };
  if (perl && /USE_LIBPCRE|not compiled with/i.test(end.stderr)) return 'no-perl';
  return { ok: false, reason: grepFailure(end.stderr) };
}

async function grep(target: GrepTarget, pattern: string, options: GrepOptions): Promise<GrepResult> {
  if (pattern.includes('\0')) return { ok: false, reason: 'the pattern contains a NUL byte; remove it' };
  try {
    return await grepOnce(target, pattern, options);
  } catch (err) {
    return { ok: false, reason: `the search failed: ${(err as Error).message}` }; // git missing, folder gone
  }
}

async function grepOnce(target: GrepTarget, pattern: string, options: GrepOptions): Promise<GrepResult> {
  const first = await runGrep(target, pattern, options, perlRegex !== false);
  if (first !== 'no-perl') {
    if (first.ok) perlRegex ??= true;
    return first;
  }
  perlRegex = false;
  const second = await runGrep(target, pattern, options, false);
  return second === 'no-perl' ? { ok: false, reason: 'the search failed' } : second;
}

/** Searches the tree `tree` of the shadow repository `gitDir`; paths relative to that tree. */
export function grepTree(gitDir: string, tree: string, pattern: string, options: GrepOptions): Promise<GrepResult> {
  return grep({ revs: [tree], noIndex: false, cwd: gitDir, env: shadowEnv(gitDir), stripPrefix: `${tree}:` }, pattern, options);
}

/**
 * Searches the live folder `dir` (honouring its .gitignore files); paths relative to `dir`. Protected names are
 * neither searched nor shown; symbolic links are not followed.
 */
export async function searchFolder(dir: string, pattern: string, options: GrepOptions): Promise<GrepResult> {
  const st = await stat(dir).catch(() => null);
  if (!st?.isDirectory()) return { ok: false, reason: 'the folder is not available any more' };
  return grep({ revs: [], noIndex: true, cwd: dir, stripPrefix: '' }, pattern, options);
}

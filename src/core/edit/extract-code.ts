// Pulling the code out of an agent's answer for "Run on selection". Agents answer with prose plus code; the
// winning answer replaces the user's selection, so we want just the replacement text.
//
// - Fenced blocks (``` or ~~~, any indentation, optional info string, an unclosed last fence runs to the end of
//   the answer; a longer fence may contain shorter ones) are parsed roughly as CommonMark does.
// - The best block wins on, in order: the info string names the document's language (an untagged block ranks
//   above one tagged with another language), similarity to the original selection (line + identifier overlap),
//   length. When the runner-up is close on all counts, `note` says so.
// - Without fences the whole answer is used, dropping only a first line that is clearly a "Here is the code:"
//   preamble.
// - Block content is kept exactly (an indented fence's indentation is removed only when every content line
//   carries it); only the trailing newline and line-ending style follow the original selection.

export interface ExtractOptions {
  /** VS Code language id of the document (`typescript`, `python`, `shellscript`…). */
  languageId?: string;
  /** The text that was selected; drives similarity ranking and the trailing-newline convention. */
  originalText?: string;
}

export interface ExtractedCode {
  code: string;
  source: 'fenced' | 'whole';
  /** Something the user may want to know: an ambiguous pick, an unclosed fence, a dropped preamble line. */
  note?: string;
}

export interface FencedBlock {
  /** First word of the info string, lower-cased (`''` when untagged). */
  lang: string;
  /** The full info string as written. */
  info: string;
  /** Content, line endings included, with the fence's own indentation removed where every line carries it. */
  content: string;
  /** 1-based line of the opening fence in the answer. */
  line: number;
  closed: boolean;
}

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;

/** Splits into lines keeping each line's terminator. */
function splitLinesKeep(text: string): string[] {
  const lines = text.match(/[^\r\n]*(?:\r\n|\n|\r)|[^\r\n]+$/g);
  return lines ?? [];
}

function stripEol(line: string): string {
  return line.replace(/(?:\r\n|\n|\r)$/, '');
}

/** Every fenced code block in `answer`, in order. */
export function findFencedBlocks(answer: string): FencedBlock[] {
  const lines = splitLinesKeep(answer);
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(stripEol(lines[i]!));
    if (!open) continue;
    const [, indent, fence, rawInfo] = open as unknown as [string, string, string, string];
    if (fence[0] === '`' && rawInfo.includes('`')) continue; // inline code such as ```x```, not a fence
    const info = rawInfo.trim();
    const body: string[] = [];
    let j = i + 1;
    let closed = false;
    for (; j < lines.length; j++) {
      const close = FENCE_CLOSE.exec(stripEol(lines[j]!));
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) {
        closed = true;
        break;
      }
      body.push(lines[j]!);
    }
    blocks.push({ lang: fenceLang(info), info, content: dedent(body, indent), line: i + 1, closed });
    i = j;
  }
  return blocks;
}

/** `ts title="x"` → `ts`; `{python}` → `python`; `typescript:src/a.ts` → `typescript`; `.js` → `js`. */
function fenceLang(info: string): string {
  const word = info.replace(/^[{.]+/, '').split(/[\s{},:]/)[0] ?? '';
  return word.replace(/^language-/, '').replace(/^\./, '').toLowerCase();
}

/** Removes the opening fence's indentation, but only if every non-blank line starts with it. */
function dedent(body: string[], indent: string): string {
  if (indent === '' || !body.every((l) => stripEol(l).trim() === '' || l.startsWith(indent))) return body.join('');
  return body.map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.replace(/^[ \t]+(?=\r?\n|\r|$)/, ''))).join('');
}

const LANGUAGE_FENCES: Record<string, readonly string[]> = {
  typescript: ['typescript', 'ts', 'mts', 'cts'],
  typescriptreact: ['tsx', 'typescriptreact', 'typescript', 'ts'],
  javascript: ['javascript', 'js', 'mjs', 'cjs', 'node'],
  javascriptreact: ['jsx', 'javascriptreact', 'javascript', 'js'],
  python: ['python', 'py', 'python3', 'py3'],
  shellscript: ['bash', 'sh', 'shell', 'zsh', 'shellscript', 'ksh'],
  powershell: ['powershell', 'ps1', 'pwsh', 'ps'],
  bat: ['bat', 'batch', 'cmd'],
  csharp: ['csharp', 'cs', 'c#'],
  cpp: ['cpp', 'c++', 'cc', 'cxx', 'hpp', 'hxx', 'h++'],
  c: ['c', 'h'],
  'objective-c': ['objective-c', 'objc', 'objectivec'],
  'objective-cpp': ['objective-cpp', 'objc++', 'objcpp'],
  java: ['java'],
  kotlin: ['kotlin', 'kt', 'kts'],
  scala: ['scala', 'sc'],
  go: ['go', 'golang'],
  rust: ['rust', 'rs'],
  ruby: ['ruby', 'rb'],
  php: ['php'],
  perl: ['perl', 'pl'],
  lua: ['lua'],
  r: ['r'],
  swift: ['swift'],
  dart: ['dart'],
  fsharp: ['fsharp', 'fs', 'f#'],
  vb: ['vb', 'vbnet', 'vb.net'],
  haskell: ['haskell', 'hs'],
  elixir: ['elixir', 'ex', 'exs'],
  clojure: ['clojure', 'clj', 'cljs'],
  sql: ['sql', 'mysql', 'postgresql', 'postgres', 'psql', 'sqlite', 'plsql', 'tsql'],
  json: ['json', 'jsonc', 'json5'],
  jsonc: ['jsonc', 'json', 'json5'],
  yaml: ['yaml', 'yml'],
  toml: ['toml'],
  ini: ['ini', 'cfg', 'conf'],
  xml: ['xml', 'xsd', 'xsl', 'xslt', 'svg'],
  html: ['html', 'htm', 'xhtml'],
  css: ['css'],
  scss: ['scss'],
  less: ['less'],
  markdown: ['markdown', 'md'],
  dockerfile: ['dockerfile', 'docker'],
  makefile: ['makefile', 'make', 'mk'],
  graphql: ['graphql', 'gql'],
  vue: ['vue'],
  svelte: ['svelte'],
  diff: ['diff', 'patch'],
  plaintext: ['text', 'txt', 'plaintext', 'plain'],
};

/** Info strings that usually tag output or a patch rather than replacement code. */
const NON_CODE_FENCES = new Set(['text', 'txt', 'plaintext', 'plain', 'output', 'console', 'shell-session', 'log', 'diff', 'patch']);

/** Fence names that count as `languageId` (the id itself for languages not in the table). */
export function fenceNamesFor(languageId: string): readonly string[] {
  const id = languageId.toLowerCase();
  return LANGUAGE_FENCES[id] ?? [id];
}

/** 2 = tagged with the document's language, 1 = untagged (or no language known), 0 = another language or output. */
function languageTier(lang: string, languageId: string | undefined): number {
  if (!languageId) return lang !== '' && NON_CODE_FENCES.has(lang) ? 0 : 1;
  if (lang === '') return 1;
  return fenceNamesFor(languageId).includes(lang) ? 2 : 0;
}

function normLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/).map((l) => l.trim().replace(/\s+/g, ' ')).filter((l) => l !== '');
}

function dice<T>(a: readonly T[], b: readonly T[]): number {
  if (a.length + b.length === 0) return 0;
  const counts = new Map<T, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  let common = 0;
  for (const y of b) {
    const c = counts.get(y) ?? 0;
    if (c > 0) {
      common++;
      counts.set(y, c - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

/** Cheap similarity in [0, 1]: average of line-level and identifier-set Dice coefficients. */
export function codeSimilarity(a: string, b: string): number {
  const ids = (t: string) => [...new Set(t.match(/[A-Za-z_$][\w$]*/g) ?? [])];
  return (dice(normLines(a), normLines(b)) + dice(ids(a), ids(b))) / 2;
}

/** Similarities closer than this, with lengths within LENGTH_RATIO, make the pick worth a note. */
const CLOSE_SIMILARITY = 0.1;
const LENGTH_RATIO = 2;

interface Candidate {
  block: FencedBlock;
  index: number;
  tier: number;
  sim: number;
  len: number;
}

function better(a: Candidate, b: Candidate): number {
  return (b.tier - a.tier) || (b.sim - a.sim) || (b.len - a.len) || (a.index - b.index);
}

function describe(c: Candidate, total: number): string {
  return `block ${c.index + 1} of ${total} (${c.block.lang || 'untagged'}, line ${c.block.line})`;
}

const PREAMBLE = /^(?:(?:sure|certainly|of course|okay|ok|great|alright)\b[!,.]?\s*)?(?:here(?:'s|’s| is| are)|below is|this is|the following is|i(?:'ve|’ve| have) (?:updated|rewritten|refactored|modified|changed|fixed|added|implemented)|the (?:updated|modified|refactored|rewritten|revised|fixed|corrected|improved|complete|new|final|resulting) (?:code|version|function|implementation|snippet|selection|text|method|class))\b[^\n]*:\s*$/i;

/** True for a first line such as "Here is the updated function:" — prose ending in a colon, several words. */
function isPreambleLine(line: string): boolean {
  const t = line.trim();
  return PREAMBLE.test(t) && t.split(/\s+/).length >= 3 && !/[;{}=]|^\s*(?:#|\/\/)/.test(t);
}

function applyNewlineConvention(code: string, originalText: string | undefined): string {
  if (!originalText) return code; // unknown (or an insertion point): leave the code's own ending alone
  const crlf = originalText.includes('\r\n') && !/(?<!\r)\n/.test(originalText);
  let out = crlf ? code.replace(/\r?\n/g, '\r\n') : code;
  const origEol = /(\r\n|\n|\r)$/.exec(originalText)?.[1];
  if (origEol) {
    if (!/(?:\r\n|\n|\r)$/.test(out)) out += origEol;
  } else {
    out = out.replace(/(?:\r\n|\n|\r)+$/, '');
  }
  return out;
}

/** The code to put in place of the selection, taken from an agent's answer. */
export function extractCode(answer: string, opts: ExtractOptions = {}): ExtractedCode {
  const { languageId, originalText } = opts;
  const blocks = findFencedBlocks(answer);

  if (blocks.length > 0) {
    const nonEmpty = blocks.map((block, index) => ({ block, index })).filter((c) => c.block.content.trim() !== '');
    if (nonEmpty.length === 0) return { code: '', source: 'fenced', note: 'The answer\'s code blocks are empty.' };
    const cands: Candidate[] = nonEmpty.map(({ block, index }) => ({
      block,
      index,
      tier: languageTier(block.lang, languageId),
      sim: originalText ? codeSimilarity(block.content, originalText) : 0,
      len: block.content.trim().length,
    }));
    cands.sort(better);
    const best = cands[0]!;
    const notes: string[] = [];
    const close = cands.slice(1).filter((c) => c.tier === best.tier
      && best.sim - c.sim < CLOSE_SIMILARITY
      && Math.max(best.len, c.len) < LENGTH_RATIO * Math.min(best.len, c.len));
    if (close.length > 0) {
      const others = close.map((c) => c.index + 1).sort((a, b) => a - b);
      notes.push(`The answer has ${blocks.length} code blocks and ${others.length === 1 ? `block ${others[0]} was` : `blocks ${others.join(', ')} were`} about as likely a fit; used ${describe(best, blocks.length)}.`);
    }
    if (!best.block.closed) notes.push('The code block was not closed; used it up to the end of the answer.');
    const code = applyNewlineConvention(best.block.content, originalText);
    return notes.length > 0 ? { code, source: 'fenced', note: notes.join(' ') } : { code, source: 'fenced' };
  }

  // No fences: the whole answer, minus leading blank lines and trailing whitespace (first-line indentation kept).
  let body = answer.replace(/^(?:[ \t]*(?:\r\n|\n|\r))+/, '').replace(/\s+$/, '');
  let note: string | undefined;
  const firstEnd = body.search(/\r\n|\n|\r/);
  if (firstEnd !== -1) {
    const first = body.slice(0, firstEnd);
    const rest = body.slice(firstEnd).replace(/^(?:[ \t]*(?:\r\n|\n|\r))+/, '');
    if (rest.trim() !== '' && isPreambleLine(first)) {
      body = rest;
      note = `Dropped the answer's opening line "${first.trim()}".`;
    }
  }
  const code = applyNewlineConvention(body, originalText);
  return note ? { code, source: 'whole', note } : { code, source: 'whole' };
}

export type CodeForFile = ExtractedCode | { code: null; reason: string };

/**
 * The code to put in place of the user's code, or null with the reason in words: only a fenced block tagged with
 * the document's language (or untagged) counts. Prose is never applied as code, and neither is a block of another
 * language or of output (the selection task asks for one fenced block, so an answer without one did not answer it).
 */
export function codeForFile(answer: string, opts: ExtractOptions = {}): CodeForFile {
  const blocks = findFencedBlocks(answer).filter((b) => b.content.trim() !== '');
  const wanted = opts.languageId ? `${fenceNamesFor(opts.languageId)[0] ?? opts.languageId} code block` : 'code block';
  if (blocks.length === 0) return { code: null, reason: `the winning answer has no ${wanted}` };
  if (!blocks.some((b) => languageTier(b.lang, opts.languageId) > 0)) {
    return { code: null, reason: `the winning answer has no ${wanted} (only ${[...new Set(blocks.map((b) => b.lang))].join(', ')})` };
  }
  // The best block ranks by language first, so it is one of those counted above.
  return extractCode(answer, opts);
}

// Problems in a config file, collected rather than thrown one by one, each with the dotted path of its key, the
// `file:line` of the YAML node, and the fix: the Report that load.ts fills, zod's issues put in words, and the
// warning for a key we do not know (with a near miss suggested).

import { isMap, isNode, isScalar, isSeq, type Document, type LineCounter } from 'yaml';
import { z } from 'zod';
import { closestName } from './edit-distance';
import { RENAMED } from './schema';

export interface ConfigIssue {
  file: string;
  /** Dotted path of the offending key, e.g. `agents[0].backend.temperature` ('' for the whole file). */
  path: string;
  line?: number;
  column?: number;
  message: string;
}
export type ConfigWarning = ConfigIssue;

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}${issue.column === undefined ? '' : `:${issue.column}`}`;
  return `${where}: ${issue.message}`;
}

/** An issue under the "N problems in FILE:" header: without the file name again when it has no line to add. */
function listed(issue: ConfigIssue, file: string): string {
  return issue.file === file && issue.line === undefined ? issue.message : formatIssue(issue);
}

export class ConfigError extends Error {
  readonly issues: ConfigIssue[];

  constructor(issues: ConfigIssue[]) {
    const sorted = [...issues].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    super(sorted.length === 1
      ? formatIssue(sorted[0])
      : `${sorted.length} problems in ${sorted[0].file}:\n${sorted.map((i) => `  ${listed(i, sorted[0].file).replace(/\n/g, '\n    ')}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = sorted;
  }
}

export type Path = (string | number)[];

/** Resolves paths to `line`s in the parsed document and collects issues and warnings. */
export class Report {
  readonly errors: ConfigIssue[] = [];
  readonly warnings: ConfigWarning[] = [];

  constructor(readonly file: string, private readonly doc: Document, private readonly lines: LineCounter) {}

  error(path: Path, message: string): void {
    this.errors.push(this.issue(path, message));
  }

  warn(path: Path, message: string): void {
    this.warnings.push(this.issue(path, message));
  }

  private issue(path: Path, message: string): ConfigIssue {
    return { file: this.file, path: showPath(path), line: this.lineOf(path), message };
  }

  /** Line of the deepest existing key on `path` (the parent's line when the key itself is missing). */
  private lineOf(path: Path): number | undefined {
    let node: unknown = this.doc.contents;
    let offset = isNode(node) ? node.range?.[0] : undefined;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === segment);
        if (!pair) break;
        offset = isScalar(pair.key) ? pair.key.range?.[0] : offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
        const item = node.items[segment];
        offset = isNode(item) ? item.range?.[0] : offset;
        node = item;
      } else {
        break;
      }
    }
    return offset === undefined ? undefined : this.lines.linePos(offset).line;
  }
}

export function showPath(path: Path): string {
  return path.reduce<string>((s, seg) => (typeof seg === 'number' ? `${s}[${seg}]` : s ? `${s}.${seg}` : seg), '');
}

const EXPECTED: Record<string, string> = {
  number: 'a number', int: 'a whole number', string: 'a string', boolean: 'true or false',
  object: 'a mapping (key: value lines)', array: 'a list (lines starting with "- ")',
};

/** What the union-typed keys accept, for their messages. */
const UNION_EXPECTED: Record<string, string> = {
  mcp_servers: 'must be a list of servers (- name: …, command: … or url: …) or a mapping from server name to its settings',
  require_approval: 'must be true, false or a list of tool names',
  planning_mode: 'must be true, false or a mapping with enabled: and blocked_tools:',
};

function describeValue(path: Path, value: unknown): string {
  if (path.at(-1) === 'api_key') return `a ${typeof value}`; // never echo anything that may be a key
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : String(value);
}

function zodMessage(issue: z.core.$ZodIssue, path: Path): string {
  const got = 'input' in issue && issue.input !== undefined ? `, got ${describeValue(path, issue.input)}` : '';
  switch (issue.code) {
    case 'invalid_type':
      return got ? `must be ${EXPECTED[issue.expected] ?? issue.expected}${got}` : 'is required';
    case 'invalid_value':
      return `must be one of: ${issue.values.join(', ')}${got}`;
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}${got}`;
    case 'too_big':
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}${got}`;
    case 'invalid_union':
      return `${UNION_EXPECTED[String(path.at(-1))] ?? 'has an invalid value'}${got}`;
    default:
      return issue.message;
  }
}

export function check<T>(schema: z.ZodType<T>, value: unknown, at: Path, report: Report): T | undefined {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const path = [...at, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
    report.error(path, `${showPath(path)}: ${zodMessage(issue, path)}`);
  }
  return undefined;
}

export function warnUnknownKeys(value: unknown, known: readonly string[], upstream: readonly string[], at: Path, report: Report): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const path = [...at, key];
    if (upstream.includes(key)) {
      report.warn(path, `${showPath(path)}: upstream MassGen option not supported here, ignored`);
      continue;
    }
    const near = RENAMED.get(key) ?? closestName(key, known, 2);
    report.warn(path, `unknown key ${showPath(path)}, ignored${near ? ` (did you mean ${near}?)` : ''}`);
  }
}

/** `value[key]` when `value` is a mapping, for warning about keys inside blocks the schema has not checked yet. */
export function field(value: unknown, key: string): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

// Eval datasets: JSONL, one item a line, of three kinds told apart by their fields:
//   {"id", "question", "answer"}                        short answer, scored by normalised exact match
//   {"id", "question", "choices": [...], "answer": "B"}  multiple choice (the answer a letter or a choice's text)
//   {"id", "task", "workspace", "checks": [...]}         code task, scored by the project's checks on the winner
// Every line is validated before anything runs, and every problem is reported with its line number, so a typo on
// line 812 costs nothing instead of the 811 runs before it.

import { isAbsolute, resolve } from 'node:path';
import { checkName, DEFAULT_CHECK_TIMEOUT_SECONDS } from '../config/checks';
import type { CheckSpec } from '../config/types';
import { LETTERS } from './extract';
import { normalizeAnswer } from './normalize';

interface ItemBase {
  id: string;
  /** 0-based position among the dataset's items (blank lines skipped): the order results and reports follow. */
  index: number;
  /** 1-based line in the file. */
  line: number;
}

export interface QaItem extends ItemBase {
  kind: 'qa';
  question: string;
  /** Accepted answers (one, or several spellings the dataset lists). */
  answers: string[];
}

export interface ChoiceItem extends ItemBase {
  kind: 'choice';
  question: string;
  choices: string[];
  /** The correct choice's letter, A for the first. */
  answer: string;
}

export interface CodeItem extends ItemBase {
  kind: 'code';
  task: string;
  /** Absolute: relative paths resolve against the dataset file's folder. */
  workspace: string;
  checks: CheckSpec[];
}

export type EvalItem = QaItem | ChoiceItem | CodeItem;
export type ItemKind = EvalItem['kind'];

export interface DatasetProblem {
  line: number;
  message: string;
}

/** The dataset cannot be used; `problems` name each line (at most MAX_PROBLEMS are listed). */
export class DatasetError extends Error {
  constructor(
    readonly file: string,
    readonly problems: DatasetProblem[],
    readonly more = 0,
  ) {
    super(`${file}: ${problems.length + more} problem(s):\n${problems.map((p) => `  ${file}:${p.line}: ${p.message}`).join('\n')}${more ? `\n  … and ${more} more` : ''}`);
    this.name = 'DatasetError';
  }
}

const MAX_PROBLEMS = 20;
const MAX_ID_LENGTH = 200;

export interface ParseOptions {
  /** Where relative workspaces resolve: the dataset file's folder. */
  baseDir: string;
  /** Whether a path is a folder (the code tasks' workspaces must exist). */
  isDirectory(path: string): boolean;
}

class LineProblem extends Error {}

const fail = (message: string): never => {
  throw new LineProblem(message);
};

export function parseDataset(text: string, file: string, options: ParseOptions): EvalItem[] {
  const items: EvalItem[] = [];
  const problems: DatasetProblem[] = [];
  let more = 0;
  const firstLineOf = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    try {
      const item = parseItem(raw, line, items.length, options);
      const seen = firstLineOf.get(item.id);
      if (seen !== undefined) fail(`the id "${item.id}" is already used on line ${seen}; ids must be unique (results are keyed by them)`);
      firstLineOf.set(item.id, line);
      items.push(item);
    } catch (err) {
      if (!(err instanceof LineProblem)) throw err;
      if (problems.length < MAX_PROBLEMS) problems.push({ line, message: err.message });
      else more++;
    }
  });
  if (problems.length) throw new DatasetError(file, problems, more);
  if (items.length === 0) throw new DatasetError(file, [{ line: 1, message: 'the dataset has no items: write one JSON object a line, e.g. {"id": "q1", "question": "…", "answer": "…"}' }]);
  return items;
}

function parseItem(raw: string, line: number, index: number, options: ParseOptions): EvalItem {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return fail(`not valid JSON (${(err as Error).message}); each line must be one JSON object`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('each line must be a JSON object such as {"id": "q1", "question": "…", "answer": "…"}');
  const o = value as Record<string, unknown>;
  const id = idOf(o.id);
  const base = { id, index, line };
  if ('task' in o) {
    if ('question' in o) fail('has both "task" (a code task) and "question" (a question); an item is one or the other');
    return codeItem(o, base, options);
  }
  const question = text(o.question, 'question');
  if ('choices' in o) return choiceItem(o, base, question);
  return { ...base, kind: 'qa', question, answers: qaAnswers(o.answer) };
}

function idOf(value: unknown): string {
  if (value === undefined) return fail('"id" is missing: give every item a unique id (a string or an integer)');
  const id = typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : fail('"id" must be a string or an integer');
  if (!id) fail('"id" is empty');
  if (id.length > MAX_ID_LENGTH) fail(`"id" is longer than ${MAX_ID_LENGTH} characters`);
  if ([...id].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127)) fail('"id" contains control characters');
  return id;
}

function text(value: unknown, field: string): string {
  if (value === undefined) return fail(`"${field}" is missing`);
  if (typeof value !== 'string' || !value.trim()) return fail(`"${field}" must be a non-empty string`);
  return value;
}

function qaAnswers(value: unknown): string[] {
  if (value === undefined) return fail('"answer" is missing (a question needs its answer; for a code task write "task", "workspace" and "checks")');
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) fail('"answer" is an empty list');
  return list.map((a) => {
    const answer = typeof a === 'number' && Number.isFinite(a) ? String(a) : typeof a === 'string' ? a : fail('"answer" must be a string, a number, or a list of them');
    if (!normalizeAnswer(answer)) fail(`the answer ${JSON.stringify(answer)} has nothing left to compare once case and punctuation are ignored`);
    return answer;
  });
}

function choiceItem(o: Record<string, unknown>, base: ItemBase, question: string): ChoiceItem {
  const choices = o.choices;
  if (!Array.isArray(choices) || choices.length < 2) return fail('"choices" must be a list of at least two strings');
  if (choices.length > LETTERS.length) fail(`"choices" has ${choices.length} entries; at most ${LETTERS.length} (A–Z) are supported`);
  const texts = choices.map((c, i) => (typeof c === 'string' && c.trim() ? c : typeof c === 'number' ? String(c) : fail(`choice ${i + 1} must be a non-empty string`)));
  const last = LETTERS[texts.length - 1];
  const answer = o.answer;
  if (answer === undefined) return fail(`"answer" is missing: the letter of the correct choice (A–${last})`);
  if (typeof answer === 'number' && Number.isInteger(answer) && answer >= 0) fail(`"answer" ${answer} is a number; write the letter of the correct choice (A–${last}), or its text`);
  if (typeof answer !== 'string' || !answer.trim()) return fail(`"answer" must be the letter of the correct choice (A–${last}) or its text`);
  const a = answer.trim();
  if (/^[A-Za-z]$/.test(a)) {
    const letter = a.toUpperCase();
    if (LETTERS.indexOf(letter) >= texts.length) fail(`"answer" "${a}" is not one of the ${texts.length} choices (A–${last})`);
    return { ...base, kind: 'choice', question, choices: texts, answer: letter };
  }
  const matching = texts.flatMap((c, i) => (normalizeAnswer(c) === normalizeAnswer(a) ? [i] : []));
  if (matching.length !== 1) fail(matching.length ? `"answer" ${JSON.stringify(a)} matches ${matching.length} choices; write the letter` : `"answer" ${JSON.stringify(a)} is neither a letter A–${last} nor the text of a choice`);
  return { ...base, kind: 'choice', question, choices: texts, answer: LETTERS[matching[0]] };
}

function codeItem(o: Record<string, unknown>, base: ItemBase, options: ParseOptions): CodeItem {
  const task = text(o.task, 'task');
  const ws = o.workspace;
  if (typeof ws !== 'string' || !ws.trim()) return fail('"workspace" must be the folder the agents change (relative to the dataset file\'s folder, or absolute)');
  const workspace = isAbsolute(ws) ? ws : resolve(options.baseDir, ws);
  if (!options.isDirectory(workspace)) fail(`the workspace ${workspace} is not a folder`);
  const raw = o.checks;
  if (!Array.isArray(raw) || raw.length === 0) return fail('"checks" must list at least one command that passes when the task is done, e.g. ["npm test"]');
  const checks = raw.map((c, i) => checkOf(c, i));
  const names = new Set<string>();
  for (const c of checks) {
    if (names.has(c.name)) fail(`two checks are named "${c.name}"; give each a different "name"`);
    names.add(c.name);
  }
  if (!checks.some((c) => c.required)) fail('every check is "required": false, so nothing decides whether the task is done');
  return { ...base, kind: 'code', task, workspace, checks };
}

function checkOf(c: unknown, i: number): CheckSpec {
  if (typeof c === 'string') {
    if (!c.trim()) fail(`check ${i + 1} is an empty command`);
    return { name: checkName(c), command: c.trim(), timeoutSeconds: DEFAULT_CHECK_TIMEOUT_SECONDS, required: true };
  }
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return fail(`check ${i + 1} must be a command string or {"command", "name"?, "timeout_seconds"?, "required"?}`);
  const o = c as Record<string, unknown>;
  if (typeof o.command !== 'string' || !o.command.trim()) return fail(`check ${i + 1} needs a "command"`);
  if (o.name !== undefined && (typeof o.name !== 'string' || !o.name.trim())) fail(`check ${i + 1}: "name" must be a non-empty string`);
  const timeout = o.timeout_seconds;
  if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0) || timeout > 3600)) fail(`check ${i + 1}: "timeout_seconds" must be a number of seconds between 0 and 3600`);
  if (o.required !== undefined && typeof o.required !== 'boolean') fail(`check ${i + 1}: "required" must be true or false`);
  return {
    name: typeof o.name === 'string' ? o.name.trim() : checkName(o.command),
    command: o.command.trim(),
    timeoutSeconds: typeof timeout === 'number' ? timeout : DEFAULT_CHECK_TIMEOUT_SECONDS,
    required: o.required !== false,
  };
}

/** The question or task, whatever the kind: what the report shows. */
export function promptOf(item: EvalItem): string {
  return item.kind === 'code' ? item.task : item.question;
}

/** What counts as right, in words, for results and the report. */
export function expectedOf(item: EvalItem): string {
  switch (item.kind) {
    case 'qa':
      return item.answers.join(' | ');
    case 'choice':
      return `${item.answer}. ${item.choices[LETTERS.indexOf(item.answer)]}`;
    case 'code':
      return `checks pass: ${item.checks.filter((c) => c.required).map((c) => c.name).join(', ')}`;
  }
}

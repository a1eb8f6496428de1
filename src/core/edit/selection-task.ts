// The task the agents get for "Run on selection": the user's instruction, where the code comes from, and the code
// itself, with a request for the complete replacement in one fenced block so the winner can be applied as is.

import { fenceNamesFor } from './extract-code';

export interface SelectionTask {
  instruction: string;
  /** Workspace-relative path, for the agents' orientation. */
  path: string;
  languageId: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  code: string;
  wholeFile: boolean;
}

/** A fence longer than any backtick run in the code, so the code cannot close it early. */
export function fenceFor(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

export function buildSelectionTask(t: SelectionTask): string {
  const fence = fenceFor(t.code);
  const lang = fenceNamesFor(t.languageId)[0] ?? t.languageId;
  const where = t.wholeFile ? `the whole file ${t.path}` : `lines ${t.startLine}–${t.endLine} of ${t.path}`;
  return [
    t.instruction.trim(),
    '',
    `Apply this to ${where} (${t.languageId}):`,
    `${fence}${lang}`,
    t.code,
    fence,
    '',
    `Your answer replaces exactly that ${t.wholeFile ? 'file' : 'code'}. Put the complete replacement in one fenced code block ` +
      '(no placeholders such as "rest unchanged"), then at most a few sentences explaining the change.',
  ].join('\n');
}

// Lines for the shadow's info/exclude (gitignore syntax): what a copy leaves out besides the user's own ignore rules.

import { NO_ACCESS_NAMES } from './path-guard';

/** `name` matching regardless of case (`.ENV` too), since the path guard compares names case-insensitively. Pure. */
export function caseInsensitivePattern(name: string): string {
  return name.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/** Version-control folders and secret files, at any depth: never copied from a plain folder. Pure. */
export function noAccessExcludeLines(): string[] {
  return NO_ACCESS_NAMES.map(caseInsensitivePattern);
}

/** A line that excludes exactly one path (anchored; glob characters and trailing spaces escaped). Pure. */
export function literalExcludeLine(relativePath: string): string {
  return `/${relativePath.replace(/[\\*?[]/g, (c) => `\\${c}`).replace(/ +$/, (spaces) => spaces.replace(/ /g, '\\ '))}`;
}

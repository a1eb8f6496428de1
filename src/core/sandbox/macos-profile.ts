// The sandbox-exec (Seatbelt) profile for one command on macOS: the same policy as bubblewrap on Linux, in SBPL.
// SBPL uses the last matching rule, so each narrowing rule follows the broad one it narrows:
//   everything allowed (processes, Mach services, sysctl…: macOS programs need too many of them to list),
//   then no network unless allowed, no reading the hidden folders (home folders, external volumes) but for the
//   copy, the private temp folder and the exposures, and no writing anywhere but the copy, the private temp folder
//   and the usual character devices.
// Paths must be real paths (/private/var/…, not /var/…): Seatbelt matches the resolved path. Pure. It cannot be run
// on Linux: the tests check the text only.

import * as path from 'node:path';
import type { SandboxPlan } from './plan';

/** A string literal in SBPL (a Scheme string: backslash and double quote escaped). */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** `p` and every folder above it, for metadata reads (getcwd and realpath stat each ancestor). */
function withAncestors(p: string): string[] {
  const out: string[] = [];
  for (let at = p; ; at = path.dirname(at)) {
    out.push(at);
    if (at === path.dirname(at)) return out;
  }
}

/** The profile for a command in `plan.copy`, with `tmp` (a real path) as its private temp folder and HOME. */
export function macosProfile(plan: SandboxPlan, tmp: string): string {
  const readable = [plan.copy, tmp, ...plan.exposures.flatMap((e) => [e.source, e.dest])];
  const lines = ['(version 1)', '(allow default)'];
  if (!plan.network) lines.push('(deny network*)');
  if (plan.hidden.length > 0) {
    lines.push(`(deny file-read* ${plan.hidden.map((h) => `(subpath ${sbplString(h)})`).join(' ')})`);
    lines.push(`(allow file-read* ${[...new Set(readable)].map((p) => `(subpath ${sbplString(p)})`).join(' ')})`);
    const ancestors = [...new Set(readable.flatMap(withAncestors))];
    lines.push(`(allow file-read-metadata ${ancestors.map((p) => `(literal ${sbplString(p)})`).join(' ')})`);
  }
  lines.push('(deny file-write*)');
  lines.push(
    `(allow file-write* (subpath ${sbplString(plan.copy)}) (subpath ${sbplString(tmp)}) ` +
      '(literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (regex #"^/dev/fd/[0-9]+$"))',
  );
  return `${lines.join('\n')}\n`;
}

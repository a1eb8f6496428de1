// `orchestrator.checks` and `orchestrator.verification` (ours): the project's own checks (its tests, its build) that
// the engine runs on every answer version of a workspace run, and how much their results count.

import { z } from 'zod';
import type { CheckSpec, Verification } from './types';
import type { Path, Report } from './report';

export const DEFAULT_CHECK_TIMEOUT_SECONDS = 300;

export const CheckSchema = z.object({
  name: z.string().min(1).nullish(),
  command: z.string().trim().min(1),
  timeout_seconds: z.number().positive().max(3600).nullish(),
  required: z.boolean().nullish(),
});
export const VerificationSchema = z.enum(['off', 'inform', 'gate']);

/** A check's default name: its command's first words ("npm test", "pytest -q"), short enough for a badge. */
export function checkName(command: string): string {
  const words = command.trim().split(/\s+/).slice(0, 3).join(' ');
  return words.length > 40 ? `${words.slice(0, 39)}…` : words;
}

/**
 * Checks given as bare commands (`massgen run --check`, `massgen_run {checks}`): required, the default timeout, named
 * by `checkName`, a repeated name numbered ("npm run test #2"), since results are matched to their check by name.
 */
export function checksFromCommands(commands: readonly string[]): CheckSpec[] {
  const taken = new Set<string>();
  return commands.map((command) => {
    const base = checkName(command);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base} #${n}`;
    taken.add(name);
    return { name, command, timeoutSeconds: DEFAULT_CHECK_TIMEOUT_SECONDS, required: true };
  });
}

/** The checks as the engine takes them; a duplicate name is an error at its entry. */
export function toChecks(raw: readonly z.infer<typeof CheckSchema>[], at: Path, report: Report): CheckSpec[] {
  const checks: CheckSpec[] = [];
  raw.forEach((c, i) => {
    const name = c.name ?? checkName(c.command);
    if (checks.some((o) => o.name === name)) {
      report.error([...at, i, 'name'], `two checks are named "${name}"; give each a different name:`);
      return;
    }
    checks.push({ name, command: c.command, timeoutSeconds: c.timeout_seconds ?? DEFAULT_CHECK_TIMEOUT_SECONDS, required: c.required ?? true });
  });
  return checks;
}

/** The mode in effect: as configured, else `inform` when there are checks and `off` without. */
export function verificationOf(orchestrator: { checks?: readonly CheckSpec[]; verification?: Verification }): Verification {
  if (!orchestrator.checks?.length) return 'off';
  return orchestrator.verification ?? 'inform';
}

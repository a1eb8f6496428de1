// Which checks a run in VS Code gets, and from where. The checks are commands run on the agents' code, so: never in
// an untrusted workspace (VS Code also ignores a workspace's `massgen.checks` there: restrictedConfigurations), and
// only in workspace runs (they check the agents' copies). A YAML config's `orchestrator.checks` win over
// `massgen.checks`: a config file is the whole team, as for every other setting; without checks of its own,
// the setting's apply to it too (so the one-click suggestion, which writes the setting, works with a file as well).
// `orchestrator.verification` likewise wins over `massgen.verification`. No `vscode` here: tested in Node.

import { CheckSchema, checkName, DEFAULT_CHECK_TIMEOUT_SECONDS, VerificationSchema } from '../../core/config/checks';
import { ConfigError, type ConfigIssue } from '../../core/config/load';
import type { CheckSpec, OrchestratorConfig } from '../../core/config/types';

const SOURCE = 'VS Code settings';

/** `massgen.checks`: entries are a command, or `{ name?, command, timeout_seconds?, required? }`. Throws ConfigError. */
export function checksFromSetting(raw: unknown): CheckSpec[] {
  if (raw === undefined || raw === null) return [];
  const issues: ConfigIssue[] = [];
  const issue = (path: string, message: string) => issues.push({ file: SOURCE, path, message: `${path}: ${message}` });
  if (!Array.isArray(raw)) {
    issue('massgen.checks', 'must be a list of commands (e.g. ["npm test"]) or of { "name", "command" } objects');
    throw new ConfigError(issues);
  }
  const checks: CheckSpec[] = [];
  raw.forEach((entry: unknown, i) => {
    const at = `massgen.checks[${i}]`;
    const parsed = CheckSchema.safeParse(typeof entry === 'string' ? { command: entry } : entry);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      if (typeof entry === 'string') issue(at, 'is empty');
      else issue(first?.path.length ? `${at}.${first.path.join('.')}` : at, first?.message ?? 'is not a check');
      return;
    }
    const c = parsed.data;
    const name = c.name ?? checkName(c.command);
    if (checks.some((o) => o.name === name)) {
      issue(`${at}.name`, `two checks are named "${name}"; give each a different "name"`);
      return;
    }
    checks.push({ name, command: c.command, timeoutSeconds: c.timeout_seconds ?? DEFAULT_CHECK_TIMEOUT_SECONDS, required: c.required ?? true });
  });
  if (issues.length) throw new ConfigError(issues);
  return checks;
}

export interface RunChecksContext {
  trusted: boolean;
  /** The run works on copies of a workspace folder (Run on Workspace, /edit without attachments). */
  workspaceRun: boolean;
  /** The team's YAML file, in words, when the team comes from one. */
  file?: string;
  /** `massgen.checks` and `massgen.verification` as read, and where `massgen.checks` is set, in words. */
  setting: { checks: unknown; verification: unknown; from: string };
}

/**
 * Sets `orchestrator.checks` and `.verification` for the run, in place; returns where the checks come from, in words
 * (undefined: no checks). Throws ConfigError for a bad `massgen.checks` or `massgen.verification`.
 */
export function applyRunChecks(orchestrator: OrchestratorConfig, context: RunChecksContext): string | undefined {
  if (!context.trusted || !context.workspaceRun) {
    delete orchestrator.checks;
    delete orchestrator.verification;
    return undefined;
  }
  const fromFile = context.file && orchestrator.checks?.length ? `orchestrator.checks in ${context.file}` : undefined;
  if (!fromFile) {
    const checks = checksFromSetting(context.setting.checks);
    if (checks.length) orchestrator.checks = checks;
    else delete orchestrator.checks;
  }
  if (orchestrator.verification === undefined && context.setting.verification !== undefined) {
    const mode = VerificationSchema.safeParse(context.setting.verification);
    if (!mode.success) throw new ConfigError([{ file: SOURCE, path: 'massgen.verification', message: 'massgen.verification: must be off, inform or gate' }]);
    orchestrator.verification = mode.data;
  }
  if (!orchestrator.checks?.length) return undefined;
  return fromFile ?? context.setting.from;
}

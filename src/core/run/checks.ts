// The project's checks for a run (`orchestrator.checks`, CLI --check, VS Code's setting): on only in workspace runs,
// since they check the agents' changes; in the command sandbox, or, on a machine without one, only once the user
// approved running them unsandboxed (the code they run is the agents'). What was decided is said in the run's notes.

import { createAnswerChecks } from '../checks/answer-checks';
import { verificationOf } from '../config/checks';
import type { MassGenConfig } from '../config/types';
import type { AnswerChecks } from '../engine/ports';
import { detectSandbox } from '../sandbox';
import type { WorkArea } from './work-area';

export interface ChecksOption {
  /** No sandbox on this machine: may the checks run unsandboxed? Asked once per run; absent = no. */
  approveUnsandboxed?(request: { commands: string[]; sandbox: string }): Promise<boolean>;
  /** Versions checked at once (default: the machine's cores). */
  concurrency?: number;
  /** Where the checks are set, in words, for the run's notes ("massgen.checks in the workspace settings"). */
  source?: string;
}

export interface RunChecks {
  checks?: AnswerChecks;
  /** For the run's notes: what runs where, or why nothing does. */
  note?: string;
}

export async function openChecks(config: MassGenConfig, area: WorkArea | undefined, option: ChecksOption | undefined): Promise<RunChecks> {
  const mode = verificationOf(config.orchestrator);
  const specs = config.orchestrator.checks ?? [];
  if (mode === 'off') return {};
  const names = `${specs.map((s) => s.name).join(', ')}${option?.source ? `, from ${option.source}` : ''}`;
  const checkout = area?.checkout?.bind(area);
  if (!checkout) return { note: `the checks (${names}) were not run: they check the agents' changes, so they need a workspace run` };
  const sandbox = await detectSandbox();
  if (sandbox.requiresApproval && !(await option?.approveUnsandboxed?.({ commands: specs.map((s) => s.command), sandbox: sandbox.description }))) {
    return { note: `the checks (${names}) were not run: ${sandbox.description}, and running them unsandboxed was not approved` };
  }
  const knownSecrets = config.agents.flatMap((a) => (a.backend.apiKey ? [a.backend.apiKey] : []));
  return {
    checks: createAnswerChecks({ specs, mode, checkout, environment: { sandbox, knownSecrets }, concurrency: option?.concurrency }),
    note: `MassGen runs the checks (${names}) on every answer's change in ${sandbox.description}${mode === 'gate' ? '; an answer failing a required check cannot win while another passes' : ''}`,
  };
}

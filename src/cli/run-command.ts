// `massgen run` and `massgen validate`: load the config, hand the run to a RunSession (which also keeps the log
// directory and status.json), show its events as progress on stderr, print the answer, apply the winner's change
// when asked, and map the ending to upstream's exit codes.

import { join, resolve } from 'node:path';
import { checksFromCommands, verificationOf } from '../core/config/checks';
import { discoverConfig } from '../core/config/discover';
import { ConfigError, formatIssue, loadConfigFile, type ConfigWarning } from '../core/config/load';
import type { MassGenConfig } from '../core/config/types';
import type { EndReason } from '../core/engine/events';
import type { RunResult } from '../core/engine/ports';
import type { ApprovalHandler } from '../core/mcp';
import type { CommandsOption } from '../core/run/command-tools';
import { readPreviousRun, type PreviousRun } from '../core/run/continuation';
import { SessionSetupError } from '../core/run/errors';
import { RunSession, type SessionResult } from '../core/run/session';
import { planWorkspace } from '../core/run/workspace-plan';
import { describeProgram } from '../core/harness/binaries';
import { newLogDir } from '../core/status/run-log';
import { backendPricing } from '../core/usage/cost';
import { estimateRun, type RunEstimate } from '../core/usage/estimate';
import { estimateEscalatingRun } from '../core/usage/escalation-estimate';
import { errorMessage } from '../core/util/errors';
import { applyPatch } from '../core/workspace/apply';
import { privateRunBase } from '../core/workspace/run-base';
import type { CliCommand } from './args';
import { NOTES_HELP, readNotes } from './notes';
import { ProgressPrinter } from './progress';

export const EXIT = { ok: 0, config: 1, execution: 2, timeout: 3, interrupted: 4 } as const;

export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
  /** Notes for the agents: read when it is a terminal, or with --notes-from-stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Registers the Ctrl-C handler; returns its remover. */
  onInterrupt(handler: () => void): () => void;
}

export function exitCodeFor(result: Pick<RunResult, 'reason' | 'winnerId'>): number {
  // user_stop (answer now) is the user's choice: an answer, exit 0, like consensus.
  const byReason: Partial<Record<EndReason, number>> = { cancelled: EXIT.interrupted, timeout: EXIT.timeout, all_failed: EXIT.execution };
  return byReason[result.reason] ?? (result.winnerId ? EXIT.ok : EXIT.execution);
}

function printWarnings(io: CliIO, warnings: ConfigWarning[]): void {
  for (const w of warnings) io.stderr.write(`warning: ${formatIssue(w)}\n`);
}

async function resolveConfig(cmd: Extract<CliCommand, { command: 'run' }>, io: CliIO): Promise<MassGenConfig | number> {
  try {
    if (cmd.config) {
      const { config, warnings } = loadConfigFile(resolve(io.cwd, cmd.config), io.env, { requireKeys: true, host: 'cli' });
      printWarnings(io, warnings);
      return config;
    }
    const found = await discoverConfig({ cwd: io.cwd, env: io.env });
    if ('none' in found) {
      io.stderr.write(`${found.help}\n`);
      return EXIT.config;
    }
    printWarnings(io, found.warnings);
    if (!cmd.automation) io.stderr.write(`Using ${found.source}.\n`);
    return found.config;
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(`Configuration error: ${err.message}\n`);
      return EXIT.config;
    }
    throw err;
  }
}

export async function runCommand(cmd: Extract<CliCommand, { command: 'run' }>, io: CliIO): Promise<number> {
  const config = await resolveConfig(cmd, io);
  if (typeof config === 'number') return config;
  if (cmd.estimate) {
    io.stdout.write(formatEstimate(estimateFor(config, cmd.question), config));
    return EXIT.ok;
  }
  if (cmd.timeoutSeconds) config.timeouts.orchestratorTimeoutSeconds = cmd.timeoutSeconds;
  if (cmd.checks.length) config.orchestrator.checks = checksFromCommands(cmd.checks);
  if (cmd.verification) config.orchestrator.verification = cmd.verification;
  const planned = planWorkspace(config, { workspace: cmd.workspace, cwd: io.cwd, commands: cmd.allowCommands });
  if (!planned.ok) return fail(io, EXIT.config, `Configuration error: ${planned.error}`);
  const plan = planned.plan;
  if (cmd.apply && !plan?.source) return fail(io, EXIT.config, '--apply needs a folder to apply the change to: pass --workspace DIR (or a context path with permission: write).');
  if (cmd.checks.length && !plan) return fail(io, EXIT.config, '--check runs on the agents\' changes: pass --workspace DIR too.');
  if (!plan && verificationOf(config.orchestrator) !== 'off') io.stderr.write('note: the config\'s checks are not run: they check the agents\' changes, so they need --workspace DIR\n');
  for (const note of plan?.notes ?? []) io.stderr.write(`note: ${note}\n`);
  let continues: PreviousRun | undefined;
  try {
    continues = cmd.continueFrom ? readPreviousRun(resolve(io.cwd, cmd.continueFrom)) : undefined;
  } catch (err) {
    if (err instanceof SessionSetupError) return fail(io, EXIT.config, `Configuration error: ${err.message}`);
    throw err;
  }

  let baseDir: string | undefined;
  try {
    baseDir = plan ? await privateRunBase() : undefined;
  } catch (err) {
    return fail(io, EXIT.execution, errorMessage(err));
  }

  const logDir = cmd.logDir ? resolve(io.cwd, cmd.logDir) : newLogDir(join(io.cwd, '.massgen', 'logs'));
  const progress = cmd.automation ? undefined : new ProgressPrinter(io.stderr);
  const warn = (message: string) => {
    progress?.clearFooter();
    io.stderr.write(`warning: ${message}\n`);
  };
  const session = new RunSession({
    task: cmd.question,
    config,
    record: { logDir, statusFiles: cmd.statusFile ? [resolve(io.cwd, cmd.statusFile)] : [] },
    mcp: { approve: toolApprover(cmd, io, progress), processEnv: io.env },
    commands: { everyAgent: cmd.allowCommands, network: cmd.allowNetwork, approve: commandApprover(cmd, io, progress) },
    files: plan && baseDir ? { kind: 'workspace', source: plan.source, baseDir, references: plan.references } : undefined,
    continues,
    checks: { approveUnsandboxed: async () => cmd.approveTools },
    onWarning: warn,
  });
  if (progress) session.subscribe((event, state) => progress.onEvent(event, state));
  if (cmd.automation) {
    io.stdout.write(`LOG_DIR: ${logDir}\nSTATUS: ${cmd.statusFile ? resolve(io.cwd, cmd.statusFile) : join(logDir, 'status.json')}\nQUESTION: ${cmd.question}\n`);
    io.stdout.write('[Coordination in progress - monitor status.json for real-time updates]\n');
  }
  const notes = startNotes(cmd, io, session, progress);
  const removeInterrupt = io.onInterrupt(() => {
    progress?.clearFooter();
    io.stderr.write('\nInterrupted: stopping the agents and saving their answers so far in the log (no answer is chosen)…\n');
    session.cancel();
  });
  let result: SessionResult;
  try {
    result = await session.start();
  } catch (err) {
    if (!(err instanceof SessionSetupError)) throw err;
    const code = { config: EXIT.config, environment: EXIT.execution, cancelled: EXIT.interrupted }[err.kind];
    return fail(io, code, `${err.kind === 'config' ? 'Configuration error' : 'Cannot start'}: ${err.message}`);
  } finally {
    removeInterrupt();
    notes?.stop();
  }
  printResult(cmd, io, result);
  const code = exitCodeFor(result);
  if (cmd.apply && plan?.source) return (await applyWinner(io, plan.source, result, cmd.automation)) ?? code;
  return code;
}

/** Notes typed on a terminal (a human watching), or piped with --notes-from-stdin (a program driving the run). */
function startNotes(cmd: Extract<CliCommand, { command: 'run' }>, io: CliIO, session: RunSession, progress: ProgressPrinter | undefined): { stop(): void } | undefined {
  const stdin = io.stdin;
  if (!stdin || !(cmd.notesFromStdin || (stdin.isTTY && !cmd.automation))) return undefined;
  const say = (message: string) => {
    progress?.clearFooter();
    io.stderr.write(`note: ${message}\n`);
  };
  if (!cmd.automation) say(NOTES_HELP);
  return readNotes(stdin, session, say);
}

function fail(io: CliIO, code: number, message: string): number {
  io.stderr.write(`${message}\n`);
  return code;
}

function estimateFor(config: MassGenConfig, question: string): RunEstimate {
  const input = {
    agents: config.agents.map((a) => ({ id: a.id, model: a.backend.model, pricing: backendPricing(a.backend).pricing, systemPromptChars: a.systemMessage?.length })),
    question,
    maxNewAnswersPerAgent: config.orchestrator.maxNewAnswersPerAgent,
    maxRounds: config.orchestrator.maxRounds,
    finalAnswer: config.orchestrator.finalAnswer,
  };
  const { escalation } = config.orchestrator;
  return escalation ? estimateEscalatingRun(input, escalation) : estimateRun(input);
}

/** MCP tools that need approval: allowed with --approve-tools, else denied (said once per agent and tool). */
function toolApprover(cmd: Extract<CliCommand, { command: 'run' }>, io: CliIO, progress: ProgressPrinter | undefined): ApprovalHandler {
  const denied = new Set<string>();
  return async (request) => {
    if (cmd.approveTools) return true;
    const key = `${request.agentId}\0${request.toolName}`;
    if (!cmd.automation && !denied.has(key)) {
      denied.add(key);
      progress?.clearFooter();
      io.stderr.write(`note: ${request.agentId} was denied ${request.toolName} (it needs approval; run with --approve-tools to allow such tools)\n`);
    }
    return false;
  };
}

/** Commands that need approval (there is no sandbox on this machine): run with --approve-tools, else refused. */
function commandApprover(cmd: Extract<CliCommand, { command: 'run' }>, io: CliIO, progress: ProgressPrinter | undefined): NonNullable<CommandsOption['approve']> {
  let told = false;
  return async () => {
    if (cmd.approveTools) return true;
    if (!cmd.automation && !told) {
      told = true;
      progress?.clearFooter();
      io.stderr.write('note: commands were refused: no sandbox is available here (on Linux: apt-get install bubblewrap); run with --approve-tools to run them unsandboxed\n');
    }
    return false;
  };
}

function printResult(cmd: Extract<CliCommand, { command: 'run' }>, io: CliIO, result: SessionResult): void {
  if (cmd.automation) {
    io.stdout.write(
      [
        `WINNER: ${result.winnerId ?? 'none'}`,
        `ANSWER_FILE: ${result.answerFile ?? 'none'}`,
        ...(result.changeFile ? [`CHANGES_FILE: ${result.changeFile}`] : []),
        `DURATION: ${(result.durationMs / 1000).toFixed(1)}s`,
        `ANSWER_PREVIEW: ${(result.finalAnswer ?? '').slice(0, 200).replace(/\s+/g, ' ')}`,
        `COMPLETED: ${result.reason}`,
        ...(result.verification ? [`VERIFICATION: ${result.verification.status}${result.verification.overruled ? ` (overruled ${result.verification.overruled.label}: ${result.verification.overruled.failed.join(', ')} failed)` : ''}`] : []),
        ...(result.error ? [`ERROR: ${result.error.replace(/\n\s*/g, '; ')}`] : []),
      ].join('\n') + '\n',
    );
    return;
  }
  // The error, if any, was printed with the progress's last line.
  if (result.finalAnswer !== null) io.stdout.write(result.finalAnswer.endsWith('\n') ? result.finalAnswer : `${result.finalAnswer}\n`);
  if (result.change) {
    const files = result.change.files;
    io.stderr.write(files.length ? `Changes: ${files.length} file(s) in ${result.changeFile ?? 'the winner'}: ${files.map((f) => f.path).join(', ')}\n` : 'Changes: none (the winner changed no files)\n');
  }
  io.stderr.write(`Log: ${result.logDir}\n`);
}

/** `--apply`: the winner's change onto the workspace folder, all or nothing. Returns an exit code when it failed. */
async function applyWinner(io: CliIO, source: string, result: SessionResult, automation: boolean): Promise<number | undefined> {
  const say = (line: string) => (automation ? io.stdout.write(`${line}\n`) : io.stderr.write(`${line}\n`));
  if (!result.change) {
    // Without a winner the exit code already says why (interrupted, timeout, execution error).
    say(`APPLIED: no (${result.winnerId ? 'the winner carries no change' : result.reason === 'cancelled' ? 'interrupted: nothing was chosen' : 'no winner'})`);
    return undefined;
  }
  if (result.change.patch === '') {
    say('APPLIED: nothing to apply (the winner changed no files)');
    return undefined;
  }
  const applied = await applyPatch(source, result.change.patch);
  if (applied.ok) {
    say(`APPLIED: ${applied.files.length} file(s) changed in ${source}`);
    return undefined;
  }
  say(`APPLIED: no — ${applied.message}${result.changeFile ? ` The change is in ${result.changeFile}.` : ''}`);
  return EXIT.execution;
}

const usd = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`;
const range = (r: { min: number; max: number }, f: (n: number) => string = String) => (r.min === r.max ? f(r.min) : `${f(r.min)}–${f(r.max)}`);

export function formatEstimate(e: RunEstimate, config: MassGenConfig): string {
  const cost = e.costUsd
    ? `${range(e.costUsd, usd)}${e.costUsd.partial ? ` (without ${e.costUsd.unpricedAgentIds.join(', ')}: no known price)` : ''}`
    : 'unknown (no agent has a known price; set backend.pricing)';
  const b = config.orchestrator.budget;
  const caps = b ? [b.maxCostUsd !== undefined && `cost ${usd(b.maxCostUsd)}`, b.maxTotalTokens !== undefined && `${b.maxTotalTokens} tokens`, b.maxCalls !== undefined && `${b.maxCalls} calls`].filter(Boolean).join(', ') : '';
  return [
    `Estimate for ${config.agents.length} agent(s)${config.orchestrator.escalation ? ` in ${config.orchestrator.escalation.stages.length} escalation stages` : ''}, nothing spent:`,
    `  model calls:   ${range(e.calls)}`,
    `  input tokens:  ${range(e.inputTokens)}`,
    `  output tokens: ${range(e.outputTokens)}`,
    `  cost:          ${cost}`,
    ...(caps ? [`  budget:        ${caps} (the run stops before crossing it)`] : []),
    'Assumptions:',
    ...e.assumptions.map((a) => `  - ${a}`),
    '',
  ].join('\n');
}

export function validateCommand(file: string, io: CliIO): number {
  try {
    const { config, warnings } = loadConfigFile(resolve(io.cwd, file), io.env, { requireKeys: false, host: 'cli' });
    printWarnings(io, warnings);
    const missing = config.agents.filter((a) => a.backend.family !== 'harness' && a.backend.apiKeyEnv && !a.backend.apiKey);
    for (const a of missing) io.stderr.write(`note: agent '${a.id}' will need ${a.backend.apiKeyEnv} set when it runs.\n`);
    for (const a of config.agents) {
      if (a.backend.harness) io.stderr.write(`note: ${describeProgram(a, io.env)}\n`);
    }
    const agents = config.agents.map((a) => `${a.id} (${a.backend.type} ${a.backend.model})`).join(', ');
    io.stdout.write(`OK: ${file}: ${config.agents.length} agent(s): ${agents}\n`);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(`Configuration error: ${err.message}\n`);
      return EXIT.config;
    }
    throw err;
  }
}

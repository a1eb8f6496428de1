// massgen_run: one team run for an MCP client, through the same RunSession as `massgen run` (the config file, else
// zero-config discovery; workspace runs planned by planWorkspace; a log directory per run). Progress goes to the
// client as notifications/progress, the client's cancellation cancels the session (its HTTP requests aborted), and
// the result is the winner's answer, the tally, usage and cost, the log directory and, for a workspace run, the
// winner's patch, never applied, and the project's checks on every answer version with the winner's verification.

import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { discoverConfig } from '../../core/config/discover';
import { checksFromCommands, verificationOf } from '../../core/config/checks';
import { ConfigError, formatIssue, loadConfigFile } from '../../core/config/load';
import type { MassGenConfig } from '../../core/config/types';
import { fenceFor } from '../../core/edit/selection-task';
import { SessionSetupError } from '../../core/run/errors';
import { RunSession } from '../../core/run/session';
import { planWorkspace } from '../../core/run/workspace-plan';
import { newLogDir } from '../../core/status/run-log';
import { describeEvent } from '../../core/status/describe';
import { errorMessage } from '../../core/util/errors';
import { privateRunBase } from '../../core/workspace/run-base';
import { runOutput, runText } from './run-result';
import type { RunInput } from './schemas';

export interface RunToolContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `massgen mcp --approve-tools`: run MCP tools that need approval, and commands where no sandbox exists. */
  approveTools: boolean;
  /** The server's runs, cancelled when the client goes. */
  runs: Set<RunSession>;
  /** stderr: the client's log, never the protocol. */
  log(line: string): void;
}

/** The parts of the SDK's request context a tool call uses. */
export interface CallContext {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification(notification: ServerNotification): Promise<void>;
}

export const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

type Resolved = { config: MassGenConfig; notes: string[] } | { error: string };

async function resolveConfig(input: RunInput, ctx: RunToolContext): Promise<Resolved> {
  try {
    if (input.config) {
      const { config, warnings } = loadConfigFile(resolve(ctx.cwd, input.config), ctx.env, { requireKeys: true, host: 'cli' });
      return { config, notes: warnings.map(formatIssue) };
    }
    const found = await discoverConfig({ cwd: ctx.cwd, env: ctx.env });
    if ('none' in found) return { error: found.help };
    return { config: found.config, notes: [`Using ${found.source}.`, ...found.warnings.map(formatIssue)] };
  } catch (err) {
    if (err instanceof ConfigError) return { error: `Configuration error: ${err.message}` };
    throw err;
  }
}

function folderError(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? undefined : `workspace ${path} is not a folder`;
  } catch {
    return `workspace ${path} does not exist`;
  }
}

/** `.massgen/logs/` of the working folder, as `massgen run`; else (a client may start servers in /) the temp folder's. */
function openLogDir(ctx: RunToolContext, notes: string[]): string {
  const base = join(ctx.cwd, '.massgen', 'logs');
  try {
    return newLogDir(base);
  } catch (err) {
    const fallback = newLogDir(join(tmpdir(), 'massgen', 'logs'));
    notes.push(`The log directory is in the temp folder: ${base} cannot be written (${errorMessage(err)}).`);
    return fallback;
  }
}

function patchText(patch: string): string {
  const fence = fenceFor(patch);
  return `The winner's change (not applied):\n\n${fence}diff\n${patch}\n${fence}`;
}

export async function massgenRun(input: RunInput, call: CallContext, ctx: RunToolContext): Promise<CallToolResult> {
  const resolved = await resolveConfig(input, ctx);
  if ('error' in resolved) return toolError(resolved.error);
  const { config, notes } = resolved;
  // The checks as `massgen run --check/--verification` takes them: the arguments replace the config's.
  if (input.checks?.length) config.orchestrator.checks = checksFromCommands(input.checks);
  if (input.verification) config.orchestrator.verification = input.verification;
  if (input.checks?.length && input.workspace === undefined) return toolError('checks run on the agents\' changes: pass workspace too (the folder whose copies the agents change).');
  const workspace = input.workspace === undefined ? undefined : resolve(ctx.cwd, input.workspace);
  const missing = workspace && folderError(workspace);
  if (missing) return toolError(`${missing} (relative paths are resolved against ${ctx.cwd}).`);
  const planned = planWorkspace(config, { workspace, cwd: ctx.cwd });
  if (!planned.ok) return toolError(`Configuration error: ${planned.error}`);
  const plan = planned.plan;
  notes.push(...(plan?.notes ?? []));
  const mode = verificationOf(config.orchestrator);
  if (!plan && mode !== 'off') notes.push('The config\'s checks were not run: they check the agents\' changes, so they need a workspace.');
  let checksNotRun: string | undefined;
  let baseDir: string | undefined;
  try {
    baseDir = plan ? await privateRunBase() : undefined;
  } catch (err) {
    return toolError(errorMessage(err));
  }

  const logDir = openLogDir(ctx, notes);
  const denied = new Set<string>();
  const deny = (what: string) => {
    if (!denied.has(what)) notes.push(`${what} was refused: it needs approval (start the server as \`massgen mcp --approve-tools\` to allow such calls)`);
    denied.add(what);
    return false;
  };
  const session = new RunSession({
    task: input.question,
    config,
    record: { logDir },
    mcp: { approve: async (request) => ctx.approveTools || deny(`${request.agentId}'s ${request.toolName}`), processEnv: ctx.env },
    commands: { everyAgent: false, network: false, approve: async () => ctx.approveTools || deny('a command (no sandbox on this machine)') },
    files: plan && baseDir ? { kind: 'workspace', source: plan.source, baseDir, references: plan.references } : undefined,
    checks: {
      approveUnsandboxed: async ({ sandbox }) => {
        if (!ctx.approveTools) checksNotRun = `${sandbox}, and checks run unsandboxed only under \`massgen mcp --approve-tools\``;
        return ctx.approveTools;
      },
    },
    signal: call.signal,
    onWarning: (message) => ctx.log(`warning: ${message}`),
  });
  const token = call._meta?.progressToken;
  let step = 0;
  const progress = (message: string) => {
    if (token !== undefined) call.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++step, message } }).catch(() => undefined);
  };
  session.subscribe((event, state) => {
    const message = describeEvent(event, state);
    if (message !== undefined) progress(message);
  });
  // The log directory first: massgen_status reads a run in progress from it.
  progress(`Log directory: ${logDir} (massgen_status {log_dir} shows how the run is going)`);
  ctx.log(`run started: ${logDir}`);
  ctx.runs.add(session);
  try {
    const result = await session.start();
    const checks = plan && mode !== 'off' ? { commands: (config.orchestrator.checks ?? []).map((c) => c.command), verification: mode, notRun: checksNotRun } : undefined;
    const out = runOutput(result, session.state, logDir, { checks, notes });
    const patch = out.change?.patch;
    return {
      content: [{ type: 'text', text: runText(out, session.state) }, ...(patch ? [{ type: 'text' as const, text: patchText(patch) }] : [])],
      structuredContent: out,
      isError: result.finalAnswer === null,
    };
  } catch (err) {
    if (err instanceof SessionSetupError) return toolError(`${err.kind === 'config' ? 'Configuration error' : 'Cannot start'}: ${err.message}`);
    throw err;
  } finally {
    ctx.runs.delete(session);
  }
}

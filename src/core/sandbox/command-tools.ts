// The command tools of one agent: execute_command (in the foreground, or in the background), command_output and
// kill_command, declared through the tool kit (core/tools), which answers every call with text the model can act
// on. Order of checks for a command: arguments (their types by the kit, then the timeout's range), the per-turn
// count, the configured patterns, the background limit, then the user's approval (always without a sandbox; for
// every command when configured), and only then does anything run.
//
// The engine passes one AbortSignal per turn to `execute`, so the turn's command count is kept per signal. A
// foreground command ends with its turn; background commands outlive turns and end with the run: when the run's
// signal (given to `start`) aborts, or at `close`.

import type { AgentToolbox } from '../engine/ports';
import { defineToolbox, tool } from '../tools/kit';
import { failed as fail, type ToolResult as Result } from '../tools/types';
import { linkedSignal } from '../util/abort';
import { BackgroundCommands } from './background';
import { BACKGROUND_ID_ARGS, COMMAND_OUTPUT, EXECUTE_COMMAND, EXECUTE_COMMAND_ARGS, KILL_COMMAND, commandToolSpecs, type ExecuteCommandArgs } from './command-specs';
import { planSandbox, type SandboxPlan } from './plan';
import { checkCommand, DEFAULT_COMMAND_LIMITS, OPEN_POLICY, resolveTimeout, type CommandLimits, type CommandPolicy } from './policy';
import { describeEnd, resultText } from './result-text';
import { startCommand, type CommandHandle, type CommandSpec } from './runner';
import type { SandboxInfo } from './sandbox';

export { COMMAND_OUTPUT, EXECUTE_COMMAND, KILL_COMMAND } from './command-specs';

export interface ApprovalRequest {
  command: string;
  /** The agent's copy, where it would run. */
  cwd: string;
  /** 'no-sandbox': nothing isolates the command; 'configured': the user asked to approve every command. */
  reason: 'no-sandbox' | 'configured';
}

export interface CommandToolboxOptions {
  /** The agent's copy of the project: where commands run, and the only folder they can write. */
  cwd: string;
  /** From `detectSandbox()` (or NO_SANDBOX). */
  sandbox: SandboxInfo;
  /** From `compileCommandPolicy`; default: every command allowed. */
  policy?: CommandPolicy;
  /** Commands may use the network (default false). Without a sandbox it cannot be taken away. */
  network?: boolean;
  /** Asks the user; resolves true to run the command. Required when the sandbox is none. */
  approve?: (request: ApprovalRequest, signal: AbortSignal) => Promise<boolean>;
  /** Ask approval for every command even inside a sandbox. */
  requireApproval?: boolean;
  /** Extra variables for commands (secret-looking ones are dropped). */
  env?: Record<string, string>;
  /** API keys and other secret values known to the host: no variable containing one reaches a command. */
  knownSecrets?: readonly string[];
  /** Host paths inside hidden folders that commands need to read (e.g. a node_modules the copy links to). */
  readOnlyPaths?: readonly string[];
  limits?: Partial<CommandLimits>;
  /** The environment the allow-list is read from (default process.env). */
  parentEnv?: Readonly<Record<string, string | undefined>>;
}

/** Resolves with the approval, or false when `signal` aborts first or the approver fails. */
async function approved(approve: NonNullable<CommandToolboxOptions['approve']>, request: ApprovalRequest, signal: AbortSignal): Promise<{ ok: boolean; why?: string }> {
  if (signal.aborted) return { ok: false, why: 'the turn or the run ended before the user answered' };
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<{ ok: boolean; why?: string }>((resolve) => {
    onAbort = () => resolve({ ok: false, why: 'the turn or the run ended before the user answered' });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([approve(request, signal).then((yes) => ({ ok: yes === true })), aborted]);
  } catch (err) {
    return { ok: false, why: `the approval could not be asked (${(err as Error).message})` };
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/**
 * The command toolbox of one agent. Throws when `cwd` cannot be sandboxed (not an existing folder, or a system,
 * home or temp folder itself): a host bug, at construction time.
 */
export function createCommandToolbox(options: CommandToolboxOptions): AgentToolbox {
  const limits: CommandLimits = { ...DEFAULT_COMMAND_LIMITS, ...options.limits };
  const network = options.network === true;
  const planned = planSandbox(options.sandbox.kind, options.cwd, { network, readOnlyPaths: options.readOnlyPaths });
  if (!planned.ok) throw new Error(planned.reason);
  const plan: SandboxPlan = planned.plan;
  const policy = options.policy ?? OPEN_POLICY;
  const background = new BackgroundCommands(limits);
  const foreground = new Set<CommandHandle>();
  const perTurn = new WeakMap<AbortSignal, number>();
  // Aborted when the run ends (its signal, or close): ends foreground and background commands alike.
  const runEnd = new AbortController();
  let closed = false;

  const spec = (command: string, timeoutSeconds: number | null, signal: AbortSignal): CommandSpec => ({
    command,
    plan,
    sandbox: options.sandbox,
    environment: { parent: options.parentEnv ?? process.env, extra: options.env, knownSecrets: options.knownSecrets },
    timeoutMs: timeoutSeconds === null ? null : timeoutSeconds * 1000,
    limits,
    signal,
  });

  async function executeCommand(args: ExecuteCommandArgs, signal: AbortSignal): Promise<Result> {
    const tool = EXECUTE_COMMAND;
    const { command } = args;
    const inBackground = args.background === true;
    if (args.timeout_seconds !== undefined && args.timeout !== undefined && args.timeout_seconds !== args.timeout) return fail(tool, 'give "timeout_seconds" or "timeout", not both');
    const requested = args.timeout_seconds ?? args.timeout;
    let timeoutSeconds: number | null = null; // a background command without one runs until stopped
    let note = '';
    if (!inBackground || requested !== undefined) {
      const timeout = resolveTimeout(requested, limits);
      if (!timeout.ok) return fail(tool, timeout.reason);
      timeoutSeconds = timeout.seconds;
      if (timeout.note) note = `[${timeout.note}]\n`;
    }
    const count = perTurn.get(signal) ?? 0;
    if (count >= limits.maxCommandsPerTurn) return fail(tool, `this turn has already run ${limits.maxCommandsPerTurn} commands, the limit per turn; give your answer, or combine steps into one command or a script`);
    perTurn.set(signal, count + 1);
    const allowed = checkCommand(policy, command);
    if (!allowed.ok) return fail(tool, allowed.reason);
    if (inBackground) {
      const refusal = background.refusal();
      if (refusal) return fail(tool, refusal);
    }
    // The turn's signal or the run's end stops this call; linked plainly, so nothing stays on the run's signal.
    const call = linkedSignal([signal, runEnd.signal]);
    try {
      if (options.sandbox.requiresApproval || options.requireApproval) {
        const reason = options.sandbox.requiresApproval ? 'no-sandbox' : 'configured';
        if (!options.approve) return fail(tool, 'commands need the user\'s approval here (no sandbox is available on this machine), and no approval can be asked in this run; work without running commands');
        const answer = await approved(options.approve, { command, cwd: plan.copy, reason }, call.signal);
        if (!answer.ok) return fail(tool, answer.why ? `not run: ${answer.why}` : 'the user did not approve this command, so it did not run. Do the task without it, or explain in your answer why it is needed');
      }
      if (inBackground) {
        // A background command outlives the turn: only the run's end stops it.
        const handle = await startCommand(spec(command, timeoutSeconds, runEnd.signal));
        const id = background.add(command, handle, timeoutSeconds);
        const limit = timeoutSeconds === null ? 'no timeout' : `a ${timeoutSeconds} s timeout`;
        return { ok: true, content: `${note}started in the background as ${id} (${limit}); read its output with ${COMMAND_OUTPUT} {"id": "${id}"} and stop it with ${KILL_COMMAND}` };
      }
      const handle = await startCommand(spec(command, timeoutSeconds, call.signal));
      foreground.add(handle);
      const end = await handle.done;
      foreground.delete(handle);
      const text = resultText(describeEnd(end, limits, timeoutSeconds), handle.output.take(), end);
      return { ok: end.kind === 'exited' && end.exitCode === 0, content: note + text };
    } finally {
      call.dispose();
    }
  }

  const specs = commandToolSpecs(options.sandbox, network, limits);
  const calls = defineToolbox({
    family: 'command tools',
    tools: [
      tool({ spec: specs.execute, args: EXECUTE_COMMAND_ARGS, run: executeCommand }),
      tool({ spec: specs.output, args: BACKGROUND_ID_ARGS, run: ({ id }) => background.output(id) }),
      tool({ spec: specs.kill, args: BACKGROUND_ID_ARGS, run: ({ id }) => background.kill(id) }),
    ],
    example: '{"command": "npm test"}',
    cancelled: 'the turn was cancelled',
    refusal: () => (closed || runEnd.signal.aborted ? 'the run has ended; commands can no longer run' : undefined),
  });

  return {
    ...calls,
    start(signal: AbortSignal): Promise<void> {
      if (signal.aborted) runEnd.abort();
      else signal.addEventListener('abort', () => runEnd.abort(), { once: true });
      return Promise.resolve();
    },
    async close(): Promise<void> {
      closed = true;
      runEnd.abort();
      await Promise.all([background.stopAll(), ...[...foreground].map((h) => h.done)]);
    },
  };
}

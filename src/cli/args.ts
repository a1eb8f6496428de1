// Command-line parsing for `massgen run` and `massgen validate`, kept apart from I/O so it is testable.

import { parseArgs } from 'node:util';
import { errorMessage } from '../core/util/errors';

export type CliCommand =
  | {
      command: 'run';
      question: string;
      config?: string;
      statusFile?: string;
      logDir?: string;
      automation: boolean;
      timeoutSeconds?: number;
      /** Print the expected calls, tokens and cost, and spend nothing. */
      estimate: boolean;
      /** Run MCP tools that need approval without asking (default: deny them). */
      approveTools: boolean;
      /** Give each agent its own copy of this folder to work on. */
      workspace?: string;
      /** Apply the winner's change to the workspace folder at the end. */
      apply: boolean;
      /** Let every agent run commands in its copy (sandboxed). */
      allowCommands: boolean;
      /** Let commands use the network. */
      allowNetwork: boolean;
      /** Read notes for the agents from stdin, one per line, even when it is not a terminal. */
      notesFromStdin: boolean;
      /** The log directory of a finished run this one follows up on. */
      continueFrom?: string;
    }
  | { command: 'validate'; file: string }
  | { command: 'help' }
  | { command: 'version' };

export class UsageError extends Error {}

export const USAGE = `Usage:
  massgen run [--config FILE] [--status-file FILE] [--log-dir DIR] [--automation] [--timeout SECONDS] [--estimate]
              [--approve-tools] [--workspace DIR [--apply]] [--allow-commands [--allow-network]]
              [--notes-from-stdin] [--continue LOG_DIR] "QUESTION"
  massgen validate FILE
  massgen --help | --version

--estimate prints the expected model calls, tokens and cost range for the config and question, and runs nothing.
--approve-tools lets agents run MCP tools that need approval (those that write, delete, execute… and those in
  require_approval); without it such calls are denied and the model is told so. MCP servers log to <log dir>/mcp.log.
--workspace DIR gives each agent its own copy of DIR (a git worktree of HEAD plus your uncommitted and untracked
  files when DIR is in a git repository) with file tools; DIR itself is never touched. The winner's change is saved
  as <log dir>/final/<winner>/changes.patch (each answer's as agents/<id>/agentK.M.patch). --apply applies it to DIR
  at the end, refusing and touching nothing if DIR changed underneath in a conflicting way. Upstream's
  orchestrator.context_paths (permission: write / read) work as well.
--allow-commands lets every agent run commands in its own copy (execute_command; upstream's per-agent
  enable_mcp_command_line works too), under bubblewrap on Linux: the system read-only, the copy the only writable
  place, no network (--allow-network gives it), no API key in the environment, killed at a timeout (120 s). Where
  no sandbox is available, commands run only with --approve-tools.
Notes: while agents work, type a line on the terminal to send them a note (each agent gets it once, at its next
  turn or tool result). \`@agentK text\` is for one agent; \`/change text\` says it changes the task (votes cast
  before it are asked again); \`/answer\` ends the run now with the best current answer (exit 0, COMPLETED: user_stop).
  --notes-from-stdin reads the same lines from stdin when it is a pipe (for programs driving massgen).
--continue LOG_DIR "follow-up" starts a new run with the earlier run's question, final answer and (for a workspace
  run) its change as context; the new log directory's continued-from.json names the earlier one.

Without --config, MassGen uses .massgen/config.yaml, else builds a team from OPENAI_API_KEY / ANTHROPIC_API_KEY
(and other provider keys) in the environment, else a local Ollama server at http://localhost:11434.

Exit codes: 0 answer, 1 configuration or usage error, 2 execution error, 3 timeout, 4 interrupted.`;

export function parseCliArgs(argv: string[]): CliCommand {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') return { command: 'help' };
  if (argv[0] === '--version' || argv[0] === '-v') return { command: 'version' };
  const [command, ...rest] = argv;
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help' };
  if (command === 'validate') {
    const { positionals } = parse(rest, {});
    if (positionals.length !== 1) throw new UsageError('massgen validate takes exactly one FILE.');
    return { command: 'validate', file: positionals[0] };
  }
  if (command !== 'run') throw new UsageError(`Unknown command '${command}'. Use 'massgen run "QUESTION"' or 'massgen validate FILE'.`);
  const { values, positionals } = parse(rest, {
    config: { type: 'string', short: 'c' },
    'status-file': { type: 'string' },
    'log-dir': { type: 'string' },
    automation: { type: 'boolean' },
    timeout: { type: 'string' },
    estimate: { type: 'boolean' },
    'approve-tools': { type: 'boolean' },
    workspace: { type: 'string', short: 'w' },
    apply: { type: 'boolean' },
    'allow-commands': { type: 'boolean' },
    'allow-network': { type: 'boolean' },
    'notes-from-stdin': { type: 'boolean' },
    continue: { type: 'string' },
  });
  if (positionals.length === 0) throw new UsageError('massgen run needs a QUESTION, e.g. massgen run "Refactor this function".');
  if (positionals.length > 1) throw new UsageError(`massgen run takes one QUESTION; quote it (got ${positionals.length} words unquoted?).`);
  const question = positionals[0].trim();
  if (!question) throw new UsageError('The QUESTION is empty.');
  let timeoutSeconds: number | undefined;
  if (values.timeout !== undefined) {
    timeoutSeconds = Number(values.timeout);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new UsageError(`--timeout must be a positive number of seconds, got '${values.timeout}'.`);
  }
  return {
    command: 'run',
    question,
    config: values.config as string | undefined,
    statusFile: values['status-file'] as string | undefined,
    logDir: values['log-dir'] as string | undefined,
    automation: Boolean(values.automation),
    timeoutSeconds,
    estimate: Boolean(values.estimate),
    approveTools: Boolean(values['approve-tools']),
    workspace: values.workspace as string | undefined,
    apply: Boolean(values.apply),
    allowCommands: Boolean(values['allow-commands']),
    allowNetwork: Boolean(values['allow-network']),
    notesFromStdin: Boolean(values['notes-from-stdin']),
    continueFrom: values.continue as string | undefined,
  };
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

function parse(args: string[], options: Options): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (err) {
    throw new UsageError(errorMessage(err));
  }
}

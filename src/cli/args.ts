// Command-line parsing for `massgen run`, `massgen validate` and `massgen mcp`, kept apart from I/O so it is testable.

import { parseArgs } from 'node:util';
import { errorMessage } from '../core/util/errors';
import { MAX_TIMEOUT_SECONDS } from '../core/config/seconds';
import { EVAL_HELP, EVAL_USAGE, parseEvalArgs, type EvalCliCommand } from './eval/args';

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
      /** Check commands run on every answer (replacing the config's checks). */
      checks: string[];
      verification?: 'off' | 'inform' | 'gate';
    }
  | { command: 'validate'; file: string }
  /** A stdio MCP server (src/cli/mcp/); `approveTools` as for run; `config`: the team for calls that name none. */
  | { command: 'mcp'; approveTools: boolean; config?: string }
  | { command: 'help' }
  | { command: 'version' }
  /** `massgen eval` and `massgen eval merge` (src/cli/eval/). */
  | EvalCliCommand;

export class UsageError extends Error {}

export const USAGE = `Usage:
  massgen run [--config FILE] [--status-file FILE] [--log-dir DIR] [--automation] [--timeout SECONDS] [--estimate]
              [--approve-tools] [--workspace DIR [--apply]] [--allow-commands] [--allow-network]
              [--check "COMMAND"]... [--verification off|inform|gate] [--notes-from-stdin] [--continue LOG_DIR]
              "QUESTION"
  massgen validate FILE
  massgen mcp [--config FILE] [--approve-tools]
${EVAL_USAGE}
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
  no sandbox is available, commands run only with --approve-tools. Claude Code and Codex agents always run their own
  commands, in their own sandboxes; --allow-network gives those the network too.
--check "npm test" (repeatable; with --workspace) has MassGen run that command on every answer's change, in a
  fresh checkout in the sandbox, and show the results to the voters (--verification inform, the default) or also
  keep an answer failing it from winning while another passes (--verification gate). Replaces the config's
  orchestrator.checks.
Notes: while agents work, type a line on the terminal to send them a note (each agent gets it once, at its next
  turn or tool result). \`@agentK text\` is for one agent; \`/change text\` says it changes the task (votes cast
  before it are asked again); \`/answer\` ends the run now with the best current answer (exit 0, COMPLETED: user_stop).
  --notes-from-stdin reads the same lines from stdin when it is a pipe (for programs driving massgen).
--continue LOG_DIR "follow-up" starts a new run with the earlier run's question, final answer and (for a workspace
  run) its change as context; the new log directory's continued-from.json names the earlier one.

massgen mcp serves MassGen over MCP on stdin/stdout for agents (Claude Code, Cursor, VS Code, the Copilot CLI):
  the tools massgen_run {question, config?, workspace?, checks?} and massgen_status {log_dir}. It ends when the
  client closes stdin. --config FILE (or MASSGEN_CONFIG=FILE) is the team for calls that name no config (a call's
  config still wins); it is checked at start, and a bad one ends the server with exit 1. For Claude Code:
  claude mcp add massgen -- massgen mcp --config /path/to/team.yaml
  --approve-tools lets the runs' agents use tools that need approval, as for run.

${EVAL_HELP}

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
  if (command === 'mcp') {
    const { values, positionals } = parse(rest, { 'approve-tools': { type: 'boolean' }, config: { type: 'string', short: 'c' } });
    if (positionals.length) throw new UsageError(`massgen mcp takes no arguments (got '${positionals.join(' ')}'); its tools take the questions.`);
    const config = values.config as string | undefined;
    if (config !== undefined && !config.trim()) throw new UsageError('--config needs a FILE.');
    return { command: 'mcp', approveTools: Boolean(values['approve-tools']), ...(config ? { config } : {}) };
  }
  if (command === 'eval') return parseEvalArgs(rest, (message) => new UsageError(message));
  if (command !== 'run') throw new UsageError(`Unknown command '${command}'. Use 'massgen run "QUESTION"', 'massgen validate FILE' or 'massgen mcp'.`);
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
    check: { type: 'string', multiple: true },
    verification: { type: 'string' },
  });
  if (positionals.length === 0) throw new UsageError('massgen run needs a QUESTION, e.g. massgen run "Refactor this function".');
  if (positionals.length > 1) throw new UsageError(`massgen run takes one QUESTION; quote it (got ${positionals.length} words unquoted?).`);
  const question = positionals[0].trim();
  if (!question) throw new UsageError('The QUESTION is empty.');
  const verification = values.verification as string | undefined;
  if (verification !== undefined && !['off', 'inform', 'gate'].includes(verification)) throw new UsageError(`--verification must be off, inform or gate, got '${verification}'.`);
  const checks = ((values.check ?? []) as string[]).map((c) => c.trim());
  if (checks.some((c) => !c)) throw new UsageError('--check needs a command, e.g. --check "npm test".');
  let timeoutSeconds: number | undefined;
  if (values.timeout !== undefined) {
    timeoutSeconds = Number(values.timeout);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new UsageError(`--timeout must be a positive number of seconds, got '${values.timeout}'.`);
    if (timeoutSeconds > MAX_TIMEOUT_SECONDS) throw new UsageError(`--timeout must be at most ${MAX_TIMEOUT_SECONDS} seconds (7 days), got '${values.timeout}'.`);
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
    checks,
    verification: verification as 'off' | 'inform' | 'gate' | undefined,
  };
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

type Values = Record<string, string | boolean | string[] | undefined>;

function parse(args: string[], options: Options): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Values, positionals };
  } catch (err) {
    throw new UsageError(errorMessage(err));
  }
}

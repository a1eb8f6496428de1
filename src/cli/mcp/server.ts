// `massgen mcp`: MassGen as a stdio MCP server, so an agent (Claude Code, Cursor, VS Code, the Copilot CLI…) can ask
// a team of models with one tool call. stdout carries the protocol and nothing else (anything that would print to it
// goes to stderr); the server ends when its client goes (stdin closes, SIGTERM, a broken pipe), cancelling its runs
// and waiting for them to close what they opened (agents' MCP servers, commands, copies) before it exits. A default
// team (`--config FILE` or MASSGEN_CONFIG, as users register it: `claude mcp add massgen -- massgen mcp --config
// team.yaml`) is checked at start, so a broken one fails where the user sees it rather than in every call.

import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, loadConfigFile } from '../../core/config/load';
import type { RunSession } from '../../core/run/session';
import { errorMessage } from '../../core/util/errors';
import { massgenRun, type RunToolContext } from './run-tool';
import { RUN_INPUT, RUN_OUTPUT, STATUS_INPUT, STATUS_OUTPUT } from './schemas';
import { massgenStatus } from './status-tool';

declare const __VERSION__: string | undefined;

/** How long a cancelled run may take to close what it opened; the client's close sends SIGTERM after 2 s. */
const SHUTDOWN_GRACE_MS = 1500;

export interface McpServeOptions {
  approveTools: boolean;
  /** `--config FILE`: the team for calls that name no `config` (else MASSGEN_CONFIG in `env`). */
  config?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The tool's description; `defaultTeam`: the server's own team file, if it has one. */
function runDescription(defaultTeam: string | undefined): string {
  return [
    'Ask a team of AI models (MassGen). Several agents each solve the whole task in parallel, see each other\'s answers,',
    'improve on them or vote, and the answer they converge on wins. Returns the winning answer, the vote tally, why the',
    'run ended, usage and cost, and the run\'s log directory. Takes minutes rather than seconds; sends progress',
    'notifications (rounds, answers, votes, the winner) when the call carries a progress token. With `workspace`, each',
    'agent changes its own copy of that folder and the winner\'s change comes back as a patch: the folder is never',
    defaultTeam
      ? `modified. The team is the \`config\` file, else the server's team (${defaultTeam}).`
      : 'modified. The team is the `config` file, else .massgen/config.yaml, else one built from the API keys in the ' +
        'server\'s environment, else a local Ollama.',
  ].join(' ');
}

/**
 * The default team's file (`--config`, else MASSGEN_CONFIG), checked as a run would check it; an error in words
 * when it cannot be used.
 */
export function defaultTeam(options: Pick<McpServeOptions, 'config' | 'cwd' | 'env'>): { file?: string } | { error: string } {
  const given = options.config ?? (options.env.MASSGEN_CONFIG?.trim() || undefined);
  if (!given) return {};
  const file = resolve(options.cwd, given);
  const from = options.config ? '--config' : 'MASSGEN_CONFIG';
  try {
    loadConfigFile(file, options.env, { requireKeys: true, host: 'cli' });
    return { file };
  } catch (err) {
    if (err instanceof ConfigError) return { error: `${from} ${given}: ${err.message}` };
    throw err;
  }
}

export async function serveMcp(options: McpServeOptions): Promise<number> {
  // A stray console.log anywhere would corrupt the protocol.
  console.log = console.error;
  console.info = console.error;
  const log = (line: string) => process.stderr.write(`massgen mcp: ${line}\n`);
  const team = defaultTeam(options);
  if ('error' in team) {
    log(team.error);
    return 1;
  }
  if (team.file) log(`the team for calls without a config: ${team.file}`);
  const runs = new Set<RunSession>();
  const ctx: RunToolContext = { cwd: options.cwd, env: options.env, approveTools: options.approveTools, runs, log };

  const server = new McpServer({ name: 'massgen', version: typeof __VERSION__ === 'string' ? __VERSION__ : 'dev' });
  server.registerTool(
    'massgen_run',
    { title: 'Ask a MassGen team', description: runDescription(team.file), inputSchema: RUN_INPUT, outputSchema: RUN_OUTPUT, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true } },
    // A call's own config wins over the server's team.
    (input, extra) => massgenRun(team.file && !input.config ? { ...input, config: team.file } : input, extra, ctx),
  );
  server.registerTool(
    'massgen_status',
    {
      title: 'MassGen run status',
      description: 'How a MassGen run is going (or how it ended): phase, round, answers, votes, the winner, usage. Reads status.json in the log directory massgen_run returned.',
      inputSchema: STATUS_INPUT,
      outputSchema: STATUS_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ log_dir }) => massgenStatus(log_dir, options.cwd),
  );

  let exit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (exit = resolve));
  let closing = false;
  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    if (runs.size) log(`${why}: cancelling ${runs.size} run(s)`);
    await Promise.race([Promise.all([...runs].map((run) => run.dispose())), new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref())]);
    await server.close().catch(() => undefined);
    exit(0);
  };
  // The SDK's transport does not watch for the end of stdin: the client closing it is how stdio clients say goodbye.
  process.stdin.once('end', () => void shutdown('the client closed stdin'));
  process.stdin.once('close', () => void shutdown('the client closed stdin'));
  process.stdout.on('error', (err) => void shutdown(`stdout: ${errorMessage(err)}`));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void shutdown(signal));

  await server.connect(new StdioServerTransport());
  const code = await exited;
  // Whatever a library left open (timers, sockets) must not keep a server without a client alive.
  setImmediate(() => process.exit(code));
  return code;
}

// Claude Code as an agent of the run, through the Claude Agent SDK: one streaming session per agent in its folder,
// the coordination tools as an in-process MCP server named `massgen` (marked always-loaded, so Claude Code offers them
// at once instead of behind its ToolSearch), and the process killed with everything it started when it closes.
//
// It may write in its folder only: edits there are accepted (permission mode acceptEdits), an edit anywhere else
// comes to `canUseTool`, which refuses it; commands run in Claude Code's own sandbox (bubblewrap and socat on Linux,
// Seatbelt on macOS), writable in the folder alone, without its key or the home folder's credentials, and without
// network unless the user's setting for commands allows it (sandboxSettings), and it refuses to start without one. The
// write tools and Bash are therefore never in the allowed-tools list (nor patterns of them), which would let them past
// both, and no settings file is read, whose rules would too: what Claude Code asks about comes to `canUseTool`
// (toolPermission below), which allows a path inside the folder only, links followed.

import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CLAUDE_CODE_DEFAULT_MODEL } from '../config/backends';
import type { HarnessSettings } from '../config/types';
import { ProviderError, type ProviderErrorKind, type Usage } from '../providers/types';
import { AbortedError, raceAbort } from '../util/abort';
import { errorMessage } from '../util/errors';
import { isInside } from '../util/paths';
import { COORDINATION_SERVER, coordinationServer } from './coordination-server';
import type { HarnessDriver, HarnessSession, HarnessSink } from './driver';
import { killTree } from './process-tree';
import { StderrTail } from './stderr-tail';

/** Tools that reach the web: allowed only as settings say. */
const WEB_TOOLS = new Set(['WebSearch', 'WebFetch']);
/** Tools that use paths or run commands: governed by the folder rule and the sandbox, never allowed outright. */
const GOVERNED = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash']);
/**
 * Tools that act within its session only (its todo and task lists, subagents, its plan, its own shells' output):
 * allowed as asked. Any other tool is refused, whatever it is: some reach beyond its folder and sandbox from Claude
 * Code's own process (Monitor opens a WebSocket there), and new ones come with new versions.
 */
const SESSION_TOOLS = new Set(['Agent', 'Task', 'TaskCreate', 'TaskGet', 'TaskUpdate', 'TaskList', 'TaskStop', 'TaskOutput', 'TodoWrite', 'BashOutput', 'KillShell', 'ExitPlanMode', 'EnterPlanMode', 'ToolSearch']);

/** Its key, in its own environment: its commands never need it. */
const KEY_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'];
/** Where logins and tools keep their secrets in the home folder: its commands never need to read them either. */
const CREDENTIAL_PATHS: readonly string[] = ['~/.claude/.credentials.json', '~/.codex/auth.json', '~/.ssh', '~/.gnupg', '~/.aws', '~/.azure', '~/.config/gcloud', '~/.config/gh', '~/.kube', '~/.docker/config.json', '~/.netrc', '~/.git-credentials', '~/.npmrc', '~/.pypirc'];

/** The Claude and Codex logins where the user keeps them elsewhere (CLAUDE_CONFIG_DIR, CODEX_HOME), as files to hide. */
export function movedLogins(env: NodeJS.ProcessEnv): string[] {
  return [env.CLAUDE_CONFIG_DIR && join(env.CLAUDE_CONFIG_DIR, '.credentials.json'), env.CODEX_HOME && join(env.CODEX_HOME, 'auth.json')].filter((p): p is string => Boolean(p));
}

/**
 * The sandbox of Claude Code's commands: required and never left, writable in its folder alone (its own rule), with
 * its key and the usual credentials (and `logins`, see movedLogins) hidden from them, and network only when the
 * user's setting for commands allows it: then any host, through the sandbox's proxy (a bare `*` matches every host).
 */
export function sandboxSettings(network: boolean, logins: readonly string[] = []) {
  return {
    enabled: true,
    failIfUnavailable: true,
    autoAllowBashIfSandboxed: true,
    allowUnsandboxedCommands: false,
    network: { allowedDomains: network ? ['*'] : [], strictAllowlist: true },
    credentials: {
      envVars: KEY_VARIABLES.map((name) => ({ name, mode: 'deny' as const })),
      files: [...CREDENTIAL_PATHS, ...logins].map((path) => ({ path, mode: 'deny' as const })),
    },
  };
}

/** `path` with every link resolved: its nearest existing ancestor's real path, then the rest as written. */
function realPath(path: string): string {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync.native(existing), ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

/** Whether `path` (relative paths from `folder`) lies inside `folder` once links are followed, as a write would. */
export function insideFolder(path: string, folder: string): boolean {
  return isInside(realPath(folder), realPath(resolve(folder, path)));
}

/** An allowed-tools entry's tool: `Edit(/**)` and `Bash(git:*)` name Edit and Bash. */
const toolOf = (entry: string) => entry.replace(/\(.*$/s, '').trim();

/** The config's allowed_tools that may skip canUseTool (an allowed tool is never asked about): session tools only. */
export function allowedTools(entries: readonly string[]): string[] {
  return entries.filter((entry) => SESSION_TOOLS.has(toolOf(entry)));
}

export interface ClaudeDriverOptions {
  program: string;
  /** Omitted: Claude Code's own default model. */
  model?: string;
  cwd: () => string;
  env: Record<string, string>;
  /** Its commands may reach any host (through its sandbox's proxy); else none. */
  network: boolean;
  /** Login files outside the default folders, hidden from its commands (movedLogins). */
  logins?: readonly string[];
  settings: HarnessSettings;
}

/** The SDK's messages, as far as the driver reads them. */
interface Block {
  type: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}
interface SdkMessage {
  type: string;
  subtype?: string;
  message?: { content: string | Block[] };
  result?: string;
  is_error?: boolean;
  /** On an assistant message Claude Code made up itself because the API call failed. */
  error?: string;
  usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
  errors?: string[];
}

const ERROR_KINDS: Readonly<Record<string, ProviderErrorKind>> = {
  authentication_failed: 'auth', oauth_org_not_allowed: 'auth', account_on_hold: 'auth', verification_required: 'auth', billing_error: 'auth', cloud_credential_error: 'auth',
  rate_limit: 'rate_limit', overloaded: 'rate_limit',
  invalid_request: 'invalid_request', model_not_found: 'invalid_request', max_output_tokens: 'invalid_request',
  server_error: 'server',
};

/**
 * A turn Claude Code ended in error (its result's `is_error`, with the kind its failed API call gave, if any) as the
 * engine's ProviderError: a missing login is an auth failure, said with how to sign in, not a model that would not
 * call the tools.
 */
export function turnError(error: string | undefined, text: string): ProviderError {
  const kind = (error && ERROR_KINDS[error]) || 'unknown';
  const advice = kind === 'auth' ? ': sign in with `claude`, or give it a key (ANTHROPIC_API_KEY or backend.api_key)' : '';
  return new ProviderError(kind, `Claude Code: ${text.trim() || error || 'its turn failed'}${advice}`);
}

/** The result's usage as ours: every prompt token counts as input, the cache reads also as cached. */
function usageOf(u: NonNullable<SdkMessage['usage']>): Usage {
  const cached = u.cache_read_input_tokens ?? 0;
  return { inputTokens: (u.input_tokens ?? 0) + cached + (u.cache_creation_input_tokens ?? 0), cachedInputTokens: cached, outputTokens: u.output_tokens ?? 0 };
}

/**
 * Whether Claude Code may use `tool` as asked: true, or the reason it may not, in words for the model. Its
 * massgen server's tools always, no other MCP server's; a tool naming a path only inside the folder (links followed);
 * the web only when the config enables it; commands only in the sandbox; its session tools (todo list, subagents);
 * nothing else.
 */
export function toolPermission(tool: string, input: Record<string, unknown>, context: { folder: string; blockedPath?: string; massgen: readonly string[]; webSearch: boolean }): true | string {
  if (context.massgen.includes(tool)) return true;
  if (tool.startsWith('mcp__')) return 'not allowed: only the coordinator\'s tools (mcp__massgen__…) are served to you here';
  if (WEB_TOOLS.has(tool)) return context.webSearch || 'the web is off for this agent (backend.enable_web_search)';
  // Every command runs in the sandbox (it must be available, and no command may leave it); Claude Code still asks about
  // some commands by its own reading of their text, and those run, sandboxed, unless they ask to leave the sandbox.
  if (tool === 'Bash' && input.dangerouslyDisableSandbox === true) return 'commands run in the sandbox only, writable in your folder alone';
  const path = tool === 'Bash' ? undefined : [input.file_path, input.notebook_path, input.path].find((p) => typeof p === 'string') as string | undefined;
  if (context.blockedPath !== undefined || (path !== undefined && !insideFolder(path, context.folder))) {
    return `not allowed: you work in ${context.folder} and may use files there only${context.blockedPath ? ` (${context.blockedPath} is outside it)` : ''}`;
  }
  if (GOVERNED.has(tool) || SESSION_TOOLS.has(tool)) return true;
  return `not allowed: ${tool} is not available in a team run; use your file tools and commands in your folder`;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c: { text?: string }) => c.text ?? '').join('');
  return '';
}

export function claudeDriver(options: ClaudeDriverOptions): HarnessDriver {
  const { settings } = options;
  return {
    description: `claude_code ${options.model ?? "(Claude Code's default model)"} (${options.program})`,
    model: options.model ?? CLAUDE_CODE_DEFAULT_MODEL,
    async open({ system, coordination }) {
      const { query } = await import('@anthropic-ai/claude-agent-sdk/core');
      const folder = options.cwd();
      const server = coordinationServer(coordination, { alwaysLoad: true });
      const served = (tools: { name: string }[]) => tools.map((t) => `mcp__${COORDINATION_SERVER}__${t.name}`);
      const coordinationNames = served(coordination.tools);
      // Everything the massgen server serves: the coordination tools and the read-only file tools.
      const massgenNames = [...coordinationNames, ...served(coordination.reading?.tools ?? [])];
      const stderr = new StderrTail();
      let pid: number | undefined;
      const abort = new AbortController();
      // Streaming input: the session takes one message per turn.
      const inbox: string[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      async function* input() {
        for (;;) {
          while (inbox.length) yield { type: 'user' as const, message: { role: 'user' as const, content: inbox.shift()! }, parent_tool_use_id: null, session_id: '' };
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      }
      const append = [settings.appendSystemPrompt, system].filter((s) => s !== undefined && s !== '').join('\n\n');
      const q = query({
        prompt: input(),
        options: {
          pathToClaudeCodeExecutable: options.program,
          cwd: folder,
          ...(options.model ? { model: options.model } : {}),
          // The whole environment of the process (the SDK passes nothing else on): see environment.ts.
          env: options.env,
          permissionMode: settings.permissionMode ?? 'acceptEdits',
          ...(settings.allowedTools ? { allowedTools: allowedTools(settings.allowedTools) } : {}),
          canUseTool: async (tool, input, { blockedPath }) => {
            const verdict = toolPermission(tool, input, { folder, blockedPath, massgen: massgenNames, webSearch: settings.webSearch === true });
            return verdict === true ? { behavior: 'allow', updatedInput: input } : { behavior: 'deny', message: verdict };
          },
          sandbox: sandboxSettings(options.network, options.logins),
          ...(settings.disallowedTools ? { disallowedTools: settings.disallowedTools } : {}),
          ...(settings.maxTurns ? { maxTurns: settings.maxTurns } : {}),
          ...(settings.maxThinkingTokens ? { maxThinkingTokens: settings.maxThinkingTokens } : {}),
          systemPrompt: settings.systemPrompt !== undefined ? [settings.systemPrompt, append].filter(Boolean).join('\n\n') : { type: 'preset', preset: 'claude_code', append },
          // No settings file at all, the user's or the project's: their permission rules, extra directories and hooks
          // act before canUseTool. The login is not a setting (credentials file or keychain) and still applies.
          settingSources: [],
          // The SDK's types name the ES-module build of the MCP SDK, ours is its CommonJS build: the same server.
          mcpServers: { [COORDINATION_SERVER]: { type: 'sdk', name: COORDINATION_SERVER, instance: server as never } },
          abortController: abort,
          spawnClaudeCodeProcess: (spawnOptions) => {
            const child = spawn(spawnOptions.command, spawnOptions.args, { cwd: spawnOptions.cwd, env: spawnOptions.env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
            pid = child.pid;
            child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
            // A program that exits before reading what the SDK writes: its exit and stderr say why, not an EPIPE.
            child.stdin.on('error', () => undefined);
            spawnOptions.signal?.addEventListener('abort', () => child.kill('SIGKILL'), { once: true });
            return child;
          },
        },
      });
      const messages = q[Symbol.asyncIterator]();
      const toolNames = new Map<string, string>();
      let closed: Promise<void> | undefined;
      const close = () =>
        (closed ??= (async () => {
          // The tree first, while its processes are still Claude Code's children (ended input lets it exit, orphaning them).
          if (pid !== undefined) await killTree(pid);
          ended = true;
          wake?.();
          abort.abort();
          await messages.return?.(undefined).catch(() => undefined);
        })());
      const exited = (why: string) => new ProviderError('server', `Claude Code ${why}${stderr.lines() ? `: ${stderr.lines()}` : ''}`);

      let apiError: string | undefined;
      const read = (m: SdkMessage, sink: HarnessSink): string | undefined => {
        if (m.type === 'assistant' && m.error) apiError = m.error;
        if (m.type === 'assistant' && Array.isArray(m.message?.content)) {
          for (const block of m.message.content) {
            if (block.type === 'text' && block.text) sink.text(block.text);
            else if (block.type === 'thinking' && block.thinking) sink.reasoning(block.thinking);
            else if (block.type === 'tool_use' && block.id && block.name && !coordinationNames.includes(block.name)) {
              toolNames.set(block.id, block.name);
              sink.tool({ phase: 'call', id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
            }
          }
        } else if (m.type === 'user' && Array.isArray(m.message?.content)) {
          for (const block of m.message.content) {
            const name = block.type === 'tool_result' && block.tool_use_id ? toolNames.get(block.tool_use_id) : undefined;
            if (name) sink.tool({ phase: 'result', id: block.tool_use_id!, name, ok: !block.is_error, summary: resultText(block.content).slice(0, 500) });
          }
        } else if (m.type === 'result') {
          if (m.usage) sink.usage(usageOf(m.usage));
          const error = apiError;
          apiError = undefined;
          if (m.subtype === 'success' && m.is_error) throw turnError(error, m.result ?? '');
          if (m.subtype === 'success' || m.subtype === 'error_max_turns') return m.result ?? '';
          throw exited(`ended its turn with ${m.subtype}${m.errors?.length ? ` (${m.errors.join('; ')})` : ''}`);
        }
        return undefined;
      };

      const session: HarnessSession = {
        async run(message, sink, signal) {
          if (signal.aborted) throw new ProviderError('aborted', 'cancelled before Claude Code started its turn');
          inbox.push(message);
          wake?.();
          for (;;) {
            const next = await raceAbort(messages.next(), signal).catch((err: unknown) => {
              if (err instanceof AbortedError) throw new ProviderError('aborted', 'Claude Code was stopped');
              if (err instanceof ProviderError) throw err;
              throw exited(`failed: ${errorMessage(err)}`);
            });
            if (next.done) throw exited('exited before its turn ended');
            const text = read(next.value as SdkMessage, sink);
            if (text !== undefined) return { text };
          }
        },
        close,
      };
      return session;
    },
  };
}

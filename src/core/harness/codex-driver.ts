// Codex as an agent of the run, through the Codex SDK (which runs `codex exec` per turn on one thread): its folder is
// the working directory under its workspace-write sandbox (writes there only; network only as the user's setting for
// commands allows), approvals never asked
// (no one is there to answer), and the coordination tools on the `massgen` MCP server served over loopback HTTP
// (http-endpoint.ts), its calls approved and waited for as long as a turn may take. A base URL, when the config
// gives one, is a model provider of its own speaking the Responses API. The user's CODEX_HOME (their login) is kept.

import type { HarnessSettings } from '../config/types';
import { ProviderError, type Usage } from '../providers/types';
import { errorMessage } from '../util/errors';
import { codexProcesses } from './codex-spawn';
import { COORDINATION_SERVER } from './coordination-server';
import type { HarnessDriver, HarnessSession } from './driver';
import { serveOverHttp } from './http-endpoint';
import { killTree } from './process-tree';

/** The env var the MCP server's bearer token travels in (the token itself never appears in arguments). */
const TOKEN_ENV = 'MASSGEN_MCP_TOKEN';
/** The key of a configured base URL's model provider. */
const KEY_ENV = 'MASSGEN_CODEX_API_KEY';
/** A coordination call may wait this long (Codex's default is 60 s; the run's own timeouts bound the turn). */
const CALL_TIMEOUT_SECONDS = 7 * 24 * 3600;

export interface CodexDriverOptions {
  program: string;
  model: string;
  cwd: () => string;
  env: Record<string, string>;
  /** Its commands may use the network; else its sandbox has none. */
  network: boolean;
  apiKey?: string;
  baseUrl?: string;
  settings: HarnessSettings;
}

interface Item {
  id: string;
  type: string;
  text?: string;
  command?: string;
  aggregated_output?: string;
  exit_code?: number;
  status?: string;
  changes?: { path: string; kind: string }[];
  server?: string;
  tool?: string;
  arguments?: unknown;
  error?: { message: string };
  message?: string;
  query?: string;
}

interface CodexEvent {
  type: string;
  item?: Item;
  usage?: { input_tokens?: number; cached_input_tokens?: number; output_tokens?: number };
  error?: { message: string };
  message?: string;
}

/**
 * A call of one of its tools as the viewer shows it: a command, a patch, an MCP tool (the massgen server's reading
 * tools included, named as Claude Code names them), a search. `new_answer` and `vote` (in `coordination`) are not:
 * they become the turn's own tool calls.
 */
function toolCall(item: Item, coordination: ReadonlySet<string>): { name: string; arguments: string } | null {
  switch (item.type) {
    case 'command_execution':
      return { name: 'shell', arguments: JSON.stringify({ command: item.command }) };
    case 'file_change':
      return { name: 'apply_patch', arguments: JSON.stringify({ changes: item.changes }) };
    case 'mcp_tool_call':
      return item.server === COORDINATION_SERVER && coordination.has(item.tool ?? '') ? null : { name: `mcp__${item.server}__${item.tool}`, arguments: JSON.stringify(item.arguments ?? {}) };
    case 'web_search':
      return { name: 'web_search', arguments: JSON.stringify({ query: item.query }) };
    default:
      return null;
  }
}

function toolResult(item: Item): { ok: boolean; summary: string } {
  if (item.type === 'command_execution') return { ok: item.exit_code === 0, summary: `exit ${item.exit_code ?? '?'}: ${(item.aggregated_output ?? '').slice(-400)}` };
  if (item.type === 'file_change') return { ok: item.status === 'completed', summary: (item.changes ?? []).map((c) => `${c.kind} ${c.path}`).join(', ') };
  return { ok: item.status !== 'failed' && !item.error, summary: item.error?.message ?? item.status ?? '' };
}

export function codexDriver(options: CodexDriverOptions): HarnessDriver {
  const { settings } = options;
  return {
    description: `codex ${options.model} (${options.program})`,
    model: options.model,
    async open({ system, coordination }) {
      const { Codex } = await import('@openai/codex-sdk');
      const mcp = await serveOverHttp(coordination);
      const config: Record<string, unknown> = {
        mcp_servers: { [COORDINATION_SERVER]: { url: mcp.url, bearer_token_env_var: TOKEN_ENV, default_tools_approval_mode: 'approve', tool_timeout_sec: CALL_TIMEOUT_SECONDS } },
        // Headless and offline: no plugin marketplace sync (a git ls-remote), no analytics.
        features: { plugins: false },
        analytics: { enabled: false },
        // Its commands see neither the MCP token nor a key, and write in its folder only (not /tmp either).
        shell_environment_policy: { inherit: 'core', exclude: [TOKEN_ENV, KEY_ENV, 'CODEX_API_KEY', 'OPENAI_API_KEY'] },
        // No extra writable folders, whatever the user's own config.toml says.
        sandbox_workspace_write: { writable_roots: [], exclude_slash_tmp: true, exclude_tmpdir_env_var: true },
      };
      if (options.baseUrl) {
        config.model_provider = 'massgen';
        config.model_providers = { massgen: { name: 'massgen', base_url: options.baseUrl, wire_api: 'responses', ...(options.apiKey ? { env_key: KEY_ENV } : {}) } };
      }
      const env: Record<string, string> = { ...options.env, [TOKEN_ENV]: mcp.token };
      if (options.apiKey) env[options.baseUrl ? KEY_ENV : 'CODEX_API_KEY'] = options.apiKey;
      const codex = new Codex({ codexPathOverride: options.program, env, config: config as never });
      const folder = options.cwd();
      const coordinationNames = new Set(coordination.tools.map((t) => t.name));
      const thread = codex.startThread({
        workingDirectory: folder,
        skipGitRepoCheck: true,
        model: options.model,
        sandboxMode: 'workspace-write',
        approvalPolicy: 'never',
        networkAccessEnabled: options.network,
        ...(settings.webSearch ? { webSearchMode: 'live' as const } : {}),
        ...(settings.reasoningEffort ? { modelReasoningEffort: settings.reasoningEffort as never } : {}),
      });
      let first = true;
      /** Codex reports the thread's usage so far at each turn's end: the turn's own is the difference. */
      let threadUsage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
      /** The turn running now. */
      let running: AbortController | undefined;
      let closed = false;
      /** Stops a turn: `codex exec` and everything it started (the SDK's abort signals `codex exec` alone). */
      const stop = async (turn: AbortController) => {
        const child = codexProcesses().get(turn.signal);
        if (child?.pid !== undefined && child.exitCode === null) await killTree(child.pid);
        turn.abort();
      };

      const session: HarnessSession = {
        async run(message, sink, signal) {
          if (closed) throw new ProviderError('aborted', 'Codex was closed');
          if (signal.aborted) throw new ProviderError('aborted', 'cancelled before Codex started its turn');
          // Codex's own instructions stay; the coordinator's rules lead the first message.
          const input = first ? `${settings.systemPrompt ? `${settings.systemPrompt}\n\n` : ''}${system}\n\n${message}` : message;
          first = false;
          const turn = new AbortController();
          running = turn;
          const onAbort = () => void stop(turn);
          signal.addEventListener('abort', onAbort, { once: true });
          let text = '';
          try {
            const { events } = await thread.runStreamed(input, { signal: turn.signal });
            for await (const raw of events) {
              const event = raw as CodexEvent;
              const item = event.item;
              if (event.type === 'item.started' && item) {
                const call = toolCall(item, coordinationNames);
                if (call) sink.tool({ phase: 'call', id: item.id, ...call });
              } else if (event.type === 'item.completed' && item) {
                const call = toolCall(item, coordinationNames);
                if (item.type === 'agent_message' && item.text) {
                  text = item.text;
                  sink.text(item.text);
                } else if (item.type === 'reasoning' && item.text) sink.reasoning(item.text);
                else if (call) sink.tool({ phase: 'result', id: item.id, name: call.name, ...toolResult(item) });
              } else if (event.type === 'turn.completed' && event.usage) {
                const total = usageOf(event.usage);
                sink.usage({ inputTokens: total.inputTokens - threadUsage.inputTokens, cachedInputTokens: total.cachedInputTokens - threadUsage.cachedInputTokens, outputTokens: total.outputTokens - threadUsage.outputTokens });
                threadUsage = total;
              } else if (event.type === 'turn.failed') {
                throw new ProviderError('server', `Codex failed its turn: ${event.error?.message ?? 'no reason given'}`);
              } else if (event.type === 'error') {
                throw new ProviderError('server', `Codex: ${event.message ?? 'error'}`);
              }
            }
            return { text };
          } catch (err) {
            if (signal.aborted || turn.signal.aborted) throw new ProviderError('aborted', 'Codex was stopped');
            if (err instanceof ProviderError) throw err;
            throw new ProviderError('server', `Codex ${errorMessage(err)}`);
          } finally {
            signal.removeEventListener('abort', onAbort);
            running = undefined;
          }
        },
        async close() {
          if (closed) return;
          closed = true;
          if (running) await stop(running);
          await mcp.close();
        },
      };
      return session;
    },
  };
}

/** Turn usage as ours: Codex counts cached tokens within the input tokens, as the Responses API does. */
function usageOf(u: NonNullable<CodexEvent['usage']>): Usage {
  return { inputTokens: u.input_tokens ?? 0, cachedInputTokens: u.cached_input_tokens ?? 0, outputTokens: u.output_tokens ?? 0 };
}

// One call to an MCP tool: the server's circuit breaker, a per-call timeout, retries with backoff for transient
// failures of tools that are safe to repeat, and every outcome in words. The result's size is the tool kit's to cap.

import { sleep } from '../util/sleep';
import { failed, type ToolResult } from '../tools/types';
import { resultToText } from './content';
import { McpCallError } from './connection';
import type { Entry } from './offer';
import type { McpDefaults } from './toolbox';

export interface CallContext {
  defaults: McpDefaults;
  random: () => number;
  note: (level: 'info' | 'warn', server: string, message: string) => void;
}

export async function callTool(entry: Entry, args: Record<string, unknown>, signal: AbortSignal, ctx: CallContext): Promise<ToolResult> {
  const { spec, server, connection } = entry;
  const { defaults, note } = ctx;
  const timeoutMs = (server.timeoutSeconds ?? 0) * 1000 || defaults.callTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    const wait = connection.breaker.blockedForMs();
    if (wait > 0) {
      return { ok: false, content: `MCP server "${server.name}" is paused after repeated failures (${connection.lastError ?? 'errors'}); it is tried again in ${Math.ceil(wait / 1000)} s. Use other tools or answer without it.` };
    }
    try {
      const result = await connection.callTool(entry.tool, args, { signal, timeoutMs });
      connection.breaker.success();
      const text = resultToText(result);
      return result.isError ? { ok: false, content: `${spec.name} returned an error: ${text}` } : { ok: true, content: text };
    } catch (err) {
      const e = err instanceof McpCallError ? err : new McpCallError('rejected', String(err));
      if (e.kind === 'aborted' || signal.aborted) return failed(spec.name, 'the call was cancelled');
      const reconnectFailed = e.phase === 'connect';
      const counts = e.kind === 'transient' || e.kind === 'disconnected' || e.kind === 'timeout' || reconnectFailed;
      if (counts && connection.breaker.failure()) note('warn', server.name, `circuit breaker open for ${Math.ceil(connection.breaker.blockedForMs() / 1000)} s after: ${e.message}`);
      const retry = (e.kind === 'transient' || e.kind === 'disconnected') && entry.repeatable && attempt < defaults.maxAttempts && !connection.breaker.isOpen;
      const what = e.kind === 'timeout' ? `${e.message} (the call was cancelled)` : e.kind === 'disconnected' ? `${e.message}; the server is restarted on the next call` : e.message;
      if (!retry) return failed(spec.name, reconnectFailed && e.kind !== 'disconnected' ? `could not reconnect to MCP server "${server.name}": ${e.message}` : what);
      const delay = Math.min(defaults.retryMaxDelayMs, defaults.retryBaseDelayMs * 2 ** (attempt - 1)) * (1.1 + 0.2 * ctx.random());
      note('info', server.name, `retrying ${entry.tool} in ${Math.round(delay)} ms (attempt ${attempt + 1}): ${e.message}`);
      try {
        await sleep(delay, signal);
      } catch {
        return failed(spec.name, 'the call was cancelled');
      }
    }
  }
}

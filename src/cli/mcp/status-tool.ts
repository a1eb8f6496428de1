// massgen_status: how a run is going, read from the status.json its recorder keeps in the log directory (rewritten
// atomically at most every 250 ms), so it works for runs of this server, of another one, or of `massgen run`.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StatusJson } from '../../core/status/status-file';
import { errorMessage } from '../../core/util/errors';
import { toolError } from './run-tool';
import type { StatusOutput } from './schemas';

/** One paragraph on the run: phase, round, answers and votes, the winner once there is one, usage. */
export function statusSummary(status: StatusJson, nowMs: number): string {
  const agents = Object.entries(status.agents);
  const answered = agents.filter(([, a]) => a.latest_answer_label).length;
  const voted = agents.filter(([, a]) => a.vote_cast).length;
  const failed = agents.filter(([, a]) => a.status === 'failed').length;
  const votes = Object.entries(status.results.votes).map(([label, n]) => `${label} ${n}`).join(', ') || 'none yet';
  const u = status.usage;
  const cost = u.cost_usd === null ? 'cost unknown' : `cost $${u.cost_usd.toFixed(4)}${u.cost_partial ? '+' : ''}`;
  const ended = status.results.end_reason;
  const state = ended
    ? `Ended (${ended}); winner: ${status.results.winner_label ? `${status.results.winner_label} (${status.results.winner})` : 'none'}.`
    : `Running: ${status.coordination.phase}, round ${status.coordination.round}, ${status.coordination.completion_percentage}% of the live agents hold a vote; last update ${Math.max(0, Math.round(nowMs / 1000 - status.meta.last_updated))} s ago.`;
  return [
    `${state} Question: ${status.meta.question.slice(0, 200)}`,
    `Agents: ${agents.length} (${answered} answered, ${voted} voted${failed ? `, ${failed} failed` : ''}); votes: ${votes}.`,
    `Usage: ${u.calls} call(s), ${u.input_tokens + u.output_tokens} tokens, ${cost}; ${status.meta.elapsed_seconds} s elapsed.`,
    ...(status.results.error ? [`Error: ${status.results.error}`] : []),
  ].join('\n');
}

export function massgenStatus(logDir: string, cwd: string, nowMs = Date.now()): CallToolResult {
  const file = join(resolve(cwd, logDir), 'status.json');
  let status: StatusJson;
  try {
    status = JSON.parse(readFileSync(file, 'utf8')) as StatusJson;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return toolError(code === 'ENOENT' ? `No status.json in ${resolve(cwd, logDir)}: not a MassGen log directory, or the run has not started yet.` : `Cannot read ${file}: ${errorMessage(err)}`);
  }
  if (!status || typeof status !== 'object' || !status.meta || !status.results || !status.agents) return toolError(`${file} is not a MassGen status file.`);
  const summary = statusSummary(status, nowMs);
  const out: StatusOutput = { running: status.results.end_reason === null, summary, status: status as unknown as Record<string, unknown> };
  return { content: [{ type: 'text', text: summary }], structuredContent: out };
}

// Whether a call to an MCP tool may run now: planning mode blocks the tools that change things during coordination,
// and tools that need approval run only when the user says yes (asked through the host's approval port).

import { errorMessage } from '../util/errors';
import { failed, type ToolResult } from '../tools/types';
import type { Entry } from './offer';
import type { ApprovalHandler } from './toolbox';

export interface PermissionContext {
  agentId: string;
  planningActive: () => boolean;
  approve?: ApprovalHandler;
  note: (server: string, message: string) => void;
}

/** A short, prompt-friendly rendering of tool arguments: long strings cut, the whole capped. */
export function summarizeArguments(args: Record<string, unknown>, max = 600): string {
  const parts = Object.entries(args).map(([k, v]) => {
    if (typeof v === 'string') return `${k}: ${JSON.stringify(v.length > 120 ? `${v.slice(0, 120)}…` : v)}${v.length > 120 ? ` (${v.length} chars)` : ''}`;
    const json = JSON.stringify(v) ?? String(v);
    return `${k}: ${json.length > 160 ? `${json.slice(0, 160)}…` : json}`;
  });
  const text = parts.join(', ') || '(no arguments)';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Null when the call may run, else the result that says why it did not. */
export async function refusal(entry: Entry, args: Record<string, unknown>, signal: AbortSignal, ctx: PermissionContext): Promise<ToolResult | null> {
  const name = entry.spec.name;
  if (ctx.planningActive() && entry.blockedInPlanning) {
    ctx.note(entry.server.name, `${ctx.agentId}: ${entry.tool} blocked by planning mode`);
    return {
      ok: false,
      content: `🚫 [MCP] Tool '${name}' blocked during coordination (planning mode active). Do not call it again now: describe in your answer what you would do with it, with the exact arguments.`,
    };
  }
  if (!entry.approval) return null;
  let approved = false;
  let why = '';
  if (ctx.approve) {
    try {
      approved = await ctx.approve({ agentId: ctx.agentId, server: entry.server.name, tool: entry.tool, toolName: name, argumentsSummary: summarizeArguments(args), reason: entry.approval }, signal);
    } catch (err) {
      why = ` (the approval request failed: ${errorMessage(err)})`;
    }
  }
  // The kit has already answered a cancelled call; this keeps the tool from running after it.
  if (signal.aborted) return failed(name, 'the run was cancelled');
  if (approved) return null;
  ctx.note(entry.server.name, `${ctx.agentId}: ${entry.tool} denied${why}`);
  const kind = entry.approval === 'configured' ? 'it is configured to need approval' : 'tools that change things need approval';
  return { ok: false, content: `${name} was not run: the user did not approve it (${kind})${why}. Do not call it again; continue without it, for example by describing the change in your answer.` };
}

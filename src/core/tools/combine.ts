// Several toolboxes as one (an agent with file tools and MCP tools): tools listed in order (the first toolbox wins a
// name clash), calls routed to the toolbox that offers the name, start and close fanned out. A start failure in one
// toolbox does not stop the others; the failures are joined into one error, as the engine reports it.

import type { ToolCall, ToolResult, ToolSpec, Toolbox } from './types';

export interface CombinedToolbox extends Toolbox {
  readonly members: readonly Toolbox[];
  start(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
  /** Forwards planning mode's switch to every member that has one. */
  setPlanningMode(active: boolean): void;
}

export function combineToolboxes(...toolboxes: (Toolbox | undefined | null)[]): CombinedToolbox {
  const members = toolboxes.filter((t): t is Toolbox => Boolean(t));
  const owner = (name: string) => members.find((m) => m.tools.some((t) => t.name === name));
  return {
    members,
    get tools(): ToolSpec[] {
      const seen = new Set<string>();
      const all: ToolSpec[] = [];
      for (const m of members) {
        for (const t of m.tools) {
          if (seen.has(t.name)) continue;
          seen.add(t.name);
          all.push(t);
        }
      }
      return all;
    },
    async start(signal: AbortSignal): Promise<void> {
      const outcomes = await Promise.allSettled(members.map((m) => m.start?.(signal)));
      const errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason instanceof Error ? o.reason.message : String(o.reason)] : []));
      if (errors.length) throw new Error(errors.join('; '));
    },
    async execute(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
      const m = owner(String(call?.name));
      if (!m) return { ok: false, content: `unknown tool "${String(call?.name)}"; the available tools are ${this.tools.map((t) => t.name).join(', ') || '(none)'}` };
      return m.execute(call, signal);
    },
    async close(): Promise<void> {
      await Promise.allSettled(members.map((m) => m.close?.()));
    },
    setPlanningMode(active: boolean): void {
      for (const m of members) (m as { setPlanningMode?: (a: boolean) => void }).setPlanningMode?.(active);
    },
  };
}

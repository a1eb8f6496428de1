// Which folder a run's agents work on, from what the user gave: `--workspace DIR` (or VS Code's workspace folder),
// upstream's `orchestrator.context_paths` (`permission: write` = the folder agents change, each in its own copy;
// `read` = reference folders they may read) and backend `cwd` (the agent works with files: without a folder to
// copy, each starts from an empty one; the same for agents that run commands). Pure, so every front end decides the
// same way.

import { basename, resolve } from 'node:path';
import type { MassGenConfig } from '../config/types';

export interface WorkspacePlan {
  /** The folder agents get copies of; null = each agent starts from an empty folder. */
  source: string | null;
  /** Read-only reference folders, shown to agents as `context/<name>/`. */
  references: { name: string; path: string }[];
  /** Things to tell the user (a write context path the flag overrides…). */
  notes: string[];
}

export type PlanResult = { ok: true; plan: WorkspacePlan | null } | { ok: false; error: string };

/** `null` plan: a run without files. Relative paths resolve against `cwd`. */
export function planWorkspace(config: MassGenConfig, options: { workspace?: string; cwd: string; commands?: boolean }): PlanResult {
  const contextPaths = config.orchestrator.contextPaths ?? [];
  const writable = contextPaths.filter((c) => c.permission === 'write').map((c) => resolve(options.cwd, c.path));
  const readable = contextPaths.filter((c) => c.permission === 'read').map((c) => resolve(options.cwd, c.path));
  const notes: string[] = [];
  let source: string | null = null;
  if (options.workspace) {
    source = resolve(options.cwd, options.workspace);
    const others = writable.filter((w) => w !== source);
    if (others.length) notes.push(`--workspace ${source} is the folder agents change; the write context path(s) ${others.join(', ')} are read-only references for this run`);
    readable.push(...others);
  } else if (writable.length > 1) {
    return {
      ok: false,
      error:
        `orchestrator.context_paths lists ${writable.length} folders with permission: write (${writable.join(', ')}); MassGen gives each agent a copy of one folder. ` +
        'Keep one as write and make the others permission: read, or pass --workspace DIR.',
    };
  } else if (writable.length === 1) {
    source = writable[0];
  }
  // Commands run in an agent's copy, so agents that run them get one (an empty folder when nothing is copied).
  const wantsFiles = source !== null || readable.length > 0 || Boolean(options.commands) || config.agents.some((a) => a.backend.cwd || a.backend.commands?.enabled);
  if (!wantsFiles) return { ok: true, plan: null };
  return { ok: true, plan: { source, references: referenceNames(readable.filter((r) => r !== source)), notes } };
}

/** `context/<name>/` names: the folder's own name, made unique with -2, -3… */
function referenceNames(paths: string[]): { name: string; path: string }[] {
  const used = new Set<string>();
  return [...new Set(paths)].map((path) => {
    const base = basename(path).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || 'folder';
    let name = base;
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base}-${i}`;
    used.add(name.toLowerCase());
    return { name, path };
  });
}

// Per-run scratch folders: `<base>/<runId>/<agentK>/`, one per agent, named by the anonymous label so that
// nothing an agent can see (paths, listings, messages) names a peer's model or config id. The host seeds each
// folder with the files the task is about; agents then work on their own copy through the file tools, and the
// winner's folder is diffed against the seed (see changes.ts). Only the user's Apply touches the real workspace.

import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { checkNamePolicy, checkPathSyntax, resolveInRoot } from './path-guard';

export interface ScratchAgent {
  /** Engine/config id (never used in paths). */
  id: string;
  /** Anonymous label, e.g. "agent1"; the folder's name. */
  label: string;
}

export interface SeedFile {
  /** POSIX path relative to the agent's folder, e.g. "src/index.ts". */
  relativePath: string;
  content: string;
}

/** The top-level name that file tools reserve for the read-only view of every agent's folder. */
export const PEERS_PREFIX = 'peers';

export interface Scratch {
  /** `<base>/<runId>`; removed by `dispose`. */
  readonly runDir: string;
  readonly agents: readonly ScratchAgent[];
  /** Labels in the order given. */
  readonly labels: readonly string[];
  /** Host path of an agent's folder. Throws for an unknown label. */
  folderOf(label: string): string;
  /** Label of an agent id. Throws for an unknown id. */
  labelOf(agentId: string): string;
  /** Writes the task's files into one agent's folder. Throws (host error) on unsafe or duplicate paths. */
  seed(label: string, files: readonly SeedFile[]): Promise<void>;
  /** Seeds every agent's folder with the same files. */
  seedAll(files: readonly SeedFile[]): Promise<void>;
  /** Files seeded so far into an agent's folder (normalised paths), for `diffFolder`. */
  seededFiles(label: string): SeedFile[];
  /** Removes the whole run folder. Idempotent. */
  dispose(): Promise<void>;
}

const SAFE_RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const SAFE_LABEL = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function assertSafeName(kind: string, name: string, pattern: RegExp): void {
  if (typeof name !== 'string' || !pattern.test(name) || !checkPathSyntax(name).ok) {
    throw new Error(`unsafe ${kind} ${JSON.stringify(name)}: use letters, digits, "-" and "_" (and "." in a run id), starting with a letter or digit`);
  }
}

/**
 * Creates `<baseDir>/<runId>/<label>/` for every agent. The run folder must not exist yet (a run never reuses or
 * clobbers another run's folder). `baseDir` is created if missing.
 */
export async function createScratch(baseDir: string, runId: string, agents: readonly ScratchAgent[]): Promise<Scratch> {
  assertSafeName('run id', runId, SAFE_RUN_ID);
  if (agents.length === 0) throw new Error('createScratch needs at least one agent');
  const byLabel = new Map<string, ScratchAgent>();
  const byId = new Map<string, ScratchAgent>();
  for (const agent of agents) {
    assertSafeName('agent label', agent.label, SAFE_LABEL);
    const key = agent.label.toLowerCase(); // case-insensitive file systems would merge "Agent1" and "agent1"
    if (byLabel.has(key)) throw new Error(`duplicate agent label ${JSON.stringify(agent.label)}`);
    if (byId.has(agent.id)) throw new Error(`duplicate agent id ${JSON.stringify(agent.id)}`);
    byLabel.set(key, agent);
    byId.set(agent.id, agent);
  }

  const base = path.resolve(baseDir);
  await mkdir(base, { recursive: true });
  const runDir = path.join(base, runId);
  try {
    await mkdir(runDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`scratch folder for run ${JSON.stringify(runId)} already exists`);
    throw err;
  }
  for (const agent of agents) await mkdir(path.join(runDir, agent.label));

  const seeded = new Map<string, Map<string, SeedFile>>(agents.map((a) => [a.label, new Map()]));
  let disposed = false;

  const agentOf = (label: string): ScratchAgent => {
    const agent = byLabel.get(String(label).toLowerCase());
    if (!agent || agent.label !== label) throw new Error(`unknown agent label ${JSON.stringify(label)}`);
    return agent;
  };

  const scratch: Scratch = {
    runDir,
    agents: agents.map((a) => ({ ...a })),
    labels: agents.map((a) => a.label),
    folderOf(label) {
      return path.join(runDir, agentOf(label).label);
    },
    labelOf(agentId) {
      const agent = byId.get(agentId);
      if (!agent) throw new Error(`unknown agent id ${JSON.stringify(agentId)}`);
      return agent.label;
    },
    async seed(label, files) {
      if (disposed) throw new Error('scratch folders were disposed');
      const folder = scratch.folderOf(label);
      const mine = seeded.get(agentOf(label).label)!;
      // Check everything first so a bad list seeds nothing.
      const planned = new Map<string, SeedFile>();
      for (const file of files) {
        if (typeof file.content !== 'string') throw new Error(`seed file ${JSON.stringify(file.relativePath)}: content must be a string`);
        const syntax = checkPathSyntax(file.relativePath);
        if (!syntax.ok) throw new Error(`cannot seed ${JSON.stringify(file.relativePath)}: ${syntax.reason}`);
        // Seeding follows the read rules: a name agents could not read (.git, .env…) is refused, and a seeded
        // file in a write-protected folder (node_modules) is readable but stays unchangeable.
        const policy = checkNamePolicy(syntax.segments, 'read');
        if (policy) throw new Error(`cannot seed ${JSON.stringify(file.relativePath)}: ${policy}`);
        if (syntax.segments[0].toLowerCase() === PEERS_PREFIX) {
          throw new Error(`cannot seed ${JSON.stringify(file.relativePath)}: the top-level name "${PEERS_PREFIX}/" is reserved for the agents' view of each other's folders`);
        }
        const key = syntax.relative.toLowerCase();
        if (planned.has(key) || mine.has(key)) throw new Error(`seed file ${JSON.stringify(file.relativePath)} is listed twice`);
        planned.set(key, { relativePath: syntax.relative, content: file.content });
      }
      for (const [key, file] of planned) {
        const target = await resolveInRoot(folder, file.relativePath, { access: 'read' });
        if (!target.ok) throw new Error(`cannot seed ${JSON.stringify(file.relativePath)}: ${target.reason}`);
        await mkdir(path.dirname(target.absolute), { recursive: true });
        await writeFile(target.absolute, file.content, 'utf8');
        mine.set(key, file);
      }
    },
    async seedAll(files) {
      for (const label of scratch.labels) await scratch.seed(label, files);
    },
    seededFiles(label) {
      return [...seeded.get(agentOf(label).label)!.values()].map((f) => ({ ...f }));
    },
    async dispose() {
      disposed = true;
      await rm(runDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
  return scratch;
}

// The folder each coding agent's program works in: its copy in a workspace run, its scratch folder in a run on a few
// files, else a folder of its own made for the run (a question without files), removed when the run ends.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentConfig } from '../config/types';
import type { WorkArea } from './work-area';

export interface HarnessFolders {
  /** The folder of the agent at this index (only harness agents have one). */
  folderOf(index: number): string;
  dispose(): Promise<void>;
}

export async function openHarnessFolders(agents: readonly AgentConfig[], labels: readonly string[], area: WorkArea | undefined, runId: string): Promise<HarnessFolders> {
  const folders = new Map<number, string>();
  const made: string[] = [];
  const dispose = async () => {
    await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }).catch(() => undefined)));
  };
  try {
    for (const [i, agent] of agents.entries()) {
      if (agent.backend.family !== 'harness') continue;
      let folder = area?.rootOf?.(labels[i]) ?? area?.scratchOf?.(labels[i]);
      if (!folder) {
        folder = await mkdtemp(join(tmpdir(), `massgen-${runId.slice(0, 8)}-${labels[i]}-`));
        made.push(folder);
      }
      folders.set(i, folder);
    }
  } catch (err) {
    await dispose();
    throw err;
  }
  return {
    folderOf(index) {
      const folder = folders.get(index);
      if (!folder) throw new Error(`agent ${labels[index]} has no folder: it is not a coding agent's program`);
      return folder;
    },
    dispose,
  };
}

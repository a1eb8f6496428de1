// Opens what a run's agents work on (see work-area.ts): scratch folders seeded with attached files, or copies of a
// workspace folder with a snapshot per answer version. A leftover of a crashed run is swept first; whatever is
// opened is removed again by `dispose`, however the run ends.

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { diffLines } from 'diff';
import { join } from 'node:path';
import type { AnswerChange, ChangedFile } from '../engine/events';
import { findDependencyFolders, linkDependencies } from '../checks/dependencies';
import { errorMessage } from '../util/errors';
import { diffFolder, type FileChange } from '../workspace/changes';
import { createWorkspaceCopies } from '../workspace/copies';
import { createFileToolbox, createWorkspaceToolbox } from '../workspace/file-tools';
import { createScratch } from '../workspace/scratch';
import { sweepStaleCopies } from '../workspace/sweep';
import type { WorkspaceCopies } from '../workspace/types';
import { SessionSetupError } from './errors';
import { PatchStore } from './patch-store';
import type { FilesOption, WinnerChange, WorkArea } from './work-area';

export async function openWorkArea(option: FilesOption, runId: string, labels: string[], signal: AbortSignal): Promise<WorkArea> {
  return option.kind === 'scratch' ? openScratch(option, runId, labels) : openWorkspace(option, runId, labels, signal);
}

async function openScratch(option: Extract<FilesOption, { kind: 'scratch' }>, runId: string, labels: string[]): Promise<WorkArea> {
  const scratch = await createScratch(option.baseDir, runId, labels.map((label) => ({ id: label, label })));
  try {
    await scratch.seedAll(option.seed);
  } catch (err) {
    await scratch.dispose();
    throw new SessionSetupError('config', `cannot prepare the files to edit: ${errorMessage(err)}`);
  }
  return {
    toolbox: (label) => createFileToolbox(scratch, label),
    scratchOf: (label) => scratch.folderOf(label),
    answerAccepted: () => undefined,
    async winnerChange(versionLabel) {
      const label = agentOf(versionLabel);
      const fileChanges = await diffFolder(scratch.folderOf(label), scratch.seededFiles(label));
      return { version: versionLabel, files: fileChanges.map(changedFile), patch: '', fileChanges };
    },
    dispose: () => scratch.dispose().catch(() => undefined),
  };
}

async function openWorkspace(option: Extract<FilesOption, { kind: 'workspace' }>, runId: string, labels: string[], signal: AbortSignal): Promise<WorkArea> {
  await mkdir(option.baseDir, { recursive: true }).catch((err) => {
    throw new SessionSetupError('environment', `cannot create the folder for the agents' copies (${option.baseDir}): ${errorMessage(err)}`);
  });
  await sweepStaleCopies(option.baseDir);
  // Without a folder to copy (agents that only create files), each starts from an empty one.
  const empty = option.source === null ? await mkdtemp(join(option.baseDir, `empty-${runId}-`)) : null;
  let copies: WorkspaceCopies;
  try {
    copies = await createWorkspaceCopies(empty ?? option.source!, { baseDir: option.baseDir, runId, labels, signal });
  } catch (err) {
    if (empty) await rm(empty, { recursive: true, force: true });
    throw err;
  }
  /** Each agent's current answer version, shown to the others under peers/agentK/. */
  const current = new Map<string, string>();
  const patches = new PatchStore();
  const changes = new Map<string, AnswerChange>();
  const references = (option.references ?? []).map((r) => ({ name: r.name, folder: r.path }));
  const dependencies = option.source === null ? [] : findDependencyFolders(copies.source);
  // Git copies hold what git tracks: the installed dependencies are linked in, read-only, so the agents' own
  // commands (`npm test`, `pytest`) find their imports as the checks do.
  let linked: string[];
  try {
    linked = await copies.linkIntoCopies(dependencies);
  } catch (err) {
    await copies.dispose();
    if (empty) await rm(empty, { recursive: true, force: true });
    throw new SessionSetupError('environment', `cannot link the project's dependencies into the agents' copies: ${errorMessage(err)}`);
  }
  const notes = [...copies.notes, ...(linked.length ? [`The copies see the project's ${linked.join(', ')} read-only (linked, never part of a change).`] : [])];
  const peers = { labels, view: (label: string) => (current.has(label) ? copies.view(current.get(label)!) : undefined) };
  return {
    info: { source: option.source ?? '(an empty folder)', kind: copies.kind, notes },
    toolbox: (label) => createWorkspaceToolbox({ own: copies.rootOf(label), peers, context: references }),
    rootOf: (label) => copies.rootOf(label),
    readOnlyPaths: [...copies.gitPaths, ...references.map((r) => r.folder), ...dependencies],
    workspace: (label) => ({
      async snapshot(versionLabel, snapshotSignal): Promise<AnswerChange> {
        const change = await copies.snapshot(label, versionLabel, snapshotSignal);
        patches.set(versionLabel, await copies.patch(versionLabel));
        return change;
      },
    }),
    answerAccepted: (agentLabel, versionLabel, change) => {
      current.set(agentLabel, versionLabel);
      if (change) changes.set(versionLabel, change);
    },
    async checkout(versionLabel, checkoutSignal) {
      const checkout = await copies.checkout(versionLabel, checkoutSignal);
      try {
        await linkDependencies(checkout.folder, dependencies);
      } catch (err) {
        await checkout.dispose();
        throw err;
      }
      return { ...checkout, readOnlyPaths: dependencies };
    },
    patchOf: (versionLabel) => patches.get(versionLabel),
    async winnerChange(versionLabel): Promise<WinnerChange> {
      const fileChanges = await copies.fileChanges(versionLabel);
      const files = changes.get(versionLabel)?.files ?? fileChanges.map(changedFile);
      return { version: versionLabel, files, patch: patches.get(versionLabel) ?? (await copies.patch(versionLabel)), fileChanges };
    },
    async dispose() {
      await copies.dispose();
      if (empty) await rm(empty, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

/** agentK of agentK.M */
function agentOf(versionLabel: string): string {
  return versionLabel.slice(0, versionLabel.lastIndexOf('.'));
}

/** The list entry of a file change, with its lines added and removed. */
function changedFile(c: FileChange): ChangedFile {
  if (c.binary) return { path: c.relativePath, status: c.kind, added: null, removed: null };
  let added = 0;
  let removed = 0;
  for (const part of diffLines(c.before ?? '', c.after ?? '')) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { path: c.relativePath, status: c.kind, added, removed };
}

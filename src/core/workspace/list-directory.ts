// list_directory: one folder of any tree, protected names hidden and counted, plus the virtual folders (peers/,
// context/) at the top of the agent's own folder and their own listings.

import { isNoAccessName, isWriteProtectedName } from './path-guard';
import { PEERS_PREFIX } from './scratch';
import { CONTEXT_PREFIX, type FileToolLimits } from './tool-specs';
import type { TreeEntry } from './types';
import { labelsWithFiles, reservedNames, routeRead, type Layout, type Refusal } from './virtual-paths';

export type ListOutcome = { ok: true; content: string } | Refusal;

function entryLine(e: TreeEntry): string {
  const ro = isWriteProtectedName(e.name) ? ' (read-only)' : '';
  switch (e.kind) {
    case 'symlink':
      return `${e.name} (symbolic link)`;
    case 'submodule':
      return `${e.name}/ (git submodule, not part of this copy)`;
    case 'directory':
      return `${e.name}/${ro}`;
    case 'file':
      return `${e.name} (${e.size} bytes)${ro}`;
  }
}

/** The virtual folders shown at the top of the agent's own folder. */
function virtualEntries(layout: Layout): string[] {
  const peers = layout.peers.live
    ? `${PEERS_PREFIX}/ (read-only view of every agent's folder in this run)`
    : `${PEERS_PREFIX}/ (read-only: every agent's files as of its current answer)`;
  const context = layout.context.size ? [`${CONTEXT_PREFIX}/ (read-only reference folders: ${[...layout.context.keys()].join(', ')})`] : [];
  return [peers, ...context];
}

function indexListing(layout: Layout, top: string): string {
  if (top === CONTEXT_PREFIX) return [`${CONTEXT_PREFIX}/ (read-only reference folders):`, ...[...layout.context.keys()].map((n) => `${n}/`)].join('\n');
  const { peers } = layout;
  if (peers.live) return [`${PEERS_PREFIX}/ (read-only; one folder per agent, labels as in CURRENT ANSWERS):`, ...peers.labels.map((l) => `${l}/`)].join('\n');
  const ready = new Set(labelsWithFiles(peers));
  const lines = peers.labels.map((l) => (ready.has(l) ? `${l}/` : `${l}/ (no answer yet)`));
  return [`${PEERS_PREFIX}/ (read-only; each agent's files as of its current answer, labels as in CURRENT ANSWERS):`, ...lines].join('\n');
}

/** Runs one list_directory call; the caller turns a refusal into the tool's failure result. */
export async function listTool(layout: Layout, lim: FileToolLimits, args: Record<string, unknown>): Promise<ListOutcome> {
  const place = routeRead(layout, args.path);
  if (!place.ok) return place;
  if (place.kind === 'index') return { ok: true, content: indexListing(layout, place.top) };
  const { tree, inner } = place;
  const shown = place.shown(inner);
  const found = await tree.lookup(inner);
  if (!found.ok) return found;
  if (found.entry && found.entry.kind !== 'directory') return { ok: false, reason: `"${shown}" is ${found.entry.kind === 'file' ? 'a file; use read_file' : 'not a folder'}` };
  const entries = found.entry ? await tree.list(inner) : null;
  if (!entries) return { ok: false, reason: `"${shown}" does not exist` };
  const atOwnRoot = place.own && inner === '.';
  // A real top-level folder named like a virtual one (a project with its own "context/") cannot be reached.
  const reserved = atOwnRoot ? reservedNames(layout) : [];
  const lines: string[] = [];
  const shadowed: string[] = [];
  let hidden = 0;
  for (const e of entries) {
    if (isNoAccessName(e.name)) hidden++;
    else if (reserved.includes(e.name.toLowerCase())) shadowed.push(e.name);
    else lines.push(entryLine(e));
  }
  if (atOwnRoot) lines.push(...virtualEntries(layout));
  const total = lines.length;
  const visible = lines.slice(0, lim.maxListEntries);
  const header = `${shown === '.' ? 'Your folder' : shown + '/'} (${total} ${total === 1 ? 'entry' : 'entries'}):`;
  const notes: string[] = [];
  if (total > visible.length) notes.push(`[${total - visible.length} more entries not shown; list a subfolder to narrow down]`);
  if (hidden > 0) notes.push(`[${hidden} protected ${hidden === 1 ? 'entry' : 'entries'} (such as .git or .env) hidden]`);
  for (const name of shadowed) notes.push(`[your folder's own "${name}" is hidden behind the virtual ${name.toLowerCase()}/ and cannot be used with these tools]`);
  if (total === 0) notes.push('[empty folder]');
  return { ok: true, content: [header, ...visible, ...notes].join('\n') };
}

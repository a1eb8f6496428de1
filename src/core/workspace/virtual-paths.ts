// The virtual paths the model sees: "src/x.ts" is in its own folder, "peers/agentK/…" in agentK's folder or answer,
// "context/<name>/…" in a reference folder. This is the only place that knows the layout, so every tool treats
// every root alike, and the only place that decides what is writable (the own folder, nothing else).

import { checkNamePolicy, checkPathSyntax } from './path-guard';
import type { ReadableTree } from './readable-tree';
import { PEERS_PREFIX } from './scratch';
import { CONTEXT_PREFIX } from './tool-specs';

export interface PeerTrees {
  /** Every agent's label, the agent's own included, so that peers/ does not reveal which one it is. */
  readonly labels: readonly string[];
  /** Agent `label`'s files; undefined while it has no answer (workspace runs). Asked on every call, so it follows new answers. */
  tree(label: string): ReadableTree | undefined;
  /** Live folders (chat /edit) rather than each agent's current answer (workspace runs): changes only the wording. */
  readonly live: boolean;
}

export interface Layout {
  own: ReadableTree;
  peers: PeerTrees;
  /** Read-only reference folders by name, in the order given (empty: no context/ at all). */
  context: ReadonlyMap<string, ReadableTree>;
}

/** A path inside one tree, and how to show a path of that tree to the model. */
export interface TreePlace {
  ok: true;
  kind: 'tree';
  tree: ReadableTree;
  /** Normalised path inside the tree ("." = its root). */
  inner: string;
  /** The tree is the agent's own folder. */
  own: boolean;
  /** Virtual path of a path inside this tree. */
  shown(relative: string): string;
}

/** One of the virtual folders that only hold other trees: peers/ or context/. */
export interface IndexPlace {
  ok: true;
  kind: 'index';
  top: typeof PEERS_PREFIX | typeof CONTEXT_PREFIX;
}

export type Refusal = { ok: false; reason: string };

/** The top-level names the layout reserves (context/ only when there are reference folders). */
export function reservedNames(layout: Layout): string[] {
  return layout.context.size > 0 ? [PEERS_PREFIX, CONTEXT_PREFIX] : [PEERS_PREFIX];
}

/** Labels of the agents whose answer is readable now. */
export function labelsWithFiles(peers: PeerTrees): string[] {
  return peers.labels.filter((label) => peers.tree(label) !== undefined);
}

function findName(names: Iterable<string>, wanted: string): string | undefined {
  const w = wanted.toLowerCase();
  for (const name of names) if (name.toLowerCase() === w) return name;
  return undefined;
}

function noAnswer(peers: PeerTrees, label: string): Refusal {
  const ready = labelsWithFiles(peers);
  const others = ready.length ? `agents with an answer: ${ready.map((l) => `${PEERS_PREFIX}/${l}`).join(', ')}` : 'no agent has an answer yet';
  return { ok: false, reason: `${label} has no answer yet, so there are no files under "${PEERS_PREFIX}/${label}" (${others})` };
}

/** Routes a path for reading or listing: a tree (possibly its root) or one of the virtual index folders. */
export function routeRead(layout: Layout, input: unknown): TreePlace | IndexPlace | Refusal {
  const syntax = checkPathSyntax(input ?? '.', { allowRoot: true });
  if (!syntax.ok) return syntax;
  const [top, name, ...rest] = syntax.segments;
  const prefix = top === undefined ? undefined : findName(reservedNames(layout), top);
  if (prefix === undefined) {
    const policy = checkNamePolicy(syntax.segments, 'read');
    if (policy) return { ok: false, reason: policy };
    return { ok: true, kind: 'tree', tree: layout.own, inner: syntax.relative, own: true, shown: (rel) => rel };
  }
  if (name === undefined) return { ok: true, kind: 'index', top: prefix === PEERS_PREFIX ? PEERS_PREFIX : CONTEXT_PREFIX };
  const policy = checkNamePolicy(rest, 'read');
  if (policy) return { ok: false, reason: policy };

  let tree: ReadableTree | undefined;
  let found: string | undefined;
  if (prefix === PEERS_PREFIX) {
    found = findName(layout.peers.labels, name);
    if (found === undefined) return { ok: false, reason: `there is no agent folder "${name}"; ${PEERS_PREFIX}/ contains ${layout.peers.labels.join(', ')}` };
    tree = layout.peers.tree(found);
    if (!tree) return noAnswer(layout.peers, found);
  } else {
    found = findName(layout.context.keys(), name);
    if (found === undefined) return { ok: false, reason: `there is no reference folder "${name}"; ${CONTEXT_PREFIX}/ contains ${[...layout.context.keys()].join(', ')}` };
    tree = layout.context.get(found)!;
  }
  const base = `${prefix}/${found}`;
  const inner = rest.length ? rest.join('/') : '.';
  return { ok: true, kind: 'tree', tree, inner, own: false, shown: (rel) => (rel === '.' ? base : `${base}/${rel}`) };
}

/** Routes a path that must name a file (read_file): folders, the own root and the index folders are refused. */
export function routeFile(layout: Layout, input: unknown): TreePlace | Refusal {
  const place = routeRead(layout, input);
  if (!place.ok) return place;
  if (place.kind === 'index') return { ok: false, reason: `"${place.top}" is a folder; use list_directory` };
  if (place.inner !== '.') return place;
  if (place.own) return { ok: false, reason: 'the path names your folder itself, not a file; give a file path such as "src/index.ts"' };
  return { ok: false, reason: `"${place.shown('.')}" is a folder; use list_directory` };
}

/** Routes a path to write: only the own folder is writable; anything under peers/ or context/ is refused. */
export function routeWrite(layout: Layout, input: unknown): { ok: true; inner: string } | Refusal {
  const syntax = checkPathSyntax(input ?? '.', { allowRoot: true });
  if (!syntax.ok) return syntax;
  const top = syntax.segments[0];
  const prefix = top === undefined ? undefined : findName(reservedNames(layout), top);
  if (prefix === PEERS_PREFIX) {
    const what = layout.peers.live ? "the agents' folders" : "the agents' answers";
    return { ok: false, reason: `"${PEERS_PREFIX}/" holds ${what} and is read-only; write in your own folder with a path without "${PEERS_PREFIX}/", e.g. "src/index.ts"` };
  }
  if (prefix === CONTEXT_PREFIX) {
    return { ok: false, reason: `"${CONTEXT_PREFIX}/" holds reference folders and is read-only; write in your own folder with a path without "${CONTEXT_PREFIX}/", e.g. "src/index.ts"` };
  }
  if (top === undefined) return { ok: false, reason: 'the path names your folder itself, not a file; give a file path such as "src/index.ts"' };
  const policy = checkNamePolicy(syntax.segments, 'write');
  if (policy) return { ok: false, reason: policy };
  return { ok: true, inner: syntax.relative };
}

// The patches of the shown run's answer versions, asked of the host once per version (the first time a view wants
// one) and parsed once when they arrive; every view showing a file of that version is told.

import type { HostMessageOf } from '../src/protocol/messages';
import type { Host } from './bridge';
import { parsePatch, type ParsedPatch } from './diff-parse';

export type PatchState =
  | { kind: 'loading' }
  | { kind: 'ready'; patch: ParsedPatch; truncated: boolean; note: string | null }
  /** The host has no patch for it (a past run, a run without a workspace): why. */
  | { kind: 'missing'; note: string };

type Listener = (state: PatchState) => void;

export class DiffStore {
  private readonly states = new Map<string, PatchState>();
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly host: Host, readonly runId: string) {}

  /** Calls `listener` with the version's patch state now and when it changes; asks the host the first time. */
  watch(version: string, listener: Listener): () => void {
    let set = this.listeners.get(version);
    if (!set) this.listeners.set(version, (set = new Set()));
    set.add(listener);
    let state = this.states.get(version);
    if (!state) {
      state = { kind: 'loading' };
      this.states.set(version, state);
      this.host.post({ type: 'requestDiff', runId: this.runId, version });
    }
    listener(state);
    return () => set.delete(listener);
  }

  receive(m: HostMessageOf<'diff'>): void {
    // A reply for this run is kept even if this store did not ask: a version's patch never changes, and a request
    // sent just before a snapshot is answered after it (the host counts it as sent, so it would not answer again).
    const known = this.states.get(m.version)?.kind;
    if (m.runId !== this.runId || known === 'ready' || known === 'missing') return;
    const state: PatchState = m.patch === null ? { kind: 'missing', note: m.note ?? 'No diff is available for this answer.' } : { kind: 'ready', patch: parsePatch(m.patch), truncated: m.truncated, note: m.note ?? null };
    this.states.set(m.version, state);
    for (const l of this.listeners.get(m.version) ?? []) l(state);
  }
}

// Winner selection: plurality of votes, ties broken by config order. Pure, so the viewer and status.json can
// show exactly the tally the engine used.

import type { VoteRecord } from './events';

export interface Tally {
  /** Votes per target agent id, only agents with at least one vote. */
  counts: Record<string, number>;
  winnerId: string | null;
  /** More than one agent shared the top count; config order decided. */
  tieBreak: boolean;
}

/**
 * @param order agent ids in config order (tie-break order)
 * @param votes the votes that count (callers pass only current ones)
 * @param candidates agents that may win (those with an answer)
 */
export function tallyVotes(order: string[], votes: VoteRecord[], candidates: ReadonlySet<string>): Tally {
  const counts: Record<string, number> = {};
  for (const v of votes) {
    if (!candidates.has(v.targetId)) continue;
    counts[v.targetId] = (counts[v.targetId] ?? 0) + 1;
  }
  const top = Math.max(0, ...Object.values(counts));
  if (top === 0) return { counts, winnerId: null, tieBreak: false };
  const leaders = order.filter((id) => counts[id] === top);
  return { counts, winnerId: leaders[0] ?? null, tieBreak: leaders.length > 1 };
}

/** Votes per answer version label (`agentK.M`), the shape status.json and the viewer show. */
export function countByLabel(votes: VoteRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of votes) out[v.targetLabel] = (out[v.targetLabel] ?? 0) + 1;
  return out;
}

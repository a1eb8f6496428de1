// DIR/eval.json: what an eval folder holds results of (the dataset by content hash, the config by a fingerprint of
// what decides the answers, the systems, the shard), so `--resume` never mixes results of another dataset or team
// into the folder, and `merge` only joins shards of one eval. It never holds a key: the fingerprint covers the
// agents' models and settings, not their credentials, and URLs lose any user:password and query they carry.

import { createHash } from 'node:crypto';
import type { MassGenConfig } from '../config/types';
import type { SystemSpec } from './systems';
import { publicUrl } from '../util/url';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export interface EvalManifest {
  format: 'massgen-eval/1';
  dataset: { file: string; sha256: string; items: number };
  /** Items this folder covers (after --limit and --shard). */
  selected: number;
  limit: number | null;
  shard: Shard | null;
  config: { file: string; fingerprint: string; agents: { id: string; model: string; provider: string }[] };
  systems: SystemSpec[];
  created: string;
  /** A merged folder: the shard folders it was made from. */
  merged_from?: string[];
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What decides the team's answers, keys left out: the same fingerprint means results can be pooled. */
export function configFingerprint(config: MassGenConfig): string {
  const agents = config.agents.map((a) => ({
    id: a.id,
    type: a.backend.type,
    model: a.backend.model,
    url: a.backend.baseUrl ? publicUrl(a.backend.baseUrl) : null,
    temperature: a.backend.temperature ?? null,
    maxTokens: a.backend.maxTokens ?? null,
    topP: a.backend.topP ?? null,
    reasoning: a.backend.reasoning ?? null,
    system: a.systemMessage ?? null,
  }));
  const { votingSensitivity, answerNoveltyRequirement, maxNewAnswersPerAgent, maxRounds, finalAnswer, verification, escalation } = config.orchestrator;
  // Escalation only when set, so the fingerprints of earlier evals (without it) stay as they were.
  return sha256(JSON.stringify({ agents, orchestrator: { votingSensitivity, answerNoveltyRequirement, maxNewAnswersPerAgent, maxRounds, finalAnswer, verification: verification ?? null, ...(escalation ? { escalation } : {}) } }));
}

export function describeAgents(config: MassGenConfig): EvalManifest['config']['agents'] {
  return config.agents.map((a) => ({ id: a.id, model: a.backend.model, provider: a.backend.type }));
}

/** Why an existing folder's manifest cannot take this run's results, or null when it can. */
export function resumeMismatch(existing: EvalManifest, next: EvalManifest): string | null {
  if (existing.dataset.sha256 !== next.dataset.sha256) return `it holds results of another dataset (${existing.dataset.file}, changed since or a different file)`;
  if (existing.config.fingerprint !== next.config.fingerprint) return `it holds results of another team (the agents, their models or settings differ from ${next.config.file})`;
  if (JSON.stringify(existing.systems) !== JSON.stringify(next.systems)) return `it scored other systems (${existing.systems.map((s) => s.id).join(', ')})`;
  const shard = (s: Shard | null) => (s ? `${s.index}/${s.count}` : 'none');
  if (shard(existing.shard) !== shard(next.shard)) return `it holds shard ${shard(existing.shard)}, not ${shard(next.shard)}`;
  return null;
}

/** Why shard folders cannot be merged, or null when they can. */
export function mergeMismatch(manifests: readonly { dir: string; manifest: EvalManifest }[]): string | null {
  const [first, ...rest] = manifests;
  for (const m of rest) {
    if (m.manifest.dataset.sha256 !== first.manifest.dataset.sha256) return `${m.dir} evaluated another dataset than ${first.dir}`;
    if (m.manifest.config.fingerprint !== first.manifest.config.fingerprint) return `${m.dir} evaluated another team than ${first.dir}`;
    if (JSON.stringify(m.manifest.systems) !== JSON.stringify(first.manifest.systems)) return `${m.dir} scored other systems than ${first.dir}`;
    if ((m.manifest.shard?.count ?? null) !== (first.manifest.shard?.count ?? null)) return `${m.dir} is ${m.manifest.shard ? `shard ${m.manifest.shard.index}/${m.manifest.shard.count}` : 'not a shard'}, ${first.dir} ${first.manifest.shard ? `shard ${first.manifest.shard.index}/${first.manifest.shard.count}` : 'not a shard'}: merge the shards of one --shard K/N split`;
    if ((m.manifest.limit ?? null) !== (first.manifest.limit ?? null)) return `${m.dir} used --limit ${m.manifest.limit ?? 'none'}, ${first.dir} --limit ${first.manifest.limit ?? 'none'}`;
  }
  return null;
}

/** What a merge covers, and the shards missing from it (said, not refused: a partial merge is still a result). */
export function mergedCoverage(manifests: readonly EvalManifest[]): { items: number; missingShards: string[]; duplicateShards: string[] } {
  const sharded = manifests.filter((m) => m.shard);
  if (sharded.length === 0) return { items: Math.max(...manifests.map((m) => m.selected)), missingShards: [], duplicateShards: [] };
  const count = sharded[0].shard!.count;
  const seen = new Map<number, number>();
  for (const m of sharded) seen.set(m.shard!.index, (seen.get(m.shard!.index) ?? 0) + 1);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((k) => !seen.has(k)).map((k) => `${k}/${count}`);
  const duplicate = [...seen].filter(([, n]) => n > 1).map(([k]) => `${k}/${count}`);
  // Items the whole eval covers: the shards partition the (limited) dataset.
  const total = Math.min(sharded[0].dataset.items, sharded[0].limit ?? Infinity);
  return { items: total, missingShards: missing, duplicateShards: duplicate };
}

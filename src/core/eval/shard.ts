// Which items a folder covers: the first `limit` of the dataset, then every N-th of those for shard K/N (item i goes
// to shard (i mod N) + 1). Round robin rather than a hash: shards differ in size by at most one item, and the split
// depends only on the file, so every machine of a CI matrix that has the same dataset takes the same share.

import type { Shard } from './manifest';

export function selectItems<T>(items: readonly T[], options: { limit?: number; shard?: Shard }): T[] {
  const limited = options.limit !== undefined ? items.slice(0, options.limit) : [...items];
  const shard = options.shard;
  return shard ? limited.filter((_, i) => i % shard.count === shard.index - 1) : limited;
}

/** "K/N" with 1 ≤ K ≤ N, or a message saying what is wrong. */
export function parseShard(text: string): Shard | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return `--shard must be K/N (e.g. 2/8), got '${text}'`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) return `--shard ${text}: K must be between 1 and N (shards are numbered 1…N)`;
  return { index, count };
}

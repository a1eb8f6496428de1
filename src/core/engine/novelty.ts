// Upstream's answer-novelty rule: word-set Jaccard similarity against every current answer.

import type { Sensitivity } from '../config/types';

export const NOVELTY_THRESHOLDS: Record<Sensitivity, number | null> = {
  lenient: null,
  balanced: 0.7,
  strict: 0.5,
};

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/\s+/).filter(Boolean));
}

export function jaccard(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 && wb.size === 0) return 1;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared);
}

/** The first existing answer the candidate is too similar to, or undefined. */
export function findTooSimilar(
  candidate: string,
  existing: { label: string; content: string }[],
  requirement: Sensitivity,
): { label: string; similarity: number; threshold: number } | undefined {
  const threshold = NOVELTY_THRESHOLDS[requirement];
  if (threshold === null) return undefined;
  for (const e of existing) {
    const similarity = jaccard(candidate, e.content);
    if (similarity > threshold) return { label: e.label, similarity, threshold };
  }
  return undefined;
}

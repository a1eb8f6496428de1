// How far apart two names are, for suggesting the key or backend type a typo most likely meant.

/** Levenshtein distance, for suggesting the key or type the user most likely meant. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

/**
 * The known name a typo of `name` most likely meant (case-insensitive), or undefined when none is within a third of
 * its length (at least `atLeast` edits, so short names still match a slip).
 */
export function closestName(name: string, known: readonly string[], atLeast = 1): string | undefined {
  const n = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(k.toLowerCase(), n);
    if (!best || distance < best.distance) best = { name: k, distance };
  }
  return best && best.distance <= Math.max(atLeast, Math.floor(n.length / 3)) ? best.name : undefined;
}

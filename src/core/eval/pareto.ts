// The Pareto front of accuracy against cost: the systems no other system beats on both at once (at least as
// accurate and at most as costly, better on one). A system off the front is never worth choosing on these two
// figures; the front shows what each step of accuracy costs. Pure.

export interface CostPoint {
  id: string;
  accuracy: number;
  /** Mean cost per item; null when unknown (no price, or only some calls priced): such a point cannot be placed. */
  cost: number | null;
}

export interface ParetoFront {
  /** The ids on the front, cheapest first (so accuracy rises along it); equal points are all on it. */
  front: string[];
  /** Points left out because their cost is unknown, in input order. */
  unknownCost: string[];
}

export function paretoFront(points: readonly CostPoint[]): ParetoFront {
  const known = points.filter((p): p is CostPoint & { cost: number } => p.cost !== null);
  const dominated = (p: { accuracy: number; cost: number }) =>
    known.some((q) => q.accuracy >= p.accuracy && q.cost <= p.cost && (q.accuracy > p.accuracy || q.cost < p.cost));
  const front = known.filter((p) => !dominated(p)).sort((a, b) => a.cost - b.cost || a.accuracy - b.accuracy);
  return { front: front.map((p) => p.id), unknownCost: points.filter((p) => p.cost === null).map((p) => p.id) };
}

// DIR/summary.json from the result rows: per system its accuracy with a 95 % Wilson interval (right for small n and
// for accuracies near 0 or 1, where the normal approximation leaves [0, 1]), its cost, tokens, calls and time; the
// oracle (an item counts when some member alone got it right: the ceiling a perfect judge of the members' answers
// would reach); the team against its best member on the same items; how often the members agreed; how often the
// escalating team called its later stages; and the Pareto front of accuracy against cost.

import { paretoFront } from './pareto';
import { latestRows, pairKey, type ResultRow } from './results';
import type { SystemSpec } from './systems';

export interface SystemSummary {
  kind: SystemSpec['kind'];
  model?: string;
  correct: number;
  n: number;
  accuracy: number | null;
  ci95: [number, number] | null;
  cost_usd: number | null;
  cost_partial: boolean;
  tokens: number;
  input_tokens: number;
  output_tokens: number;
  calls: number;
  seconds: number;
  /** Rows that are errors (counted in n as wrong: the system gave no answer). */
  errors: number;
  /** team-escalating: over the items whose run recorded its stages, how many called stage 2 or later. */
  escalation?: EscalationSummary;
}

export interface EscalationSummary {
  /** Items whose run recorded its stages (a run that could not start has none). */
  items: number;
  escalated: number;
  /** escalated / items. */
  share: number | null;
  /** Per stage (index 0 = stage 1): the items that called it. */
  stages_called: number[];
  /** How often each reason called a later stage. */
  reasons: Record<string, number>;
}

export interface EvalSummary {
  systems: Record<string, SystemSummary>;
  oracle: { correct: number; n: number; accuracy: number | null; ci95: [number, number] | null };
  /** The member with the best accuracy (ties: the cheaper, then config order), and the team against it. */
  best_member: string | null;
  team_vs_best_member: {
    member: string;
    /** Items both have: team right and the member wrong, and the other way round (a paired comparison). */
    items: number;
    team_only: number;
    member_only: number;
    accuracy_delta: number | null;
    /** The team's cost (or tokens, when a cost is unknown) over the member's. */
    cost_ratio: number | null;
    cost_basis: 'cost_usd' | 'tokens';
  } | null;
  agreement: {
    /** Items where every member has an answer. */
    items: number;
    /** Mean share of members giving the most common answer. */
    mean: number | null;
    /** Items where every member gave the same answer. */
    unanimous: number;
    /** How many items had k members right, k = 0…members. */
    members_right: number[];
  };
  /**
   * The systems no other beats on both accuracy and mean cost per item (in dollars), cheapest first. Systems whose
   * cost is unknown or only partly known cannot be placed: they are left out, and named in `pareto_unknown_cost`.
   */
  pareto_front: string[];
  pareto_unknown_cost: string[];
  items: number;
  pairs: { expected: number; done: number };
  complete: boolean;
}

const Z95 = 1.959963984540054;

/** The 95 % Wilson score interval for k successes in n trials; null for n = 0. */
export function wilson(k: number, n: number, z = Z95): [number, number] | null {
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [round(Math.max(0, centre - half), 4), round(Math.min(1, centre + half), 4)];
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export interface SummaryInput {
  systems: readonly SystemSpec[];
  rows: readonly ResultRow[];
  /** Items the eval covers (all shards, when merged): pairs expected = items × systems. */
  items: number;
}

export function summarize({ systems, rows, items }: SummaryInput): EvalSummary {
  const latest = latestRows(rows);
  const bySystem = new Map<string, ResultRow[]>(systems.map((s) => [s.id, []]));
  for (const row of latest.values()) bySystem.get(row.system)?.push(row);
  const summaries: Record<string, SystemSummary> = {};
  for (const s of systems) summaries[s.id] = systemSummary(s, bySystem.get(s.id) ?? []);

  const members = systems.filter((s) => s.kind === 'member');
  const itemIds = [...new Set([...latest.values()].map((r) => r.item))];
  const complete = itemIds.filter((id) => members.every((m) => latest.has(pairKey(id, m.id))));
  const memberRows = (id: string) => members.map((m) => latest.get(pairKey(id, m.id))!);
  const oracleRight = complete.filter((id) => memberRows(id).some((r) => r.correct)).length;

  const done = [...latest.values()].filter((r) => bySystem.has(r.system)).length;
  const expected = items * systems.length;
  return {
    systems: summaries,
    oracle: { correct: oracleRight, n: complete.length, accuracy: ratio(oracleRight, complete.length), ci95: wilson(oracleRight, complete.length) },
    ...versusBest(summaries, members, latest, itemIds),
    agreement: agreement(complete.map(memberRows), members.length),
    ...pareto(systems, summaries),
    items,
    pairs: { expected, done },
    complete: done >= expected,
  };
}

function ratio(k: number, n: number): number | null {
  return n ? round(k / n, 4) : null;
}

function systemSummary(s: SystemSpec, rows: readonly ResultRow[]): SystemSummary {
  const correct = rows.filter((r) => r.correct).length;
  const priced = rows.filter((r) => r.cost_usd !== null);
  const unpricedCalls = rows.some((r) => r.cost_partial || (r.cost_usd === null && r.calls > 0));
  return {
    kind: s.kind,
    ...('model' in s ? { model: s.model } : {}),
    correct,
    n: rows.length,
    accuracy: ratio(correct, rows.length),
    ci95: wilson(correct, rows.length),
    cost_usd: priced.length ? round(priced.reduce((t, r) => t + (r.cost_usd ?? 0), 0), 6) : null,
    cost_partial: priced.length > 0 && unpricedCalls,
    tokens: sum(rows, (r) => r.tokens),
    input_tokens: sum(rows, (r) => r.input_tokens),
    output_tokens: sum(rows, (r) => r.output_tokens),
    calls: sum(rows, (r) => r.calls),
    seconds: round(sum(rows, (r) => r.seconds), 1),
    errors: rows.filter((r) => r.error).length,
    ...(s.kind === 'team-escalating' ? { escalation: escalationSummary(rows, s.stages.length) } : {}),
  };
}

export function escalationSummary(rows: readonly ResultRow[], stages: number): EscalationSummary {
  const recorded = rows.flatMap((r) => (r.escalation ? [r.escalation] : []));
  const called = Array.from({ length: stages }, (_, i) => recorded.filter((e) => e.stages_called > i).length);
  const reasons: Record<string, number> = {};
  for (const e of recorded) for (const why of e.reasons) reasons[why] = (reasons[why] ?? 0) + 1;
  const escalated = recorded.filter((e) => e.stages_called > 1).length;
  return { items: recorded.length, escalated, share: ratio(escalated, recorded.length), stages_called: called, reasons };
}

/** Mean dollars per item, or null when some call had no known price (a lower bound cannot be placed on the front). */
export function meanCost(s: SystemSummary): number | null {
  return s.cost_usd === null || s.cost_partial || s.n === 0 ? null : s.cost_usd / s.n;
}

function pareto(systems: readonly SystemSpec[], summaries: Record<string, SystemSummary>): Pick<EvalSummary, 'pareto_front' | 'pareto_unknown_cost'> {
  const scored = systems.map((s) => ({ id: s.id, sum: summaries[s.id] })).filter((x) => x.sum.n > 0);
  const { front, unknownCost } = paretoFront(scored.map(({ id, sum }) => ({ id, accuracy: sum.correct / sum.n, cost: meanCost(sum) })));
  return { pareto_front: front, pareto_unknown_cost: unknownCost };
}

const sum = (rows: readonly ResultRow[], f: (r: ResultRow) => number) => rows.reduce((t, r) => t + (f(r) || 0), 0);

/** The cost figure two systems can be compared on: dollars when both are fully priced, else tokens. */
export function costBasis(a: SystemSummary, b: SystemSummary): 'cost_usd' | 'tokens' {
  return a.cost_usd !== null && b.cost_usd !== null && !a.cost_partial && !b.cost_partial ? 'cost_usd' : 'tokens';
}

function versusBest(summaries: Record<string, SystemSummary>, members: readonly SystemSpec[], latest: Map<string, ResultRow>, itemIds: string[]): Pick<EvalSummary, 'best_member' | 'team_vs_best_member'> {
  const scored = members.filter((m) => summaries[m.id].n > 0);
  if (scored.length === 0) return { best_member: null, team_vs_best_member: null };
  // Ties on accuracy go to the cheaper member, in dollars when both are priced, else in tokens; then config order.
  const cheaper = (x: SystemSummary, y: SystemSummary) => (costBasis(x, y) === 'cost_usd' ? x.cost_usd! / x.n - y.cost_usd! / y.n : x.tokens / x.n - y.tokens / y.n);
  const best = [...scored].sort((a, b) => summaries[b.id].correct / summaries[b.id].n - summaries[a.id].correct / summaries[a.id].n || cheaper(summaries[a.id], summaries[b.id]))[0];
  const team = summaries.team;
  if (!team || team.n === 0) return { best_member: best.id, team_vs_best_member: null };
  let items = 0;
  let teamOnly = 0;
  let memberOnly = 0;
  for (const id of itemIds) {
    const t = latest.get(pairKey(id, 'team'));
    const m = latest.get(pairKey(id, best.id));
    if (!t || !m) continue;
    items++;
    if (t.correct && !m.correct) teamOnly++;
    if (m.correct && !t.correct) memberOnly++;
  }
  const member = summaries[best.id];
  const basis = costBasis(team, member);
  const teamCost = basis === 'cost_usd' ? team.cost_usd! : team.tokens;
  const memberCost = basis === 'cost_usd' ? member.cost_usd! : member.tokens;
  return {
    best_member: best.id,
    team_vs_best_member: {
      member: best.id,
      items,
      team_only: teamOnly,
      member_only: memberOnly,
      accuracy_delta: round(team.correct / team.n - member.correct / member.n, 4),
      // Per item, so a partial run (the team done on fewer items) still compares like with like.
      cost_ratio: memberCost > 0 && team.n > 0 && member.n > 0 ? round(teamCost / team.n / (memberCost / member.n), 2) : null,
      cost_basis: basis,
    },
  };
}

/** The members' answers per item: how many agreed on the most common one, and how many were right. */
export function itemAgreement(rows: readonly ResultRow[]): { agreeing: number; right: number } {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.key !== null) counts.set(r.key, (counts.get(r.key) ?? 0) + 1);
  return { agreeing: Math.max(0, ...counts.values()), right: rows.filter((r) => r.correct).length };
}

function agreement(items: ResultRow[][], memberCount: number): EvalSummary['agreement'] {
  const right = Array.from({ length: memberCount + 1 }, () => 0);
  let shares = 0;
  let unanimous = 0;
  for (const rows of items) {
    const a = itemAgreement(rows);
    right[a.right]++;
    shares += memberCount ? a.agreeing / memberCount : 0;
    if (a.agreeing === memberCount) unanimous++;
  }
  return { items: items.length, mean: items.length ? round(shares / items.length, 4) : null, unanimous, members_right: right };
}

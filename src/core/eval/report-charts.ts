// The report's charts as inline SVG: no script, no font, no image to fetch, so the file opens anywhere, offline,
// and shows the same thing in every browser. Each chart is a pure function of the summary and the rows.

import { esc, pct, usd } from './html';
import { paretoFront } from './pareto';
import { costBasis, itemAgreement, type EvalSummary } from './summary';
import { latestRows, pairKey, type ResultRow } from './results';
import type { SystemSpec } from './systems';

export const COLORS = { team: '#1565c0', escalating: '#00838f', member: '#6d4c41', baseline: '#8e24aa', oracle: '#2e7d32', right: '#2e7d32', wrong: '#c62828', error: '#f9a825', missing: '#d0d0d0', grid: '#e0e0e0', axis: '#757575' };

const colorOf = (s: SystemSpec) => (s.kind === 'team' ? COLORS.team : s.kind === 'team-escalating' ? COLORS.escalating : s.kind === 'member' ? COLORS.member : COLORS.baseline);

/** Accuracy per system with its 95 % interval, and the oracle, as horizontal bars. */
export function accuracyBars(summary: EvalSummary, systems: readonly SystemSpec[]): string {
  const rows = [...systems.map((s) => ({ label: s.id, color: colorOf(s), acc: summary.systems[s.id]?.accuracy ?? null, ci: summary.systems[s.id]?.ci95 ?? null, note: `${summary.systems[s.id]?.correct ?? 0}/${summary.systems[s.id]?.n ?? 0}` })),
    { label: 'oracle (any member right)', color: COLORS.oracle, acc: summary.oracle.accuracy, ci: summary.oracle.ci95, note: `${summary.oracle.correct}/${summary.oracle.n}` }];
  const left = 190;
  const width = 420;
  const h = 26;
  const top = 10;
  const height = top + rows.length * h + 30;
  const x = (v: number) => left + v * width;
  const bars = rows.map((r, i) => {
    const y = top + i * h;
    const bar = r.acc === null ? '' : `<rect x="${left}" y="${y + 5}" width="${(r.acc * width).toFixed(1)}" height="${h - 10}" fill="${r.color}" opacity="0.85"><title>${esc(`${r.label}: ${pct(r.acc)} (${r.note}), 95% CI ${r.ci ? `${pct(r.ci[0])}–${pct(r.ci[1])}` : '–'}`)}</title></rect>`;
    const whisker = r.ci ? `<line x1="${x(r.ci[0]).toFixed(1)}" x2="${x(r.ci[1]).toFixed(1)}" y1="${y + h / 2}" y2="${y + h / 2}" stroke="#212121" stroke-width="1.5"/><line x1="${x(r.ci[0]).toFixed(1)}" x2="${x(r.ci[0]).toFixed(1)}" y1="${y + 8}" y2="${y + h - 8}" stroke="#212121"/><line x1="${x(r.ci[1]).toFixed(1)}" x2="${x(r.ci[1]).toFixed(1)}" y1="${y + 8}" y2="${y + h - 8}" stroke="#212121"/>` : '';
    return `<text x="${left - 8}" y="${y + h / 2 + 4}" text-anchor="end">${esc(r.label)}</text>${bar}${whisker}<text x="${left + width + 8}" y="${y + h / 2 + 4}">${esc(`${pct(r.acc)} (${r.note})`)}</text>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => `<line x1="${x(t)}" x2="${x(t)}" y1="${top}" y2="${top + rows.length * h}" stroke="${COLORS.grid}"/><text x="${x(t)}" y="${top + rows.length * h + 16}" text-anchor="middle" class="tick">${t * 100}%</text>`);
  return svg(left + width + 110, height, 'Accuracy per system with 95% Wilson intervals', [...ticks, ...bars].join(''));
}

/**
 * Accuracy against cost per item (dollars when every system is priced, else tokens), one point per system, the
 * Pareto front as a step line through its points (each ringed), and the reading of it in one sentence.
 */
export function accuracyVsCost(summary: EvalSummary, systems: readonly SystemSpec[]): string {
  const scored = systems.filter((s) => (summary.systems[s.id]?.n ?? 0) > 0);
  if (scored.length === 0) return '<p class="note">No results yet.</p>';
  const basis = scored.every((s) => costBasis(summary.systems[s.id], summary.systems[s.id]) === 'cost_usd') ? 'cost_usd' : 'tokens';
  const perItem = (id: string) => {
    const s = summary.systems[id];
    return (basis === 'cost_usd' ? s.cost_usd ?? 0 : s.tokens) / s.n;
  };
  const maxX = Math.max(...scored.map((s) => perItem(s.id))) * 1.15 || 1;
  // Room above 100 % for the label of a point there.
  const [left, top, w, h] = [70, 26, 460, 260];
  const X = (v: number) => left + (v / maxX) * w;
  const Y = (v: number) => top + (1 - v) * h;
  const fmt = (v: number) => (basis === 'cost_usd' ? usd(v) : v >= 10000 ? `${(v / 1000).toFixed(0)}k` : v >= 1000 ? `${(v / 1000).toFixed(1)}k` : v.toFixed(0));
  const grid = [0, 0.25, 0.5, 0.75, 1].map((t) => `<line x1="${left}" x2="${left + w}" y1="${Y(t)}" y2="${Y(t)}" stroke="${COLORS.grid}"/><text x="${left - 6}" y="${Y(t) + 4}" text-anchor="end" class="tick">${t * 100}%</text>`);
  const xticks = [0, 0.25, 0.5, 0.75, 1].map((t) => `<text x="${X(t * maxX)}" y="${top + h + 16}" text-anchor="middle" class="tick">${esc(fmt(t * maxX))}</text>`);
  const oracle = summary.oracle.accuracy === null ? '' : `<line x1="${left}" x2="${left + w}" y1="${Y(summary.oracle.accuracy)}" y2="${Y(summary.oracle.accuracy)}" stroke="${COLORS.oracle}" stroke-dasharray="6 4"/><text x="${left + 6}" y="${Y(summary.oracle.accuracy) + 14}" fill="${COLORS.oracle}">oracle ${pct(summary.oracle.accuracy)}</text>`;
  // On tokens when some cost is unknown, so every point has its place; summary.json's front (dollars) leaves those out.
  const front = paretoFront(scored.map((s) => ({ id: s.id, accuracy: summary.systems[s.id].correct / summary.systems[s.id].n, cost: perItem(s.id) }))).front;
  const at = (id: string) => ({ x: X(perItem(id)), y: Y(summary.systems[id].accuracy ?? 0) });
  const steps = front.map(at).map((p, i) => (i === 0 ? `M${p.x.toFixed(1)} ${p.y.toFixed(1)}` : `H${p.x.toFixed(1)}V${p.y.toFixed(1)}`)).join('');
  const frontLine = front.length > 1 ? `<path class="pareto-front" d="${steps}" fill="none" stroke="${COLORS.oracle}" stroke-width="2" opacity="0.7"/>` : '';
  const rings = front.map((id) => `<circle class="pareto-point" cx="${at(id).x.toFixed(1)}" cy="${at(id).y.toFixed(1)}" r="11" fill="none" stroke="${COLORS.oracle}" stroke-width="2"><title>${esc(`${id}: on the Pareto front`)}</title></circle>`);
  const points = scored.map((s, i) => {
    const sum = summary.systems[s.id];
    const cx = X(perItem(s.id));
    const cy = Y(sum.accuracy ?? 0);
    const ci = sum.ci95 ? `<line x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${Y(sum.ci95[1]).toFixed(1)}" y2="${Y(sum.ci95[0]).toFixed(1)}" stroke="${colorOf(s)}" opacity="0.5" stroke-width="2"/>` : '';
    // Labels alternate sides so that systems at the same point stay readable.
    const dx = i % 2 === 0 ? 9 : -9;
    return `${ci}<circle class="system-point" cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${s.kind === 'team' || s.kind === 'team-escalating' ? 7 : 5}" fill="${colorOf(s)}"><title>${esc(`${s.id}: ${pct(sum.accuracy)} at ${fmt(perItem(s.id))} per item`)}</title></circle><text x="${(cx + dx).toFixed(1)}" y="${(cy - 8 - (i % 3) * 2).toFixed(1)}" text-anchor="${dx > 0 ? 'start' : 'end'}">${esc(s.id)}</text>`;
  });
  const axis = `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + h}" stroke="${COLORS.axis}"/><line x1="${left}" x2="${left + w}" y1="${top + h}" y2="${top + h}" stroke="${COLORS.axis}"/><text x="${left + w / 2}" y="${top + h + 34}" text-anchor="middle">${basis === 'cost_usd' ? 'cost per item (USD)' : 'tokens per item (cost unknown for some models)'}</text><text x="14" y="${top + h / 2}" transform="rotate(-90 14 ${top + h / 2})" text-anchor="middle">accuracy</text>`;
  const title = `Accuracy against ${basis === 'cost_usd' ? 'cost' : 'tokens'} per item; ringed and joined: the Pareto front (${front.join(' → ')})`;
  const unknown = summary.pareto_unknown_cost.length ? ` Cost unknown for ${summary.pareto_unknown_cost.join(', ')} (no price for some model: set backend.pricing), so the front is drawn on tokens; summary.json's pareto_front leaves ${summary.pareto_unknown_cost.length === 1 ? 'it' : 'them'} out.` : '';
  return svg(left + w + 40, top + h + 44, title, [...grid, ...xticks, axis, oracle, frontLine, ...rings, ...points].join('')) + `<p class="reading">${esc(costReading(summary, front))}</p>${unknown ? `<p class="note">${esc(unknown.trim())}</p>` : ''}`;
}

/**
 * The chart in one sentence: with an escalating team, how much of the team's accuracy it keeps and at what share of
 * its cost per item (dollars when both are fully priced, else tokens); otherwise which systems are on the front.
 */
export function costReading(summary: EvalSummary, front: readonly string[]): string {
  const team = summary.systems.team;
  const stepped = summary.systems['team-escalating'];
  if (team?.n && stepped?.n) {
    const basis = costBasis(team, stepped);
    const cost = (s: typeof team) => (basis === 'cost_usd' ? s.cost_usd! : s.tokens) / s.n;
    const ratio = cost(team) > 0 ? ` at ${(cost(stepped) / cost(team)).toFixed(2)}× its ${basis === 'cost_usd' ? 'cost' : 'tokens'} per item` : '';
    const acc = (s: typeof team) => s.correct / s.n;
    const kept = acc(team) > 0 ? `keeps ${(acc(stepped) / acc(team)).toFixed(2)} of team's accuracy` : `reaches ${pct(acc(stepped))} of accuracy where team reaches none`;
    const e = stepped.escalation;
    const called = e && e.items > 0 ? `, calling a later stage on ${e.escalated} of ${e.items} item(s)` : '';
    return `team-escalating ${kept}${ratio}${called}.`;
  }
  if (front.length === 0) return 'No system has a known cost, so there is no Pareto front.';
  return `On the Pareto front, where no other system is as accurate for less or more accurate for no more: ${front.join(', ')}.`;
}

/** For k = 0…members: items where k members alone were right, and how many of them the team got right. */
export function membersRightChart(summary: EvalSummary, systems: readonly SystemSpec[], rows: readonly ResultRow[]): string {
  const members = systems.filter((s) => s.kind === 'member');
  const latest = latestRows(rows);
  const buckets = Array.from({ length: members.length + 1 }, () => ({ items: 0, team: 0 }));
  const items = [...new Set([...latest.values()].map((r) => r.item))];
  for (const id of items) {
    const mrows = members.map((m) => latest.get(pairKey(id, m.id)));
    if (mrows.some((r) => !r)) continue;
    const k = itemAgreement(mrows as ResultRow[]).right;
    buckets[k].items++;
    if (latest.get(pairKey(id, 'team'))?.correct) buckets[k].team++;
  }
  const max = Math.max(1, ...buckets.map((b) => b.items));
  const [left, top, h] = [50, 14, 180];
  const bw = Math.min(90, 480 / buckets.length);
  const bars = buckets.map((b, k) => {
    const x = left + k * (bw + 12);
    const full = (b.items / max) * h;
    const team = (b.team / max) * h;
    return `<rect x="${x}" y="${top + h - full}" width="${bw}" height="${full}" fill="${COLORS.missing}"><title>${esc(`${b.items} item(s) with ${k} member(s) right`)}</title></rect>` +
      `<rect x="${x}" y="${top + h - team}" width="${bw}" height="${team}" fill="${COLORS.team}"><title>${esc(`the team was right on ${b.team} of them`)}</title></rect>` +
      `<text x="${x + bw / 2}" y="${top + h - full - 4}" text-anchor="middle">${b.team}/${b.items}</text>` +
      `<text x="${x + bw / 2}" y="${top + h + 16}" text-anchor="middle" class="tick">${k} of ${members.length}</text>`;
  });
  const axis = `<line x1="${left - 6}" x2="${left + buckets.length * (bw + 12)}" y1="${top + h}" y2="${top + h}" stroke="${COLORS.axis}"/><text x="${left + (buckets.length * (bw + 12)) / 2}" y="${top + h + 34}" text-anchor="middle">members right alone (blue: the team right)</text>`;
  return svg(left + buckets.length * (bw + 12) + 20, top + h + 44, `Agreement: items by how many members were right alone, and the team's share of each`, [...bars, axis].join('')) + `<p class="note">Mean share of members giving the most common answer: ${pct(summary.agreement.mean)}; unanimous on ${summary.agreement.unanimous} of ${summary.agreement.items} item(s).</p>`;
}

/** One cell per item × system: right, wrong, error or not run; items in dataset order, wrapped in rows of 50. */
export function itemGrid(systems: readonly SystemSpec[], rows: readonly ResultRow[], itemIds: readonly string[]): string {
  const latest = latestRows(rows);
  const perRow = 50;
  // Few items get cells big enough to hover; many get small ones, so the grid stays a glance.
  const cell = itemIds.length <= 30 ? 20 : 11;
  const left = 130;
  const bands = Math.ceil(itemIds.length / perRow) || 1;
  const bandHeight = systems.length * cell + 14;
  const parts: string[] = [];
  for (let b = 0; b < bands; b++) {
    const y0 = 8 + b * bandHeight;
    systems.forEach((s, si) => {
      parts.push(`<text x="${left - 6}" y="${y0 + si * cell + cell / 2 + 4}" text-anchor="end" class="tick">${esc(s.id)}</text>`);
      itemIds.slice(b * perRow, (b + 1) * perRow).forEach((id, i) => {
        const r = latest.get(pairKey(id, s.id));
        const fill = !r ? COLORS.missing : r.error ? COLORS.error : r.correct ? COLORS.right : COLORS.wrong;
        const what = !r ? 'not run' : r.error ? `error: ${r.error}` : r.correct ? 'right' : 'wrong';
        parts.push(`<rect x="${left + i * cell}" y="${y0 + si * cell}" width="${cell - 1}" height="${cell - 1}" fill="${fill}"><title>${esc(`${id} · ${s.id}: ${what}`)}</title></rect>`);
      });
    });
  }
  return svg(left + Math.min(perRow, Math.max(1, itemIds.length)) * cell + 10, bands * bandHeight + 10, 'Every item (columns) for every system (rows): green right, red wrong, amber error, grey not run', parts.join(''));
}

function svg(width: number, height: number, title: string, body: string): string {
  return `<figure><svg viewBox="0 0 ${Math.ceil(width)} ${Math.ceil(height)}" width="${Math.ceil(width)}" height="${Math.ceil(height)}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>${body}</svg><figcaption>${esc(title)}</figcaption></figure>`;
}

// DIR/report.html: one self-contained page (inline CSS and SVG, no script, nothing fetched; a Content-Security-
// Policy that forbids loading anything, as a second line of defence) that says at a glance whether the team beat
// its members and at what cost, then shows where: per item, who was right, and what each answered.

import { clip, count, esc, pct, usd } from './html';
import { accuracyBars, accuracyVsCost, COLORS, itemGrid, membersRightChart } from './report-charts';
import { latestRows, pairKey, type ResultRow } from './results';
import type { EvalSummary, SystemSummary } from './summary';
import { stagesText, type SystemSpec } from './systems';

export interface ReportInput {
  title: string;
  summary: EvalSummary;
  systems: readonly SystemSpec[];
  rows: readonly ResultRow[];
  /** Shown under the title: dataset, config, shard, date. */
  facts: { label: string; value: string }[];
}

/** Items shown one by one in the table; the grid and the charts always cover all of them. */
export const MAX_ITEM_ROWS = 1000;

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#212121;margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #e0e0e0;padding-bottom:4px}
.facts{color:#616161;margin:0 0 12px}.facts span{margin-right:16px}
.headline{font-size:16px;background:#f5f7fb;border-left:4px solid ${COLORS.team};padding:10px 14px;margin:12px 0}
.partial{background:#fff8e1;border-left:4px solid ${COLORS.error};padding:8px 14px}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}th,td{border-bottom:1px solid #eee;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#fafafa;font-weight:600}td.num,th.num{text-align:right}
.ok{color:${COLORS.right};font-weight:600}.bad{color:${COLORS.wrong};font-weight:600}.err{color:#b26a00;font-weight:600}
.answer{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;white-space:pre-wrap;word-break:break-word;max-width:260px}
figure{margin:8px 0 16px}figcaption{color:#616161;font-size:12px}svg{max-width:100%;height:auto;font-size:12px}svg .tick{fill:#757575;font-size:11px}
.note{color:#616161;font-size:12px}.reading{margin:0 0 8px}
`;

export function renderReport(input: ReportInput): string {
  const { summary, systems, rows } = input;
  const itemIds = orderedItems(rows);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(input.title)}</title><style>${CSS}</style></head>
<body>
<h1>${esc(input.title)}</h1>
<p class="facts">${input.facts.map((f) => `<span><b>${esc(f.label)}:</b> ${esc(f.value)}</span>`).join('')}</p>
${summary.complete ? '' : `<p class="partial">Partial: ${count(summary.pairs.done)} of ${count(summary.pairs.expected)} item × system runs are done (interrupted, still running, or shards not merged). Figures cover what is done.</p>`}
<p class="headline">${headline(summary)}</p>
<h2>Systems</h2>
${systemsTable(summary, systems)}
${accuracyBars(summary, systems)}
<h2>Accuracy and cost</h2>
${accuracyVsCost(summary, systems)}
<h2>Where the team's gain comes from</h2>
${membersRightChart(summary, systems, rows)}
<h2>Every item</h2>
${itemGrid(systems, rows, itemIds)}
${itemTable(systems, rows, itemIds)}
</body></html>
`;
}

function orderedItems(rows: readonly ResultRow[]): string[] {
  const index = new Map<string, number>();
  for (const r of rows) if (!index.has(r.item)) index.set(r.item, r.index);
  return [...index].sort((a, b) => a[1] - b[1]).map(([id]) => id);
}

/** The answer to "does the team beat its members, and at what cost?" in one sentence. */
export function headline(summary: EvalSummary): string {
  const team = summary.systems.team;
  const vs = summary.team_vs_best_member;
  if (!team || team.n === 0 || !vs) return 'No results yet.';
  const best = summary.systems[vs.member];
  const delta = vs.accuracy_delta ?? 0;
  const verdict = delta > 0 ? 'beats' : delta < 0 ? 'trails' : 'ties';
  const cost = vs.cost_ratio === null ? '' : ` at ${vs.cost_ratio.toFixed(1)}× its ${vs.cost_basis === 'cost_usd' ? 'cost' : 'tokens'} per item`;
  const paired = ` On the ${vs.items} item(s) both answered, the team alone was right on ${vs.team_only}, ${esc(vs.member)} alone on ${vs.member_only}.`;
  return `The team ${verdict} its best member: <b>${pct(team.accuracy)}</b> (${team.correct}/${team.n}) against <b>${esc(vs.member)}</b> ${pct(best.accuracy)} (${best.correct}/${best.n})${cost}. ` +
    `Oracle (some member alone right): ${pct(summary.oracle.accuracy)} (${summary.oracle.correct}/${summary.oracle.n}).${paired}`;
}

function systemsTable(summary: EvalSummary, systems: readonly SystemSpec[]): string {
  const line = (label: string, s: SystemSummary) => `<tr><td>${label}</td><td class="num">${s.correct}/${s.n}</td><td class="num">${pct(s.accuracy)}</td><td class="num">${s.ci95 ? `${pct(s.ci95[0])}–${pct(s.ci95[1])}` : '–'}</td>` +
    `<td class="num">${usd(s.cost_usd)}${s.cost_partial ? '+' : ''}</td><td class="num">${count(s.tokens)}</td><td class="num">${count(s.calls)}</td><td class="num">${s.seconds.toFixed(1)}</td><td class="num">${s.errors || ''}</td></tr>`;
  const body = systems.map((s) => {
    const sum = summary.systems[s.id];
    const what = s.kind === 'team' ? `<b>team</b> (${esc(s.agents.join(', '))})` : s.kind === 'team-escalating' ? `<b>team-escalating</b> <span class="note">${esc(stagesText(s.stages))}${escalated(sum)}</span>` : s.kind === 'member' ? `${esc(s.id)} alone <span class="note">${esc(s.model)}</span>` : `self-consistency <span class="note">${esc(s.agent)} × ${s.samples}, majority</span>`;
    return sum ? line(what, sum) : '';
  });
  const o = summary.oracle;
  return `<table><thead><tr><th>system</th><th class="num">right</th><th class="num">accuracy</th><th class="num">95% CI</th><th class="num">cost</th><th class="num">tokens</th><th class="num">calls</th><th class="num">seconds</th><th class="num">errors</th></tr></thead><tbody>${body.join('')}` +
    `<tr><td>oracle <span class="note">some member alone right</span></td><td class="num">${o.correct}/${o.n}</td><td class="num">${pct(o.accuracy)}</td><td class="num">${o.ci95 ? `${pct(o.ci95[0])}–${pct(o.ci95[1])}` : '–'}</td><td colspan="5"></td></tr></tbody></table>` +
    `<p class="note">Cost "unknown": no known price for the model (set backend.pricing); "+": some calls unpriced, a lower bound. Seconds: each run's wall time, summed.</p>`;
}

/** "; a later stage on 3 of 10 (30.0%)": how often the escalating team went past stage 1. */
function escalated(s: SystemSummary | undefined): string {
  const e = s?.escalation;
  return e && e.items > 0 ? `; a later stage on ${e.escalated} of ${e.items} (${pct(e.share)})` : '';
}

function itemTable(systems: readonly SystemSpec[], rows: readonly ResultRow[], itemIds: readonly string[]): string {
  const latest = latestRows(rows);
  const shown = itemIds.slice(0, MAX_ITEM_ROWS);
  const body = shown.map((id) => {
    const any = systems.map((s) => latest.get(pairKey(id, s.id))).find(Boolean);
    const cells = systems.map((s) => {
      const r = latest.get(pairKey(id, s.id));
      if (!r) return '<td class="note">not run</td>';
      const mark = r.error ? `<span class="err">error</span> ${esc(clip(r.error, 120))}` : r.correct ? '<span class="ok">✓</span>' : '<span class="bad">✗</span>';
      const said = r.kind === 'code' ? (r.failed_checks?.length ? `failed: ${r.failed_checks.join(', ')}` : r.failed_checks === null ? 'no check ran' : 'checks passed') : r.extracted ?? r.answer ?? '';
      return `<td>${mark} <span class="answer" title="${esc(clip(r.answer ?? '', 600))}">${esc(clip(said, 160))}</span></td>`;
    });
    return `<tr><td>${esc(id)}</td><td class="answer">${esc(clip(any?.expected ?? '', 120))}</td>${cells.join('')}</tr>`;
  });
  const more = itemIds.length > shown.length ? `<p class="note">The first ${count(shown.length)} of ${count(itemIds.length)} items; results.jsonl has them all.</p>` : '';
  return `<table><thead><tr><th>item</th><th>expected</th>${systems.map((s) => `<th>${esc(s.id)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>${more}`;
}

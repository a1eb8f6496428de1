// The summary as a plain-text table for the terminal (stdout at the end of `massgen eval` and `merge`).

import { count, pct, usd } from './html';
import type { EvalSummary } from './summary';
import { stagesText, type SystemSpec } from './systems';

export function summaryTable(summary: EvalSummary, systems: readonly SystemSpec[]): string {
  const header = ['system', 'right', 'accuracy', '95% CI', 'cost', 'tokens', 'calls', 'seconds'];
  const ci = (c: [number, number] | null) => (c ? `${pct(c[0])}–${pct(c[1])}` : '–');
  const lines: string[][] = systems.flatMap((s) => {
    const x = summary.systems[s.id];
    if (!x) return [];
    const name = s.kind === 'team' ? 'team' : s.kind === 'team-escalating' ? `team-escalating (${stagesText(s.stages)})` : s.kind === 'member' ? `${s.id} (${s.model})` : `self-consistency (${s.agent} × ${s.samples})`;
    return [[name, `${x.correct}/${x.n}`, pct(x.accuracy), ci(x.ci95), `${usd(x.cost_usd)}${x.cost_partial ? '+' : ''}`, count(x.tokens), count(x.calls), x.seconds.toFixed(1)]];
  });
  const o = summary.oracle;
  lines.push(['oracle (any member right)', `${o.correct}/${o.n}`, pct(o.accuracy), ci(o.ci95), '', '', '', '']);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const out = [fmt(header), ...lines.map(fmt)];
  const notes: string[] = [];
  const vs = summary.team_vs_best_member;
  if (vs && vs.accuracy_delta !== null) {
    const sign = vs.accuracy_delta > 0 ? '+' : '';
    notes.push(`team vs best member (${vs.member}): ${sign}${(vs.accuracy_delta * 100).toFixed(1)} points; team alone right on ${vs.team_only}, ${vs.member} alone on ${vs.member_only} of ${vs.items} item(s)${vs.cost_ratio !== null ? `; ${vs.cost_ratio.toFixed(1)}× the ${vs.cost_basis === 'cost_usd' ? 'cost' : 'tokens'} per item` : ''}`);
  }
  const stages = summary.systems['team-escalating']?.escalation;
  if (stages && stages.items > 0) notes.push(`team-escalating called a later stage on ${stages.escalated} of ${stages.items} item(s) (${pct(stages.share)})`);
  if (summary.pareto_front.length) notes.push(`Pareto front (accuracy against cost per item): ${summary.pareto_front.join(', ')}`);
  if (notes.length) out.push('', ...notes);
  if (!summary.complete) out.push(`partial: ${summary.pairs.done} of ${summary.pairs.expected} item × system runs done`);
  return `${out.join('\n')}\n`;
}

// summary.json and report.html from the rows, for `eval` and `merge` alike, and the table printed at the end.

import { join } from 'node:path';
import type { EvalManifest } from '../../core/eval/manifest';
import { renderReport } from '../../core/eval/report';
import type { ResultRow } from '../../core/eval/results';
import { summarize, type EvalSummary } from '../../core/eval/summary';
import { summaryTable } from '../../core/eval/summary-table';
import type { SystemSpec } from '../../core/eval/systems';
import { FILES, writeAtomic } from './files';

export interface OutputInput {
  manifest: EvalManifest;
  systems: readonly SystemSpec[];
  rows: readonly ResultRow[];
  /** Items the folder covers. */
  items: number;
  title: string;
}

export function writeOutputs(out: string, input: OutputInput): { summary: EvalSummary; table: string } {
  const summary = summarize({ systems: input.systems, rows: input.rows, items: input.items });
  const m = input.manifest;
  const baseline = input.systems.find((s) => s.kind === 'self-consistency');
  const meta = {
    dataset: m.dataset.file,
    config: m.config.file,
    agents: m.config.agents,
    shard: m.shard ? `${m.shard.index}/${m.shard.count}` : null,
    limit: m.limit,
    ...(baseline ? { baseline: { kind: baseline.kind, agent: baseline.agent, samples: baseline.samples } } : {}),
    ...(m.merged_from ? { merged_from: m.merged_from } : {}),
    generated_at: new Date().toISOString(),
  };
  writeAtomic(join(out, FILES.summary), `${JSON.stringify({ ...summary, meta }, null, 2)}\n`);
  const facts = [
    { label: 'dataset', value: `${m.dataset.file} (${m.dataset.items} item(s)${m.shard ? `, shard ${m.shard.index}/${m.shard.count}: ${m.selected}` : m.limit ? `, first ${m.selected}` : ''})` },
    { label: 'team', value: m.config.agents.map((a) => `${a.id}: ${a.model}`).join(', ') },
    ...(m.merged_from ? [{ label: 'merged from', value: m.merged_from.join(', ') }] : []),
    { label: 'generated', value: meta.generated_at.replace('T', ' ').slice(0, 19) },
  ];
  writeAtomic(join(out, FILES.report), renderReport({ title: input.title, summary, systems: input.systems, rows: input.rows, facts }));
  return { summary, table: summaryTable(summary, input.systems) };
}

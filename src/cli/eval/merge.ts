// `massgen eval merge DIR... --out DIR`: the shards of one eval (same dataset, team and systems, `--shard K/N`)
// joined into one results.jsonl, summary.json and report.html, as a CI matrix's last job does. Missing shards are
// said, not refused: the merged figures then cover the shards given, and say they are partial.

import { existsSync, mkdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { mergedCoverage, mergeMismatch, type EvalManifest } from '../../core/eval/manifest';
import { mergeRows } from '../../core/eval/results';
import { errorMessage } from '../../core/util/errors';
import type { CliIO } from '../run-command';
import { EXIT } from '../run-command';
import type { EvalMergeCommand } from './args';
import { FILES, isEmptyDir, readManifest, readResults, writeAtomic } from './files';
import { writeOutputs } from './outputs';

export function evalMergeCommand(cmd: EvalMergeCommand, io: CliIO): number {
  const fail = (message: string) => {
    io.stderr.write(`${message}\n`);
    return EXIT.config;
  };
  const out = resolve(io.cwd, cmd.out);
  const dirs = [...new Set(cmd.dirs.map((d) => resolve(io.cwd, d)))];
  if (dirs.includes(out)) return fail(`--out ${out} is one of the folders being merged; merge into a new folder.`);
  const shards: { dir: string; manifest: EvalManifest }[] = [];
  for (const dir of dirs) {
    let manifest: EvalManifest | undefined;
    try {
      manifest = readManifest(dir);
    } catch (err) {
      return fail(`Error: ${errorMessage(err)}`);
    }
    if (!manifest) return fail(`${dir} is not an eval folder (no ${FILES.manifest}): pass the --out folders of massgen eval --shard K/N runs.`);
    if (manifest.merged_from) return fail(`${dir} is itself a merge; merge the shard folders it came from (${manifest.merged_from.join(', ')}).`);
    shards.push({ dir, manifest });
  }
  const mismatch = mergeMismatch(shards);
  if (mismatch) return fail(`Cannot merge: ${mismatch}.`);
  const existing = (() => {
    try {
      return readManifest(out);
    } catch {
      return undefined;
    }
  })();
  if (existsSync(out) && !isEmptyDir(out) && !existing?.merged_from) return fail(`${out} is not empty and holds no merge: choose a new or empty folder for --out.`);

  const coverage = mergedCoverage(shards.map((s) => s.manifest));
  if (coverage.missingShards.length) io.stderr.write(`warning: shard(s) ${coverage.missingShards.join(', ')} are missing: the merged figures cover the shards given.\n`);
  if (coverage.duplicateShards.length) io.stderr.write(`warning: shard(s) ${coverage.duplicateShards.join(', ')} were given more than once; each item × system counts once.\n`);
  const inputs = shards.map(({ dir }) => {
    const { rows, skipped } = readResults(dir);
    for (const s of skipped) io.stderr.write(`warning: ${join(dir, FILES.results)}:${s.line} was skipped (${s.reason}).\n`);
    // Log folders are named relative to the merged folder, so the report's paths still lead to them.
    return { dir, rows: rows.map((r) => (r.log_dir ? { ...r, log_dir: relative(out, join(dir, r.log_dir)) } : r)) };
  });
  const { rows, conflicts } = mergeRows(inputs);
  if (conflicts.length) io.stderr.write(`warning: ${conflicts.length} item × system pair(s) appear in more than one folder (first: ${conflicts[0].item} · ${conflicts[0].system} in ${conflicts[0].dirs.join(' and ')}); each counts once.\n`);

  const first = shards[0].manifest;
  const manifest: EvalManifest = { ...first, selected: coverage.items, shard: null, created: new Date().toISOString(), merged_from: dirs };
  mkdirSync(out, { recursive: true });
  writeAtomic(join(out, FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
  writeAtomic(join(out, FILES.results), rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const { table } = writeOutputs(out, { manifest, systems: first.systems, rows, items: coverage.items, title: `MassGen eval: ${basename(first.dataset.file)} (${dirs.length} shard(s) merged)` });
  io.stdout.write(table);
  io.stderr.write(`Merged ${dirs.length} folder(s), ${rows.length} result(s).\nResults: ${join(out, FILES.results)}\nSummary: ${join(out, FILES.summary)}\nReport:  ${join(out, FILES.report)}\n`);
  return EXIT.ok;
}

// `massgen eval`: load and check everything first (config, systems, dataset, the folder), then run every missing
// item × system through the limiter, appending each row to results.jsonl as it is scored, and finally write
// summary.json and report.html — also after Ctrl-C, for what finished. Exit codes as `massgen run`: 0 done, 1 a
// configuration or usage problem (nothing was run), 2 some runs gave no answer (errors in results.jsonl; --resume
// runs them again), 4 interrupted.

import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { ConfigError, formatIssue, loadConfigFile } from '../../core/config/load';
import type { MassGenConfig } from '../../core/config/types';
import { DatasetError, parseDataset, type EvalItem } from '../../core/eval/dataset';
import { evaluate, pendingPairs } from '../../core/eval/evaluate';
import { RunLimiter } from '../../core/eval/limiter';
import { configFingerprint, describeAgents, resumeMismatch, sha256, type EvalManifest } from '../../core/eval/manifest';
import { finishedPairs, latestRows, type ResultRow } from '../../core/eval/results';
import { sessionRunner } from '../../core/eval/session-run';
import { selectItems } from '../../core/eval/shard';
import { evalSystems, providerKeys, SystemsError, type SystemSpec } from '../../core/eval/systems';
import { SessionSetupError } from '../../core/run/errors';
import { buildAgents } from '../../core/run/team';
import { planWorkspace } from '../../core/run/workspace-plan';
import { errorMessage } from '../../core/util/errors';
import { privateRunBase } from '../../core/workspace/run-base';
import type { CliIO } from '../run-command';
import { EXIT } from '../run-command';
import type { EvalCommand } from './args';
import { appendRow, FILES, folderName, freshDir, isEmptyDir, readManifest, readResults, writeAtomic } from './files';
import { EvalProgress } from './progress-bar';
import { writeOutputs } from './outputs';

class Stop extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export async function evalCommand(cmd: EvalCommand, io: CliIO): Promise<number> {
  try {
    return await evalRun(cmd, io);
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    io.stderr.write(`${err.message}\n`);
    return err.code;
  }
}

function loadConfig(cmd: EvalCommand, io: CliIO): MassGenConfig {
  try {
    const { config, warnings } = loadConfigFile(resolve(io.cwd, cmd.config), io.env, { requireKeys: true, host: 'cli' });
    for (const w of warnings) io.stderr.write(`warning: ${formatIssue(w)}\n`);
    // Every backend is built once up front: one that cannot be is a config error now, not in each of N runs.
    // (Built to be checked, never run: a program's folder is asked for only when its session opens.)
    buildAgents(config.agents, undefined, { env: io.env, home: homedir(), folderOf: () => { throw new Error('not run here'); }, network: false });
    return config;
  } catch (err) {
    if (err instanceof ConfigError || err instanceof SessionSetupError) throw new Stop(EXIT.config, `Configuration error: ${err.message}`);
    throw err;
  }
}

function loadDataset(cmd: EvalCommand, io: CliIO): { items: EvalItem[]; file: string; text: string } {
  const file = resolve(io.cwd, cmd.dataset);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Stop(EXIT.config, `Dataset error: ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a JSONL file' : errorMessage(err)}`);
  }
  try {
    const isDirectory = (p: string) => {
      try {
        return statSync(p).isDirectory();
      } catch {
        return false;
      }
    };
    return { items: parseDataset(text, file, { baseDir: dirname(file), isDirectory }), file, text };
  } catch (err) {
    if (err instanceof DatasetError) throw new Stop(EXIT.config, `Dataset error: ${err.message}`);
    throw err;
  }
}

async function evalRun(cmd: EvalCommand, io: CliIO): Promise<number> {
  const config = loadConfig(cmd, io);
  let systems: SystemSpec[];
  try {
    systems = evalSystems(config, cmd.baseline ? { kind: 'self-consistency', agent: cmd.baselineAgent, samples: cmd.samples } : undefined, cmd.escalation);
  } catch (err) {
    if (err instanceof SystemsError) throw new Stop(EXIT.config, `Configuration error: ${err.message}`);
    throw err;
  }
  const planned = planWorkspace(config, { cwd: io.cwd });
  if (!planned.ok) throw new Stop(EXIT.config, `Configuration error: ${planned.error}`);
  const dataset = loadDataset(cmd, io);
  const selected = selectItems(dataset.items, { limit: cmd.limit, shard: cmd.shard });
  const out = resolve(io.cwd, cmd.out);
  const manifest: EvalManifest = {
    format: 'massgen-eval/1',
    dataset: { file: dataset.file, sha256: sha256(dataset.text), items: dataset.items.length },
    selected: selected.length,
    limit: cmd.limit ?? null,
    shard: cmd.shard ?? null,
    config: { file: resolve(io.cwd, cmd.config), fingerprint: configFingerprint(config), agents: describeAgents(config) },
    systems,
    created: new Date().toISOString(),
  };

  const previous = openFolder(out, manifest, cmd, io);
  const selectedIds = new Set(selected.map((i) => i.id));
  const done = finishedPairs(previous.filter((r) => selectedIds.has(r.item)));
  const retried = [...latestRows(previous).values()].filter((r) => r.error && selectedIds.has(r.item)).length;
  if (retried) io.stderr.write(`note: running again ${retried} item × system run(s) that ended in an error\n`);
  const pending = pendingPairs(selected, systems, done);
  if (cmd.shard) io.stderr.write(`Shard ${cmd.shard.index}/${cmd.shard.count}: ${selected.length} of ${dataset.items.length} item(s).\n`);
  for (const note of planned.plan?.notes ?? []) io.stderr.write(`note: ${note}\n`);

  const abort = new AbortController();
  let interrupted = false;
  const progress = new EvalProgress(io.stderr, pending.length, selected.length * systems.length - pending.length);
  if (pending.length === 0) progress.say(`Nothing to run: every item × system of ${selected.length} item(s) is in ${out}.`);
  const removeInterrupt = io.onInterrupt(() => {
    interrupted = true;
    progress.say('Interrupted: stopping the runs; finished results are kept (Ctrl-C again to quit at once)…');
    abort.abort();
  });
  // Copies are needed when the config has a workspace, and for code tasks, which bring their own.
  const needsCopies = Boolean(planned.plan) || pending.some((p) => p.item.kind === 'code');
  const workspacesDir = needsCopies ? await privateRunBase().catch((err: unknown) => {
    throw new Stop(EXIT.execution, errorMessage(err));
  }) : '';
  const warned = new Set<string>();
  const runner = sessionRunner({
    config,
    cwd: io.cwd,
    env: io.env,
    approveTools: cmd.approveTools,
    allowCommands: cmd.allowCommands,
    workspacesDir,
    onWarning: (message) => {
      if (warned.has(message)) return;
      warned.add(message);
      progress.say(`warning: ${message}`);
    },
  });
  const fresh: ResultRow[] = [];
  let fatal: unknown;
  try {
    await evaluate({
      items: selected,
      systems,
      done,
      runOnce: runner,
      limiter: new RunLimiter(cmd.concurrency, cmd.perProvider),
      providersOf: (s) => providerKeys(s, config),
      signal: abort.signal,
      logDirFor: cmd.runLogs ? (item, system, sample) => freshDir(join(out, FILES.runs, folderName(item.id), folderName(system.id), ...(sample ? [`sample-${sample}`] : []))) : undefined,
      displayPath: (p) => relative(out, p),
      onStart: () => progress.runStarted(),
      onRow: (row) => {
        appendRow(out, row);
        fresh.push(row);
        progress.finished(row);
      },
    });
  } catch (err) {
    fatal = err;
  } finally {
    removeInterrupt();
    progress.stop();
  }

  const rows = [...previous, ...fresh].filter((r) => selectedIds.has(r.item));
  const summary = writeOutputs(out, { manifest, systems, rows, items: selected.length, title: `MassGen eval: ${basename(dataset.file)}` });
  io.stdout.write(summary.table);
  io.stderr.write(`Results: ${join(out, FILES.results)}\nSummary: ${join(out, FILES.summary)}\nReport:  ${join(out, FILES.report)}\n`);
  if (fatal) {
    if (fatal instanceof SessionSetupError && fatal.kind === 'config') throw new Stop(EXIT.config, `Configuration error: ${fatal.message}`);
    throw new Stop(EXIT.execution, `The eval stopped: ${errorMessage(fatal)}`);
  }
  if (interrupted) {
    io.stderr.write(`Interrupted with ${fresh.length} new result(s) saved; massgen eval … --resume runs the rest.\n`);
    return EXIT.interrupted;
  }
  const errors = fresh.filter((r) => r.error);
  if (errors.length) {
    io.stderr.write(`${errors.length} run(s) gave no answer (first: ${errors[0].item} · ${errors[0].system}: ${errors[0].error}); --resume runs them again.\n`);
    return EXIT.execution;
  }
  return EXIT.ok;
}

/** The folder's earlier rows (with --resume), after making sure it holds this eval; writes eval.json. */
function openFolder(out: string, manifest: EvalManifest, cmd: EvalCommand, io: CliIO): ResultRow[] {
  let existing: EvalManifest | undefined;
  try {
    existing = readManifest(out);
  } catch (err) {
    throw new Stop(EXIT.config, `Error: ${errorMessage(err)}`);
  }
  if (existing && !cmd.resume) throw new Stop(EXIT.config, `${out} already holds an eval (${FILES.manifest}): pass --resume to run what it is missing, or choose another --out.`);
  if (!existing && !isEmptyDir(out)) throw new Stop(EXIT.config, `${out} is not empty and holds no eval: choose a new or empty folder for --out.`);
  if (existing?.merged_from) throw new Stop(EXIT.config, `${out} holds merged shards (massgen eval merge): resume the shard folders, then merge again.`);
  if (existing) {
    const why = resumeMismatch(existing, manifest);
    if (why) throw new Stop(EXIT.config, `Cannot resume ${out}: ${why}. Use another --out for a new eval.`);
  } else if (cmd.resume) {
    io.stderr.write(`note: ${out} holds no eval yet; starting one.\n`);
  }
  const { rows, skipped } = existing ? readResults(out) : { rows: [], skipped: [] };
  for (const s of skipped) io.stderr.write(`warning: ${join(out, FILES.results)}:${s.line} was skipped (${s.reason}); that pair runs again.\n`);
  mkdirSync(out, { recursive: true });
  writeAtomic(join(out, FILES.manifest), `${JSON.stringify({ ...manifest, created: existing?.created ?? manifest.created }, null, 2)}\n`);
  return rows;
}

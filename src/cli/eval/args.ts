// `massgen eval` and `massgen eval merge` on the command line, kept apart from I/O so it is testable. The error
// factory comes from args.ts, so usage mistakes here end like every other: the message, the usage, exit code 1.

import { parseArgs } from 'node:util';
import type { Shard } from '../../core/eval/manifest';
import { parseShard } from '../../core/eval/shard';
import type { EscalationOption } from '../../core/eval/systems';
import { errorMessage } from '../../core/util/errors';

export interface EvalCommand {
  command: 'eval';
  config: string;
  dataset: string;
  out: string;
  resume: boolean;
  /** Runs at once, overall. */
  concurrency: number;
  /** Runs at once using any one provider (endpoint). */
  perProvider: number;
  limit?: number;
  shard?: Shard;
  baseline?: 'self-consistency';
  /** The agent the baseline samples (default: the config's priciest model). */
  baselineAgent?: string;
  /** The baseline's samples per item (default: the team's size). */
  samples?: number;
  /** Also score the team in these escalation stages (ids are checked against the config later). */
  escalation?: EscalationOption;
  approveTools: boolean;
  allowCommands: boolean;
  /** Keep each run's log folder under DIR/runs/. */
  runLogs: boolean;
}

export interface EvalMergeCommand {
  command: 'eval-merge';
  dirs: string[];
  out: string;
}

export type EvalCliCommand = EvalCommand | EvalMergeCommand;

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_PER_PROVIDER = 2;

export const EVAL_USAGE = `  massgen eval --config FILE --dataset FILE.jsonl --out DIR [--resume] [--concurrency N] [--per-provider N]
               [--limit N] [--shard K/N] [--baseline self-consistency [--baseline-agent ID] [--samples N]]
               [--escalation K | --escalation "ID,ID;ID"] [--allow-commands] [--approve-tools] [--no-run-logs]
  massgen eval merge DIR... --out DIR`;

export const EVAL_HELP = `massgen eval scores the team, each of its agents alone (one answer turn, the same prompt) and, with --baseline
  self-consistency, one agent sampled --samples times (majority answer) on every item of a JSONL dataset:
  {"id","question","answer"} (normalised exact match), {"id","question","choices":[...],"answer":"B"} (multiple
  choice), {"id","task","workspace","checks":[...]} (code: right when the winner passes the checks). It writes
  DIR/results.jsonl (a line per item × system, as each finishes), DIR/summary.json (accuracy with 95% intervals,
  cost, tokens, calls, seconds per system, and the oracle: some member alone right) and DIR/report.html (one
  self-contained page, with accuracy against cost and its Pareto front). With orchestrator.escalation in the config,
  or --escalation K (the first K agents are stage 1, the rest stage 2) or --escalation "a,b;c" (stages by agent id),
  it also scores team-escalating, the team in those stages, and team is then the whole team from the start.
  --concurrency N runs (default ${DEFAULT_CONCURRENCY}), at most --per-provider N (default
  ${DEFAULT_PER_PROVIDER}) on any one endpoint. --resume runs only what DIR is missing; --shard K/N takes every N-th item from
  the K-th; massgen eval merge joins shard folders into --out DIR. Ctrl-C keeps what finished (exit 4).`;

export function parseEvalArgs(args: string[], usageError: (message: string) => Error): EvalCliCommand {
  const parse = (options: NonNullable<Parameters<typeof parseArgs>[0]>['options']): { values: Record<string, string | boolean | undefined>; positionals: string[] } => {
    try {
      const { values, positionals } = parseArgs({ args: args[0] === 'merge' ? args.slice(1) : args, options, allowPositionals: true, strict: true });
      return { values: values as Record<string, string | boolean | undefined>, positionals };
    } catch (err) {
      throw usageError(errorMessage(err));
    }
  };
  if (args[0] === 'merge') {
    const { values, positionals } = parse({ out: { type: 'string', short: 'o' } });
    if (positionals.length === 0) throw usageError('massgen eval merge needs the shard folders to merge, e.g. massgen eval merge shard-1 shard-2 --out merged');
    if (!values.out) throw usageError('massgen eval merge needs --out DIR: where the merged results.jsonl, summary.json and report.html go');
    return { command: 'eval-merge', dirs: positionals, out: values.out as string };
  }
  const { values, positionals } = parse({
    config: { type: 'string', short: 'c' },
    dataset: { type: 'string', short: 'd' },
    out: { type: 'string', short: 'o' },
    resume: { type: 'boolean' },
    concurrency: { type: 'string' },
    'per-provider': { type: 'string' },
    limit: { type: 'string' },
    shard: { type: 'string' },
    baseline: { type: 'string' },
    'baseline-agent': { type: 'string' },
    samples: { type: 'string' },
    escalation: { type: 'string' },
    'approve-tools': { type: 'boolean' },
    'allow-commands': { type: 'boolean' },
    'no-run-logs': { type: 'boolean' },
  });
  if (positionals.length) throw usageError(`massgen eval takes no QUESTION (got '${positionals.join(' ')}'): the questions are in --dataset FILE.jsonl`);
  for (const name of ['config', 'dataset', 'out'] as const) {
    if (!values[name]) throw usageError(`massgen eval needs --${name} ${name === 'out' ? 'DIR' : 'FILE'}${name === 'dataset' ? ' (JSONL, one item a line)' : ''}.`);
  }
  const positive = (name: string): number | undefined => {
    const raw = values[name] as string | undefined;
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw usageError(`--${name} must be a whole number of at least 1, got '${raw}'.`);
    return n;
  };
  let shard: Shard | undefined;
  if (values.shard !== undefined) {
    const parsed = parseShard(values.shard as string);
    if (typeof parsed === 'string') throw usageError(`${parsed}.`);
    shard = parsed;
  }
  const baseline = values.baseline as string | undefined;
  if (baseline !== undefined && baseline !== 'self-consistency') throw usageError(`--baseline must be self-consistency, got '${baseline}'.`);
  if (!baseline && (values['baseline-agent'] !== undefined || values.samples !== undefined)) throw usageError('--baseline-agent and --samples set up --baseline self-consistency; add it.');
  const samples = positive('samples');
  if (samples === 1) throw usageError('--samples must be at least 2: a majority of one sample is the agent alone, which the eval scores anyway.');
  const escalation = values.escalation === undefined ? undefined : parseEscalation(values.escalation as string, usageError);
  return {
    command: 'eval',
    config: values.config as string,
    dataset: values.dataset as string,
    out: values.out as string,
    resume: Boolean(values.resume),
    concurrency: positive('concurrency') ?? DEFAULT_CONCURRENCY,
    perProvider: positive('per-provider') ?? DEFAULT_PER_PROVIDER,
    limit: positive('limit'),
    shard,
    ...(baseline ? { baseline: 'self-consistency' as const } : {}),
    ...(values['baseline-agent'] !== undefined ? { baselineAgent: values['baseline-agent'] as string } : {}),
    ...(samples !== undefined ? { samples } : {}),
    ...(escalation ? { escalation } : {}),
    approveTools: Boolean(values['approve-tools']),
    allowCommands: Boolean(values['allow-commands']),
    runLogs: !values['no-run-logs'],
  };
}

/** `--escalation K` or `--escalation "a,b;c"`: the form only; whether the ids are the team's is checked with the config. */
export function parseEscalation(raw: string, usageError: (message: string) => Error): EscalationOption {
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    const start = Number(text);
    if (start < 1) throw usageError(`--escalation ${raw}: K must be at least 1 (the first K agents are stage 1).`);
    return { start };
  }
  const stages = text.split(';').map((stage) => stage.split(',').map((id) => id.trim()).filter(Boolean));
  if (stages.some((s) => s.length === 0)) throw usageError(`--escalation '${raw}': a stage is empty; give K (the first K agents are stage 1), or agent ids with ',' inside a stage and ';' between stages, e.g. "a,b;c".`);
  return { stages };
}

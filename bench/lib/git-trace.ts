// Where a git-driven operation spends its time, without touching its code: for the length of one call, a `git`
// shim first on PATH logs each git command's start, end and arguments (bash's $EPOCHREALTIME, no extra process),
// then runs the real git. The workspace code passes PATH on to git (src/core/workspace/git.ts keeps every variable
// but GIT_*), so every git process it starts is seen. The shim costs a bash start (~2 ms) per command: a traced
// run is for the breakdown only, never timed for a goal.

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export interface GitCall {
  /** ms from the start of the traced call. */
  start: number;
  end: number;
  args: string;
}

export interface GitPhase {
  /** `worktree add`, `reset`, `checkout`, `add`… */
  kind: string;
  count: number;
  /** First start and last end, ms from the start of the traced call. */
  from: number;
  to: number;
  /** Summed duration of the calls (more than to − from when they ran in parallel). */
  sumMs: number;
}

export interface Traced<T> {
  value: T;
  wallMs: number;
  calls: GitCall[];
  phases: GitPhase[];
  /** Time no git command was running (our own Node code, file-system calls, process starts). */
  outsideGitMs: number;
}

/** True when bash and git are there to trace with. */
export function canTrace(): boolean {
  return existsSync('/bin/bash') && realGit() !== null;
}

function realGit(): string | null {
  try {
    return execFileSync('/bin/sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * The phase name of one git command line: its subcommand after the global options, with its first flag
 * (`reset --hard`, `ls-files --others`, `worktree add`). Pure.
 */
export function kindOf(args: string): string {
  const words = args.split(' ');
  let i = 0;
  while (i < words.length && words[i].startsWith('-')) i += words[i] === '-c' || words[i] === '-C' ? 2 : 1;
  const sub = words[i] ?? '?';
  if (sub === 'worktree') return `worktree ${words[i + 1] ?? ''}`.trim();
  const flag = words.slice(i + 1).find((w) => w.startsWith('-') && w !== '-q' && w !== '--quiet' && w !== '-z' && w !== '--');
  return flag ? `${sub} ${flag}` : sub;
}

/** Groups calls by kind, in the order each kind first started. Pure. */
export function phasesOf(calls: readonly GitCall[]): GitPhase[] {
  const by = new Map<string, GitPhase>();
  for (const c of [...calls].sort((a, b) => a.start - b.start)) {
    const kind = kindOf(c.args);
    const p = by.get(kind) ?? { kind, count: 0, from: c.start, to: c.end, sumMs: 0 };
    p.count++;
    p.from = Math.min(p.from, c.start);
    p.to = Math.max(p.to, c.end);
    p.sumMs += c.end - c.start;
    by.set(kind, p);
  }
  return [...by.values()];
}

/** Length of the union of the calls' intervals. Pure. */
export function busyMs(calls: readonly GitCall[]): number {
  let total = 0;
  let curFrom = -Infinity;
  let curTo = -Infinity;
  for (const c of [...calls].sort((a, b) => a.start - b.start)) {
    if (c.start > curTo) {
      if (curTo > curFrom) total += curTo - curFrom;
      curFrom = c.start;
      curTo = c.end;
    } else curTo = Math.max(curTo, c.end);
  }
  if (curTo > curFrom) total += curTo - curFrom;
  return total;
}

/** Runs `fn` with every git it starts traced; `dir` holds the shim and the log. Not re-entrant. */
export async function traceGit<T>(dir: string, fn: () => Promise<T>): Promise<Traced<T>> {
  const git = realGit();
  if (!git) throw new Error('git is not on PATH');
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const log = join(dir, `git-trace-${Date.now()}.log`);
  writeFileSync(log, '');
  const shim = join(bin, 'git');
  writeFileSync(
    shim,
    [
      '#!/bin/bash',
      's=$EPOCHREALTIME',
      `${JSON.stringify(git)} "$@"`,
      'rc=$?',
      'a="$*"',
      `printf '%s %s %s\\n' "$s" "$EPOCHREALTIME" "\${a//$'\\n'/ }" >> "$MASSGEN_BENCH_GIT_TRACE"`,
      'exit $rc',
      '',
    ].join('\n'),
  );
  chmodSync(shim, 0o755);
  const saved = { PATH: process.env.PATH, TRACE: process.env.MASSGEN_BENCH_GIT_TRACE };
  process.env.PATH = `${bin}:${saved.PATH ?? ''}`;
  process.env.MASSGEN_BENCH_GIT_TRACE = log;
  const startEpochMs = Date.now(); // the shim logs wall-clock seconds
  const t0 = performance.now();
  let value: T;
  try {
    value = await fn();
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.TRACE === undefined) delete process.env.MASSGEN_BENCH_GIT_TRACE;
    else process.env.MASSGEN_BENCH_GIT_TRACE = saved.TRACE;
  }
  const wallMs = performance.now() - t0;
  const calls: GitCall[] = readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [s, e, ...rest] = line.split(' ');
      return { start: Number(s) * 1000 - startEpochMs, end: Number(e) * 1000 - startEpochMs, args: rest.join(' ') };
    });
  return { value, wallMs, calls, phases: phasesOf(calls), outsideGitMs: Math.max(0, wallMs - busyMs(calls)) };
}

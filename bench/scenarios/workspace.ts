// Scenario 7: workspace copies (issue 12). A real 10,000-file git repository (bench/lib/git-repo.ts: packages a few
// folders deep, source-like files of realistic sizes, the user's uncommitted, staged, deleted, untracked and
// ignored files on top) in the scenario's temp folder.
//
// * Setup: `createWorkspaceCopies` for 8 labels against 8 plain `git worktree add --detach <dir> HEAD` of the same
//   repository one after another (and, for honesty, the same 8 run in parallel), alternating over several repeats;
//   medians. After each of our runs the user's repository must be exactly as it was (status, HEAD, refs, worktree
//   list, index, the content of every changed and untracked file): otherwise the scenario crashes. One more run,
//   untimed for the goal, traces every git command ours starts (bench/lib/git-trace.ts) to show where the time goes.
// * Snapshots: one agent changes 1 line of 1 file, then of 10 more, then of 100 more, with a snapshot (an answer)
//   after each; bytes written per snapshot, against upstream's scheme on the same run (every peer gets a copy of
//   the answerer's whole workspace at each answer), and the same 1-line change on a 1,000-file repository.

import { cp, mkdtemp, mkdir, readFile, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createWorkspaceCopies } from '../../src/core/workspace/copies';
import { createWorkspaceToolbox, SEARCH_FILES } from '../../src/core/workspace/file-tools';
import type { WorkspaceCopies } from '../../src/core/workspace/types';
import { buildRepo, fingerprintDiff, git, repoFingerprint, treeSize, type BuiltRepo } from '../lib/git-repo';
import { canTrace, traceGit, type Traced } from '../lib/git-trace';
import { Results, fmt, kb, type BenchContext, type Scenario } from '../lib/report';
import { median } from '../lib/stats';

const AGENTS = 8;
const LABELS = Array.from({ length: AGENTS }, (_, i) => `agent${i + 1}`);
const UPSTREAM_REF = '/work/shared/reference/massgen-upstream-v0.1.91.md §5 (and §1: "On accepted new_answer: snapshot saved")';

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const ms = (t: number) => `${fmt(t, 0)} ms`;

/** Throws (the scenario crashes) when the user's repository is not exactly as it was. */
async function assertUnchanged(repo: BuiltRepo, before: Record<string, string>, after: string): Promise<void> {
  const diff = fingerprintDiff(before, await repoFingerprint(repo.dir));
  if (diff.length) throw new Error(`the user's repository ${repo.dir} changed after ${after}: ${diff.join('; ')}`);
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

type Wrap = <T>(fn: () => Promise<T>) => Promise<T>;
const direct: Wrap = (fn) => fn();

/** Ours: the copies for 8 labels (`wrap` surrounds only their creation); disposed (untimed) and checked. */
async function oursOnce(repo: BuiltRepo, baseDir: string, runId: string, before: Record<string, string>, wrap: Wrap = direct): Promise<number> {
  const t0 = performance.now();
  const copies = await wrap(() => createWorkspaceCopies(repo.dir, { baseDir, runId, labels: LABELS }));
  const t = performance.now() - t0;
  if (copies.kind !== 'git') throw new Error(`expected git copies, got ${copies.kind}`);
  await copies.dispose();
  if (await exists(join(baseDir, runId))) throw new Error(`dispose() left ${join(baseDir, runId)} behind`);
  await assertUnchanged(repo, before, `createWorkspaceCopies + dispose (${runId})`);
  return t;
}

/** Plain git: 8 `git worktree add --detach` one after another (or all at once); removed (untimed) and checked. */
async function plainOnce(repo: BuiltRepo, parent: string, parallel: boolean, before: Record<string, string>): Promise<{ ms: number; retries: number }> {
  const add = (label: string) => git(repo.dir, ['worktree', 'add', '--detach', '--quiet', join(parent, label), 'HEAD']);
  let retries = 0;
  const t0 = performance.now();
  if (parallel) {
    // git may refuse an add while another entry is half made: those are retried one by one, inside the timing.
    const failed: string[] = [];
    await Promise.all(LABELS.map((l) => add(l).catch(() => failed.push(l))));
    for (const l of failed) {
      retries++;
      await rm(join(parent, l), { recursive: true, force: true });
      await git(repo.dir, ['worktree', 'prune']);
      await add(l);
    }
  } else {
    for (const l of LABELS) await add(l);
  }
  const t = performance.now() - t0;
  for (const l of LABELS) await git(repo.dir, ['worktree', 'remove', '--force', join(parent, l)]);
  await git(repo.dir, ['worktree', 'prune']);
  await rm(parent, { recursive: true, force: true });
  await assertUnchanged(repo, before, `the bench's own plain worktrees were removed (${parent})`);
  return { ms: t, retries };
}

/** Changes one line (the third) of each file in the agent's copy. */
async function editOneLine(root: string, files: readonly string[], tag: string): Promise<void> {
  for (const f of files) {
    const p = join(root, f);
    const lines = (await readFile(p, 'utf8')).split('\n');
    lines[2] = `${lines[2]} // ${tag}`;
    await writeFile(p, lines.join('\n'));
  }
}

interface SnapshotRow {
  version: string;
  /** Files changed since the previous answer (1 line each). */
  newlyChanged: number;
  /** Files in the answer's change (against the starting state), as the snapshot reports them. */
  filesInChange: number;
  bytesWritten: number;
  snapshotMs: number;
  /** The answerer's working tree, apparent size (what a copy writes), without the .git link. */
  treeBytes: number;
  treeFiles: number;
  /** Upstream: a copy of that tree for each of the other agents. */
  upstreamBytes: number;
}

/**
 * One agent's answers on `repo`: `steps[i]` files get a 1-line change, then a snapshot. For the first answer the
 * agent's whole tree is really copied (as upstream does) and the copy's recursive size measured; later answers
 * measure the tree itself (the same walk: the first answer checks that the two agree).
 */
async function snapshotRun(repo: BuiltRepo, baseDir: string, runId: string, steps: readonly string[][], scratch: string, before: Record<string, string>): Promise<SnapshotRow[]> {
  const copies: WorkspaceCopies = await createWorkspaceCopies(repo.dir, { baseDir, runId, labels: LABELS });
  const rows: SnapshotRow[] = [];
  try {
    const root = copies.rootOf('agent1');
    let answer = 0;
    for (const files of steps) {
      answer++;
      const version = `agent1.${answer}`;
      await editOneLine(root, files, `answer ${answer}`);
      const t0 = performance.now();
      const change = await copies.snapshot('agent1', version);
      const snapshotMs = performance.now() - t0;
      let tree = await treeSize(root, ['.git']);
      if (answer === 1) {
        const copy = join(scratch, `${runId}-upstream-copy`);
        await cp(root, copy, { recursive: true, filter: (src) => src !== join(root, '.git') });
        const copied = await treeSize(copy);
        await rm(copy, { recursive: true, force: true });
        if (copied.files !== tree.files || copied.bytes !== tree.bytes) {
          throw new Error(`the copy of agent1's tree (${copied.files} files, ${copied.bytes} B) differs from the tree (${tree.files} files, ${tree.bytes} B)`);
        }
        tree = copied;
      }
      rows.push({
        version,
        newlyChanged: files.length,
        filesInChange: change.files.length,
        bytesWritten: change.bytesWritten,
        snapshotMs,
        treeBytes: tree.bytes,
        treeFiles: tree.files,
        upstreamBytes: tree.bytes * (AGENTS - 1),
      });
    }
  } finally {
    await copies.dispose();
  }
  await assertUnchanged(repo, before, `the snapshot run (${runId})`);
  return rows;
}

/** Tracked source files the user did not touch, in a stable order. */
function cleanSources(...repos: BuiltRepo[]): string[] {
  const dirty = new Set(repos.flatMap((r) => [...r.dirty.modified, ...r.dirty.deleted]));
  return repos[0].paths.filter((p) => p.endsWith('.ts') && !dirty.has(p) && repos.every((r) => r.paths.includes(p)));
}

/** `k` files spread over `from` (every len/k-th), skipping `taken`. */
function spread(from: readonly string[], k: number, taken: Set<string>): string[] {
  const pool = from.filter((p) => !taken.has(p));
  const out = Array.from({ length: k }, (_, i) => pool[Math.floor((i * pool.length) / k)]);
  for (const p of out) taken.add(p);
  return out;
}

interface Series {
  ours: number[];
  plain: number[];
  parallel: number[];
  retries: number;
}

/** `repeats` rounds of ours, plain one after another and (with `withParallel`) plain in parallel, alternating. */
async function setupSeries(repo: BuiltRepo, baseDir: string, repeats: number, before: Record<string, string>, withParallel: boolean, log: (m: string) => void): Promise<Series> {
  const s: Series = { ours: [], plain: [], parallel: [], retries: 0 };
  for (let rep = 0; rep < repeats; rep++) {
    const steps: Array<() => Promise<void>> = [
      async () => void s.ours.push(await oursOnce(repo, baseDir, `ours-${rep}`, before)),
      async () => void s.plain.push((await plainOnce(repo, join(baseDir, `plain-${rep}`), false, before)).ms),
    ];
    if (withParallel) {
      steps.push(async () => {
        const p = await plainOnce(repo, join(baseDir, `parallel-${rep}`), true, before);
        s.parallel.push(p.ms);
        s.retries += p.retries;
      });
    }
    for (const step of rep % 2 ? [...steps].reverse() : steps) await step();
    log(`setup repeat ${rep + 1}/${repeats} in ${baseDir}: ours ${ms(s.ours[rep])}, plain ${ms(s.plain[rep])}${withParallel ? `, plain in parallel ${ms(s.parallel[rep])}` : ''}`);
  }
  return s;
}

/** A RAM disk with room for the copies of every variant (Linux /dev/shm), or null. */
async function ramDisk(needBytes: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  const TMPFS_MAGIC = 0x01021994;
  try {
    const fs = await statfs('/dev/shm');
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < needBytes) return null;
    return '/dev/shm';
  } catch {
    return null;
  }
}

function phaseRows(r: Results, traced: Traced<unknown>): void {
  r.info('  where our setup time goes (one traced run, not timed for the goal)', `${ms(traced.wallMs)} wall, ${traced.calls.length} git commands; outside git ${ms(traced.outsideGitMs)}`);
  for (const p of traced.phases) {
    r.info(`    git ${p.kind} ×${p.count}`, `${ms(p.from)} → ${ms(p.to)} of the run (Σ ${ms(p.sumMs)})`);
  }
}

/**
 * search_files for a line no file holds (so every file is read) against the `git grep` it runs, without its checks
 * and parsing; alternating, after a warm-up of each; medians.
 */
async function searchSeries(dir: string, repeats: number): Promise<{ oursMs: number; plainMs: number; repeats: number }> {
  const box = createWorkspaceToolbox({ own: dir, peers: { labels: [], view: () => undefined } });
  const needle = 'massgen-bench: a line no file holds';
  const ours: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i <= repeats; i++) {
    let t0 = performance.now();
    const found = await box.execute({ id: `search${i}`, name: SEARCH_FILES, arguments: JSON.stringify({ pattern: needle }) }, new AbortController().signal);
    const oursMs = performance.now() - t0;
    if (!found.ok) throw new Error(`search_files failed: ${found.content}`);
    t0 = performance.now();
    // Exit code 1: no match, as expected.
    await promisify(execFile)('git', ['grep', '--no-index', '--exclude-standard', '-n', '-I', '-z', '-F', '-e', needle], { cwd: dir }).catch((err: { code?: number }) => {
      if (err.code !== 1) throw err;
    });
    const plainMs = performance.now() - t0;
    if (i > 0) {
      ours.push(oursMs);
      plain.push(plainMs);
    }
  }
  return { oursMs: median(ours), plainMs: median(plain), repeats };
}

export const workspace: Scenario = {
  name: 'workspace',
  title: '7. Workspace copies: setup vs plain git worktree add; snapshot bytes vs upstream',
  async run(ctx: BenchContext) {
    const r = new Results();
    const files = ctx.quick ? 500 : 10_000;
    const smallFiles = files / 10;
    const repeats = ctx.quick ? 2 : 3;
    const baseDir = join(ctx.tmp, 'runs');
    await mkdir(baseDir, { recursive: true });

    // ---- the repository
    let t0 = performance.now();
    const repo = await buildRepo(join(ctx.tmp, `repo-${files}`), files);
    const work = await treeSize(repo.dir, ['.git']);
    ctx.log(`workspace: ${files}-file repository built in ${ms(performance.now() - t0)} (${mb(repo.trackedBytes)} tracked)`);
    const before = await repoFingerprint(repo.dir);
    const d = repo.dirty;
    r.info(
      'repository',
      `${fmt(files, 0)} tracked files, ${mb(repo.trackedBytes)} (packages/pkgNN/src/<area>/<module>/…, 5 levels); on top: ${d.modified.length} edited (${d.staged.length} of them staged), ${d.deleted.length} deleted, ${d.untracked.length} untracked, ${d.ignored} ignored`,
    );
    r.figure('repository', { files, trackedBytes: repo.trackedBytes, workTreeFiles: work.files, workTreeBytes: work.bytes, dirty: { modified: d.modified.length, staged: d.staged.length, deleted: d.deleted.length, untracked: d.untracked.length, ignored: d.ignored } });

    // ---- setup: a traced run first (also the warm-up), then ours / plain / plain in parallel, alternating
    const trace: { run?: Traced<unknown> } = {};
    await oursOnce(repo, baseDir, 'warmup', before, canTrace() ? async (create) => {
      trace.run = await traceGit(join(ctx.tmp, 'trace'), create);
      return trace.run.value as Awaited<ReturnType<typeof create>>;
    } : direct);
    const traced = trace.run ?? null;
    const { ours, plain, parallel, retries } = await setupSeries(repo, baseDir, repeats, before, true, (m) => ctx.log(`workspace: ${m}`));
    const oursMs = median(ours);
    const plainMs = median(plain);
    const parallelMs = median(parallel);
    r.goal('workspace.copies.n8.ratio', `setup of ${AGENTS} copies: ours / ${AGENTS} plain git worktree add`, oursMs / plainMs, '<=', 1.5);
    r.info('  ours: createWorkspaceCopies, 8 labels (median)', `${ms(oursMs)}  (runs: ${ours.map((x) => fmt(x, 0)).join(', ')} ms)`);
    r.info(`  plain: ${AGENTS}× git worktree add --detach, one after another`, `${ms(plainMs)}  (runs: ${plain.map((x) => fmt(x, 0)).join(', ')} ms; ${ms(plainMs / AGENTS)} per add)`);
    r.info(`  ours / ${AGENTS} plain adds run in parallel`, `${fmt(oursMs / parallelMs, 2)}  (parallel: ${ms(parallelMs)}; runs ${parallel.map((x) => fmt(x, 0)).join(', ')} ms${retries ? `; ${retries} add(s) refused and retried` : ''})`);
    if (traced) phaseRows(r, traced);

    // ---- search_files over the agent's own folder: the repository's working tree (a copy holds the same files)
    const search = await searchSeries(repo.dir, repeats * 3);
    r.goal('workspace.search.vs_git_grep', `search_files, a line no file holds, ${fmt(files, 0)}-file tree: ours / the plain git grep`, search.oursMs / search.plainMs, '<=', 1.5);
    r.info('  search_files / git grep --no-index (medians)', `${ms(search.oursMs)} / ${ms(search.plainMs)}`);
    r.figure('search', search);

    // The same on a RAM disk (copies only; the repository stays where it is): what our code and git cost when
    // writing files costs next to nothing. Shared machines make file creation on disk slow and irregular.
    let ram: { dir: string; ours: number; plain: number; runs: Series } | null = null;
    const shm = await ramDisk(work.bytes * AGENTS * 3);
    if (shm) {
      const dir = await mkdtemp(join(shm, 'massgen-bench-workspace-'));
      try {
        const runs = await setupSeries(repo, dir, repeats, before, false, (m) => ctx.log(`workspace: ${m}`));
        ram = { dir, ours: median(runs.ours), plain: median(runs.plain), runs };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      r.info(`  on a RAM disk (${shm}): ours / plain`, `${fmt(ram.ours / ram.plain, 2)}  (ours ${ms(ram.ours)}, plain ${ms(ram.plain)}; runs ${ram.runs.ours.map((x) => fmt(x, 0)).join(', ')} vs ${ram.runs.plain.map((x) => fmt(x, 0)).join(', ')} ms)`);
    } else {
      r.info('  on a RAM disk', 'not measured (no tmpfs /dev/shm with room for the copies)');
    }
    r.info("  user's repository after every run", 'unchanged (status, HEAD, refs, worktree list, index, changed and untracked files)');
    r.figure('setup', {
      oursMs,
      plainMs,
      plainParallelMs: parallelMs,
      ratio: oursMs / plainMs,
      ratioVsParallel: oursMs / parallelMs,
      runs: { ours, plain, parallel },
      parallelRetries: retries,
      traced: traced && { wallMs: traced.wallMs, outsideGitMs: traced.outsideGitMs, phases: traced.phases },
      ramDisk: ram && { oursMs: ram.ours, plainMs: ram.plain, ratio: ram.ours / ram.plain, runs: { ours: ram.runs.ours, plain: ram.runs.plain } },
    });

    // ---- snapshots: bytes per answer ∝ the change, on this repository and one a tenth its size
    t0 = performance.now();
    const small = await buildRepo(join(ctx.tmp, `repo-${smallFiles}`), smallFiles);
    const smallBefore = await repoFingerprint(small.dir);
    ctx.log(`workspace: ${smallFiles}-file repository built in ${ms(performance.now() - t0)}`);
    // The 1-line change: the same file in both (packages/pkg00/src is byte-identical in the two repositories), of
    // about the median size of the repository's source files.
    const sizes = new Map(await Promise.all(cleanSources(repo).map(async (p) => [p, (await stat(join(repo.dir, p))).size] as const)));
    const medianSize = median([...sizes.values()]);
    const shared = cleanSources(repo, small).filter((p) => p.startsWith('packages/pkg00/src/'));
    if (shared.length === 0) throw new Error('no untouched source file in packages/pkg00/src');
    const one = shared.reduce((best, p) => (Math.abs(sizes.get(p)! - medianSize) < Math.abs(sizes.get(best)! - medianSize) ? p : best));
    const taken = new Set([one]);
    const all = cleanSources(repo);
    const steps = [[one], spread(all, 10, taken), spread(all, 100, taken)];
    const big = await snapshotRun(repo, baseDir, 'snapshots', steps, ctx.tmp, before);
    const [smallOne] = await snapshotRun(small, baseDir, 'snapshots-small', [[one]], ctx.tmp, smallBefore);

    const first = big[0];
    r.goal('workspace.snapshot.repo_growth', `1-line change: bytes written, ${fmt(files, 0)}-file / ${fmt(smallFiles, 0)}-file repository`, first.bytesWritten / smallOne.bytesWritten, '<=', 1.5);
    r.info('  bytes written for that change', `${kb(first.bytesWritten)} (${fmt(files, 0)} files) vs ${kb(smallOne.bytesWritten)} (${fmt(smallFiles, 0)} files); the file: ${one} (${kb(sizes.get(one)!)}; median source file ${kb(medianSize)})`);
    r.goal('workspace.snapshot.vs_upstream', `1-line change, ${fmt(files, 0)}-file repository: bytes ours / upstream`, (100 * first.bytesWritten) / first.upstreamBytes, '<=', 5, ' %', { digits: 4 });
    for (const row of big) {
      r.info(
        `  answer ${row.version}: 1 line in ${row.newlyChanged} ${row.newlyChanged === 1 ? 'file' : 'more files'} (${row.filesInChange} in its change)`,
        `ours ${kb(row.bytesWritten)} in ${ms(row.snapshotMs)} vs upstream ${mb(row.upstreamBytes)} = ${AGENTS - 1} × ${mb(row.treeBytes)} (${fmt(row.treeFiles, 0)} files): ours/upstream ${fmt((100 * row.bytesWritten) / row.upstreamBytes, 4)} %`,
      );
    }
    r.info(`  upstream, same change on the ${fmt(smallFiles, 0)}-file repository`, `${mb(smallOne.upstreamBytes)} = ${AGENTS - 1} × ${mb(smallOne.treeBytes)}: grows with the repository (×${fmt(first.upstreamBytes / smallOne.upstreamBytes, 1)})`);
    r.figure('snapshots', { repository: big, small: { files: smallFiles, ...smallOne }, changedFile: one });

    r.note(
      `Setup: medians of ${repeats} repeats, the variants in alternating order; the copies of every variant at the same depth in the same folder (the scenario's temp folder; on the RAM disk only ours and plain one after another). ` +
        'Plain = `git worktree add --detach <dir> HEAD` in the user\'s repository: HEAD only, without the user\'s uncommitted and untracked files, which ours carries over (and ours writes nothing to the user\'s .git).',
    );
    r.note(
      `Upstream's figure: at each answer upstream saves a snapshot of the answering agent's workspace and every other agent gets a copy of it in its temp workspace (${UPSTREAM_REF}: "temp workspaces holding copies of all peers' snapshots"). ` +
        `It is computed as (agents − 1) × the answerer's working tree: ${AGENTS - 1} × the apparent size of every file in agent1's copy (ignored files are not in it, the .git link is left out), measured by really copying the tree for the first answer and walking it recursively (a walk of the tree for later answers, checked equal on the first). ` +
        'Charitable to upstream: the copy into snapshot storage itself is not counted, nor file-system block rounding.',
    );
    r.note('Ours: bytesWritten of the answer (the on-disk size of the git objects the snapshot added that no earlier version had: new blobs, zlib-compressed, and the trees on their paths).');
    if (!traced) r.note('The phase breakdown needs bash (a traced git on PATH): not shown.');
    return r.result();
  },
};

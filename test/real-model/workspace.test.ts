// A workspace run through the real `massgen` CLI with a team of SmolLM2-135M agents on the real llama-server, asked
// to fix a bug in a small git repository. A 135M model may well not fix it; what is checked is the engine around it:
// every agent got its own copy outside the repository, the repository is byte-identical, every answer version has
// its snapshot, the winner's patch (if any) applies to the repository, every file-tool call has its result, and the
// run ends for a named reason within its bound, with no stack trace anywhere.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '../../src/core/engine/events';
import { COORDINATION_TOOLS } from '../../src/core/engine/tool-names';
import { isInside } from '../../src/core/util/paths';
import { EDIT_FILE, LIST_DIRECTORY, READ_FILE, SEARCH_FILES, WRITE_FILE } from '../../src/core/workspace/tool-specs';
import { cliSuite, readJsonl, runCli } from '../helpers/cli';
import { fingerprint, makeAddProject, testGitEnv, WRONG_ADD } from '../helpers/repo';
import { useForcedServer } from './lib/forced-server';
import { assertNoStackTrace, isEndReason } from './lib/outcome';
import { writeTeamConfig } from './lib/team-config';
import { timed } from './lib/timed';

const work = mkdtempSync(join(tmpdir(), 'massgen-real-ws-'));
const AGENTS = ['a', 'b'];
const RUN_SECONDS = 600;

const TASK = 'Fix the bug in the file src/add.js. It contains `exports.add = (a, b) => a - b;` but add must return a + b. ' +
  'Call write_file with path "src/add.js" and the fixed content, then call new_answer.';

/**
 * The copies seen under the run folder while the CLI ran (label → whether it held the repository's files), and what
 * was seen that must never be (asserted after the run: an assertion inside the timer would be lost).
 */
function watchCopies(workspaces: string, repo: string): { seen: Map<string, { path: string; hadFiles: boolean }>; violations: Set<string>; stop(): void } {
  const seen = new Map<string, { path: string; hadFiles: boolean }>();
  const violations = new Set<string>();
  const look = () => {
    if (!existsSync(workspaces)) return;
    for (const run of readdirSync(workspaces)) {
      const runDir = join(workspaces, run);
      let labels: string[] = [];
      try {
        labels = readdirSync(runDir).filter((n) => /^agent\d+$/.test(n));
      } catch {
        continue; // removed meanwhile, at the run's end
      }
      for (const label of labels) {
        const path = join(runDir, label);
        const hadFiles = existsSync(join(path, 'src', 'add.js')) && existsSync(join(path, 'test.js'));
        const before = seen.get(label);
        if (!before || (!before.hadFiles && hadFiles)) seen.set(label, { path, hadFiles });
      }
    }
    if (existsSync(join(repo, '.git', 'worktrees'))) violations.add('a worktree entry in the user\'s repository');
  };
  const timer = setInterval(() => {
    try {
      look();
    } catch {
      // a folder vanished between readdir and stat: the next look sees the new state
    }
  }, 100);
  return { seen, violations, stop: () => clearInterval(timer) };
}

describe('real model: massgen run --workspace with a SmolLM2 team on llama-server', function () {
  this.timeout((RUN_SECONDS + 180) * 1000);
  const suite = cliSuite(work);
  const forced = useForcedServer();

  it('copies apart from the repo, the repo untouched, a snapshot per answer, a winner\'s patch that applies, tool calls with results, a named end', async () => {
    const repo = makeAddProject(join(work, 'repo'), { 'README.md': '# calc\n' });
    const before = fingerprint(repo);
    const { server, proxy } = forced();
    const config = writeTeamConfig(work, 'workspace-team', {
      api: 'openai',
      origin: proxy.origin,
      agents: AGENTS,
      maxTokens: 256,
      timeoutSeconds: RUN_SECONDS,
      turnTimeoutSeconds: 180,
      orchestrator: { max_new_answers_per_agent: 1, budget: { max_calls: 24 } },
    });
    const tmp = mkdtempSync(join(work, 'tmp-'));
    const logDir = join(work, 'logs');
    const workspaces = join(tmp, `massgen-${process.getuid?.()}`, 'workspaces');
    const copies = watchCopies(workspaces, repo);
    const r = await timed(`workspace run, ${AGENTS.length} agents`, () =>
      runCli(suite.cli, ['run', '--automation', '--config', config, '--workspace', repo, '--log-dir', logDir, TASK], { cwd: work, env: { TMPDIR: tmp }, guardMs: (RUN_SECONDS + 60) * 1000 }),
    ).finally(() => copies.stop());
    const output = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}\nserver:\n${server.log().slice(-1500)}`;

    // A named end, an exit code that matches it, nothing thrown at the user.
    // (--automation prints its own lines on stdout, so assertNamedEnd's check of stdout does not fit this run.)
    assert.notEqual(r.code, null, `the CLI did not end within its own bound and was killed\n${output}`);
    const reason = /^COMPLETED: (\S+)$/m.exec(r.stdout)?.[1];
    assert.ok(isEndReason(reason), `a named end reason\n${output}`);
    assert.notEqual(reason, 'cancelled', output);
    assert.ok([0, 2, 3].includes(r.code ?? -1), `exit 0 (answer), 2 (no winner) or 3 (timeout)\n${output}`);
    assertNoStackTrace(r.stdout, 'stdout');
    assertNoStackTrace(r.stderr, 'stderr');
    const events = readJsonl(join(logDir, 'events.jsonl')) as unknown as RunEvent[];
    const ended = events.filter((e) => e.type === 'run_ended');
    assert.equal(ended.length, 1, 'one run_ended event');
    const end = ended[0] as Extract<RunEvent, { type: 'run_ended' }>;
    assert.equal(end.reason, reason);
    assert.ok(end.durationMs <= (RUN_SECONDS + 60) * 1000, `the run kept its bound (${end.durationMs} ms)`);
    for (const e of events) if ('error' in e && typeof e.error === 'string') assertNoStackTrace(e.error, `event ${e.type}`);
    console.log(`      [run] end ${reason}, exit ${r.code}, winner ${end.winnerId ?? 'none'}, ${events.filter((e) => e.type === 'usage').length} model calls`);

    assert.deepEqual([...copies.violations], [], 'seen while the CLI ran');

    // The repository: byte-identical (files, index, refs, worktree list), and no copy left behind.
    assert.equal(fingerprint(repo), before, 'the user\'s repository is untouched');
    assert.deepEqual(existsSync(workspaces) ? readdirSync(workspaces) : [], [], 'no copy is left behind');

    // Each agent had its own copy, with the repository's files, outside the repository.
    assert.deepEqual([...copies.seen.keys()].sort(), AGENTS.map((_, i) => `agent${i + 1}`), 'one copy per agent');
    for (const [label, copy] of copies.seen) {
      assert.ok(copy.hadFiles, `${label}'s copy held the repository's files`);
      assert.ok(!isInside(realpathSync(repo), copy.path), `${label}'s copy is outside the repository`);
    }
    const paths = [...copies.seen.values()].map((c) => c.path);
    assert.equal(new Set(paths).size, paths.length, 'the copies are separate folders');

    // Every file-tool call the model made has its result, recorded in order.
    const fileTools = new Set([READ_FILE, WRITE_FILE, EDIT_FILE, LIST_DIRECTORY, SEARCH_FILES]);
    const calls = events.filter((e): e is Extract<RunEvent, { type: 'tool_call' }> => e.type === 'tool_call' && !COORDINATION_TOOLS.has(e.name));
    for (const call of calls) assert.ok(fileTools.has(call.name), `${call.name} is a file tool (the only tools a workspace run adds)`);
    for (const call of calls) {
      const at = events.indexOf(call);
      const result = events.find((e, i) => i > at && e.type === 'tool_result' && e.callId === call.callId);
      // A call cut off by its turn's end (timeout, failure) has none; any other must.
      const cut = events.slice(at + 1).find((e) => 'agentId' in e && e.agentId === call.agentId && ['tool_result', 'turn_failed', 'agent_failed'].includes(e.type));
      if (cut?.type !== 'tool_result') continue;
      assert.ok(result, `${call.name} ${call.callId} has a result`);
    }
    console.log(`      [run] file-tool calls: ${calls.map((c) => `${c.agentId}:${c.name}`).join(', ') || 'none'}`);

    // Every answer version has its snapshot: a patch file and its changed files in status.json.
    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8')) as { workspace: { answers: Record<string, unknown[]> } };
    const answers = events.filter((e): e is Extract<RunEvent, { type: 'answer_added' }> => e.type === 'answer_added');
    for (const a of answers) {
      assert.ok(a.change, `${a.label} carries its change`);
      assert.ok(existsSync(join(logDir, 'agents', a.agentId, `${a.label}.patch`)), `${a.label}'s patch is recorded`);
      assert.deepEqual(status.workspace.answers[a.label], a.change.files, `${a.label}'s files in status.json`);
    }
    console.log(`      [run] answers: ${answers.map((a) => `${a.label} (${a.change?.files.map((f) => f.path).join(', ') || 'no change'})`).join('; ') || 'none'}`);

    // The winner's patch, if it changed anything, applies to the repository as it is.
    const changes = /^CHANGES_FILE: (.+)$/m.exec(r.stdout)?.[1];
    if (end.winnerId) assert.ok(changes, `a winner's change file is named\n${output}`);
    if (changes && readFileSync(changes, 'utf8').trim()) {
      execFileSync('git', ['apply', '--check', changes], { cwd: repo, env: testGitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      console.log(`      [run] the winner's patch applies:\n${readFileSync(changes, 'utf8')}`);
    }
    assert.equal(readFileSync(join(repo, 'src', 'add.js'), 'utf8'), WRONG_ADD);
  });
});

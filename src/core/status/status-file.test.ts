import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentInfo, RunEvent, RunEventBody } from '../engine/events';
import { reduceEvents } from '../engine/run-state';
import { buildStatus, STATUS_SCHEMA_VERSION, StatusWriter, writeJsonAtomic } from './status-file';
import { eventually } from '../../../test/helpers/eventually';

const AGENTS: AgentInfo[] = [
  { id: 'a', label: 'agent1', model: 'm-a', provider: 'p', priced: false },
  { id: 'b', label: 'agent2', model: 'm-b', provider: 'p', priced: false },
  { id: 'c', label: 'agent3', model: 'm-c', provider: 'p', priced: false },
];
const START = '2025-01-01T00:00:00.000Z';
const START_MS = Date.parse(START);

function events(...bodies: (RunEventBody & { t?: number })[]): RunEvent[] {
  return bodies.map((b, i) => ({ t: (i + 1) * 1000, ...b, seq: i + 1 }) as RunEvent);
}
const started: RunEventBody = { type: 'run_started', runId: 'run-42', question: 'What is 2+2?', agents: AGENTS, startedAt: START, finalAnswerMode: 'as_is' };
const round = (n: number): RunEventBody => ({ type: 'round_started', round: n, agentIds: ['a', 'b', 'c'] });
const turn = (agentId: string, r = 1): RunEventBody => ({ type: 'turn_started', agentId, round: r, boardRevision: 0, voteOnly: false });
const answered = (agentId: string, label: string, version = 1, content = `answer ${label}`): RunEventBody => ({ type: 'answer_added', agentId, label, version, content, boardRevision: 1 });
const voted = (voterId: string, targetId: string, targetLabel: string, reason = 'good'): RunEventBody => ({
  type: 'vote_cast',
  vote: { voterId, targetId, targetLabel, reason, seenRevision: 1 },
});
const invalidated = (voterId: string, targetLabel: string): RunEventBody => ({ type: 'vote_invalidated', voterId, targetLabel, reason: 'new answer' });

const status = (evs: RunEvent[], now = START_MS + 5000) => buildStatus(reduceEvents(evs), '/logs/run', now);

describe('status-file: workspace runs', () => {
  it('lists the folder and each answer version\'s changed files; null for runs without one', () => {
    const files = [{ path: 'src/a.ts', status: 'modified' as const, added: 3, removed: 1 }];
    const change = { id: 'tree1', files, bytesWritten: 420 };
    const workspace = { source: '/repo', kind: 'git' as const, notes: ['submodule lib/ left out'] };
    const s = status(events({ ...started, workspace } as RunEventBody, { ...answered('a', 'agent1.1'), change } as RunEventBody, answered('b', 'agent2.1')));
    assert.deepEqual(s.workspace, { source: '/repo', kind: 'git', notes: ['submodule lib/ left out'], answers: { 'agent1.1': files } });
    assert.equal(status(events(started)).workspace, null);
  });
});

describe('status-file: notes', () => {
  it('lists each note, whom it is for and whom it has reached', () => {
    const added: RunEventBody = { type: 'note_added', noteId: 'n1', text: 'Use metric units.', agentIds: ['a', 'b'], changesTask: true };
    const s = status(events(started, added, { type: 'note_delivered', noteId: 'n1', agentId: 'b', via: 'tool_result' }));
    assert.deepEqual(s.notes, [{ text: 'Use metric units.', to: ['a', 'b'], changes_task: true, at_seconds: 2, delivered_to: ['b'], undelivered: null }]);
    const missed = status(events(started, added, { type: 'note_undelivered', noteId: 'n1', agentIds: ['a', 'b'], reason: 'timeout' }));
    assert.deepEqual(missed.notes[0].undelivered, { to: ['a', 'b'], reason: 'timeout' });
    assert.deepEqual(status(events(started)).notes, []);
  });
});

describe('status-file: escalation stages', () => {
  const stage1: RunEventBody = { type: 'stage_started', stage: 1, agents: ['a', 'b'], reason: 'start' };

  it('counts only the agents called toward completion; one never called stays waiting after the end', () => {
    const s = status(events(started, stage1, round(1), turn('a'), turn('b'), answered('a', 'agent1.1'), voted('b', 'a', 'agent1.1')));
    assert.equal(s.coordination.completion_percentage, 50);
    assert.deepEqual(s.escalation, { current_stage: 1, stages: [{ stage: 1, agents: ['a', 'b'], reason: 'start', after_round: 0, at_seconds: 2 }], not_called: ['c'] });
    const ended = status(events(started, stage1, turn('a'), answered('a', 'agent1.1'), { type: 'run_ended', reason: 'consensus', winnerId: 'a', durationMs: 60 }));
    assert.deepEqual(Object.values(ended.agents).map((a) => a.status), ['completed', 'completed', 'waiting']);
  });

  it('a stage that joins is counted from then on; runs without stages have no block', () => {
    const joined = status(events(started, stage1, turn('a'), answered('a', 'agent1.1'), { type: 'stage_started', stage: 2, agents: ['c'], reason: 'disagreement' }, { type: 'run_ended', reason: 'consensus', winnerId: 'a', durationMs: 60 }));
    assert.deepEqual(joined.escalation?.not_called, []);
    assert.deepEqual(Object.values(joined.agents).map((a) => a.status), ['completed', 'completed', 'completed']);
    assert.equal(status(events(started)).escalation, null);
  });

  it('a note to every agent sent before a stage joined lists the joining agents once it reaches them', () => {
    const note: RunEventBody = { type: 'note_added', noteId: 'n1', text: 'Cite sources.', agentIds: ['a', 'b'], changesTask: false };
    const joined: RunEventBody = { type: 'stage_started', stage: 2, agents: ['c'], reason: 'disagreement' };
    const s = status(events(started, stage1, note, joined, { type: 'note_delivered', noteId: 'n1', agentId: 'c', via: 'next_turn' }));
    assert.deepEqual([s.notes[0].to, s.notes[0].delivered_to], [['a', 'b', 'c'], ['c']]);
  });
});

describe('status-file: checks', () => {
  it('lists each answer version\'s checks, those still running, and the winner\'s verification', () => {
    const result = { name: 'tests', required: true, status: 'failed' as const, exitCode: 1, durationMs: 1234, output: '1 failing', cached: false };
    const s = status(events(
      started,
      { type: 'checks_started', agentId: 'a', label: 'agent1.1', names: ['tests', 'lint'] },
      { type: 'check_finished', agentId: 'a', label: 'agent1.1', result },
      { type: 'winner_selected', agentId: 'b', label: 'agent2.1', votes: {}, tieBreak: false, basis: 'current_votes', verification: { status: 'passed', overruled: { label: 'agent1.1', failed: ['tests'] } } },
    ));
    assert.deepEqual(s.checks, { 'agent1.1': { running: ['lint'], results: [{ name: 'tests', status: 'failed', required: true, exit_code: 1, duration_seconds: 1.234, cached: false }] } });
    assert.deepEqual(s.results.verification, { status: 'passed', overruled: { label: 'agent1.1', failed: ['tests'] } });
    assert.equal(status(events(started)).results.verification, null);
  });
});

describe('status-file: buildStatus schema', () => {
  const s = status(events(started, round(1), turn('a'), answered('a', 'agent1.1'), turn('b')), START_MS + 7500);

  it('has the top-level blocks', () => {
    assert.deepEqual(Object.keys(s).sort(), ['agents', 'budget', 'checks', 'coordination', 'escalation', 'meta', 'notes', 'results', 'schema_version', 'usage', 'workspace']);
    assert.equal(s.schema_version, STATUS_SCHEMA_VERSION);
  });

  it('meta: last_updated, session_id, log_dir, question, start_time, elapsed_seconds', () => {
    assert.deepEqual(s.meta, {
      last_updated: (START_MS + 7500) / 1000,
      session_id: 'run-42',
      log_dir: '/logs/run',
      question: 'What is 2+2?',
      start_time: START_MS / 1000,
      elapsed_seconds: 5,
    });
  });

  it('coordination: phase, active_agent, completion_percentage, is_final_presentation', () => {
    for (const k of ['phase', 'active_agent', 'completion_percentage', 'is_final_presentation']) assert.ok(k in s.coordination, k);
    assert.equal(s.coordination.active_agent, 'b');
    assert.equal(s.coordination.is_final_presentation, false);
    assert.equal(s.coordination.round, 1);
  });

  it('agents.<id>: upstream keys', () => {
    assert.deepEqual(Object.keys(s.agents), ['a', 'b', 'c']);
    for (const k of ['status', 'answer_count', 'latest_answer_label', 'vote_cast', 'times_restarted', 'last_activity', 'error']) assert.ok(k in s.agents.a, k);
    assert.equal(s.agents.a.status, 'answered');
    assert.equal(s.agents.a.answer_count, 1);
    assert.equal(s.agents.a.latest_answer_label, 'agent1.1');
    assert.equal(s.agents.a.vote_cast, null);
    assert.equal(s.agents.a.error, null);
    assert.equal(s.agents.a.label, 'agent1');
    assert.equal(s.agents.a.model, 'm-a');
    assert.equal(s.agents.b.status, 'streaming');
    assert.equal(s.agents.c.status, 'waiting');
  });

  it('agents.<id>.last_activity is an absolute epoch time in seconds', () => {
    // answer_added for a is event 4 → t = 4000 ms
    assert.equal(s.agents.a.last_activity, (START_MS + 4000) / 1000);
  });

  it('results: votes, winner, final_answer_preview', () => {
    for (const k of ['votes', 'winner', 'final_answer_preview']) assert.ok(k in s.results, k);
    assert.deepEqual(s.results.votes, {});
    assert.equal(s.results.winner, null);
    assert.equal(s.results.final_answer_preview, null);
  });

  it('elapsed_seconds keeps millisecond precision', () => {
    const x = status(events(started, { type: 'round_started', round: 1, agentIds: [], t: 1234 }));
    assert.equal(x.meta.elapsed_seconds, 1.234);
  });

  it('a state without a start time uses now as the start time', () => {
    const x = buildStatus(reduceEvents([]), '/l', 5_000_000);
    assert.equal(x.meta.start_time, 5000);
    assert.equal(x.coordination.completion_percentage, 0);
  });
});

describe('status-file: agents', () => {
  it('vote_cast shows the current vote with a reason preview of at most 100 chars', () => {
    const long = 'r'.repeat(150);
    const s = status(events(started, answered('a', 'agent1.1'), voted('b', 'a', 'agent1.1', long)));
    assert.deepEqual(s.agents.b.vote_cast, { voted_for_agent: 'a', voted_for_label: 'agent1.1', reason_preview: 'r'.repeat(100) });
  });

  it('a short reason is shown whole', () => {
    const s = status(events(started, answered('a', 'agent1.1'), voted('b', 'a', 'agent1.1', 'short')));
    assert.equal(s.agents.b.vote_cast?.reason_preview, 'short');
  });

  it('an invalidated vote is no longer shown as vote_cast', () => {
    const s = status(events(started, answered('a', 'agent1.1'), voted('b', 'a', 'agent1.1'), invalidated('b', 'agent1.1')));
    assert.equal(s.agents.b.vote_cast, null);
    assert.equal(s.agents.b.status, 'restarting');
  });

  it('times_restarted = turns - 1, never negative', () => {
    const s = status(events(started, turn('a', 1), turn('a', 2), turn('a', 3), turn('b', 1)));
    assert.equal(s.agents.a.times_restarted, 2);
    assert.equal(s.agents.b.times_restarted, 0);
    assert.equal(s.agents.c.times_restarted, 0);
  });

  it('error: type timeout for time-outs, error otherwise, with message and timestamp', () => {
    const s = status(events(started, { type: 'agent_failed', agentId: 'a', cause: 'timeout', error: 'Request timed out after 60s' }, { type: 'agent_failed', agentId: 'b', cause: 'provider', error: '401 unauthorized' }));
    assert.deepEqual(s.agents.a.error, { type: 'timeout', message: 'Request timed out after 60s', timestamp: (START_MS + 2000) / 1000 });
    assert.deepEqual(s.agents.b.error, { type: 'error', message: '401 unauthorized', timestamp: (START_MS + 3000) / 1000 });
    assert.equal(s.agents.a.status, 'failed');
  });

  it('retry info in seconds', () => {
    const s = status(events(started, turn('a'), { type: 'retry', agentId: 'a', attempt: 2, delayMs: 2500, error: '429' }));
    assert.deepEqual(s.agents.a.retry, { attempt: 2, delay_seconds: 2.5, error: '429' });
    assert.equal(s.agents.b.retry, null);
  });

  it('active_agent is null when nobody streams', () => {
    assert.equal(status(events(started)).coordination.active_agent, null);
  });
});

describe('status-file: results', () => {
  it('counts only current votes per label: a stale vote is not counted', () => {
    const s = status(
      events(
        started,
        answered('a', 'agent1.1'),
        answered('b', 'agent2.1'),
        voted('a', 'b', 'agent2.1'),
        voted('b', 'b', 'agent2.1'),
        invalidated('a', 'agent2.1'),
        voted('a', 'a', 'agent1.1'),
        voted('c', 'a', 'agent1.1'),
      ),
    );
    assert.deepEqual(s.results.votes, { 'agent2.1': 1, 'agent1.1': 2 });
  });

  it('votes of failed agents are not counted', () => {
    const s = status(events(started, answered('a', 'agent1.1'), voted('b', 'a', 'agent1.1'), voted('c', 'a', 'agent1.1'), { type: 'agent_failed', agentId: 'c', cause: 'provider', error: 'x' }));
    assert.deepEqual(s.results.votes, { 'agent1.1': 1 });
  });

  it('winner and a final answer preview of at most 200 chars', () => {
    const content = 'f'.repeat(300);
    const s = status(
      events(
        started,
        answered('b', 'agent2.1', 1, content),
        { type: 'winner_selected', agentId: 'b', label: 'agent2.1', votes: { b: 1 }, tieBreak: false, basis: 'current_votes' },
        { type: 'final_started', agentId: 'b', mode: 'as_is' },
        { type: 'final_answer', agentId: 'b', label: 'agent2.1', content, mode: 'as_is' },
        { type: 'run_ended', reason: 'consensus', winnerId: 'b', durationMs: 6000 },
      ),
    );
    assert.equal(s.results.winner, 'b');
    assert.equal(s.results.winner_label, 'agent2.1');
    assert.equal(s.results.final_answer_preview, 'f'.repeat(200));
    assert.equal(s.results.end_reason, 'consensus');
    assert.equal(s.coordination.end_reason, 'consensus');
    assert.equal(s.results.error, null);
  });

  it('carries the run error', () => {
    const s = status(events(started, { type: 'run_ended', reason: 'all_failed', winnerId: null, durationMs: 1, error: 'everyone failed' }));
    assert.equal(s.results.error, 'everyone failed');
    assert.equal(s.results.end_reason, 'all_failed');
  });
});

describe('status-file: phase and completion', () => {
  it('initial_answer before any answer', () => {
    assert.equal(status(events(started, round(1), turn('a'))).coordination.phase, 'initial_answer');
  });

  it('initial_answer in round 1 even with answers', () => {
    assert.equal(status(events(started, round(1), answered('a', 'agent1.1'))).coordination.phase, 'initial_answer');
  });

  it('enforcement in later rounds once answers exist', () => {
    assert.equal(status(events(started, round(1), answered('a', 'agent1.1'), round(2))).coordination.phase, 'enforcement');
  });

  it('initial_answer in a later round when still no answer exists', () => {
    assert.equal(status(events(started, round(1), round(2))).coordination.phase, 'initial_answer');
  });

  it('presentation once the final answer starts, and when done', () => {
    const presenting = status(events(started, round(2), answered('a', 'agent1.1'), { type: 'final_started', agentId: 'a', mode: 'synthesize' }));
    assert.equal(presenting.coordination.phase, 'presentation');
    assert.equal(presenting.coordination.is_final_presentation, true);
    const done = status(events(started, { type: 'run_ended', reason: 'timeout', winnerId: null, durationMs: 1 }));
    assert.equal(done.coordination.phase, 'presentation');
    assert.equal(done.coordination.is_final_presentation, true);
  });

  it('completion is the share of live agents with a current vote, floored', () => {
    const one = status(events(started, answered('a', 'agent1.1'), voted('a', 'a', 'agent1.1')));
    assert.equal(one.coordination.completion_percentage, 33);
    const two = status(events(started, answered('a', 'agent1.1'), voted('a', 'a', 'agent1.1'), voted('b', 'a', 'agent1.1')));
    assert.equal(two.coordination.completion_percentage, 66);
  });

  it('completion ignores invalidated votes', () => {
    const s = status(events(started, answered('a', 'agent1.1'), voted('a', 'a', 'agent1.1'), voted('b', 'a', 'agent1.1'), invalidated('b', 'agent1.1')));
    assert.equal(s.coordination.completion_percentage, 33);
  });

  it('completion counts only live agents', () => {
    const s = status(events(started, answered('a', 'agent1.1'), voted('a', 'a', 'agent1.1'), { type: 'agent_failed', agentId: 'c', cause: 'provider', error: 'x' }));
    assert.equal(s.coordination.completion_percentage, 50);
  });

  it('completion is 0 when every agent failed (and the run is not done)', () => {
    const s = status(events(started, ...AGENTS.map((a): RunEventBody => ({ type: 'agent_failed', agentId: a.id, cause: 'provider', error: 'x' }))));
    assert.equal(s.coordination.completion_percentage, 0);
  });

  it('completion is 100 when done', () => {
    const s = status(events(started, { type: 'run_ended', reason: 'timeout', winnerId: null, durationMs: 1 }));
    assert.equal(s.coordination.completion_percentage, 100);
  });
});

describe('status-file: usage', () => {
  it('per agent and total usage blocks in snake_case', () => {
    const s = status(
      events(
        started,
        { type: 'usage', agentId: 'a', usage: { inputTokens: 100, cachedInputTokens: 20, outputTokens: 10 }, costUsd: null, phase: 'coordination' },
        { type: 'usage', agentId: 'b', usage: { inputTokens: 5, cachedInputTokens: 0, outputTokens: 1, estimated: true }, costUsd: null, phase: 'final' },
      ),
    );
    assert.deepEqual(s.agents.a.usage, { input_tokens: 100, cached_input_tokens: 20, output_tokens: 10, calls: 1, estimated: false, cost_usd: null, cost_partial: false });
    assert.deepEqual(s.agents.b.usage, { input_tokens: 5, cached_input_tokens: 0, output_tokens: 1, calls: 1, estimated: true, cost_usd: null, cost_partial: false });
    assert.deepEqual(s.agents.c.usage, { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, calls: 0, estimated: false, cost_usd: 0, cost_partial: false });
    assert.deepEqual(s.usage, { input_tokens: 105, cached_input_tokens: 20, output_tokens: 11, calls: 2, estimated: true, cost_usd: null, cost_partial: false });
  });
});

describe('status-file: writeJsonAtomic and StatusWriter', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'massgen-status-test-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const read = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as unknown;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Every file under `dir`, recursively, relative. */
  const files = () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name).slice(dir.length + 1)).sort();

  it('writeJsonAtomic creates parent dirs, writes pretty JSON and leaves no .tmp file', () => {
    const p = join(dir, 'deep', 'er', 'status.json');
    writeJsonAtomic(p, { a: 1, b: [2] });
    assert.deepEqual(read(p), { a: 1, b: [2] });
    assert.equal(readFileSync(p, 'utf8'), JSON.stringify({ a: 1, b: [2] }, null, 2));
    assert.deepEqual(files(), [join('deep', 'er', 'status.json')]);
  });

  it('writeJsonAtomic replaces an existing file', () => {
    const p = join(dir, 's.json');
    writeJsonAtomic(p, { v: 1 });
    writeJsonAtomic(p, { v: 2 });
    assert.deepEqual(read(p), { v: 2 });
    assert.deepEqual(files(), ['s.json']);
  });

  it('the first change writes at once', () => {
    const p = join(dir, 'status.json');
    let n = 0;
    const w = new StatusWriter([p], () => ({ n: ++n }), 10_000);
    w.changed();
    assert.deepEqual(read(p), { n: 1 });
    w.flush(); // nothing changed since: no extra snapshot
    assert.equal(n, 1);
  });

  it('a burst of changes within the interval gives one trailing write with the latest snapshot', async () => {
    const p = join(dir, 'status.json');
    let value = 0;
    let snapshots = 0;
    const w = new StatusWriter(
      [p],
      () => {
        snapshots++;
        return { value };
      },
      // Long enough that the burst below (a few synchronous calls) falls inside it even on a loaded machine.
      1000,
    );
    value = 1;
    w.changed(); // immediate write
    for (let i = 2; i <= 5; i++) {
      value = i;
      w.changed();
    }
    assert.deepEqual(read(p), { value: 1 });
    assert.equal(snapshots, 1);
    await eventually(() => snapshots === 2, { what: 'the trailing write' });
    assert.deepEqual(read(p), { value: 5 });
    assert.deepEqual(files(), ['status.json']);
  });

  it('flush writes pending changes immediately and cancels the trailing write', async () => {
    const p = join(dir, 'status.json');
    let value = 0;
    let snapshots = 0;
    const w = new StatusWriter(
      [p],
      () => {
        snapshots++;
        return { value };
      },
      60,
    );
    value = 1;
    w.changed();
    value = 2;
    w.changed();
    w.flush();
    assert.deepEqual(read(p), { value: 2 });
    assert.equal(snapshots, 2);
    // Timers fire in the order they are due: past this one, the cancelled 60 ms write would have come.
    await sleep(150);
    assert.equal(snapshots, 2, 'no trailing write after flush');
  });

  it('flush before any change still writes once', () => {
    const p = join(dir, 'status.json');
    const w = new StatusWriter([p], () => ({ ok: true }), 1000);
    w.flush();
    assert.deepEqual(read(p), { ok: true });
  });

  it('writes every path, leaving no .tmp files', () => {
    const p1 = join(dir, 'status.json');
    const p2 = join(dir, 'logs', 'status.json');
    const w = new StatusWriter([p1, p2], () => ({ x: 'y' }), 1000);
    w.changed();
    assert.deepEqual(read(p1), { x: 'y' });
    assert.deepEqual(read(p2), { x: 'y' });
    assert.deepEqual(files(), [join('logs', 'status.json'), 'status.json']);
    assert.ok(!files().some((f) => f.endsWith('.tmp')));
  });

  it('writeJsonAtomic removes its temp file when the rename fails', () => {
    const p = join(dir, 'status.json');
    mkdirSync(p);
    assert.throws(() => writeJsonAtomic(p, { a: 1 }));
    assert.ok(!files().some((f) => f.endsWith('.tmp')), files().join(', '));
  });

  it('an unwritable path neither throws nor stops the other paths from being written', () => {
    const bad = join(dir, 'bad.json');
    mkdirSync(bad);
    const good = join(dir, 'good.json');
    const w = new StatusWriter([bad, good], () => ({ ok: 1 }), 1000);
    assert.doesNotThrow(() => w.changed());
    assert.deepEqual(read(good), { ok: 1 });
  });
});

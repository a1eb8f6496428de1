import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { RunEvent, RunEventBody } from '../engine/events';
import { newLogDir, RunLog, safeName } from './run-log';

let seq = 0;
const ev = (body: RunEventBody, t = 100): RunEvent => ({ ...body, seq: ++seq, t }) as RunEvent;

describe('run-log: safeName', () => {
  const cases: [string, string][] = [
    ['agent-a', 'agent-a'],
    ['gpt_4o.mini', 'gpt_4o.mini'],
    ['../x', '__x'],
    ['/abs', '_abs'],
    ['a/b', 'a_b'],
    ['a\\b', 'a_b'],
    ['', '_'],
    ['..', '_'],
    ['.', '_'],
    ['.hidden', '_hidden'],
    ['a b:c', 'a_b_c'],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => assert.equal(safeName(input), expected));
  }

  it('never yields a path separator, a leading dot or an empty name', () => {
    for (const input of ['../../evil', '/etc/passwd', '..\\..\\x', '...', ' ', 'ok']) {
      const out = safeName(input);
      assert.ok(out.length > 0, input);
      assert.ok(!out.includes('/') && !out.includes('\\'), `${input} → ${out}`);
      assert.ok(!out.startsWith('.'), `${input} → ${out}`);
    }
  });
});

describe('run-log: files', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'massgen-runlog-test-'));
  });
  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  /** Every file under `root`, relative, sorted, with `/` separators. */
  const files = (root: string) =>
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => relative(root, join(d.parentPath, d.name)).split(sep).join('/'))
      .sort();

  it('newLogDir creates log_YYYYMMDD_HHMMSS_mmm under the base (local time)', () => {
    const dir = newLogDir(base, new Date(2025, 2, 4, 5, 6, 7, 8));
    assert.equal(dirname(dir), base);
    assert.equal(basename(dir), 'log_20250304_050607_008');
    assert.ok(statSync(dir).isDirectory());
  });

  it('newLogDir gives distinct directories for the same Date', () => {
    const d = new Date(2025, 0, 1, 12, 0, 0, 0);
    const a = newLogDir(base, d);
    const b = newLogDir(base, d);
    const c = newLogDir(base, d);
    assert.equal(new Set([a, b, c]).size, 3);
    assert.equal(basename(b), 'log_20250101_120000_000_2');
    assert.equal(basename(c), 'log_20250101_120000_000_3');
    for (const x of [a, b, c]) assert.ok(statSync(x).isDirectory());
  });

  it('newLogDir creates a missing base', () => {
    const dir = newLogDir(join(base, 'not', 'yet'));
    assert.ok(statSync(dir).isDirectory());
  });

  it('writes events.jsonl with one JSON event per line, in order', async () => {
    const dir = join(base, 'run');
    const log = new RunLog(dir);
    const events = [
      ev({ type: 'round_started', round: 1, agentIds: ['a'] }),
      ev({ type: 'text_delta', agentId: 'a', text: 'line1\nline2' }),
      ev({ type: 'run_ended', reason: 'consensus', winnerId: 'a', durationMs: 5 }),
    ];
    for (const e of events) log.record(e);
    await log.close();
    const text = readFileSync(join(dir, 'events.jsonl'), 'utf8');
    assert.ok(text.endsWith('\n'));
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.deepEqual(
      lines.map((l) => JSON.parse(l) as unknown),
      events,
    );
  });

  it('writes each answer version to agents/<id>/<label>.txt', async () => {
    const dir = join(base, 'run');
    const log = new RunLog(dir);
    log.record(ev({ type: 'answer_added', agentId: 'a', label: 'agent1.1', version: 1, content: 'first', boardRevision: 1 }));
    log.record(ev({ type: 'answer_added', agentId: 'a', label: 'agent1.2', version: 2, content: 'second', boardRevision: 2 }));
    await log.close();
    assert.equal(readFileSync(join(dir, 'agents', 'a', 'agent1.1.txt'), 'utf8'), 'first');
    assert.equal(readFileSync(join(dir, 'agents', 'a', 'agent1.2.txt'), 'utf8'), 'second');
  });

  it('keeps what a turn cut short had written in agents/<id>/partial.txt; finished turns leave none', async () => {
    const dir = join(base, 'run');
    const log = new RunLog(dir);
    const turn = (agentId: string): RunEventBody => ({ type: 'turn_started', agentId, round: 1, boardRevision: 0, voteOnly: false });
    log.record(ev(turn('a')));
    log.record(ev(turn('b')));
    log.record(ev({ type: 'text_delta', agentId: 'a', text: 'Half of ' }));
    log.record(ev({ type: 'text_delta', agentId: 'b', text: 'done' }));
    log.record(ev({ type: 'answer_added', agentId: 'b', label: 'agent2.1', version: 1, content: 'done', boardRevision: 1 }));
    log.record(ev({ type: 'text_delta', agentId: 'a', text: 'an answer' }));
    log.record(ev({ type: 'run_ended', reason: 'cancelled', winnerId: 'b', durationMs: 5 }));
    await log.close();
    assert.equal(readFileSync(join(dir, 'agents', 'a', 'partial.txt'), 'utf8'), 'Half of an answer');
    assert.equal(existsSync(join(dir, 'agents', 'b', 'partial.txt')), false);
  });

  it('appends votes to agents/<voter>/votes.jsonl with their time', async () => {
    const dir = join(base, 'run');
    const log = new RunLog(dir);
    const vote = { voterId: 'b', targetId: 'a', targetLabel: 'agent1.1', reason: 'best', seenRevision: 1 };
    log.record(ev({ type: 'vote_cast', vote }, 250));
    log.record(ev({ type: 'vote_cast', vote: { ...vote, targetLabel: 'agent1.2', seenRevision: 2 } }, 300));
    await log.close();
    const lines = readFileSync(join(dir, 'agents', 'b', 'votes.jsonl'), 'utf8').trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) => JSON.parse(l) as unknown),
      [
        { ...vote, t: 250 },
        { ...vote, targetLabel: 'agent1.2', seenRevision: 2, t: 300 },
      ],
    );
  });

  it('writes the final answer to final/<id>/answer.txt, the path finalAnswerPath names', async () => {
    const dir = join(base, 'run');
    const log = new RunLog(dir);
    log.record(ev({ type: 'final_answer', agentId: 'b', label: 'agent2.1', content: 'THE ANSWER', mode: 'as_is' }));
    await log.close();
    assert.equal(log.finalAnswerPath('b'), join(dir, 'final', 'b', 'answer.txt'));
    assert.equal(readFileSync(log.finalAnswerPath('b'), 'utf8'), 'THE ANSWER');
  });

  it('writes no per-agent files for other events', async () => {
    const dir = join(base, 'run');
    const log = new RunLog(dir);
    log.record(ev({ type: 'turn_started', agentId: 'a', round: 1, boardRevision: 0, voteOnly: false }));
    log.record(ev({ type: 'tool_call', agentId: 'a', callId: 'c1', name: 'vote', arguments: '{}' }));
    await log.close();
    assert.deepEqual(files(dir), ['events.jsonl']);
  });

  it('a hostile agent id cannot write outside the log dir', async () => {
    const dir = join(base, 'deep', 'run');
    const log = new RunLog(dir);
    const evil = '../../evil';
    log.record(ev({ type: 'answer_added', agentId: evil, label: 'agent1.1', version: 1, content: 'x', boardRevision: 1 }));
    log.record(ev({ type: 'vote_cast', vote: { voterId: evil, targetId: 'a', targetLabel: 'agent1.1', reason: '', seenRevision: 1 } }));
    log.record(ev({ type: 'final_answer', agentId: evil, label: 'agent1.1', content: 'x', mode: 'as_is' }));
    log.record(ev({ type: 'final_answer', agentId: '/abs', label: 'agent1.1', content: 'y', mode: 'as_is' }));
    await log.close();
    // Nothing next to the log dir or above it.
    assert.deepEqual(readdirSync(base), ['deep']);
    assert.deepEqual(readdirSync(join(base, 'deep')), ['run']);
    assert.ok(!existsSync(resolve(dir, evil)));
    for (const f of files(dir)) assert.ok(!f.split('/').includes('..'), f);
    assert.ok(resolve(log.finalAnswerPath(evil)).startsWith(dir + sep));
    assert.deepEqual(files(dir), ['agents/__.._evil/agent1.1.txt', 'agents/__.._evil/votes.jsonl', 'events.jsonl', 'final/__.._evil/answer.txt', 'final/_abs/answer.txt']);
  });

  it('close() resolves only after every recorded event is on disk', async () => {
    const dir = join(base, 'run');
    const log = new RunLog(dir);
    const n = 2000;
    const text = 'y'.repeat(200);
    for (let i = 0; i < n; i++) log.record(ev({ type: 'text_delta', agentId: 'a', text }));
    await log.close();
    const lines = readFileSync(join(dir, 'events.jsonl'), 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, n);
    assert.equal((JSON.parse(lines[n - 1]) as { text: string }).text, text);
  });

  it('never throws on a write error: reports the first once, then writes nothing more', async () => {
    const dir = join(base, 'run');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'agents'), '');
    const errors: Error[] = [];
    const log = new RunLog(dir, (err) => errors.push(err));
    log.record(ev({ type: 'answer_added', agentId: 'a', label: 'agent1.1', version: 1, content: 'first', boardRevision: 1 }));
    log.record(ev({ type: 'answer_added', agentId: 'b', label: 'agent2.1', version: 1, content: 'second', boardRevision: 2 }));
    log.record(ev({ type: 'final_answer', agentId: 'b', label: 'agent2.1', content: 'THE ANSWER', mode: 'as_is' }));
    await log.close();
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /ENOTDIR/);
    assert.equal(existsSync(log.finalAnswerPath('b')), false, 'nothing after the first error');
  });

  it('appends to an existing events.jsonl instead of truncating it', async () => {
    const dir = join(base, 'run');
    const first = new RunLog(dir);
    first.record(ev({ type: 'round_started', round: 1, agentIds: [] }));
    await first.close();
    const second = new RunLog(dir);
    second.record(ev({ type: 'round_started', round: 2, agentIds: [] }));
    await second.close();
    assert.equal(readFileSync(join(dir, 'events.jsonl'), 'utf8').trimEnd().split('\n').length, 2);
  });
});

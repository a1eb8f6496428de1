import assert from 'node:assert/strict';
import { fullRun } from '../../../test/webview/scenarios';
import { reduceView, type RunView } from '../../protocol/state';
import { HISTORY_SCHEMA, parseStoredRun, RunHistory, runFileName, toStoredRun, type HistoryFs } from './history';

class MemoryFs implements HistoryFs {
  readonly files = new Map<string, string>();
  async read(name: string) {
    return this.files.get(name);
  }
  async write(name: string, content: string) {
    this.files.set(name, content);
  }
  async remove(name: string) {
    this.files.delete(name);
  }
}

const quiet = { warn: () => undefined };

function withStart(view: RunView, iso: string): RunView {
  const v = structuredClone(view);
  v.state.startedAt = iso;
  return v;
}

describe('vote viewer: past runs', () => {
  let view: RunView;
  before(async () => {
    view = reduceView(await fullRun());
  });

  it('stores a finished run whole when it fits, and reads it back validated', async () => {
    const fs = new MemoryFs();
    const h = new RunHistory(fs, quiet);
    await h.save('run-1', 'Refactor', 'Refactor it', view);
    const back = await h.read('run-1');
    assert.ok(back);
    assert.equal(back.schema, HISTORY_SCHEMA);
    assert.equal(back.truncated, false);
    assert.deepEqual(back.view, JSON.parse(JSON.stringify(view)));
    assert.deepEqual(h.list().map((e) => [e.id, e.title, e.question, e.endReason, e.winnerLabel, e.live]), [['run-1', 'Refactor', 'Refactor it', 'consensus', 'agent2.2', false]]);
    assert.equal(back.task, 'Refactor it', 'the user\'s words are kept, not only the engine\'s task');
    // A new session reads the index from disk.
    const again = new RunHistory(fs, quiet);
    await again.load();
    assert.equal(again.list()[0].id, 'run-1');
  });

  it('shortens a run that is too large, answers first, within the byte limit', () => {
    const big = structuredClone(view);
    for (const a of big.state.answers) a.content = 'x'.repeat(300_000);
    const { record, json } = toStoredRun('r', 't', 'the task', big, new Date(0), 256 * 1024);
    assert.ok(json.length <= 256 * 1024, String(json.length));
    assert.equal(record.truncated, true);
    assert.ok(record.view.state.answers.every((a) => a.content.endsWith('(shortened for storage)')));
    assert.equal(big.state.answers[0].content.length, 300_000, 'the live view is not touched');
    assert.ok(parseStoredRun(json).ok);
  });

  it('keeps the newest runs only, deleting the files of the others', async () => {
    const fs = new MemoryFs();
    const h = new RunHistory(fs, quiet, { maxRuns: 3, maxRunBytes: 1e7 });
    for (let i = 1; i <= 5; i++) await h.save(`run-${i}`, `run ${i}`, `task ${i}`, withStart(view, `2026-01-0${i}T00:00:00.000Z`));
    assert.deepEqual(h.list().map((e) => e.id), ['run-5', 'run-4', 'run-3']);
    assert.deepEqual([...fs.files.keys()].sort(), ['index.json', 'run-run-3.json', 'run-run-4.json', 'run-run-5.json']);
  });

  it('merges with runs another window stored meanwhile', async () => {
    const fs = new MemoryFs();
    const a = new RunHistory(fs, quiet);
    const b = new RunHistory(fs, quiet);
    await a.load();
    await b.load();
    await a.save('run-a', 'a', 'task a', withStart(view, '2026-01-01T00:00:00.000Z'));
    await b.save('run-b', 'b', 'task b', withStart(view, '2026-01-02T00:00:00.000Z'));
    assert.deepEqual(b.list().map((e) => e.id), ['run-b', 'run-a']);
  });

  it('skips files that are not valid runs (unknown schema, bad JSON, wrong shape) and unsafe ids', async () => {
    const fs = new MemoryFs();
    const warnings: string[] = [];
    const h = new RunHistory(fs, { warn: (m) => warnings.push(m) });
    fs.files.set('run-x.json', JSON.stringify({ schema: 99, view: {} }));
    fs.files.set('run-y.json', '{not json');
    fs.files.set('run-z.json', JSON.stringify({ schema: HISTORY_SCHEMA, id: 'z', title: 't', savedAt: '', truncated: false, view: { state: {}, extras: {} } }));
    assert.equal(await h.read('x'), undefined);
    assert.equal(await h.read('y'), undefined);
    assert.equal(await h.read('z'), undefined);
    assert.equal(warnings.length, 3);
    assert.equal(runFileName('../../etc/passwd'), null);
    assert.equal(await h.read('../index'), undefined);
    await assert.rejects(h.save('../evil', 't', 'task', view), /unsafe run id/);
    fs.files.set('index.json', '{"schema": 7}');
    const fresh = new RunHistory(fs, quiet);
    await fresh.load();
    assert.deepEqual(fresh.list(), []);
  });
});

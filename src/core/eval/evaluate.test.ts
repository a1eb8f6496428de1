import assert from 'node:assert/strict';
import { emptyUsage } from '../engine/run-state';
import { SessionSetupError } from '../run/errors';
import type { QaItem } from './dataset';
import { evaluate, majorityIndex, pendingPairs } from './evaluate';
import { RunLimiter } from './limiter';
import { pairKey, type ResultRow } from './results';
import type { RunOnce, RunOutcome } from './session-run';
import { summarize } from './summary';
import type { SystemSpec } from './systems';

const items: QaItem[] = ['q1', 'q2'].map((id, index) => ({ kind: 'qa', id, index, line: index + 1, question: `${id}?`, answers: ['yes'] }));
const systems: SystemSpec[] = [
  { id: 'team', kind: 'team', agents: ['a', 'b'] },
  { id: 'a', kind: 'member', agent: 'a', model: 'm1' },
  { id: 'b', kind: 'member', agent: 'b', model: 'm2' },
];
const outcome = (finalAnswer: string | null, over: Partial<RunOutcome> = {}): RunOutcome => ({ finalAnswer, reason: 'consensus', winnerId: 'a', usage: { ...emptyUsage(), calls: 1, inputTokens: 5, outputTokens: 1 }, seconds: 0.5, ...over });

function run(runOnce: RunOnce, over: { done?: Set<string>; systems?: SystemSpec[]; signal?: AbortSignal; limiter?: RunLimiter } = {}) {
  const rows: ResultRow[] = [];
  const started: string[] = [];
  const result = evaluate({
    items, systems: over.systems ?? systems, done: over.done ?? new Set(), runOnce, limiter: over.limiter ?? new RunLimiter(4, 4), providersOf: () => ['p'],
    signal: over.signal ?? new AbortController().signal, onRow: (r) => rows.push(r), onStart: (i, s) => started.push(`${i.id}/${s.id}`),
    logDirFor: (i, s, sample) => `/out/runs/${i.id}/${s.id}${sample ? `/sample-${sample}` : ''}`, displayPath: (p) => p.replace('/out/', ''),
  });
  return { result, rows, started };
}

describe('eval loop', () => {
  it('runs every missing pair, item by item, and scores each row as it finishes', async () => {
    const seen: string[] = [];
    const { result, rows } = run(async (item, who, { logDir }) => {
      seen.push(`${item.id}/${'team' in who ? 'team' : who.agent}@${logDir}`);
      return outcome('team' in who || who.agent === 'a' ? 'Answer: yes' : 'Answer: no', { logDir, usage: { ...emptyUsage(), calls: 2, unpricedCalls: 1, costUsd: 0.5, inputTokens: 5, outputTokens: 1 } });
    }, { done: new Set([pairKey('q1', 'b')]) });
    assert.deepEqual(await result, { rows, unfinished: 0 });
    assert.deepEqual(seen, ['q1/team@/out/runs/q1/team', 'q1/a@/out/runs/q1/a', 'q2/team@/out/runs/q2/team', 'q2/a@/out/runs/q2/a', 'q2/b@/out/runs/q2/b']);
    const q2b = rows.find((r) => r.item === 'q2' && r.system === 'b')!;
    assert.deepEqual(q2b, {
      item: 'q2', index: 1, kind: 'qa', system: 'b', system_kind: 'member', answer: 'Answer: no', extracted: 'no', key: 'no', correct: false, expected: 'yes',
      calls: 2, input_tokens: 5, output_tokens: 1, tokens: 6, cost_usd: 0.5, cost_partial: true, seconds: 0.5, end_reason: 'consensus', log_dir: 'runs/q2/b',
    });
    assert.deepEqual([rows[0].winner, rows[0].votes], ['a', {}], 'team rows name the winner');
    assert.equal(rows.filter((r) => r.correct).length, 4);
  });

  it('team-escalating: the team run in its stages; each row says which stages it called; the summary has the front', async () => {
    const stepped: SystemSpec = { id: 'team-escalating', kind: 'team-escalating', agents: ['a', 'b'], stages: [['a'], ['b']], minAgreeing: 1 };
    const whos: string[] = [];
    const priced = (costUsd: number) => ({ ...emptyUsage(), calls: 1, inputTokens: 5, outputTokens: 1, costUsd });
    const { result, rows } = run(async (item, who) => {
      whos.push(JSON.stringify(who));
      if ('agent' in who) return outcome(who.agent === 'a' && item.id === 'q1' ? 'Answer: yes' : 'Answer: no', { usage: priced(0.01) });
      if (!who.escalation) return outcome('Answer: yes', { usage: priced(0.1) });
      // q2 is the hard one: stage 1 disagrees and stage 2 is called.
      return item.id === 'q1' ? outcome('Answer: yes', { usage: priced(0.01), escalation: { stagesCalled: 1, reasons: [] } }) : outcome('Answer: yes', { usage: priced(0.08), escalation: { stagesCalled: 2, reasons: ['disagreement'] } });
    }, { systems: [systems[0], stepped, ...systems.slice(1)] });
    await result;
    assert.ok(whos.includes(JSON.stringify({ team: true })), 'team: no stages');
    assert.ok(whos.includes(JSON.stringify({ team: true, escalation: { stages: [['a'], ['b']], minAgreeing: 1 } })));
    const byItem = (id: string) => rows.find((r) => r.item === id && r.system === 'team-escalating')!;
    assert.deepEqual([byItem('q1').escalation, byItem('q2').escalation], [{ stages_called: 1, reasons: [] }, { stages_called: 2, reasons: ['disagreement'] }]);
    assert.equal(rows.find((r) => r.system === 'team')!.escalation, undefined);
    const s = summarize({ systems: [systems[0], stepped, ...systems.slice(1)], rows, items: 2 });
    assert.deepEqual(s.systems['team-escalating'].escalation, { items: 2, escalated: 1, share: 0.5, stages_called: [2, 1], reasons: { disagreement: 1 } });
    assert.deepEqual([s.pareto_front, s.pareto_unknown_cost], [['a', 'team-escalating'], []], 'team: as accurate as team-escalating at more cost');
  });

  it('pendingPairs skips what is done', () => {
    assert.deepEqual(pendingPairs(items, systems, new Set([pairKey('q1', 'team'), pairKey('q2', 'a')])).map((p) => `${p.item.id}/${p.system.id}`), ['q1/a', 'q1/b', 'q2/team', 'q2/b']);
  });

  it('errors are rows (re-run on --resume); an unpriced run has an unknown cost', async () => {
    const { result, rows } = run(async () => outcome(null, { error: 'server down', reason: 'all_failed', usage: { ...emptyUsage(), calls: 1, unpricedCalls: 1 } }), { systems: systems.slice(1, 2) });
    await result;
    assert.deepEqual(rows.map((r) => [r.error, r.correct, r.cost_usd, r.cost_partial]), [['server down', false, null, false], ['server down', false, null, false]]);
  });

  it('cancel: runs going and waiting stop; finished rows stay; nothing is counted for the cut ones', async () => {
    const ac = new AbortController();
    const { result, rows } = run(
      (item, _who, { signal }) =>
        item.id === 'q1' ? Promise.resolve(outcome('Answer: yes')) : new Promise((resolve) => signal.addEventListener('abort', () => resolve('cancelled'))),
      { signal: ac.signal, limiter: new RunLimiter(1, 1) },
    );
    await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    const r = await result;
    assert.deepEqual(rows.map((x) => `${x.item}/${x.system}`), ['q1/team', 'q1/a', 'q1/b']);
    assert.equal(r.unfinished, 3);
  });

  it('a configuration error from a run stops the eval and is thrown', async () => {
    let calls = 0;
    const { result } = run(async () => {
      calls++;
      throw new SessionSetupError('config', 'backend cannot be built');
    }, { limiter: new RunLimiter(1, 1) });
    await assert.rejects(result, /backend cannot be built/);
    assert.equal(calls, 1, 'the other runs were not started');
  });

  it('self-consistency: N samples of one agent, the majority answer, usage summed', async () => {
    const answers = ['Answer: no', 'Answer: yes', 'Answer: YES.'];
    let n = 0;
    const sc: SystemSpec = { id: 'self-consistency', kind: 'self-consistency', agent: 'a', model: 'm1', samples: 3 };
    const { result, rows, started } = run(async (_item, who, { logDir }) => {
      assert.deepEqual(who, { agent: 'a' });
      return outcome(answers[n++ % 3], { seconds: n, logDir });
    }, { systems: [sc], limiter: new RunLimiter(1, 1) });
    await result;
    assert.deepEqual(started, ['q1/self-consistency', 'q2/self-consistency'], 'one start per pair');
    const q1 = rows.find((r) => r.item === 'q1')!;
    assert.deepEqual([q1.correct, q1.answer, q1.calls, q1.tokens, q1.seconds, q1.log_dir], [true, 'Answer: yes', 3, 18, 3, 'runs/q1/self-consistency/sample-2']);
    assert.deepEqual(q1.samples, [{ key: 'no', correct: false }, { key: 'yes', correct: true }, { key: 'yes', correct: true }]);
  });

  it('majorityIndex: the most common key, ties to the earliest, nulls do not vote', () => {
    assert.equal(majorityIndex(['a', 'b', 'b']), 1);
    assert.equal(majorityIndex(['a', 'b']), 0);
    assert.equal(majorityIndex([null, 'x', null]), 1);
    assert.equal(majorityIndex([null, null]), -1);
  });
});

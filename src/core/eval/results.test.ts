import assert from 'node:assert/strict';
import { finishedPairs, latestRows, mergeRows, pairKey, parseResults, type ResultRow } from './results';

export function row(item: string, system: string, over: Partial<ResultRow> = {}): ResultRow {
  return {
    item, index: Number(item.replace(/\D/g, '')) || 0, kind: 'qa', system, system_kind: system === 'team' ? 'team' : 'member', answer: 'x', extracted: 'x', key: 'x',
    correct: false, expected: 'y', calls: 1, input_tokens: 10, output_tokens: 2, tokens: 12, cost_usd: null, cost_partial: false, seconds: 1, end_reason: 'consensus', ...over,
  };
}

describe('eval results', () => {
  it('parses rows, skipping lines that cannot be read (a line cut by a crash)', () => {
    const text = `${JSON.stringify(row('q1', 'team'))}\n\n{"item": "q2", "sys\n${JSON.stringify({ hello: 1 })}\n`;
    const { rows, skipped } = parseResults(text);
    assert.equal(rows.length, 1);
    assert.deepEqual(skipped.map((s) => s.line), [3, 4]);
  });

  it('the last row of a pair stands; errors are not finished, so --resume runs them again', () => {
    const rows = [row('q1', 'team', { error: 'down' }), row('q1', 'a'), row('q1', 'team', { correct: true })];
    assert.equal(latestRows(rows).get(pairKey('q1', 'team'))!.correct, true);
    assert.deepEqual([...finishedPairs(rows)].sort(), [pairKey('q1', 'a'), pairKey('q1', 'team')].sort());
    assert.deepEqual([...finishedPairs([row('q2', 'a', { error: 'x' })])], []);
  });

  it('merges shards in dataset order, each pair once, a result beating an error', () => {
    const { rows, conflicts } = mergeRows([
      { dir: 's1', rows: [row('q3', 'team'), row('q1', 'team'), row('q2', 'a', { error: 'x' })] },
      { dir: 's2', rows: [row('q2', 'team'), row('q2', 'a', { correct: true })] },
    ]);
    assert.deepEqual(rows.map((r) => `${r.item}/${r.system}`), ['q1/team', 'q2/a', 'q2/team', 'q3/team']);
    assert.equal(rows.find((r) => r.item === 'q2' && r.system === 'a')!.correct, true);
    assert.deepEqual(conflicts, [{ item: 'q2', system: 'a', dirs: ['s1', 's2'] }]);
  });
});

import assert from 'node:assert/strict';
import { row } from './results.test';
import { summarize, wilson } from './summary';
import type { SystemSpec } from './systems';

const systems: SystemSpec[] = [
  { id: 'team', kind: 'team', agents: ['a', 'b'] },
  { id: 'a', kind: 'member', agent: 'a', model: 'm1' },
  { id: 'b', kind: 'member', agent: 'b', model: 'm2' },
];

describe('eval summary', () => {
  it('Wilson intervals: known values, bounded, none for n = 0', () => {
    assert.deepEqual(wilson(3, 3), [0.4385, 1]);
    assert.deepEqual(wilson(1, 3), [0.0615, 0.7923]);
    assert.deepEqual(wilson(0, 10), [0, 0.2775]);
    assert.deepEqual(wilson(50, 100), [0.4038, 0.5962]);
    assert.equal(wilson(0, 0), null);
  });

  it('accuracy, cost and usage per system; the oracle; the team against its best member', () => {
    const rows = [
      row('q1', 'team', { correct: true, key: 'p', calls: 4, tokens: 100, cost_usd: 0.04, seconds: 2 }),
      row('q1', 'a', { correct: true, key: 'p', cost_usd: 0.01 }),
      row('q1', 'b', { correct: false, key: 'l', cost_usd: 0.02 }),
      row('q2', 'team', { correct: true, key: 'b', calls: 4, tokens: 100, cost_usd: 0.04, seconds: 3 }),
      row('q2', 'a', { correct: false, key: 'a', cost_usd: 0.01 }),
      row('q2', 'b', { correct: true, key: 'b', cost_usd: 0.02 }),
      row('q3', 'team', { correct: false, key: 'z', calls: 4, tokens: 100, cost_usd: 0.04, seconds: 1 }),
      row('q3', 'a', { correct: false, key: 'z', cost_usd: 0.01 }),
      row('q3', 'b', { correct: false, key: 'z', cost_usd: 0.02 }),
    ];
    const s = summarize({ systems, rows, items: 3 });
    assert.deepEqual(s.systems.team, { kind: 'team', correct: 2, n: 3, accuracy: 0.6667, ci95: wilson(2, 3), cost_usd: 0.12, cost_partial: false, tokens: 300, input_tokens: 30, output_tokens: 6, calls: 12, seconds: 6, errors: 0 });
    assert.deepEqual([s.systems.a.correct, s.systems.a.accuracy, s.systems.a.model], [1, 0.3333, 'm1']);
    assert.deepEqual(s.oracle, { correct: 2, n: 3, accuracy: 0.6667, ci95: wilson(2, 3) });
    assert.equal(s.best_member, 'a', 'tie on accuracy: the cheaper');
    assert.deepEqual(s.team_vs_best_member, { member: 'a', items: 3, team_only: 1, member_only: 0, accuracy_delta: 0.3333, cost_ratio: 4, cost_basis: 'cost_usd' });
    assert.deepEqual(s.agreement, { items: 3, mean: 0.6667, unanimous: 1, members_right: [1, 2, 0] });
    assert.deepEqual([s.pairs, s.complete], [{ expected: 9, done: 9 }, true]);
  });

  it('unknown prices: cost null, tokens the basis; partial pricing is flagged', () => {
    const s = summarize({ systems, rows: [row('q1', 'team', { tokens: 60 }), row('q1', 'a', { tokens: 10 }), row('q1', 'b', { cost_usd: 0.5, cost_partial: true })], items: 1 });
    assert.equal(s.systems.team.cost_usd, null);
    assert.equal(s.systems.team.cost_partial, false);
    assert.deepEqual([s.systems.b.cost_usd, s.systems.b.cost_partial], [0.5, true]);
    assert.deepEqual([s.team_vs_best_member!.cost_basis, s.team_vs_best_member!.cost_ratio], ['tokens', 6]);
  });

  it('partial results: counts what is done, the oracle only over items every member answered, errors counted', () => {
    const s = summarize({ systems, rows: [row('q1', 'team', { correct: true }), row('q1', 'a', { correct: true }), row('q2', 'a', { error: 'down' })], items: 4 });
    assert.deepEqual([s.systems.team.n, s.systems.a.n, s.systems.a.errors, s.systems.b.n, s.systems.b.accuracy], [1, 2, 1, 0, null]);
    assert.deepEqual(s.oracle, { correct: 0, n: 0, accuracy: null, ci95: null });
    assert.deepEqual([s.pairs, s.complete], [{ expected: 12, done: 3 }, false]);
  });

  it('team-escalating: the share escalated and the items per stage, over the runs that recorded their stages', () => {
    const stepped: SystemSpec = { id: 'team-escalating', kind: 'team-escalating', agents: ['a', 'b', 'c'], stages: [['a'], ['b'], ['c']], minAgreeing: 1 };
    const s = summarize({ systems: [stepped], items: 4, rows: [
      row('q1', 'team-escalating', { escalation: { stages_called: 1, reasons: [] } }),
      row('q2', 'team-escalating', { escalation: { stages_called: 3, reasons: ['disagreement', 'failing_check'] } }),
      row('q3', 'team-escalating', { escalation: { stages_called: 2, reasons: ['disagreement'] } }),
      row('q4', 'team-escalating', { error: 'could not start' }),
    ] });
    assert.deepEqual(s.systems['team-escalating'].escalation, { items: 3, escalated: 2, share: 0.6667, stages_called: [3, 2, 1], reasons: { disagreement: 2, failing_check: 1 } });
    assert.equal(s.systems['team-escalating'].model, undefined);
    assert.equal(summarize({ systems, rows: [], items: 1 }).systems.team.escalation, undefined, 'only the escalating team has it');
  });

  it('the Pareto front on mean dollars per item; partly priced and unpriced systems are left out and named', () => {
    const s = summarize({ systems, items: 2, rows: [
      row('q1', 'team', { correct: true, cost_usd: 0.3 }), row('q2', 'team', { correct: true, cost_usd: 0.3 }),
      row('q1', 'a', { correct: true, cost_usd: 0.1, cost_partial: true }), row('q2', 'a', { correct: true, cost_usd: 0.1 }),
      row('q1', 'b', { correct: true }), row('q2', 'b', { correct: false }),
    ] });
    assert.deepEqual([s.pareto_front, s.pareto_unknown_cost], [['team'], ['a', 'b']]);
    assert.deepEqual([summarize({ systems, rows: [], items: 1 }).pareto_front, summarize({ systems, rows: [], items: 1 }).pareto_unknown_cost], [[], []], 'systems without results are not points');
  });

  it('no results at all', () => {
    const s = summarize({ systems, rows: [], items: 2 });
    assert.equal(s.best_member, null);
    assert.equal(s.team_vs_best_member, null);
    assert.equal(s.agreement.mean, null);
  });
});

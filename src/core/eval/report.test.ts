import assert from 'node:assert/strict';
import { esc } from './html';
import { headline, renderReport } from './report';
import { accuracyVsCost, costReading } from './report-charts';
import { row } from './results.test';
import { summarize } from './summary';
import { summaryTable } from './summary-table';
import type { SystemSpec } from './systems';

const systems: SystemSpec[] = [
  { id: 'team', kind: 'team', agents: ['a', 'b'] },
  { id: 'a', kind: 'member', agent: 'a', model: 'm1' },
  { id: 'b', kind: 'member', agent: 'b', model: 'm2<b>' },
];
const HOSTILE = '"><script src="https://evil.example/x.js"></script><img src=x onerror=alert(1)> \' & <svg onload=alert(2)>';
const rows = [
  row('q1', 'team', { correct: true, answer: 'Answer: Paris', extracted: 'Paris' }),
  row('q1', 'a', { correct: true, answer: 'Answer: Paris', extracted: 'Paris' }),
  row('q1', 'b', { correct: false, answer: HOSTILE, extracted: HOSTILE }),
  row('q2', 'team', { correct: true }),
  row('q2', 'a', { correct: false, error: `<b>${HOSTILE}</b>` }),
  row('q2', 'b', { correct: true }),
  row('<q3 onclick=x>', 'team', { index: 3, correct: false }),
];
const render = () => renderReport({ title: 'Eval <of> "things"', summary: summarize({ systems, rows, items: 4 }), systems, rows, facts: [{ label: 'dataset', value: '/data/<x>.jsonl' }] });

describe('eval report', () => {
  it('escapes every model- and dataset-written string', () => {
    const html = render();
    for (const raw of [HOSTILE, '<q3 onclick=x>', 'm2<b>', '<of>', '/data/<x>.jsonl']) assert.ok(!html.includes(raw), `raw ${raw} is not in the page`);
    assert.ok(html.includes(esc(HOSTILE).slice(0, 40)), 'shown escaped');
    assert.ok(html.includes('&lt;q3 onclick=x&gt;'));
    // Every attribute value is quoted and escaped, so a tag parse is exact: no element or attribute came from the text.
    const tags = [...html.matchAll(/<([a-zA-Z][\w:-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/g)];
    assert.ok(tags.length > 100);
    for (const [, name, attrs] of tags) {
      assert.ok(!['script', 'img', 'iframe'].includes(name.toLowerCase()), name);
      for (const [, attr] of attrs.matchAll(/([\w:-]+)(?:="[^"]*")?/g)) assert.doesNotMatch(attr, /^(on|src$|href$)/i, `<${name} ${attr}>`);
    }
    assert.equal(html.replace(/<[^>]*>/g, '').match(/[<>]/g), null, 'no stray angle bracket outside tags');
  });

  it('loads nothing: no script, stylesheet link, image, font or remote URL; a CSP forbids it anyway', () => {
    const html = render();
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">/);
    assert.doesNotMatch(html, /<(script|link|iframe|object|embed|base)\b/i);
    assert.doesNotMatch(html, /\b(src|href)="/i);
    assert.doesNotMatch(html, /url\(|@import|https?:\/\/(?!evil\.example)/i);
    assert.equal((html.match(/<svg /g) ?? []).length, 4, 'accuracy bars, accuracy vs cost, agreement, the item grid');
  });

  it('says at a glance whether the team beat its best member', () => {
    const s = summarize({ systems, rows, items: 4 });
    assert.equal(headline(s), 'The team beats its best member: <b>66.7%</b> (2/3) against <b>a</b> 50.0% (1/2) at 1.0× its tokens per item. Oracle (some member alone right): 100.0% (2/2). On the 2 item(s) both answered, the team alone was right on 1, a alone on 0.');
    assert.match(render(), /Partial: 7 of 12 item × system runs are done/);
  });

  it('the terminal table', () => {
    const table = summaryTable(summarize({ systems, rows, items: 4 }), systems);
    assert.equal(table.split('\n')[0], 'system                     right  accuracy        95% CI     cost  tokens  calls  seconds');
    assert.match(table, /^team\s+2\/3\s+66\.7%\s+20\.8%–93\.8%\s+unknown\s+36\s+3\s+3\.0$/m);
    assert.match(table, /^oracle \(any member right\)\s+2\/2\s+100\.0%/m);
    assert.match(table, /^team vs best member \(a\): \+16\.7 points; team alone right on 1, a alone on 0 of 2 item\(s\); 1\.0× the tokens per item$/m);
    assert.match(table, /^partial: 7 of 12 item × system runs done$/m);
  });

  describe('accuracy against cost, with the Pareto front', () => {
    const staged: SystemSpec[] = [
      { id: 'team', kind: 'team', agents: ['a', 'b', 'strong'] },
      { id: 'team-escalating', kind: 'team-escalating', agents: ['a', 'b', 'strong'], stages: [['a', 'b'], ['strong']], minAgreeing: 1 },
      { id: 'a', kind: 'member', agent: 'a', model: 'cheap' },
      { id: 'b', kind: 'member', agent: 'b', model: 'cheap' },
    ];
    // 20 items: the team right on all at $0.10 each; escalating right on 19, stage 2 on 7 ($0.07) and not on 13 ($0.01).
    const staggered = Array.from({ length: 20 }, (_, i) => `q${i + 1}`).flatMap((id, i) => [
      row(id, 'team', { correct: true, cost_usd: 0.1 }),
      row(id, 'team-escalating', { system_kind: 'team-escalating', correct: i !== 0, cost_usd: i < 7 ? 0.07 : 0.01, escalation: i < 7 ? { stages_called: 2, reasons: ['disagreement'] } : { stages_called: 1, reasons: [] } }),
      row(id, 'a', { correct: i % 2 === 0, cost_usd: 0.01 }),
      row(id, 'b', { correct: i < 12, cost_usd: 0.05 }),
    ]);
    const summary = summarize({ systems: staged, rows: staggered, items: 20 });

    it('summary: the front, and how often the escalating team escalated', () => {
      assert.deepEqual(summary.pareto_front, ['a', 'team-escalating', 'team']);
      assert.deepEqual(summary.systems['team-escalating'].escalation, { items: 20, escalated: 7, share: 0.35, stages_called: [20, 7], reasons: { disagreement: 7 } });
    });

    it('every system a labelled point; the front ringed and joined by a step line; the reading under it', () => {
      const chart = accuracyVsCost(summary, staged);
      assert.equal((chart.match(/<svg /g) ?? []).length, 1);
      assert.equal((chart.match(/class="system-point"/g) ?? []).length, 4);
      for (const id of ['team', 'team-escalating', 'a', 'b']) assert.match(chart, new RegExp(`<text [^>]*>${id}</text>`), `${id} is labelled`);
      const rings = [...chart.matchAll(/<circle class="pareto-point"[^>]*><title>([^<]*): on the Pareto front<\/title>/g)].map((m) => m[1]);
      assert.deepEqual(rings, ['a', 'team-escalating', 'team']);
      assert.match(chart, /<path class="pareto-front" d="M[\d.]+ [\d.]+H[\d.]+V[\d.]+H[\d.]+V[\d.]+"/, 'a step per point after the first');
      assert.match(chart, /the Pareto front \(a → team-escalating → team\)/);
      assert.match(chart, /<p class="reading">team-escalating keeps 0\.95 of team&#39;s accuracy at 0\.31× its cost per item, calling a later stage on 7 of 20 item\(s\)\.<\/p>/);
      const page = renderReport({ title: 't', summary, systems: staged, rows: staggered, facts: [] });
      assert.match(page, /<b>team-escalating<\/b> <span class="note">a, b → strong; a later stage on 7 of 20 \(35\.0%\)<\/span>/);
    });

    it('the reading without an escalating team names the front; unknown costs are said and left out of the front', () => {
      const flat = [staged[0], ...staged.slice(2)];
      assert.deepEqual(summarize({ systems: flat, rows: staggered, items: 20 }).pareto_front, ['a', 'b', 'team']);
      assert.equal(costReading(summarize({ systems: flat, rows: staggered, items: 20 }), ['a', 'b', 'team']), 'On the Pareto front, where no other system is as accurate for less or more accurate for no more: a, b, team.');
      assert.equal(costReading(summarize({ systems, rows, items: 4 }), []), 'No system has a known cost, so there is no Pareto front.');
      const partly = summarize({ systems: staged.slice(2), rows: [row('q1', 'a', { correct: true }), row('q1', 'b', { cost_usd: 0.02 })], items: 1 });
      assert.deepEqual([partly.pareto_front, partly.pareto_unknown_cost], [['b'], ['a']]);
      assert.match(accuracyVsCost(partly, staged.slice(2)), /Cost unknown for a \(no price for some model: set backend\.pricing\), so the front is drawn on tokens; summary\.json&#39;s pareto_front leaves it out\./);
      assert.match(summaryTable(summary, staged), /^team-escalating called a later stage on 7 of 20 item\(s\) \(35\.0%\)\nPareto front \(accuracy against cost per item\): a, team-escalating, team$/m);
    });
  });
});

import assert from 'node:assert/strict';
import { esc } from './html';
import { headline, renderReport } from './report';
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
});

import assert from 'node:assert/strict';
import { row } from '../../core/eval/results.test';
import { EvalProgress } from './progress-bar';

function out(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, columns: 100, write: (t: string) => written.push(t) } };
}

describe('eval progress', () => {
  it('without a terminal: one plain line per finished pair', () => {
    const o = out(false);
    const p = new EvalProgress(o.stream, 2, 3);
    p.runStarted();
    p.finished(row('q1', 'team', { correct: true, calls: 6, tokens: 720, cost_usd: 0.0021, seconds: 1.25 }));
    p.finished(row('q1', 'a', { error: 'every agent failed:\n  a: unreachable' }));
    p.say('warning: x');
    p.stop();
    assert.deepEqual(o.written, [
      '[4/5] q1 · team: right · 6 call(s) · 720 tokens · $0.0021 · 1.3s\n',
      '[5/5] q1 · a: error: every agent failed: a: unreachable · 1 call(s) · 12 tokens · 1.0s\n',
      'warning: x\n',
    ]);
  });

  it('on a terminal: a bar redrawn in place, warnings above it, cleared at the end', () => {
    const o = out(true);
    let now = 0;
    const p = new EvalProgress(o.stream, 4, 0, () => now);
    p.runStarted();
    now = 10_000;
    p.finished(row('q1', 'team', { correct: true, cost_usd: 0.5 }));
    const bar = o.written.at(-1)!;
    assert.equal(bar, `\r\x1b[2Keval [${'█'.repeat(8)}${'░'.repeat(22)}] 1/4 · team 1/1 right · 0 running · $0.50 · 0:10 · ~0:30 left`);
    p.say('warning: y');
    assert.deepEqual(o.written.slice(-3, -1), ['\r\x1b[2K', 'warning: y\n']);
    p.stop();
    assert.equal(o.written.at(-1), '\r\x1b[2K');
  });

  it('the bar fits narrow terminals', () => {
    const p = new EvalProgress({ isTTY: false, write: () => undefined }, 10, 0, () => 0);
    assert.ok(p.barText(40).length <= 39);
    assert.match(p.barText(120), /^eval \[░{30}\] 0\/10 · 0 running · 0:00$/);
  });
});

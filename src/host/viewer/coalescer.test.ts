import assert from 'node:assert/strict';
import type { RunEvent, RunEventBody } from '../../core/engine/events';
import { STREAM_TAIL_CHARS } from '../../core/engine/run-state';
import { reduceView, emptyView } from '../../protocol/state';
import { applyDelta } from '../../protocol/sync';
import { hostMessage } from '../../protocol/messages';
import { fullRun, renumber } from '../../../test/webview/scenarios';
import { EventCoalescer, type Batch } from './coalescer';

/** A clock and timer queue under test control. */
class FakeTimers {
  now = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private next = 1;
  set = (fn: () => void, ms: number) => {
    const id = this.next++;
    this.timers.push({ at: this.now + ms, fn, id });
    return id;
  };
  clear = (handle: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== handle);
  };
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const t = this.timers[0];
      if (!t || t.at > end) break;
      this.timers.shift();
      this.now = t.at;
      t.fn();
    }
    this.now = end;
  }
}

const ev = (seq: number, body: RunEventBody, t = seq * 10): RunEvent => ({ ...body, seq, t }) as RunEvent;
const text = (agentId: string, s: string): RunEventBody => ({ type: 'text_delta', agentId, text: s });

function setup(options: { maxAgentChars?: number; intervalMs?: number } = {}) {
  const timers = new FakeTimers();
  const batches: Batch[] = [];
  const c = new EventCoalescer((b) => batches.push(b), { ...options, setTimer: timers.set, clearTimer: timers.clear });
  return { timers, batches, c };
}

/** Folds batches the way the webview does: applyDelta per batch. */
function foldBatches(batches: Batch[], startSeq = 0) {
  const view = emptyView();
  let last = startSeq;
  for (const b of batches) {
    assert.equal(b.from, last + 1, 'batches are contiguous');
    applyDelta(view, hostMessage({ type: 'delta', runId: 'r', from: b.from, to: b.to, clock: 0, events: b.events }));
    last = b.to;
  }
  return view;
}

describe('vote viewer: event coalescer', () => {
  it('holds events for the interval, then sends them as one batch covering their seq range', () => {
    const { timers, batches, c } = setup();
    c.push(ev(1, text('a', 'he')));
    c.push(ev(2, text('a', 'llo')));
    c.push(ev(3, text('b', 'x')));
    timers.advance(49);
    assert.equal(batches.length, 0);
    timers.advance(1);
    assert.equal(batches.length, 1);
    assert.deepEqual(
      batches[0].events.map((e) => [e.type, e.seq, 'text' in e ? e.text : '']),
      [
        ['text_delta', 2, 'hello'],
        ['text_delta', 3, 'x'],
      ],
    );
    assert.equal(batches[0].from, 1);
    assert.equal(batches[0].to, 3);
  });

  it('does not merge an agent’s text across another event about the same agent', () => {
    const { timers, batches, c } = setup();
    c.push(ev(1, text('a', 'one ')));
    c.push(ev(2, { type: 'turn_started', agentId: 'a', round: 2, boardRevision: 1, voteOnly: false }));
    c.push(ev(3, text('a', 'two')));
    c.push(ev(4, text('b', 'b1')));
    c.push(ev(5, { type: 'vote_cast', vote: { voterId: 'b', targetId: 'a', targetLabel: 'agent1.1', reason: 'r', seenRevision: 1 } }));
    c.push(ev(6, text('b', 'b2')));
    timers.advance(50);
    assert.deepEqual(
      batches[0].events.map((e) => (e.type === 'text_delta' ? `${e.agentId}:${e.text}` : e.type)),
      ['a:one ', 'turn_started', 'a:two', 'b:b1', 'vote_cast', 'b:b2'],
    );
  });

  it('merges across other agents’ events, but not across run-level ones', () => {
    const { timers, batches, c } = setup();
    c.push(ev(1, text('a', '1')));
    c.push(ev(2, { type: 'usage', agentId: 'b', usage: { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1 }, costUsd: null, phase: 'coordination' }));
    c.push(ev(3, text('a', '2')));
    c.push(ev(4, { type: 'round_started', round: 2, agentIds: ['a'] }));
    c.push(ev(5, text('a', '3')));
    timers.advance(50);
    assert.deepEqual(
      batches[0].events.map((e) => (e.type === 'text_delta' ? `${e.text}@${e.seq}` : e.type)),
      ['12@3', 'usage', 'round_started', '3@5'],
    );
  });

  it('sends at once when an agent has 2 KB of new text, and when the run ends', () => {
    const { timers, batches, c } = setup();
    c.push(ev(1, text('a', 'x'.repeat(1500))));
    assert.equal(batches.length, 0);
    c.push(ev(2, text('a', 'y'.repeat(600))));
    assert.equal(batches.length, 1, '2 KB reached');
    c.push(ev(3, text('b', 'z')));
    c.push(ev(4, { type: 'run_ended', reason: 'consensus', winnerId: null, durationMs: 40 }));
    assert.equal(batches.length, 2, 'run_ended flushes');
    timers.advance(100);
    assert.equal(batches.length, 2, 'no empty batch');
  });

  it('clips merged text to the stream tail the state keeps', () => {
    const { batches, c } = setup({ maxAgentChars: 1e9 });
    for (let i = 0; i < 10; i++) c.push(ev(i + 1, text('a', String(i).repeat(1000))));
    c.flush();
    const merged = batches[0].events[0];
    assert.ok(merged.type === 'text_delta');
    assert.equal(merged.text.length, STREAM_TAIL_CHARS);
    assert.ok(merged.text.endsWith('9'.repeat(1000)));
  });

  it('drop() forgets the buffer and its timer', () => {
    const { timers, batches, c } = setup();
    c.push(ev(1, text('a', 'x')));
    c.drop();
    timers.advance(1000);
    assert.equal(batches.length, 0);
    c.push(ev(2, text('a', 'y')));
    c.flush();
    assert.equal(batches[0].from, 2);
  });

  it('folding the batches gives exactly the state folding the raw events gives (a real run + interleaved streams)', async () => {
    const raw = await fullRun();
    // Interleave many small text and reasoning deltas of every agent between the engine's events.
    const agents = (raw[0] as Extract<RunEvent, { type: 'run_started' }>).agents.map((a) => a.id);
    const mixed: RunEvent[] = [];
    let n = 0;
    for (const e of raw) {
      mixed.push(e);
      if (e.type === 'run_started' || e.type === 'run_ended') continue;
      for (const a of agents) {
        n++;
        if (n % 3 === 0) mixed.push({ ...e, type: 'reasoning_delta', agentId: a, text: `r${n} ` } as RunEvent);
        mixed.push({ ...e, type: 'text_delta', agentId: a, text: n % 7 === 0 ? `\n\n## part ${n}\n` : `tok${n} ` } as RunEvent);
      }
    }
    const events = renumber(mixed);
    const expected = reduceView(events);
    for (const [interval, maxChars] of [
      [50, 2048],
      [1, 16],
      [1e9, 1e9],
    ]) {
      const { timers, batches, c } = setup({ intervalMs: interval, maxAgentChars: maxChars });
      for (const e of events) {
        c.push(e);
        timers.advance(3);
      }
      c.flush();
      const sent = batches.reduce((k, b) => k + b.events.length, 0);
      if (interval === 50) assert.ok(sent < events.length * 0.8, `merged (${sent} of ${events.length} events sent, in ${batches.length} batches)`);
      const folded = foldBatches(batches);
      assert.deepEqual(folded.state, expected.state, `state differs (interval ${interval}, max ${maxChars})`);
      assert.deepEqual(folded.extras, expected.extras, `extras differ (interval ${interval}, max ${maxChars})`);
    }
  });
});

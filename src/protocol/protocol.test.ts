import assert from 'node:assert/strict';
import type { RunEvent } from '../core/engine/events';
import { fullRun } from '../../test/webview/scenarios';
import { failureInWords, NO_TOOL_CALLS, runErrorInWords } from './failure-words';
import { safeExternalLink } from './links';
import { hostMessage, MAX_PATCH_CHARS, parseHostMessage, parseWebviewMessage, PROTOCOL_VERSION } from './messages';
import { applyExtras, emptyExtras, MAX_TIMELINE, MAX_TOOL_ROWS, reduceView, summarizeArgs, TIMELINE_HEAD } from './state';
import { applyDelta, DeltaCursor } from './sync';

describe('vote viewer protocol: messages', () => {
  it('accepts a snapshot of a real run and every event of it, and round-trips them unchanged', async () => {
    const events = await fullRun();
    const view = reduceView(events);
    const snapshot = hostMessage({
      type: 'snapshot',
      run: { id: 'r1', title: 'T', task: 'Refactor it', readOnly: false, running: false, clock: 1, view, apply: { kind: 'selection', status: 'ready', target: 'src/config.ts' } },
      follow: true,
      history: [],
      setup: { source: 'settings', from: 'massgen.agents in your User settings', agents: [{ id: 'gpt', provider: 'openai', model: 'gpt-4.1-mini' }], problem: { text: 'Agent gpt needs OPENAI_API_KEY.', fix: 'setApiKey', envVar: 'OPENAI_API_KEY' }, chatModel: false },
      pending: { id: 'pending-1', title: 'Add tests (app)', command: 'npm test', why: 'package.json\'s test script (“jest”)', answered: false },
    });
    const wire = JSON.parse(JSON.stringify(snapshot));
    const parsed = parseHostMessage(wire);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.deepEqual(parsed.message, wire);
    const delta = hostMessage({ type: 'delta', runId: 'r1', from: 1, to: events.length, clock: 5, events });
    const d = parseHostMessage(delta);
    assert.ok(d.ok, d.ok ? '' : d.error);
    assert.deepEqual(d.message, delta);
  });

  it('rejects wrong versions, unknown types, wrong shapes, and says which field', () => {
    for (const bad of [
      null,
      'snapshot',
      { v: 2, type: 'history', runs: [] },
      { v: PROTOCOL_VERSION, type: 'explode' },
      { v: PROTOCOL_VERSION, type: 'delta', runId: 'r', from: 1, to: 2, clock: 0, events: [{ type: 'text_delta', seq: 1, t: 0, agentId: 'a' }] },
    ]) {
      const r = parseHostMessage(bad);
      assert.equal(r.ok, false, JSON.stringify(bad));
    }
    const r = parseHostMessage({ v: PROTOCOL_VERSION, type: 'delta', runId: 'r', from: 1, to: 2, clock: 0, events: [{ type: 'text_delta', seq: 1, t: 0, agentId: 'a' }] });
    assert.ok(!r.ok && /events\.0\.text/.test(r.error), !r.ok ? r.error : '');
  });

  it('bounds what the webview may send (it renders model output: treat it as untrusted)', () => {
    assert.ok(parseWebviewMessage({ v: 1, type: 'cancelAgent', runId: 'r', agentId: 'a' }).ok);
    assert.ok(parseWebviewMessage({ v: 1, type: 'action', action: 'apply', runId: 'r' }).ok);
    for (const bad of [
      { v: 1, type: 'action', action: 'rm -rf', runId: 'r' },
      { v: 1, type: 'cancelRun', runId: 'x'.repeat(201) },
      { v: 1, type: 'cancelRun', runId: '' },
      { v: 1, type: 'openLink', href: 'h'.repeat(5000) },
      { v: 1, type: 'log', level: 'info', message: 'x' },
      { v: 1, type: 'executeCommand', command: 'workbench.action.files.delete' },
      { type: 'ready', runId: null, follow: true },
    ]) {
      assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad).slice(0, 80));
    }
  });
});

describe('vote viewer protocol: escalation stages', () => {
  it('a shown run carries its stage plan (or none); escalate and its refusal cross the boundary bounded', () => {
    const view = reduceView([]);
    const run = { id: 'r', title: 'T', task: 'q', readOnly: false, running: true, clock: 0, view, apply: { kind: 'selection' as const, status: 'none' as const, target: null } };
    for (const shown of [{ ...run, stages: [['a', 'b'], ['c']] }, run]) {
      const wire = JSON.parse(JSON.stringify(hostMessage({ type: 'snapshot', run: shown, follow: true, history: [], setup: null, pending: null })));
      const r = parseHostMessage(wire);
      assert.ok(r.ok, r.ok ? '' : r.error);
      assert.deepEqual(r.message, wire);
    }
    assert.equal(parseHostMessage({ v: 1, type: 'snapshot', run: { ...run, stages: [['a'], [3]] }, follow: true, history: [], setup: null, pending: null }).ok, false);
    const refused = hostMessage({ type: 'escalateRefused', runId: 'r', text: 'No stage was called: every escalation stage has joined already.' });
    assert.deepEqual(parseHostMessage(JSON.parse(JSON.stringify(refused))), { ok: true, message: refused });
    assert.deepEqual(parseWebviewMessage({ v: 1, type: 'escalate', runId: 'r' }), { ok: true, message: { v: 1, type: 'escalate', runId: 'r' } });
    for (const bad of [{ v: 1, type: 'escalate' }, { v: 1, type: 'escalate', runId: '' }, { v: 1, type: 'escalate', runId: 'x'.repeat(201) }]) {
      assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad).slice(0, 80));
    }
  });
});

describe('vote viewer protocol: diffs', () => {
  it('carries a patch (whole or cut) or null with a note, and refuses one past the cap', () => {
    for (const body of [
      { runId: 'r', version: 'agent1.1', patch: 'diff --git a/x b/x\n', truncated: false },
      { runId: 'r', version: 'agent1.1', patch: 'x'.repeat(MAX_PATCH_CHARS), truncated: true, note: 'cut' },
      { runId: 'r', version: 'agent1.1', patch: null, truncated: false, note: 'This run did not work on a workspace: its answers have no diffs.' },
    ]) {
      const wire = JSON.parse(JSON.stringify(hostMessage({ type: 'diff', ...body })));
      const r = parseHostMessage(wire);
      assert.ok(r.ok, r.ok ? '' : r.error);
      assert.deepEqual(r.message, wire);
    }
    for (const bad of [
      { v: 1, type: 'diff', runId: 'r', version: 'agent1.1', patch: 'x'.repeat(MAX_PATCH_CHARS + 1), truncated: true },
      { v: 1, type: 'diff', runId: 'r', version: 'agent1.1', truncated: false },
      { v: 1, type: 'diff', runId: 'r', version: 'agent1.1', patch: 3, truncated: false },
    ]) {
      assert.equal(parseHostMessage(bad).ok, false, JSON.stringify(bad).slice(0, 80));
    }
  });

  it('bounds requestDiff from the page', () => {
    assert.ok(parseWebviewMessage({ v: 1, type: 'requestDiff', runId: 'r', version: 'agent2.3' }).ok);
    for (const bad of [
      { v: 1, type: 'requestDiff', runId: 'r' },
      { v: 1, type: 'requestDiff', runId: 'r', version: '' },
      { v: 1, type: 'requestDiff', runId: 'r', version: 'v'.repeat(201) },
      { v: 1, type: 'requestDiff', runId: null, version: 'agent1.1' },
    ]) {
      assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad).slice(0, 80));
    }
  });
});

describe('vote viewer protocol: links', () => {
  it('allows https only, without credentials or control characters', () => {
    assert.equal(safeExternalLink('https://example.com/a?b=1#c'), 'https://example.com/a?b=1#c');
    assert.equal(safeExternalLink('HTTPS://Example.com'), 'https://example.com/');
    for (const bad of [
      'http://example.com',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'command:workbench.action.files.delete',
      'vscode://file/etc/passwd',
      'file:///etc/passwd',
      'data:text/html,<script>',
      'https://user:pass@example.com/',
      'https://exa mple.com',
      'https://example.com/\nx',
      '//example.com',
      '/relative',
      '',
      `https://e.com/${'a'.repeat(5000)}`,
    ]) {
      assert.equal(safeExternalLink(bad), null, bad.slice(0, 60));
    }
  });
});

describe('vote viewer protocol: delta cursor', () => {
  const delta = (from: number, to: number, runId = 'r') => hostMessage({ type: 'delta', runId, from, to, clock: 0, events: [] });

  it('applies contiguous deltas, drops duplicates and other runs, and asks once per gap', () => {
    const c = new DeltaCursor();
    assert.equal(c.check(delta(1, 2)), 'other-run', 'nothing shown yet');
    c.reset('r', 10);
    assert.equal(c.check(delta(5, 10)), 'duplicate');
    assert.equal(c.check(delta(11, 12, 'other')), 'other-run');
    assert.equal(c.check(delta(11, 14)), 'apply');
    c.advance(delta(11, 14));
    assert.equal(c.lastSeq, 14);
    assert.equal(c.check(delta(16, 18)), 'gap');
    assert.equal(c.check(delta(19, 20)), 'awaiting-snapshot', 'one resync request per gap');
    c.reset('r', 20);
    assert.equal(c.check(delta(21, 21)), 'apply');
  });

  it('treats a partly overlapping delta as a gap (the host never sends one)', () => {
    const c = new DeltaCursor();
    c.reset('r', 10);
    assert.equal(c.check(delta(9, 12)), 'gap');
  });

  it('a snapshot plus the remaining deltas reproduce the host state, from any cut point', async () => {
    const events = await fullRun();
    const expected = reduceView(events);
    for (const cut of [0, 1, 7, Math.floor(events.length / 2), events.length - 1]) {
      const view = structuredClone(reduceView(events.slice(0, cut)));
      const rest = events.slice(cut);
      for (let i = 0; i < rest.length; i += 9) {
        const part = rest.slice(i, i + 9);
        applyDelta(view, hostMessage({ type: 'delta', runId: 'r', from: part[0].seq, to: part[part.length - 1].seq, clock: 0, events: part }));
      }
      assert.deepEqual(view, expected, `cut at ${cut}`);
    }
  });
});

describe('vote viewer protocol: viewer extras', () => {
  const at = (seq: number, body: object) => ({ seq, t: seq * 100, ...body }) as RunEvent;

  it('keeps tool rows per agent (bounded), drops successful coordination calls, keeps failed ones', async () => {
    const events = await fullRun();
    const view = reduceView(events);
    const reviewer = view.extras.agents['careful-reviewer'];
    assert.deepEqual(reviewer.tools.map((r) => [r.name, r.status, r.args]), [['read_file', 'ok', 'path: "src/config.ts"']]);
    assert.ok(Object.values(view.extras.agents).every((a) => a.tools.every((r) => r.name !== 'vote' && r.name !== 'new_answer')));

    const extras = emptyExtras();
    const state = reduceView([]).state;
    applyExtras(extras, at(1, { type: 'tool_call', agentId: 'a', callId: 'v', name: 'vote', arguments: '{"agent_id":"agent9"}' }), state);
    applyExtras(extras, at(2, { type: 'tool_result', agentId: 'a', callId: 'v', name: 'vote', ok: false, summary: 'agent9 is not an agent' }), state);
    assert.deepEqual(extras.agents.a.tools.map((r) => [r.name, r.status, r.result]), [['vote', 'error', 'agent9 is not an agent']]);
    for (let i = 0; i < MAX_TOOL_ROWS + 5; i++) applyExtras(extras, at(3 + i, { type: 'tool_call', agentId: 'a', callId: `c${i}`, name: 'grep', arguments: '{}' }), state);
    assert.equal(extras.agents.a.tools.length, MAX_TOOL_ROWS);
    assert.equal(extras.agents.a.toolsDropped, 6);
  });

  it('records answers, votes, stale votes, restarts, retries and failures in order on the timeline (bounded)', async () => {
    const events = await fullRun();
    const { extras } = reduceView(events);
    const kinds = new Set(extras.timeline.map((e) => e.kind));
    for (const k of ['round', 'answer', 'vote', 'stale', 'update', 'restart', 'retry', 'failed', 'winner', 'end'] as const) assert.ok(kinds.has(k), k);
    const seqs = extras.timeline.map((e) => e.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
    assert.ok(extras.timeline.some((e) => e.kind === 'restart' && e.agentId === 'fast-drafter' && /timed out/.test(e.detail)));
    assert.equal(extras.agents['security-auditor'].lastFailure, '500 Internal Server Error (upstream overloaded)');

    const big = emptyExtras();
    const state = reduceView([]).state;
    for (let i = 0; i < MAX_TIMELINE + 10; i++) applyExtras(big, at(i + 1, { type: 'round_started', round: i + 1, agentIds: [] }), state);
    assert.equal(big.timeline.length, MAX_TIMELINE);
    assert.equal(big.timelineDropped, 10);
    // The first entries stay (how the run began); the ones after them make room for the newest.
    assert.deepEqual([big.timeline[0].seq, big.timeline[TIMELINE_HEAD - 1].seq, big.timeline[TIMELINE_HEAD].seq, big.timeline.at(-1)?.seq], [1, TIMELINE_HEAD, TIMELINE_HEAD + 11, MAX_TIMELINE + 10]);
  });

  it('summarizes tool arguments on one line', () => {
    assert.equal(summarizeArgs('{"path":"a.ts","line":3}'), 'path: "a.ts", line: 3');
    assert.equal(summarizeArgs('not json\n at all'), 'not json at all');
    assert.ok(summarizeArgs(JSON.stringify({ text: 'x'.repeat(1000) })).length <= 160);
  });
});

describe('vote viewer protocol: failures in plain words', () => {
  it('a model that never calls the tools is told as such, not with the correction prompt pasted in', () => {
    const pasted = 'no valid vote or new_answer call after 3 attempts (last: Finish your work above by making a tool call of `vote` or `new_answer`. Make sure you actually call the tool. If you cannot call tools, reply with only one JSON object instead)';
    assert.equal(failureInWords(pasted), NO_TOOL_CALLS);
    assert.equal(failureInWords('the model replied 2 time(s) without calling new_answer or vote'), NO_TOOL_CALLS);
    assert.match(NO_TOOL_CALLS, /may not support tool calling/);
  });

  it('a refused answer keeps its reason; other errors pass through', () => {
    assert.equal(failureInWords('no valid vote or new_answer call after 3 attempts (last: vote before any answer)'), 'its answer or vote was refused 3 times (last: vote before any answer)');
    assert.equal(failureInWords('HTTP 401: invalid API key'), 'HTTP 401: invalid API key');
  });

  it('a run\'s error lists each agent\'s failure in plain words', () => {
    const error = 'Every agent failed.\n  gpt: the model replied 3 time(s) without calling new_answer or vote\n  local: HTTP 500: boom';
    assert.equal(runErrorInWords(error), `Every agent failed.\n  gpt: ${NO_TOOL_CALLS}\n  local: HTTP 500: boom`);
  });
});

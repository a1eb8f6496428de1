// The webview's pure logic, in Node: badges, tally, formatting, streaming block splitting, chunking.

import assert from 'node:assert/strict';
import type { RunEvent } from '../../src/core/engine/events';
import { reduceEvents } from '../../src/core/engine/run-state';
import { agentBadge, runClock, tally } from '../../webview/derive';
import * as fmt from '../../webview/format';
import { chunkMarkdown } from '../../webview/markdown';
import { openFence, splitBlocks } from '../../webview/stream';
import { fullRun, tieRun } from './scenarios';

describe('vote viewer (webview logic): badges', () => {
  let events: RunEvent[];
  before(async () => {
    events = await fullRun();
  });

  const stateAt = (pred: (e: RunEvent) => boolean) => reduceEvents(events.slice(0, events.findIndex(pred) + 1));

  it('says thinking until the first token, then streaming', () => {
    const s = stateAt((e) => e.type === 'turn_started');
    const a = s.agents.find((x) => x.status === 'streaming')!;
    assert.equal(agentBadge(a, undefined, 0).kind, 'thinking');
    assert.equal(agentBadge({ ...a, streamTail: 'Let me' }, undefined, 0).kind, 'streaming');
  });

  it('an agent of an escalation stage not called reads so, with its stage; once called, its real status', () => {
    const s = reduceEvents(events);
    const a = { ...s.agents[0], status: 'waiting' as const, retry: null };
    const b = agentBadge(a, undefined, 0, null, 'not called yet (stage 2)');
    assert.deepEqual([b.kind, b.text], ['notcalled', 'not called yet (stage 2)']);
    assert.equal(agentBadge(a, undefined, 0).kind, 'waiting', 'without the words: an agent waiting for its turn');
    assert.equal(agentBadge({ ...a, status: 'failed', failureCause: 'cancelled' }, undefined, 0, null, 'not called yet (stage 2)').kind, 'cancelled', 'cancelled before its stage came');
  });

  it('counts a retry down live, then says retrying…', () => {
    const s = stateAt((e) => e.type === 'retry');
    const a = s.agents.find((x) => x.retry)!;
    const { at, delayMs } = a.retry!;
    assert.equal(agentBadge(a, undefined, at).text, `retrying in ${Math.ceil(delayMs / 1000)} s`);
    assert.equal(agentBadge(a, undefined, at + delayMs - 1500).text, 'retrying in 2 s');
    assert.equal(agentBadge(a, undefined, at + delayMs + 10).text, 'retrying…');
  });

  it('tells timed out, failed and cancelled apart', () => {
    const done = reduceEvents(events);
    const auditor = done.agents.find((a) => a.id === 'security-auditor')!;
    assert.equal(agentBadge(auditor, undefined, 0).kind, 'failed');
    assert.equal(agentBadge({ ...auditor, error: 'turn timed out after 600 s', failureCause: 'timeout' }, undefined, 0).text, 'timed out');
    assert.equal(agentBadge({ ...auditor, error: 'cancelled by the user', failureCause: 'cancelled' }, undefined, 0).text, 'cancelled');
    // The cause decides, not the wording: a provider's message that mentions a timeout is still a failure.
    assert.equal(agentBadge({ ...auditor, error: 'upstream request timed out', failureCause: 'provider' }, undefined, 0).kind, 'failed');
    const restarting = { ...auditor, status: 'restarting' as const, error: null };
    assert.equal(agentBadge(restarting, { tools: [], toolsDropped: 0, lastFailure: 'turn timed out after 0.25 s', lastFailureCause: 'timeout', streamedChars: 0 }, 0).text, 'timed out, restarting');
    assert.equal(agentBadge(restarting, { tools: [], toolsDropped: 0, lastFailure: null, lastFailureCause: null, streamedChars: 0 }, 0).text, 'restarting');
  });

  it('shows what a finished agent did last: voted, answered or nothing', () => {
    const done = reduceEvents(events);
    assert.ok(done.agents.filter((a) => a.status === 'completed').every((a) => agentBadge(a, undefined, 0).kind === 'voted'));
    const a = { ...done.agents[0], currentVote: null };
    assert.equal(agentBadge(a, undefined, 0).kind, 'answered');
    assert.equal(agentBadge({ ...a, answerCount: 0 }, undefined, 0).kind, 'done');
  });

  it('an agent stopped by the user\'s Cancel or Answer now reads cancelled or stopped, not done', () => {
    const done = reduceEvents(events);
    const idle = { ...done.agents[0], currentVote: null, answerCount: 0 };
    assert.equal(agentBadge(idle, undefined, 0, 'cancelled').kind, 'cancelled');
    assert.equal(agentBadge(idle, undefined, 0, 'consensus').kind, 'done');
    assert.equal(agentBadge({ ...idle, answerCount: 1 }, undefined, 0, 'cancelled').kind, 'answered', 'what it did before the cancel stays');
    assert.equal(agentBadge(idle, undefined, 0, 'user_stop').text, 'stopped', 'Answer now stopped it');
  });

  it('keeps the run clock ticking between messages and freezes it at the end', () => {
    const live = stateAt((e) => e.type === 'answer_added');
    // The scenario's events carry the times of a real run (later on a loaded machine): the base is past them.
    const base = live.elapsedMs + 5000;
    assert.equal(runClock(live, { clock: base, receivedAt: 100 }, 1100), base + 1000);
    const done = reduceEvents(events);
    assert.equal(runClock(done, { clock: 0, receivedAt: 0 }, 1e9), done.elapsedMs);
  });
});

describe('vote viewer (webview logic): tally', () => {
  it('counts the current votes per latest answer and marks the winner', async () => {
    const s = reduceEvents(await fullRun());
    const t = tally(s);
    assert.deepEqual(t.rows.map((r) => [r.label, r.count, r.winner]), [
      ['agent1.1', 0, false],
      ['agent2.2', 4, true],
      ['agent3.1', 0, false],
      ['agent5.1', 0, false],
    ]);
    assert.deepEqual(t.rows[1].voters.map((v) => v.label), ['agent1', 'agent2', 'agent3', 'agent5']);
    assert.equal(t.tieBreak, false);
    assert.equal(t.scale, 4, 'agents that can vote');
  });

  it('states the tie-break', async () => {
    const t = tally(reduceEvents(await tieRun()));
    assert.equal(t.tieBreak, true);
    assert.equal(t.winnerLabel, 'agent1.1');
    assert.deepEqual(t.rows.map((r) => r.count), [1, 1]);
  });

  it('counts the latest still-valid votes when the winner was chosen that way', async () => {
    const s = reduceEvents(await fullRun());
    s.winner = { ...s.winner!, basis: 'latest_votes' };
    for (const a of s.agents) a.currentVote = null;
    const t = tally(s);
    assert.equal(t.rows.find((r) => r.label === 'agent2.2')?.count, 4);
    assert.match(t.basisText, /latest vote/);
  });
});

describe('vote viewer (webview logic): how the run ended', () => {
  it('a cancel says you cancelled, with the best answer so far or before any answer', async () => {
    const s = reduceEvents(await fullRun());
    const cancelled = { ...s, endReason: 'cancelled' as const };
    assert.equal(fmt.endDetail(cancelled), 'You cancelled the run; the best answer so far, agent2.2, won.');
    assert.equal(fmt.endDetail({ ...cancelled, winner: null }), 'You cancelled the run, so no answer was chosen. The answers so far stay below to read and copy.');
    assert.equal(fmt.endDetail({ ...cancelled, winner: null, answers: [] }), 'You cancelled the run before any agent answered.');
    assert.ok(!/best answer so far/.test(fmt.endDetail({ ...cancelled, winner: null })));
  });

  it('a tie broken by agent order, or the one agent left, is not called a consensus', async () => {
    const tie = reduceEvents(await tieRun());
    assert.equal(fmt.endLabel(tie), 'Tie broken by agent order');
    assert.match(fmt.endDetail(tie), /the votes tied: agent1\.1 won because its agent comes first/);
    const s = reduceEvents(await fullRun());
    const lone = { ...s, agents: s.agents.map((a, i) => (i === 1 ? a : { ...a, status: 'failed' as const })) };
    assert.equal(fmt.endLabel(lone), 'Agreed by the 1 agent left');
    assert.equal(fmt.endDetail(lone), '4 of 5 agents failed; the one left voted for agent2.2.');
    assert.equal(fmt.endLabel(s), 'Consensus');
    assert.match(fmt.endDetail(s), /4 agents still running all voted for agent2\.2 \(1 failed\)/);
  });
});

describe('vote viewer (webview logic): formatting', () => {
  it('formats tokens, money, durations and cost honestly', () => {
    assert.deepEqual([0, 999, 1234, 45_600, 1_234_567].map(fmt.tokens), ['0', '999', '1.2k', '46k', '1.23M']);
    assert.deepEqual([0, 0.00123, 0.5, 12.345].map(fmt.usd), ['$0', '$0.0012', '$0.500', '$12.35']);
    assert.deepEqual([400, 12_300, 65_000, 3_723_000].map(fmt.duration), ['0.4 s', '12 s', '1:05', '1:02:03']);
    const u = { inputTokens: 10, cachedInputTokens: 0, outputTokens: 5, calls: 3, estimated: false, costUsd: 0.02, unpricedCalls: 0 };
    assert.equal(fmt.cost(u).text, '$0.020');
    assert.equal(fmt.cost({ ...u, unpricedCalls: 1 }).text, '≥ $0.020');
    assert.equal(fmt.cost({ ...u, unpricedCalls: 3 }).text, 'cost unknown');
    // The tooltip splits the prompt tokens as they are billed, uncached and cached.
    assert.equal(fmt.usageTitle({ ...u, inputTokens: 12_345, cachedInputTokens: 4_100 }), '12,345 input tokens (8,245 uncached, 4,100 cached)\n5 output tokens\n3 calls\n$0.020');
    assert.match(fmt.usageTitle({ ...u, cachedInputTokens: 50 }), /^10 input tokens \(0 uncached, 10 cached\)/, 'more cached than input is clamped');
    assert.match(fmt.usageTitle(u), /^10 input tokens\n/, 'no split when nothing was cached');
    // One wording: a stored run's summary (no call count) with no priced cost is unknown, not "≥ $0".
    assert.equal(fmt.costOf(0, 6, null), 'cost unknown');
    assert.equal(fmt.costOf(0.02, 1, null), '≥ $0.020');
    assert.equal(fmt.costOf(0.02, 0, null), '$0.020');
    assert.equal(fmt.labelTitle('agent2.1'), 'agent2.1 = agent2\'s first answer');
    assert.equal(fmt.labelTitle('agent10.12'), 'agent10.12 = agent10\'s 12th answer');
    assert.equal(fmt.endReason('max_rounds'), 'Rounds cap reached');
    assert.equal(fmt.endReason('all_failed'), 'All agents failed');
  });
});

describe('vote viewer (webview logic): one wording per thing', () => {
  const none = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0, estimated: false, costUsd: 0, unpricedCalls: 0 };

  it('unpriced usage reads "cost unknown" while streaming, after a failure and after success alike', () => {
    // Streaming the first turn (no call finished), a failed run (no call finished), a stored failed run, and the
    // same unpriced models after success: one wording, never "$0" first and "cost unknown" later.
    const streaming = fmt.cost(none).text;
    const failedStored = fmt.costOf(0, 0, null);
    const succeeded = fmt.cost({ ...none, calls: 4, unpricedCalls: 4, inputTokens: 900, outputTokens: 300 }).text;
    const succeededStored = fmt.costOf(0, 4, null);
    assert.deepEqual([streaming, failedStored, succeeded, succeededStored], [fmt.COST_UNKNOWN, fmt.COST_UNKNOWN, fmt.COST_UNKNOWN, fmt.COST_UNKNOWN]);
    assert.equal(fmt.usageLine(none), '0 tokens · cost unknown');
    assert.equal(fmt.costOf(0.5, 0, 3), '$0.500');
    assert.equal(fmt.cost({ ...none, calls: 3, unpricedCalls: 1, costUsd: 0.5 }).title, '$0.500 for priced calls; 1 call has no known price');
  });

  it('says how a run ended: cancelled, failed with the reason, done with it; each with its own icon', () => {
    const o = (running: boolean, endReason: string | null, hasWinner: boolean) => fmt.outcomeOf({ running, endReason, hasWinner });
    assert.deepEqual([o(true, null, false), o(false, 'cancelled', false), o(false, 'cancelled', true), o(false, 'all_failed', false), o(false, 'timeout', false), o(false, 'consensus', true), o(false, null, false)], ['running', 'cancelled', 'cancelled', 'failed', 'failed', 'done', 'unfinished']);
    assert.equal(fmt.outcomeText('failed', fmt.endReason('all_failed')), 'Failed (all agents failed)');
    assert.equal(fmt.outcomeText('failed', fmt.endReason('timeout')), 'Failed (timed out)');
    assert.equal(fmt.outcomeText('done', 'Consensus'), 'Done · Consensus');
    assert.equal(fmt.outcomeText('cancelled', 'Cancelled'), 'Cancelled');
    const icons = ['running', 'cancelled', 'failed', 'done'].map((k) => fmt.OUTCOME_ICON[k as fmt.Outcome]);
    assert.equal(new Set(icons).size, icons.length, 'distinct icons');
  });

  it('names an agent by the user\'s id first, its anonymous label after (once)', () => {
    assert.equal(fmt.agentName({ id: 'claude', label: 'agent1' }), 'claude (agent1)');
    assert.equal(fmt.agentName({ id: 'agent1', label: 'agent1' }), 'agent1');
  });

  it('counts in the singular and the plural', () => {
    assert.deepEqual([0, 1, 2].map((n) => fmt.count(n, 'file')), ['0 files', '1 file', '2 files']);
    assert.equal(fmt.count(1, 'call has', 'calls have'), '1 call has');
    assert.equal(fmt.count(3, 'call has', 'calls have'), '3 calls have');
  });
});

describe('vote viewer (webview logic): streaming markdown blocks', () => {
  it('completes blocks at blank lines, never inside fenced code', () => {
    const { blocks, rest } = splitBlocks('# Title\n\npara one\nstill one\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\ntail being wri');
    assert.deepEqual(blocks, ['# Title\n\n', 'para one\nstill one\n\n', '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n']);
    assert.equal(rest, 'tail being wri');
    assert.deepEqual(splitBlocks('```\nopen fence\n\nstill code\n'), { blocks: [], rest: '```\nopen fence\n\nstill code\n' });
  });

  it('finds a fence left open, to reopen it when a runaway block is cut', () => {
    assert.deepEqual(openFence('text\n```python\ncode\n'), { line: '```python', index: 5 });
    assert.equal(openFence('```\na\n```\n'), null);
    assert.deepEqual(openFence('~~~~\n```\n'), { line: '~~~~', index: 0 }, 'a shorter or different fence does not close it');
  });

  it('chunks long answers at block boundaries outside code', () => {
    const para = 'word '.repeat(100).trim();
    const code = '```\n' + 'x\n\n'.repeat(200) + '```';
    const text = [para, para, code, para, para].join('\n\n');
    const chunks = chunkMarkdown(text, 600);
    assert.equal(chunks.join(''), text);
    assert.ok(chunks.length >= 4);
    assert.ok(chunks.some((c) => c.startsWith('```') && c.trimEnd().endsWith('```')), 'the code block stays whole');
  });
});

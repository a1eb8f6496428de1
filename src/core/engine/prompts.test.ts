import assert from 'node:assert/strict';
import type { Sensitivity } from '../config/types';
import {
  buildCoordinationSystemPrompt,
  buildInitialUserMessage,
  buildSynthesisSystemPrompt,
  buildSynthesisUserMessage,
  buildUpdateMessage,
  revisedNote,
  ENFORCEMENT_MESSAGE,
  ENFORCEMENT_MESSAGE_VOTE_ONLY,
  formatCurrentAnswers,
  formatOriginalMessage,
  formatTimestamp,
  type BoardEntry,
  type CoordinationPromptInput,
} from './prompts';

const NOW = new Date(2024, 0, 5, 7, 8, 9); // local time: 2024-01-05 07:08:09

function prompt(over: Partial<CoordinationPromptInput> = {}): string {
  return buildCoordinationSystemPrompt({ votingSensitivity: 'lenient', noveltyRequirement: 'lenient', now: NOW, ...over });
}

/** The sections of a rendered system prompt: tag, priority name and body, in order. */
function sections(text: string): { tag: string; priority: string; body: string }[] {
  return [...text.matchAll(/<(\w+) priority="(\w+)">\n([\s\S]*?)\n<\/\1>/g)].map((m) => ({ tag: m[1], priority: m[2], body: m[3] }));
}

function section(text: string, tag: string): string {
  const s = sections(text).find((x) => x.tag === tag);
  assert.ok(s, `no <${tag}> section`);
  return s.body;
}

const entry = (k: number, m: number, content: string): BoardEntry => ({ label: `agent${k}`, versionLabel: `agent${k}.${m}`, content });

describe('prompts: coordination system prompt', () => {
  it('is wrapped in <system_prompt> … </system_prompt>', () => {
    const p = prompt();
    assert.ok(p.startsWith('<system_prompt>\n\n'), p.slice(0, 40));
    assert.ok(p.endsWith('\n\n</system_prompt>'));
    assert.equal(p.match(/<system_prompt>/g)?.length, 1);
  });

  it('orders sections by priority: identity, coordination, core behaviors, all critical', () => {
    const p = prompt({ systemMessage: 'You are a careful engineer.' });
    assert.deepEqual(
      sections(p).map((s) => [s.tag, s.priority]),
      [
        ['agent_identity', 'critical'],
        ['massgen_coordination', 'critical'],
        ['core_behaviors', 'critical'],
      ],
    );
  });

  it('separates sections by a blank line', () => {
    assert.match(prompt(), /<\/massgen_coordination>\n\n<core_behaviors priority="critical">\n/);
  });

  it('has agent_identity only when a system message is given, with it trimmed', () => {
    assert.equal(section(prompt({ systemMessage: '  Be terse.\n' }), 'agent_identity'), 'Be terse.');
    assert.ok(!prompt().includes('agent_identity'));
    assert.ok(!prompt({ systemMessage: '   \n ' }).includes('agent_identity'));
  });

  it('gives different evaluation texts for lenient, balanced and strict voting', () => {
    const texts = (['lenient', 'balanced', 'strict'] as Sensitivity[]).map((s) => section(prompt({ votingSensitivity: s }), 'massgen_coordination'));
    assert.equal(new Set(texts).size, 3);
  });

  it("lenient uses upstream's question", () => {
    const body = section(prompt({ votingSensitivity: 'lenient' }), 'massgen_coordination');
    assert.ok(body.includes('Does the best CURRENT ANSWER address the ORIGINAL MESSAGE well?'));
    assert.ok(body.includes('If YES, use the `vote` tool to record your vote and skip the `new_answer` tool.'));
  });

  it('balanced and strict ask harder questions than lenient', () => {
    assert.match(prompt({ votingSensitivity: 'balanced' }), /comprehensive, accurate, and complete/);
    assert.match(prompt({ votingSensitivity: 'strict' }), /ALL aspects of the ORIGINAL MESSAGE, including edge cases/);
    assert.ok(!prompt({ votingSensitivity: 'strict' }).includes('address the ORIGINAL MESSAGE well?'));
  });

  it('adds no novelty text for lenient novelty', () => {
    const p = prompt({ noveltyRequirement: 'lenient' });
    assert.doesNotMatch(p, /meaningfully different|SUBSTANTIALLY different/);
  });

  it('adds the balanced novelty text for balanced novelty', () => {
    const p = prompt({ noveltyRequirement: 'balanced' });
    assert.match(p, /IMPORTANT: If you provide a new answer, it must be meaningfully different from the existing answers\./);
    assert.doesNotMatch(p, /SUBSTANTIALLY/);
  });

  it('adds the strict novelty text for strict novelty', () => {
    const p = prompt({ noveltyRequirement: 'strict' });
    assert.match(p, /CRITICAL: New answers must be SUBSTANTIALLY different/);
    assert.doesNotMatch(p, /IMPORTANT: If you provide a new answer/);
  });

  it('offers new_answer when not vote-only', () => {
    const body = section(prompt(), 'massgen_coordination');
    assert.match(body, /use the `new_answer` tool to record a better answer/);
    assert.match(body, /Make sure you actually call `vote` or `new_answer` \(in tool call format\)\./);
  });

  it('vote-only: the coordination section tells the agent to vote, without novelty text', () => {
    const body = section(prompt({ voteOnly: true, noveltyRequirement: 'strict' }), 'massgen_coordination');
    assert.match(body, /You have reached the maximum number of new answers you may give\./);
    assert.match(body, /Make sure you actually call `vote` \(in tool call format\)\./);
    assert.doesNotMatch(body, /use the `new_answer` tool to record/);
    assert.doesNotMatch(body, /SUBSTANTIALLY different/);
    assert.doesNotMatch(body, /call `vote` or `new_answer`/);
  });

  it('vote-only: the coordination section mentions new_answer only to say skip it', () => {
    for (const s of ['lenient', 'balanced', 'strict'] as Sensitivity[]) {
      const body = section(prompt({ voteOnly: true, votingSensitivity: s, noveltyRequirement: s }), 'massgen_coordination');
      const withoutSkip = body.replace('skip the `new_answer` tool', '');
      assert.ok(!withoutSkip.includes('new_answer'), `${s}: ${body}`);
    }
  });

  it('vote-only: no part of the system prompt tells the agent to use new_answer', () => {
    const p = prompt({ voteOnly: true });
    const withoutSkip = p.replace('skip the `new_answer` tool', '');
    assert.ok(!withoutSkip.includes('new_answer'), p);
  });

  it('states the CURRENT TIME as YYYY-MM-DD HH:MM:SS (local time)', () => {
    assert.ok(prompt().includes('*Note*: The CURRENT TIME is **2024-01-05 07:08:09**.'));
  });

  it('core behaviors forbid asking for clarification', () => {
    assert.match(section(prompt(), 'core_behaviors'), /Do NOT ask the user for clarification/);
  });
});

describe('prompts: formatTimestamp', () => {
  it('zero-pads every field', () => {
    assert.equal(formatTimestamp(new Date(2025, 8, 1, 0, 0, 5)), '2025-09-01 00:00:05');
  });

  it('uses 24-hour time', () => {
    assert.equal(formatTimestamp(new Date(2025, 11, 31, 23, 59, 58)), '2025-12-31 23:59:58');
  });

  it('matches YYYY-MM-DD HH:MM:SS for now', () => {
    assert.match(formatTimestamp(new Date()), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});

describe('prompts: user messages', () => {
  it('formatOriginalMessage wraps the task', () => {
    assert.equal(formatOriginalMessage('What is 2+2?'), '<ORIGINAL MESSAGE> What is 2+2? <END OF ORIGINAL MESSAGE>');
  });

  it('formatCurrentAnswers with no answers', () => {
    assert.equal(formatCurrentAnswers([]), '<CURRENT ANSWERS from the agents>\n(no answers available yet)\n<END OF CURRENT ANSWERS>');
  });

  it('formatCurrentAnswers uses agentK labels (not versions), blank-line separated, in the given order', () => {
    assert.equal(
      formatCurrentAnswers([entry(2, 3, 'two'), entry(1, 1, 'one')]),
      '<CURRENT ANSWERS from the agents>\n<agent2> two <end of agent2>\n\n<agent1> one <end of agent1>\n<END OF CURRENT ANSWERS>',
    );
  });

  it('buildInitialUserMessage: the original message, a blank line, then the board', () => {
    const msg = buildInitialUserMessage('Sort this list', [entry(1, 1, 'sorted')]);
    assert.equal(
      msg,
      '<ORIGINAL MESSAGE> Sort this list <END OF ORIGINAL MESSAGE>\n\n<CURRENT ANSWERS from the agents>\n<agent1> sorted <end of agent1>\n<END OF CURRENT ANSWERS>',
    );
  });

  it('buildInitialUserMessage with an empty board says no answers yet', () => {
    const msg = buildInitialUserMessage('task', []);
    assert.ok(msg.startsWith('<ORIGINAL MESSAGE> task <END OF ORIGINAL MESSAGE>'));
    assert.ok(msg.includes('(no answers available yet)'));
  });
});

describe('prompts: update message', () => {
  const changed = [entry(2, 2, 'NEW TWO'), entry(3, 1, 'NEW THREE')];
  const unchanged = [entry(1, 1, 'OLD ONE CONTENT')];

  it('lists only the changed answers in full, in a NEW ANSWERS block', () => {
    const msg = buildUpdateMessage(changed, unchanged, { voteOnly: false, voted: true });
    const block = /<NEW ANSWERS>\n([\s\S]*?)\n<\/NEW ANSWERS>/.exec(msg);
    assert.ok(block);
    assert.equal(block[1], '<agent2> NEW TWO <end of agent2>\n<agent3> NEW THREE <end of agent3>');
    assert.ok(!msg.includes('OLD ONE CONTENT'));
  });

  it("refers to the reader's own answer (in its new_answer call) instead of repeating it, keeping its checks", () => {
    const own: BoardEntry = { ...entry(2, 2, 'MY OWN TEXT'), own: true, checks: [{ name: 'tests', status: 'failed', exitCode: 1, required: true, durationMs: 1, output: 'boom', cached: false }] };
    const msg = buildUpdateMessage([own, entry(3, 1, 'NEW THREE')], [], { voteOnly: false, voted: true });
    assert.ok(msg.includes("<agent2> your own answer agent2.2, as in your new_answer call above\n[Checks on agent2's change: tests FAILED (exit 1)]\nOutput of tests (its end):\nboom <end of agent2>"), msg);
    assert.ok(!msg.includes('MY OWN TEXT'));
    assert.ok(msg.includes('<agent3> NEW THREE <end of agent3>'));
  });

  it('names the unchanged labels', () => {
    const msg = buildUpdateMessage(changed, [entry(1, 1, 'x'), entry(4, 2, 'y')], { voteOnly: false, voted: true });
    assert.ok(msg.includes('Unchanged since you last saw them: agent1, agent4.'));
  });

  it('omits the unchanged line when nothing is unchanged', () => {
    assert.ok(!buildUpdateMessage(changed, [], { voteOnly: false, voted: true }).includes('Unchanged'));
  });

  it('starts with the UPDATE line and says an earlier vote was not counted, only to an agent that voted', () => {
    const msg = buildUpdateMessage(changed, unchanged, { voteOnly: false, voted: true });
    assert.ok(msg.startsWith('UPDATE: While you were working, new answers were provided.\n\n<NEW ANSWERS>'));
    assert.ok(msg.includes('Your vote before this update was not counted.'));
    assert.ok(!buildUpdateMessage(changed, unchanged, { voteOnly: false, voted: false }).includes('vote before'));
  });

  it('offers vote or new_answer normally', () => {
    const msg = buildUpdateMessage(changed, unchanged, { voteOnly: false, voted: true });
    assert.ok(msg.endsWith('Proceed: vote for the best current answer with `vote`, or provide a better answer with `new_answer`.'));
  });

  it('vote-only wording never mentions new_answer', () => {
    const msg = buildUpdateMessage(changed, unchanged, { voteOnly: true, voted: true });
    assert.ok(msg.endsWith('Proceed: call `vote` for the best current answer.'));
    assert.ok(!msg.includes('new_answer'));
  });
});

describe('prompts: revised note', () => {
  it('says an earlier vote was void only to an agent that voted', () => {
    assert.match(revisedNote({ revised: true, voted: true }), /^Some answers were revised since your last turn; .* Your vote before was not counted\.$/);
    assert.doesNotMatch(revisedNote({ revised: true, voted: false }), /vote/);
    assert.match(revisedNote({ revised: false, voted: false }), /^New answers were provided since your last turn; /);
  });
});

describe('prompts: enforcement messages', () => {
  it('the normal one names both tools', () => {
    assert.match(ENFORCEMENT_MESSAGE, /`vote` or `new_answer`/);
  });

  it('the vote-only one names only vote', () => {
    assert.match(ENFORCEMENT_MESSAGE_VOTE_ONLY, /`vote`/);
    assert.ok(!ENFORCEMENT_MESSAGE_VOTE_ONLY.includes('new_answer'));
  });
});

describe('prompts: synthesis', () => {
  const base = {
    task: 'Explain X',
    winnerLabel: 'agent2',
    answers: [entry(1, 1, 'first answer'), entry(2, 3, 'second answer')],
    reasons: ['clear', 'correct'],
    tieBreak: false,
  };

  it('the system prompt starts with ## Instructions and includes the system message first', () => {
    const p = buildSynthesisSystemPrompt('  Be concise.  ');
    assert.ok(p.startsWith('## Instructions\nBe concise.\n\nYou have been selected as the winning presenter'));
    assert.match(p, /no preamble about the coordination process/);
  });

  it('the system prompt without a system message has no empty paragraph', () => {
    const p = buildSynthesisSystemPrompt();
    assert.ok(p.startsWith('## Instructions\nYou have been selected'));
    assert.equal(buildSynthesisSystemPrompt('   '), p);
  });

  it("marks the winner's own answer with (YOUR ANSWER) and no other", () => {
    const msg = buildSynthesisUserMessage(base);
    assert.ok(msg.includes('<agent2> (YOUR ANSWER) second answer <end of agent2>'));
    assert.ok(msg.includes('<agent1> first answer <end of agent1>'));
    assert.equal(msg.match(/\(YOUR ANSWER\)/g)?.length, 1);
  });

  it('starts with the original message and ends with the presentation request', () => {
    const msg = buildSynthesisUserMessage(base);
    assert.ok(msg.startsWith('<ORIGINAL MESSAGE> Explain X <END OF ORIGINAL MESSAGE>\n\nVOTING RESULTS:\n'));
    assert.ok(msg.endsWith('\n\nBased on the coordination process above, present your final answer:'));
    assert.ok(msg.includes('\n\nAll answers provided during coordination:\n<agent1>'));
  });

  it('includes the vote count and reasons', () => {
    assert.ok(buildSynthesisUserMessage(base).includes('You received 2 vote(s) with feedback: clear; correct\n'));
  });

  it('adds the tie-break note when the tie was broken by order', () => {
    const msg = buildSynthesisUserMessage({ ...base, tieBreak: true });
    assert.ok(msg.includes('You received 2 vote(s) with feedback: clear; correct (tie-broken by registration order)\n'));
  });

  it('no tie-break note without a tie', () => {
    assert.ok(!buildSynthesisUserMessage(base).includes('tie-broken'));
  });

  it('says so when the winner received no votes', () => {
    const msg = buildSynthesisUserMessage({ ...base, reasons: [] });
    assert.ok(msg.includes('VOTING RESULTS:\nYou received no votes (selected as the best available answer).\n'));
    assert.ok(!msg.includes('vote(s) with feedback'));
  });
});

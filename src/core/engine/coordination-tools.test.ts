import assert from 'node:assert/strict';
import type { Sensitivity } from '../config/types';
import type { ToolCall } from '../providers/types';
import { coordinationTools, NEW_ANSWER, normaliseLabel, repeatedCalls, validateResponse, VOTE, type ResponseVerdict, type ValidationContext } from './coordination-tools';

let nextId = 0;
function call(name: string, args: unknown): ToolCall {
  nextId++;
  return { id: `call_${nextId}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}
const vote = (agentId: unknown, reason?: unknown) => call(VOTE, reason === undefined ? { agent_id: agentId } : { agent_id: agentId, reason });
const answer = (content: unknown) => call(NEW_ANSWER, { content });

function ctx(over: Partial<ValidationContext> = {}): ValidationContext {
  return {
    labelsWithAnswers: ['agent1', 'agent2'],
    allLabels: ['agent1', 'agent2', 'agent3'],
    currentAnswers: [
      { label: 'agent1', content: 'The answer is four because two plus two equals four' },
      { label: 'agent2', content: 'Paris is the capital of France' },
    ],
    capReached: false,
    maxNewAnswers: null,
    novelty: 'lenient',
    otherTools: new Set<string>(),
    ...over,
  };
}

type Invalid = Extract<ResponseVerdict, { kind: 'invalid' }>;
function expectInvalid(verdict: ResponseVerdict): Invalid {
  assert.equal(verdict.kind, 'invalid', `expected invalid, got ${JSON.stringify(verdict)}`);
  return verdict as Invalid;
}
function resultFor(v: Invalid, c: ToolCall): string {
  const hits = v.results.filter((r) => r.call === c);
  assert.equal(hits.length, 1, `call ${c.id} should have exactly one result`);
  return hits[0].content;
}
function assertOneResultPerCall(v: Invalid, calls: ToolCall[]): void {
  assert.deepEqual(
    v.results.map((r) => r.call.id),
    calls.map((c) => c.id),
  );
}

describe('coordination tools: schemas', () => {
  const labels = ['agent1', 'agent2', 'agent3'];

  it('offers new_answer then vote when not vote-only', () => {
    assert.deepEqual(
      coordinationTools(labels, false).map((t) => t.name),
      ['new_answer', 'vote'],
    );
    assert.equal(NEW_ANSWER, 'new_answer');
    assert.equal(VOTE, 'vote');
  });

  it('offers only vote when vote-only', () => {
    assert.deepEqual(
      coordinationTools(labels, true).map((t) => t.name),
      ['vote'],
    );
  });

  it('new_answer takes a required string `content`', () => {
    const spec = coordinationTools(labels, false).find((t) => t.name === 'new_answer')!;
    const params = spec.parameters as { type: string; properties: Record<string, { type: string }>; required: string[] };
    assert.equal(params.type, 'object');
    assert.deepEqual(Object.keys(params.properties), ['content']);
    assert.equal(params.properties.content.type, 'string');
    assert.deepEqual(params.required, ['content']);
  });

  it('vote takes required `agent_id` (enum of every label) and `reason`', () => {
    const spec = coordinationTools(labels, false).find((t) => t.name === 'vote')!;
    const params = spec.parameters as { properties: Record<string, { type: string; enum?: string[] }>; required: string[] };
    assert.deepEqual(Object.keys(params.properties).sort(), ['agent_id', 'reason']);
    assert.deepEqual(params.properties.agent_id.enum, labels);
    assert.equal(params.properties.agent_id.type, 'string');
    assert.equal(params.properties.reason.type, 'string');
    assert.deepEqual([...params.required].sort(), ['agent_id', 'reason']);
  });

  it('the vote-only vote schema has the same enum of all labels', () => {
    const [spec] = coordinationTools(['agent1', 'agent2'], true);
    const params = spec.parameters as { properties: { agent_id: { enum: string[] } } };
    assert.deepEqual(params.properties.agent_id.enum, ['agent1', 'agent2']);
  });

  it('every tool has a non-empty description', () => {
    for (const t of coordinationTools(labels, false)) assert.ok(t.description.length > 10, t.name);
  });
});

describe('coordination tools: normaliseLabel', () => {
  const cases: [unknown, string | undefined][] = [
    ['agent2', 'agent2'],
    ['Agent2', 'agent2'],
    ['AGENT2', 'agent2'],
    [' agent2 ', 'agent2'],
    ['2', 'agent2'],
    [' 2 ', 'agent2'],
    ['02', 'agent2'],
    [2, 'agent2'],
    [12, 'agent12'],
    ['<agent2>', 'agent2'],
    ['agent 2', 'agent2'],
    ['agent10', 'agent10'],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${expected}`, () => assert.equal(normaliseLabel(input), expected));
  }

  const garbage: unknown[] = ['banana', '', '   ', 'agent', 'agentX', 'agent2.1', 'agent2x', 'gent2', '2a', 2.5, NaN, null, undefined, true, {}, ['agent2']];
  for (const input of garbage) {
    it(`${String(JSON.stringify(input) ?? input)} → undefined`, () => assert.equal(normaliseLabel(input), undefined));
  }
});

describe('coordination tools: validateResponse routing', () => {
  it('no tool calls → none', () => {
    assert.deepEqual(validateResponse([], ctx()), { kind: 'none' });
  });

  it('an unknown tool → invalid, naming it and listing available tools', () => {
    const bad = call('search_web', { q: 'x' });
    const v = expectInvalid(validateResponse([bad], ctx({ otherTools: new Set(['read_file']) })));
    assert.equal(resultFor(v, bad), "Unknown tool 'search_web'. Available tools: new_answer, vote, read_file.");
    assert.match(v.summary, /search_web/);
  });

  it('an unknown tool when the cap is reached lists only vote among coordination tools', () => {
    const bad = call('frobnicate', {});
    const v = expectInvalid(validateResponse([bad], ctx({ capReached: true, maxNewAnswers: 1 })));
    assert.equal(resultFor(v, bad), "Unknown tool 'frobnicate'. Available tools: vote.");
  });

  it('an unknown tool next to a valid vote: the vote is not executed either', () => {
    const good = vote('agent1', 'fine');
    const bad = call('frobnicate', {});
    const v = expectInvalid(validateResponse([good, bad], ctx()));
    assertOneResultPerCall(v, [good, bad]);
    assert.equal(resultFor(v, good), 'Not executed: this response also called an unknown tool.');
    assert.match(resultFor(v, bad), /^Unknown tool 'frobnicate'/);
  });

  it('only other (known) tools → kind tools with those calls in order', () => {
    const a = call('read_file', { path: 'x' });
    const b = call('list_dir', { path: '.' });
    const v = validateResponse([a, b], ctx({ otherTools: new Set(['read_file', 'list_dir']) }));
    assert.deepEqual(v, { kind: 'tools', calls: [a, b] });
  });

  it('a coordination call mixed with other tools → invalid, both answered with their own message', () => {
    const other = call('read_file', { path: 'x' });
    const v1 = vote('agent1', 'ok');
    const v = expectInvalid(validateResponse([other, v1], ctx({ otherTools: new Set(['read_file']) })));
    assertOneResultPerCall(v, [other, v1]);
    assert.equal(resultFor(v, other), 'Not executed: call other tools first, then end your turn with one call of `new_answer`, `vote` on its own.');
    assert.equal(resultFor(v, v1), 'Not accepted: the coordination call (`new_answer`, `vote`) must be the only tool call in its response.');
    assert.equal(v.summary, 'coordination call mixed with other tools');
  });

  it('mixed message names only `vote` when the cap is reached', () => {
    const other = call('read_file', {});
    const v1 = vote('agent1', 'ok');
    const v = expectInvalid(validateResponse([v1, other], ctx({ capReached: true, maxNewAnswers: 2, otherTools: new Set(['read_file']) })));
    assert.match(resultFor(v, other), /one call of `vote` on its own/);
    assert.doesNotMatch(resultFor(v, v1), /new_answer/);
  });

  it('vote and new_answer together → invalid with the upstream message for both', () => {
    const v1 = vote('agent1', 'ok');
    const a1 = answer('something new');
    const v = expectInvalid(validateResponse([a1, v1], ctx()));
    assertOneResultPerCall(v, [a1, v1]);
    const msg = "Cannot use both 'vote' and 'new_answer' in same response. Choose one: vote for existing answer OR provide new answer.";
    assert.equal(resultFor(v, a1), msg);
    assert.equal(resultFor(v, v1), msg);
  });

  it('multiple votes: the first gets the explanation, the others a rejection', () => {
    const calls = [vote('agent1', 'a'), vote('agent2', 'b'), vote('agent1', 'c')];
    const v = expectInvalid(validateResponse(calls, ctx()));
    assertOneResultPerCall(v, calls);
    assert.equal(resultFor(v, calls[0]), 'Multiple vote calls not allowed. Made 3 calls but must make exactly 1. Call vote tool once with chosen agent.');
    assert.equal(resultFor(v, calls[1]), 'Vote rejected due to multiple votes.');
    assert.equal(resultFor(v, calls[2]), 'Vote rejected due to multiple votes.');
    assert.equal(v.summary, 'multiple votes');
  });

  it('multiple answers: the first gets the explanation, the others a rejection', () => {
    const calls = [answer('one thing'), answer('another thing')];
    const v = expectInvalid(validateResponse(calls, ctx()));
    assertOneResultPerCall(v, calls);
    assert.match(resultFor(v, calls[0]), /^Multiple new_answer calls not allowed\. Made 2 calls but must make exactly 1\./);
    assert.equal(resultFor(v, calls[1]), 'Answer rejected due to multiple new_answer calls.');
    assert.equal(v.summary, 'multiple answers');
  });
});

describe('coordination tools: the same call sent twice in one response (llama.cpp)', () => {
  it('identical votes count as one vote; the repeat is answered as ignored', () => {
    const calls = [vote('agent2', 'clear'), call(VOTE, '{"reason": "clear", "agent_id": "agent2"}')];
    assert.deepEqual(validateResponse(calls, ctx()), { kind: 'vote', call: calls[0], targetLabel: 'agent2', reason: 'clear', repeats: [calls[1]] });
  });

  it('identical answers count as one answer', () => {
    const calls = [answer('Something new entirely'), answer('Something new entirely'), answer('Something new entirely')];
    assert.deepEqual(validateResponse(calls, ctx()), { kind: 'answer', call: calls[0], content: 'Something new entirely', repeats: calls.slice(1) });
  });

  it('an invalid call sent twice gets its correction once, and the repeat is answered too, in call order', () => {
    const calls = [vote('agent7', 'r'), vote('agent7', 'r')];
    const v = expectInvalid(validateResponse(calls, ctx()));
    assertOneResultPerCall(v, calls);
    assert.equal(v.summary, 'invalid agent_id agent7');
    assert.equal(resultFor(v, calls[1]), 'Ignored: the same vote call as the one before it in this response, which counts once.');
  });

  it('the same malformed arguments twice are one malformed call', () => {
    const calls = [call(VOTE, '{"agent_id": "agent1"'), call(VOTE, '{"agent_id": "agent1"')];
    const v = expectInvalid(validateResponse(calls, ctx()));
    assertOneResultPerCall(v, calls);
    assert.equal(v.summary, 'malformed arguments');
  });

  it('calls that differ stay invalid: two votes, a vote and an answer, other arguments', () => {
    assert.equal(expectInvalid(validateResponse([vote('agent1', 'r'), vote('agent2', 'r')], ctx())).summary, 'multiple votes');
    assert.equal(expectInvalid(validateResponse([vote('agent1', 'r'), vote('agent1', 'other reason')], ctx())).summary, 'multiple votes');
    assert.equal(expectInvalid(validateResponse([answer('x y z'), vote('agent1', 'r')], ctx())).summary, 'both vote and new_answer');
    assert.equal(expectInvalid(validateResponse([answer('one thing'), answer('one thing'), answer('other')], ctx())).summary, 'multiple answers');
  });

  it('a repeated call next to other tools is still a mixed response, every call answered', () => {
    const calls = [call('read_file', {}), vote('agent1', 'r'), vote('agent1', 'r')];
    const v = expectInvalid(validateResponse(calls, ctx({ otherTools: new Set(['read_file']) })));
    assertOneResultPerCall(v, calls);
    assert.equal(v.summary, 'coordination call mixed with other tools');
  });

  it('repeatedCalls finds repeats only among coordination calls that are all the same', () => {
    const v1 = vote('agent1', 'r');
    const v2 = vote('agent1', 'r');
    assert.deepEqual(repeatedCalls([v1, call('read_file', {}), v2]), [v2]);
    assert.deepEqual(repeatedCalls([v1]), []);
    assert.deepEqual(repeatedCalls([v1, v2, vote('agent2', 'r')]), []);
  });
});

describe('coordination tools: malformed arguments', () => {
  it('invalid JSON for vote → invalid with a vote example', () => {
    const c = call(VOTE, '{"agent_id": "agent1",');
    const v = expectInvalid(validateResponse([c], ctx()));
    assertOneResultPerCall(v, [c]);
    const text = resultFor(v, c);
    assert.match(text, /^Arguments for vote are not valid JSON \(/);
    assert.ok(text.endsWith('Call vote again with arguments like {"agent_id": "agent1", "reason": "..."}.'), text);
    assert.equal(v.summary, 'malformed arguments');
  });

  it('invalid JSON for new_answer → invalid with a content example', () => {
    const c = call(NEW_ANSWER, 'content: hello');
    const v = expectInvalid(validateResponse([c], ctx()));
    assert.match(resultFor(v, c), /^Arguments for new_answer are not valid JSON .*Call new_answer again with arguments like \{"content": "\.\.\."\}\.$/);
  });

  for (const raw of ['[1, 2]', 'null', '"agent1"', '42', 'true']) {
    it(`arguments ${raw} (not an object) → invalid "must be a JSON object"`, () => {
      const c = call(VOTE, raw);
      const v = expectInvalid(validateResponse([c], ctx()));
      assert.match(resultFor(v, c), /^Arguments for vote must be a JSON object\. Call vote again/);
    });
  }

  it('an empty arguments string is treated as {} (vote → invalid agent_id null)', () => {
    const c = call(VOTE, '');
    const v = expectInvalid(validateResponse([c], ctx()));
    assert.equal(resultFor(v, c), "Invalid agent_id 'null'. Valid agents: agent1, agent2");
  });

  it('a whitespace-only arguments string is treated as {} (new_answer → empty content)', () => {
    const c = call(NEW_ANSWER, '  \n ');
    const v = expectInvalid(validateResponse([c], ctx()));
    assert.match(resultFor(v, c), /^The new_answer content is empty\./);
  });
});

describe('coordination tools: votes', () => {
  it('a vote when no answers exist → invalid, pointing to new_answer', () => {
    const c = vote('agent1', 'x');
    const v = expectInvalid(validateResponse([c], ctx({ labelsWithAnswers: [], currentAnswers: [] })));
    assert.equal(resultFor(v, c), 'Cannot vote when no answers exist. Use new_answer tool.');
  });

  it('a vote for a label that has no answer → invalid listing the valid labels', () => {
    const c = vote('agent3', 'x');
    const v = expectInvalid(validateResponse([c], ctx()));
    assert.equal(resultFor(v, c), "Invalid agent_id 'agent3'. Valid agents: agent1, agent2");
    assert.equal(v.summary, 'invalid agent_id agent3');
  });

  it('a vote for garbage shows the raw value', () => {
    const c = vote('the best one', 'x');
    const v = expectInvalid(validateResponse([c], ctx()));
    assert.equal(resultFor(v, c), "Invalid agent_id 'the best one'. Valid agents: agent1, agent2");
  });

  it('a non-string agent_id that does not normalise is shown as JSON', () => {
    const c = vote({ id: 1 }, 'x');
    const v = expectInvalid(validateResponse([c], ctx()));
    assert.equal(resultFor(v, c), 'Invalid agent_id \'{"id":1}\'. Valid agents: agent1, agent2');
  });

  it('accepts a vote with the normalised label and the trimmed reason', () => {
    const c = vote(' Agent2 ', '  most accurate  ');
    const v = validateResponse([c], ctx());
    assert.deepEqual(v, { kind: 'vote', call: c, targetLabel: 'agent2', reason: 'most accurate' });
  });

  it('accepts a numeric agent_id', () => {
    const c = vote(1, 'r');
    const v = validateResponse([c], ctx());
    assert.equal(v.kind, 'vote');
    assert.equal((v as Extract<ResponseVerdict, { kind: 'vote' }>).targetLabel, 'agent1');
  });

  it('a missing reason becomes the empty string', () => {
    const c = vote('agent1');
    const v = validateResponse([c], ctx());
    assert.deepEqual(v, { kind: 'vote', call: c, targetLabel: 'agent1', reason: '' });
  });

  it('a non-string reason becomes the empty string', () => {
    const c = vote('agent1', 42);
    const v = validateResponse([c], ctx());
    assert.equal((v as Extract<ResponseVerdict, { kind: 'vote' }>).reason, '');
  });

  it('a vote is accepted even when the cap is reached', () => {
    const c = vote('agent2', 'r');
    assert.equal(validateResponse([c], ctx({ capReached: true, maxNewAnswers: 1 })).kind, 'vote');
  });
});

describe('coordination tools: answers', () => {
  it('an answer over the cap → invalid with the upstream message', () => {
    const c = answer('a brand new idea entirely');
    const v = expectInvalid(validateResponse([c], ctx({ capReached: true, maxNewAnswers: 3 })));
    assert.equal(resultFor(v, c), "You've reached the maximum of 3 new answer(s). Please vote for the best existing answer using the `vote` tool.");
    assert.equal(v.summary, 'answer cap reached');
  });

  for (const content of ['', '   \n\t', undefined, 7]) {
    it(`empty content (${JSON.stringify(content)}) → invalid`, () => {
      const c = answer(content);
      const v = expectInvalid(validateResponse([c], ctx()));
      assert.equal(resultFor(v, c), 'The new_answer content is empty. Provide your complete answer in `content`, or vote for an existing answer.');
      assert.equal(v.summary, 'empty answer');
    });
  }

  it('accepts an answer and trims its content', () => {
    const c = answer('  Something completely different here  \n');
    assert.deepEqual(validateResponse([c], ctx()), { kind: 'answer', call: c, content: 'Something completely different here' });
  });

  it('an exact duplicate (after trim) → invalid, naming the anonymous label', () => {
    const c = answer('\n  Paris is the capital of France ');
    const v = expectInvalid(validateResponse([c], ctx({ currentAnswers: [{ label: 'agent1', content: 'x' }, { label: 'agent2', content: '  Paris is the capital of France\n' }] })));
    assert.equal(resultFor(v, c), 'Answer already provided by agent2. Provide different answer or vote for existing one.');
    assert.equal(v.summary, 'duplicate of agent2');
  });

  it('a refused duplicate or near copy names the answer it matched (sameAs)', () => {
    assert.equal(expectInvalid(validateResponse([answer('Paris is the capital of France')], ctx())).sameAs, 'agent2');
    const near = validateResponse([answer('Paris is the capital city of France')], ctx({ novelty: 'balanced', currentAnswers: [{ label: 'agent2', content: 'Paris is the capital of France' }] }));
    assert.equal(expectInvalid(near).sameAs, 'agent2');
    assert.equal(expectInvalid(validateResponse([answer('')], ctx())).sameAs, undefined);
  });

  it('an exact duplicate of an answer the agent was shown is a vote for it', () => {
    const c = answer('Paris is the capital of France');
    const shown = [{ label: 'agent2', content: 'Paris is the capital of France', seen: true }];
    assert.deepEqual(validateResponse([c], ctx({ currentAnswers: shown })), {
      kind: 'vote',
      call: c,
      targetLabel: 'agent2',
      reason: 'the same answer as agent2',
      note: "Your answer is the same as agent2's, so it is taken as your vote for agent2.",
    });
  });

  it('an exact duplicate of the only answer the agent was not shown is a vote for it, marked unseen', () => {
    const c = answer('Paris is the capital of France');
    const board = [{ label: 'agent1', content: 'Lyon', seen: true }, { label: 'agent2', content: 'Paris is the capital of France' }];
    assert.deepEqual(validateResponse([c], ctx({ currentAnswers: board })), {
      kind: 'vote',
      call: c,
      targetLabel: 'agent2',
      reason: 'the same answer as agent2',
      note: "Your answer is the same as agent2's, so it is taken as your vote for agent2.",
      unseenTarget: true,
    });
  });

  it('over the answer cap, an exact duplicate is still a vote; anything else is refused for the cap', () => {
    const shown = [{ label: 'agent2', content: 'Paris', seen: true }];
    const capped = ctx({ capReached: true, maxNewAnswers: 1, currentAnswers: shown });
    assert.equal(validateResponse([answer('Paris')], capped).kind, 'vote');
    assert.equal(validateResponse([answer('Paris')], ctx({ capReached: true, maxNewAnswers: 1, currentAnswers: [{ label: 'agent2', content: 'Paris' }] })).kind, 'vote');
    assert.equal(expectInvalid(validateResponse([answer('Lyon')], capped)).summary, 'answer cap reached');
    assert.equal(expectInvalid(validateResponse([answer('')], capped)).summary, 'answer cap reached');
  });

  it('an exact duplicate is refused even under lenient novelty', () => {
    const c = answer('Paris is the capital of France');
    assert.equal(validateResponse([c], ctx({ novelty: 'lenient' })).kind, 'invalid');
  });

  // 6 of 7 distinct words shared with agent2's answer: Jaccard 6/7 ≈ 0.86
  const nearCopy = 'Paris is the capital city of France';
  const existing = [{ label: 'agent2', content: 'Paris is the capital of France' }];
  for (const novelty of ['balanced', 'strict'] as Sensitivity[]) {
    it(`a too-similar answer is refused under ${novelty}`, () => {
      const c = answer(nearCopy);
      const v = expectInvalid(validateResponse([c], ctx({ novelty, currentAnswers: existing })));
      const limit = novelty === 'balanced' ? 70 : 50;
      assert.equal(
        resultFor(v, c),
        `Your answer overlaps 86% with agent2's answer (more than ${limit}% is not allowed). Provide a meaningfully different answer, or vote for the existing one.`,
      );
      assert.equal(v.summary, 'too similar to agent2 (86%)');
    });
  }

  it('a too-similar answer is accepted under lenient', () => {
    const c = answer(nearCopy);
    assert.deepEqual(validateResponse([c], ctx({ novelty: 'lenient', currentAnswers: existing })), { kind: 'answer', call: c, content: nearCopy });
  });

  it('a case-only variant is not a duplicate but is too similar under balanced', () => {
    const c = answer('PARIS IS THE CAPITAL OF FRANCE');
    const v = expectInvalid(validateResponse([c], ctx({ novelty: 'balanced', currentAnswers: existing })));
    assert.match(resultFor(v, c), /^Your answer overlaps 100% with agent2's answer/);
  });

  it('a moderately similar answer passes balanced but fails strict', () => {
    // shared {a,b,c} of union {a,b,c,d,e}: 0.6
    const c = answer('a b c d');
    const ex = [{ label: 'agent1', content: 'a b c e' }];
    assert.equal(validateResponse([c], ctx({ novelty: 'balanced', currentAnswers: ex })).kind, 'answer');
    assert.equal(validateResponse([c], ctx({ novelty: 'strict', currentAnswers: ex })).kind, 'invalid');
  });
});

describe('coordination tools: every call of an invalid response gets exactly one result', () => {
  const known = new Set(['read_file']);
  const scenarios: [string, () => ToolCall[], Partial<ValidationContext>][] = [
    ['unknown tool', () => [call('nope', {}), vote('agent1', 'r'), answer('x y z')], {}],
    ['mixed', () => [call('read_file', {}), answer('x y z'), call('read_file', {})], {}],
    ['both', () => [vote('agent1', 'r'), answer('x y z'), vote('agent2', 'r')], {}],
    ['multiple votes', () => [vote('agent1', 'r'), vote('agent2', 'r')], {}],
    ['multiple answers', () => [answer('p q'), answer('r s'), answer('t u')], {}],
    ['malformed', () => [call(VOTE, '{')], {}],
    ['vote without answers', () => [vote('agent1', 'r')], { labelsWithAnswers: [], currentAnswers: [] }],
    ['cap', () => [answer('fresh text')], { capReached: true, maxNewAnswers: 1 }],
    ['duplicate', () => [answer('Paris is the capital of France')], {}],
  ];
  for (const [name, make, over] of scenarios) {
    it(name, () => {
      const calls = make();
      const v = expectInvalid(validateResponse(calls, ctx({ otherTools: known, ...over })));
      assertOneResultPerCall(v, calls);
      for (const r of v.results) assert.ok(r.content.length > 0);
      assert.ok(v.summary.length > 0);
    });
  }
});

describe('validateResponse: a vote for a label whose answer was refused as the same as another', () => {
  const aliases = new Map([['agent3', 'agent2']]);

  it('counts for the answer it matched, and says so', () => {
    const c = vote('agent3', 'mine');
    const v = validateResponse([c], ctx({ sameAs: aliases }));
    assert.deepEqual(v, { kind: 'vote', call: c, targetLabel: 'agent2', reason: 'mine', note: "agent3 has no answer of its own (its answer was the same as agent2's), so your vote counts for agent2." });
  });

  it('is refused as before when the label has no such match, or the matched answer is not one the voter saw', () => {
    assert.equal(expectInvalid(validateResponse([vote('agent3')], ctx())).summary, 'invalid agent_id agent3');
    assert.equal(expectInvalid(validateResponse([vote('agent3')], ctx({ sameAs: aliases, labelsWithAnswers: ['agent1'] }))).summary, 'invalid agent_id agent3');
  });

  it('a label with an answer of its own is voted for as it is', () => {
    const c = vote('agent1');
    assert.deepEqual(validateResponse([c], ctx({ sameAs: new Map([['agent1', 'agent2']]) })), { kind: 'vote', call: c, targetLabel: 'agent1', reason: '' });
  });
});

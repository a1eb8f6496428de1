// The engine and the providers' prompt caches: agents on one cached backend share the start of their prompts, and
// the first request with a start goes alone so the others can read it from the cache.

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { reply, type Script } from '../providers/scripted';
import type { ModelRequest } from '../providers/types';
import { CACHE_POLICIES, type PromptCachePolicy } from '../usage/cache';
import { boardHasAnswers, runTeam } from '../../../test/helpers/test-team';

// Long enough (about 1,500 tokens) that the task alone is over every cache's minimum.
const LONG_TASK = `Review this module and fix its bugs:\n${'const value = compute(input); // a line of the module under review\n'.repeat(90)}`;

/** Answers first (after `delayMs`), then votes for agent1; records when each request reached the model. */
function answerThenVote(text: string, sentAt: number[], delayMs = 40): Script {
  return (request) => {
    sentAt.push(performance.now());
    return boardHasAnswers(request) ? reply.vote('agent1', 'fine', { delayMs: 5 }) : reply.answer(text, { delayMs });
  };
}

function team(policy: PromptCachePolicy | undefined, options: { wait?: number; task?: string; delayMs?: number } = {}) {
  const sentAt: Record<string, number[]> = { a: [], b: [], c: [] };
  const run = runTeam(
    ['a', 'b', 'c'].map((id) => ({ id, model: 'shared-model', promptCache: policy, script: answerThenVote(`Answer from ${id}: ${'a reasoned fix. '.repeat(60)}`, sentAt[id], options.delayMs) })),
    { task: options.task ?? LONG_TASK, orchestrator: { promptCacheWaitSeconds: options.wait ?? 5 } },
  );
  return { run, sentAt };
}

const start = (r: ModelRequest) => (r.messages[0].role === 'user' ? r.messages[0].content.slice(0, r.messages[0].sharedChars) : '');

describe('engine: prompts the agents share, under a prompt cache', () => {
  it('sends the first request with a shared start alone; the others go once its response has begun', async () => {
    const { run, sentAt } = team(CACHE_POLICIES.anthropic);
    await run.result;
    const firsts = ['a', 'b', 'c'].map((id) => ({ id, sent: sentAt[id][0], began: run.providers[id].began[0] }));
    const leader = firsts.reduce((x, y) => (y.sent < x.sent ? y : x));
    for (const f of firsts.filter((f) => f !== leader)) assert.ok(f.sent >= leader.began, `${f.id} was sent ${(leader.began - f.sent).toFixed(1)} ms before the leader began`);
    const heads = ['a', 'b', 'c'].map((id) => run.requests(id)[0]);
    assert.ok(heads.every((r) => r.system === heads[0].system && JSON.stringify(r.tools) === JSON.stringify(heads[0].tools) && start(r) === start(heads[0])));
    assert.equal(new Set(['a', 'b', 'c'].flatMap((id) => run.requests(id).map((r) => r.cacheKey))).size, 1, 'one prompt_cache_key for the run');
  });

  it('sends together with prompt_cache_wait_seconds 0, without a known cache, or when the start is under the minimum', async () => {
    for (const [policy, wait, task] of [
      [CACHE_POLICIES.anthropic, 0, LONG_TASK],
      [undefined, 5, LONG_TASK],
      [CACHE_POLICIES.anthropic, 5, 'What is 2 + 2?'],
    ] as const) {
      const { run, sentAt } = team(policy, { wait, task });
      await run.result;
      const began = Math.min(...['a', 'b', 'c'].map((id) => run.providers[id].began[0]));
      assert.ok(['a', 'b', 'c'].every((id) => sentAt[id][0] < began), `all three sent before any began (${String(policy?.mode)}, wait ${wait})`);
    }
  });

  it('shows every agent the same fresh prompt once answers arrive (task and board first), and carries conversations on without a cache', async () => {
    // A short task: the board, not the task, takes the prompt over the cache's minimum.
    const cached = team(CACHE_POLICIES.gemini, { task: 'What is 2 + 2?' });
    await cached.run.result;
    const second = ['a', 'b', 'c'].map((id) => cached.run.requests(id)[1]);
    assert.ok(second.every((r) => r.messages.length === 1), 'rebuilt from the board');
    assert.equal(new Set(second.map(start)).size, 1, 'the same task and board for all');
    assert.match(start(second[0]), /<CURRENT ANSWERS from the agents>[\s\S]*agent3/);
    assert.ok(second.every((r) => r.cacheHead !== false), 'its start is marked for the cache: the others read it');

    const plain = team(undefined, { task: 'What is 2 + 2?' });
    await plain.run.result;
    assert.ok(['a', 'b', 'c'].every((id) => plain.run.requests(id)[1].messages.length > 1), 'appended: the agent keeps its conversation');
  });

  it('a cancel reaches requests waiting for the leader: they are never sent', async () => {
    const { run } = team(CACHE_POLICIES.anthropic, { delayMs: 60_000 });
    // The leader's response begins after a quarter of its 60 s: the others wait (up to 5 s).
    await new Promise((resolve) => setTimeout(resolve, 100));
    run.orchestrator.cancel();
    const result = await run.result;
    assert.equal(result.reason, 'cancelled');
    assert.deepEqual(['a', 'b', 'c'].map((id) => run.providers[id].requests.length).sort(), [0, 0, 1]);
  });
});

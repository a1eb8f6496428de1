import assert from 'node:assert/strict';
import { answerNowRefusal } from './answer-now';

describe('answerNowRefusal', () => {
  const answer = { agentId: 'a', label: 'agent1.1' } as never;

  it('ends a coordinating run that has an answer', () => {
    assert.equal(answerNowRefusal({ phase: 'coordinating', answers: [answer] }), undefined);
  });

  it('refuses before the first answer, and says what to do instead', () => {
    assert.match(answerNowRefusal({ phase: 'coordinating', answers: [] }) ?? '', /no agent has answered yet.*cancel/);
    assert.match(answerNowRefusal({ phase: 'idle', answers: [] }) ?? '', /no agent has answered yet/);
  });

  it('refuses once the agents are done: it would only abort the final answer', () => {
    for (const phase of ['presenting', 'done'] as const) assert.match(answerNowRefusal({ phase, answers: [answer] }) ?? '', /agents are done/);
  });
});

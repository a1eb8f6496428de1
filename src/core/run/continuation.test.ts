import assert from 'node:assert/strict';
import { continuationTask, noteFollowUp } from './continuation';

describe('continuation: a follow-up with a note that reached no agent', () => {
  it('after a final answer, the note is the follow-up to it, its change included', () => {
    const f = noteFollowUp({ question: 'Sum the list', answer: 'Use a loop.', patch: '--- a/x\n+++ b/x\n' }, 'Never use recursion.');
    assert.deepEqual(f, { task: 'Never use recursion.', continues: { question: 'Sum the list', answer: 'Use a loop.', patch: '--- a/x\n+++ b/x\n' } });
    assert.match(continuationTask(f.continues!, f.task), /Final answer:\nUse a loop\.[^]*Follow-up: Never use recursion\./);
  });

  it('without one (a cancel), the question is asked again with the note', () => {
    const f = noteFollowUp({ question: 'Sum the list', answer: null }, 'Never use recursion.');
    assert.equal(f.continues, undefined);
    assert.match(f.task, /^Sum the list\n\nNOTE FROM THE USER[^\n]*\n- Never use recursion\.$/);
  });
});

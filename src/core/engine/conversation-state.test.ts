import assert from 'node:assert/strict';
import { Conversation } from './conversation-state';

describe('Conversation: checkpoint and restore', () => {
  it('restores a conversation rebuilt after the checkpoint: the old messages, whole, with no holes', () => {
    const c = new Conversation();
    c.startAfresh({ role: 'user', content: 'board' });
    c.append({ role: 'assistant', content: 'thinking' });
    c.append({ role: 'user', content: 'update' });
    const before = c.checkpoint();
    c.startAfresh({ role: 'user', content: 'shortened board' }, { shortened: true });
    c.markSeen([{ agentId: 'b', version: 2 }], 5);
    c.restore(before);
    assert.deepEqual(c.messages.map((m) => m.content), ['board', 'thinking', 'update']);
    assert.equal(c.readsAnswers, false);
    assert.equal(c.seenRevision, 0);
    assert.equal(c.seen.size, 0);
  });

  it('text added to a trailing user message is undone too: the message is copied, never edited', () => {
    const c = new Conversation();
    c.startAfresh({ role: 'user', content: 'board' });
    const before = c.checkpoint();
    const first = c.messages[0];
    c.appendUserText('NEW ANSWERS');
    assert.equal(c.messages.length, 1);
    assert.equal(c.messages[0].content, 'board\n\nNEW ANSWERS');
    assert.equal(first.content, 'board', 'the message object the checkpoint holds is unchanged');
    c.restore(before);
    assert.equal(c.messages[0].content, 'board');
  });

  it('keeps message identity across a restore (the answer call is found by identity)', () => {
    const c = new Conversation();
    const said = { role: 'assistant' as const, content: '', toolCalls: [] };
    c.append(said);
    c.recordAnswerCall(1, said);
    const before = c.checkpoint();
    c.startAfresh({ role: 'user', content: 'fresh' }, { compacted: true });
    assert.equal(c.holds(said), false);
    assert.equal(c.compacted, true);
    c.restore(before);
    assert.equal(c.holds(said), true);
    assert.equal(c.answerCall?.message, said);
    assert.equal(c.compacted, false);
  });

  it('a checkpoint is not changed by what happens after it (restoring twice gives the same state)', () => {
    const c = new Conversation();
    c.markSeen([{ agentId: 'a', version: 1 }], 1);
    const before = c.checkpoint();
    c.markSeen([{ agentId: 'a', version: 2 }], 2);
    c.restore(before);
    c.markSeen([{ agentId: 'a', version: 3 }], 3);
    c.restore(before);
    assert.equal(c.seen.get('a'), 1);
    assert.equal(c.seenRevision, 1);
  });
});

import assert from 'node:assert/strict';
import { parseNoteLine } from './notes';

describe('cli notes: one line', () => {
  it('a note to everyone, to one agent, one that changes the task, and answer now', () => {
    assert.deepEqual(parseNoteLine('  Prefer the standard library. '), { kind: 'note', text: 'Prefer the standard library.', changesTask: false });
    assert.deepEqual(parseNoteLine('@Agent2 look at the edge cases'), { kind: 'note', text: 'look at the edge cases', changesTask: false, agentLabel: 'agent2' });
    assert.deepEqual(parseNoteLine('/change the input may be negative'), { kind: 'note', text: 'the input may be negative', changesTask: true });
    assert.deepEqual(parseNoteLine('/change @agent1 only you: use BigInt'), { kind: 'note', text: 'only you: use BigInt', changesTask: true, agentLabel: 'agent1' });
    assert.deepEqual(parseNoteLine('/answer'), { kind: 'answer' });
    assert.deepEqual(parseNoteLine(' /escalate '), { kind: 'escalate' });
    assert.deepEqual(parseNoteLine('/escalate now please'), { kind: 'unknown', command: '/escalate' }, 'a command takes no text');
  });

  it('empty lines and unknown commands', () => {
    assert.deepEqual(parseNoteLine('   '), { kind: 'empty' });
    assert.deepEqual(parseNoteLine('@agent3   '), { kind: 'empty' });
    assert.deepEqual(parseNoteLine('/change'), { kind: 'empty' });
    assert.deepEqual(parseNoteLine('/stop now'), { kind: 'unknown', command: '/stop' });
  });
});

import assert from 'node:assert/strict';
import { RAW_ARGUMENTS_KEY, toolInput, toTurns, type Turn } from './turns';
import type { ChatMessage } from './types';

/** Parts as plain strings: `result:<id>` for a tool result, `call:<name>` for a tool call, else the text. */
function toTurn(message: ChatMessage): Turn<string, string> {
  switch (message.role) {
    case 'user':
      return { role: 'user', parts: message.content ? [message.content] : [] };
    case 'tool':
      return { role: 'user', parts: [`result:${message.toolCallId}`] };
    case 'assistant':
      return { role: 'assistant', parts: [...(message.content ? [message.content] : []), ...(message.toolCalls ?? []).map((c) => `call:${c.name}`)] };
  }
}

describe('turns for APIs without a tool role', () => {
  it('merges same-role messages into alternating turns, tool results first, and drops empty turns', () => {
    const turns = toTurns(
      [
        { role: 'user', content: 'task' },
        { role: 'user', content: 'more' },
        { role: 'assistant', content: 'Let me answer.', toolCalls: [{ id: 'c1', name: 'new_answer', arguments: '{}' }] },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'update' },
        { role: 'tool', toolCallId: 'c1', name: 'new_answer', content: 'ok' },
        { role: 'user', content: '' },
        { role: 'assistant', content: 'done' },
      ],
      toTurn,
      (part) => part.startsWith('result:'),
    );
    assert.deepEqual(turns, [
      { role: 'user', parts: ['task', 'more'] },
      { role: 'assistant', parts: ['Let me answer.', 'call:new_answer'] },
      { role: 'user', parts: ['result:c1', 'update'] },
      { role: 'assistant', parts: ['done'] },
    ]);
  });

  it('replays tool arguments as an object, wrapping malformed or non-object ones with the raw text', () => {
    assert.equal(RAW_ARGUMENTS_KEY, '_raw_arguments');
    assert.deepEqual(toolInput('{"a":1}'), { a: 1 });
    assert.deepEqual(toolInput(''), {});
    assert.deepEqual(toolInput('  '), {});
    assert.deepEqual(toolInput('{"content": "unterminated'), { [RAW_ARGUMENTS_KEY]: '{"content": "unterminated' });
    assert.deepEqual(toolInput('[1,2]'), { [RAW_ARGUMENTS_KEY]: '[1,2]' });
    assert.deepEqual(toolInput('null'), { [RAW_ARGUMENTS_KEY]: 'null' });
  });
});

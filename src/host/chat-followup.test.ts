import assert from 'node:assert/strict';
import { continuationTask } from '../core/run/continuation';
import { isNoteRequest, MAX_CONTINUED_PATCH_CHARS, noteSentMarkdown, previousRunOf } from './chat-followup';

describe('chat follow-ups', () => {
  it('a plain prompt while a run is going is a note; slash commands, empty prompts and idle times are not', () => {
    assert.equal(isNoteRequest({ prompt: 'use metric units' }, true), true);
    assert.equal(isNoteRequest({ prompt: 'use metric units' }, false), false, 'no run going: a new run');
    assert.equal(isNoteRequest({ prompt: 'another question', command: 'run' }, true), false, '/run starts a run on purpose');
    assert.equal(isNoteRequest({ prompt: 'rename it', command: 'edit' }, true), false);
    assert.equal(isNoteRequest({ prompt: '', command: 'agents' }, true), false);
    assert.equal(isNoteRequest({ prompt: '  \n ' }, true), false);
  });

  it('the reply says it went to the run as a note, how to answer now, and how to start a run instead', () => {
    const md = noteSentMarkdown({ title: 'Refactor parse()\nin util.ts', agents: 2 });
    assert.match(md, /still working on \*\*Refactor parse\(\) in util\.ts\*\*/);
    assert.match(md, /went to its 2 agents as a note/);
    assert.match(md, /Answer now/);
    assert.match(md, /@massgen \/run/);
    assert.match(noteSentMarkdown({ title: 't', agents: 1 }), /its 1 agent as a note/);
  });

  it('the previous run carries the question, the answer and the winner\u2019s change, in the CLI\u2019s <PREVIOUS RUN> block', () => {
    const patch = 'diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';
    const previous = previousRunOf({ question: 'Set x to 2', answer: 'Done: x is 2.' }, patch);
    assert.deepEqual(previous, { question: 'Set x to 2', answer: 'Done: x is 2.', patch });
    const task = continuationTask(previous, 'Now add a test');
    assert.match(task, /^<PREVIOUS RUN>\nQuestion: Set x to 2\nFinal answer:\nDone: x is 2\.\nThe change it made/);
    assert.ok(task.includes('+x = 2'));
    assert.match(task, /Follow-up: Now add a test$/);
    assert.deepEqual(previousRunOf({ question: 'Q', answer: 'A' }, undefined), { question: 'Q', answer: 'A' }, 'no change: none is claimed');
    assert.deepEqual(previousRunOf({ question: 'Q', answer: 'A' }, ''), { question: 'Q', answer: 'A' });
  });

  it('a huge change is cut at a line end, and says so', () => {
    const line = '+' + 'x'.repeat(99) + '\n';
    const patch = line.repeat(Math.ceil((MAX_CONTINUED_PATCH_CHARS * 2) / line.length));
    const kept = previousRunOf({ question: 'Q', answer: 'A' }, patch).patch!;
    assert.ok(kept.length <= MAX_CONTINUED_PATCH_CHARS + 60, `${kept.length} characters`);
    const body = kept.slice(0, kept.lastIndexOf('…'));
    assert.ok(body.endsWith('\n') && body.split('\n').slice(0, -1).every((l) => l === line.slice(0, -1)), 'whole lines only');
    assert.match(kept, /… \(the rest of the diff is not shown\)\n$/);
  });
});

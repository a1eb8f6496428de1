import assert from 'node:assert/strict';
import type { CheckResult } from '../engine/events';
import type { ChoiceItem, CodeItem, QaItem } from './dataset';
import { scoreRun } from './scoring';
import { taskText } from './task-text';

const qa: QaItem = { kind: 'qa', id: 'q', index: 0, line: 1, question: 'How many metres in a km?', answers: ['1000', 'one thousand'] };
const mc: ChoiceItem = { kind: 'choice', id: 'm', index: 1, line: 2, question: 'Red planet?', choices: ['Venus', 'Mars'], answer: 'B' };
const code: CodeItem = { kind: 'code', id: 'c', index: 2, line: 3, task: 'Fix add()', workspace: '/w', checks: [{ name: 'test', command: 'npm test', timeoutSeconds: 60, required: true }] };
const check = (name: string, status: CheckResult['status'], required = true): CheckResult => ({ name, required, status, exitCode: status === 'passed' ? 0 : 1, durationMs: 5, output: '', cached: false });

describe('eval scoring', () => {
  it('short answers: normalised exact match against any accepted spelling', () => {
    assert.deepEqual(scoreRun(qa, { finalAnswer: 'Kilo means thousand.\nAnswer: 1,000.0' }), { correct: true, extracted: '1,000.0', key: '1000' });
    assert.equal(scoreRun(qa, { finalAnswer: 'Answer: One Thousand' }).correct, true);
    assert.deepEqual(scoreRun(qa, { finalAnswer: 'Answer: 100' }), { correct: false, extracted: '100', key: '100' });
    assert.equal(scoreRun(qa, { finalAnswer: 'It is about 1000 or so' }).correct, false, 'no substring credit');
    assert.equal(scoreRun(qa, { finalAnswer: 'Lots of reasoning.\n1000' }).correct, true, 'an unmarked last line');
    assert.deepEqual(scoreRun(qa, { finalAnswer: null }), { correct: false, extracted: null, key: null });
  });

  it('two right answers share a key, whatever their spelling', () => {
    assert.equal(scoreRun(qa, { finalAnswer: 'Answer: 1000' }).key, scoreRun(qa, { finalAnswer: 'Answer: 1,000' }).key);
  });

  it('multiple choice: the letter chosen', () => {
    assert.deepEqual(scoreRun(mc, { finalAnswer: 'Answer: B' }), { correct: true, extracted: 'B', key: 'B' });
    assert.deepEqual(scoreRun(mc, { finalAnswer: 'Venus, surely.' }), { correct: false, extracted: 'A', key: 'A' });
    assert.deepEqual(scoreRun(mc, { finalAnswer: 'no idea' }), { correct: false, extracted: null, key: null });
  });

  it('code tasks: right only when every required check passed on the winner', () => {
    assert.deepEqual(scoreRun(code, { finalAnswer: 'fixed', winnerChecks: [check('test', 'passed'), check('lint', 'failed', false)], changeId: 't1' }), { correct: true, extracted: null, key: 't1', failedChecks: [] });
    assert.deepEqual(scoreRun(code, { finalAnswer: 'fixed', winnerChecks: [check('test', 'failed')], changeId: 't2' }).failedChecks, ['test']);
    assert.equal(scoreRun(code, { finalAnswer: 'fixed', winnerChecks: [check('test', 'timeout')] }).correct, false);
    assert.deepEqual(scoreRun(code, { finalAnswer: 'fixed' }), { correct: false, extracted: null, key: null, failedChecks: null }, 'no check ran: not verified, not right');
  });

  it('every system gets the same task text, which asks for a marked answer', () => {
    assert.equal(taskText(qa), 'How many metres in a km?\n\nGive your reasoning if you need to, then end with a final line of the form "Answer: <your short answer>".');
    assert.equal(taskText(mc), 'Red planet?\n\nA. Venus\nB. Mars\n\nChoose one of A–B. Give your reasoning if you need to, then end with a final line of the form "Answer: <letter>".');
    assert.equal(taskText(code), 'Fix add()');
  });
});

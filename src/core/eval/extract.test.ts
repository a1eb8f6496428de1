import assert from 'node:assert/strict';
import { answerCandidates, extractChoice, markedAnswer } from './extract';

describe('eval answer extraction', () => {
  it('reads the marked answer: the last "Answer:" line, else \\boxed{}', () => {
    assert.equal(markedAnswer('Let me think.\nAnswer: Paris'), 'Paris');
    assert.equal(markedAnswer('Answer: 3\nWait, no.\nFinal answer: **4**'), '4');
    assert.equal(markedAnswer('**Answer:** `42`'), '42');
    assert.equal(markedAnswer('The answer is: Lyon'), 'Lyon');
    assert.equal(markedAnswer('So $x = \\boxed{\\frac{1}{2}}$.'), '\\frac{1}{2}');
    assert.equal(markedAnswer('No mark here.'), null);
    assert.equal(markedAnswer('Answer:   '), null);
  });

  it('without a mark, the whole reply and its last line are candidates', () => {
    assert.deepEqual(answerCandidates('Paris'), ['Paris']);
    assert.deepEqual(answerCandidates('Thinking...\n\nParis\n'), ['Thinking...\n\nParis', 'Paris']);
    assert.deepEqual(answerCandidates('Reasoning mentions Paris.\nAnswer: Lyon'), ['Lyon'], 'a marked answer is the only candidate');
    assert.deepEqual(answerCandidates('   '), []);
  });

  const choices = ['Venus', 'Mars', 'Jupiter', 'Saturn'];
  it('multiple choice: the letter, in its usual spellings', () => {
    for (const reply of ['B', '(B)', 'b', 'B.', '**B**', 'Answer: B', 'Answer: (B) Mars', 'answer: b', 'B. Mars', 'Reasoning…\nB', 'The answer is (B).', 'Final answer: **B**']) assert.equal(extractChoice(reply, choices), 'B', reply);
  });

  it('multiple choice: the text of exactly one choice', () => {
    assert.equal(extractChoice('Answer: Mars', choices), 'B');
    assert.equal(extractChoice('It is clearly mars.', choices), 'B');
    assert.equal(extractChoice('Mars or Venus', choices), null, 'two choices named');
    assert.equal(extractChoice('Answer: Paris, Texas', ['Paris', 'Paris, Texas', 'Austin']), 'B', 'a choice inside a longer one does not count');
  });

  it('multiple choice: nothing chosen, or a letter out of range', () => {
    assert.equal(extractChoice('a prime number', choices), null, 'the article "a" is not choice A');
    assert.equal(extractChoice('Answer: E', choices), null);
    assert.equal(extractChoice('I do not know.', choices), null);
    assert.equal(extractChoice('Answer: A\nAnswer: C', choices), 'C', 'the last mark counts');
  });
});

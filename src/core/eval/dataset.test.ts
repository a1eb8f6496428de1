import assert from 'node:assert/strict';
import { DatasetError, expectedOf, parseDataset, type CodeItem } from './dataset';

const opts = { baseDir: '/data', isDirectory: (p: string) => p === '/data/project' || p === '/abs/repo' };
const parse = (lines: unknown[]) => parseDataset(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'), 'd.jsonl', opts);
const problems = (lines: unknown[]) => {
  try {
    parse(lines);
  } catch (err) {
    if (err instanceof DatasetError) return err.problems.map((p) => `${p.line}: ${p.message}`);
    throw err;
  }
  assert.fail('expected a DatasetError');
};

describe('eval datasets', () => {
  it('reads the three kinds, skipping blank lines and a BOM', () => {
    const items = parseDataset(
      '\uFEFF{"id": "q1", "question": "Capital of France?", "answer": "Paris"}\n\n' +
        '{"id": 2, "question": "Red planet?", "choices": ["Venus", "Mars"], "answer": "b"}\r\n' +
        '{"id": "c", "task": "Fix it", "workspace": "project", "checks": ["npm test", {"name": "lint", "command": "npm run lint", "required": false, "timeout_seconds": 30}]}\n',
      'd.jsonl',
      opts,
    );
    assert.deepEqual(items[0], { kind: 'qa', id: 'q1', index: 0, line: 1, question: 'Capital of France?', answers: ['Paris'] });
    assert.deepEqual(items[1], { kind: 'choice', id: '2', index: 1, line: 3, question: 'Red planet?', choices: ['Venus', 'Mars'], answer: 'B' });
    const code = items[2] as CodeItem;
    assert.equal(code.workspace, '/data/project', 'relative to the dataset file');
    assert.deepEqual(code.checks, [
      { name: 'npm test', command: 'npm test', timeoutSeconds: 300, required: true },
      { name: 'lint', command: 'npm run lint', timeoutSeconds: 30, required: false },
    ]);
    assert.equal(expectedOf(items[1]), 'B. Mars');
    assert.equal(expectedOf(code), 'checks pass: npm test');
  });

  it('accepts several spellings, numbers, and a choice given by its text', () => {
    const [a, b] = parse([{ id: 'a', question: 'q', answer: [1000, 'one thousand'] }, { id: 'b', question: 'q', choices: ['Venus', 'Mars'], answer: 'mars' }]);
    assert.deepEqual((a as { answers: string[] }).answers, ['1000', 'one thousand']);
    assert.equal((b as { answer: string }).answer, 'B');
  });

  it('names every bad line with its number and what to do', () => {
    assert.deepEqual(problems([
      { id: 'ok', question: 'q', answer: 'a' },
      '{"id": "x", "question": ',
      { question: 'q', answer: 'a' },
      { id: 'ok', question: 'q', answer: 'a' },
      { id: 'm', question: 'q', choices: ['a', 'b'], answer: 'C' },
      { id: 'm2', question: 'q', choices: ['only one'], answer: 'A' },
      { id: 'p', question: 'q', answer: '?!' },
      { id: 'c', task: 't', workspace: 'missing', checks: ['x'] },
      { id: 'c2', task: 't', workspace: '/abs/repo', checks: [] },
      { id: 'both', task: 't', question: 'q' },
      '"just a string"',
      { id: 'n', question: '', answer: 'a' },
    ]), [
      '2: not valid JSON (Unexpected end of JSON input); each line must be one JSON object',
      '3: "id" is missing: give every item a unique id (a string or an integer)',
      '4: the id "ok" is already used on line 1; ids must be unique (results are keyed by them)',
      '5: "answer" "C" is not one of the 2 choices (A–B)',
      '6: "choices" must be a list of at least two strings',
      '7: the answer "?!" has nothing left to compare once case and punctuation are ignored',
      '8: the workspace /data/missing is not a folder',
      '9: "checks" must list at least one command that passes when the task is done, e.g. ["npm test"]',
      '10: has both "task" (a code task) and "question" (a question); an item is one or the other',
      '11: each line must be a JSON object such as {"id": "q1", "question": "…", "answer": "…"}',
      '12: "question" must be a non-empty string',
    ]);
  });

  it('the error message lists file:line for each problem, at most 20', () => {
    const lines = Array.from({ length: 25 }, (_, i) => ({ id: `x${i}`, question: 'q' }));
    try {
      parse(lines);
      assert.fail('expected an error');
    } catch (err) {
      assert.ok(err instanceof DatasetError);
      assert.equal(err.problems.length, 20);
      assert.match(err.message, /^d\.jsonl: 25 problem\(s\):\n {2}d\.jsonl:1: "answer" is missing/);
      assert.match(err.message, /… and 5 more$/);
    }
  });

  it('an empty dataset is an error', () => {
    assert.throws(() => parseDataset('\n\n', 'd.jsonl', opts), /the dataset has no items/);
  });

  it('code tasks: checks must be usable', () => {
    assert.deepEqual(problems([{ id: 'c', task: 't', workspace: 'project', checks: [{ command: 'a', required: false }] }]), ['1: every check is "required": false, so nothing decides whether the task is done']);
    assert.deepEqual(problems([{ id: 'c', task: 't', workspace: 'project', checks: ['npm test', { name: 'npm test', command: 'npm t' }] }]), ['1: two checks are named "npm test"; give each a different "name"']);
    assert.deepEqual(problems([{ id: 'c', task: 't', workspace: 'project', checks: [{ command: 'x', timeout_seconds: -1 }] }]), ['1: check 1: "timeout_seconds" must be a number of seconds between 0 and 3600']);
  });
});

import assert from 'node:assert/strict';
import type { FileChange } from '../../core/workspace/changes';
import { outcomeOf, partlyApplied, recordApplied, undoSteps } from './applied-files';

const util: FileChange = { relativePath: 'src/util.js', kind: 'modified', before: 'a\nb\nc\n', after: 'A\nb\nC\n' };
const main: FileChange = { relativePath: 'src/main.js', kind: 'modified', before: 'x\n', after: 'y\n' };
const added: FileChange = { relativePath: 'NEW.md', kind: 'added', after: 'new\n' };
const gone: FileChange = { relativePath: 'old.txt', kind: 'deleted', before: 'old\n' };

describe('applied files (what the refactor preview really wrote, and its Undo)', () => {
  it('reads each file back: the winner\u2019s text, the text before, or part of the hunks; line ends do not count', () => {
    assert.equal(outcomeOf(util, 'A\r\nb\r\nC\r\n'), 'applied');
    assert.equal(outcomeOf(util, 'a\nb\nc\n'), 'notApplied');
    assert.equal(outcomeOf(util, 'A\nb\nc\n'), 'partly', 'one of two hunks ticked');
    assert.equal(outcomeOf(added, undefined), 'notApplied');
    assert.equal(outcomeOf(added, 'new\n'), 'applied');
    assert.equal(outcomeOf(gone, 'old\n'), 'notApplied');
    assert.equal(outcomeOf(gone, undefined), 'applied');
  });

  it('records only what was applied, with the text it left, against how many files were proposed', () => {
    const record = recordApplied([util, main, added, gone], new Map([['src/util.js', 'A\nb\nc\n'], ['src/main.js', 'x\n'], ['NEW.md', 'new\n'], ['old.txt', undefined]]));
    assert.deepEqual(record, {
      proposed: 4,
      files: [
        { relativePath: 'src/util.js', kind: 'modified', outcome: 'partly', before: 'a\nb\nc\n', left: 'A\nb\nc\n' },
        { relativePath: 'NEW.md', kind: 'added', outcome: 'applied', before: undefined, left: 'new\n' },
        { relativePath: 'old.txt', kind: 'deleted', outcome: 'applied', before: 'old\n', left: undefined },
      ],
    });
    assert.deepEqual(partlyApplied(record), ['src/util.js']);
    assert.deepEqual(recordApplied([util, main], new Map([['src/util.js', 'a\nb\nc\n'], ['src/main.js', 'x\n']])), { proposed: 2, files: [] }, 'nothing applied');
  });

  it('Undo puts back a file whose text is still what the apply left, partly applied ones included, and names the others', () => {
    const record = recordApplied([util, main, added, gone], new Map([['src/util.js', 'A\nb\nc\n'], ['src/main.js', 'y\n'], ['NEW.md', 'new\n'], ['old.txt', undefined]]));
    const { steps, changedSince } = undoSteps(record, new Map([['src/util.js', 'A\r\nb\r\nc\r\n'], ['src/main.js', 'y\n// mine\n'], ['NEW.md', 'new\n'], ['old.txt', undefined]]));
    assert.deepEqual(steps, [
      { relativePath: 'src/util.js', action: 'write', text: 'a\nb\nc\n', create: false },
      { relativePath: 'NEW.md', action: 'delete' },
      { relativePath: 'old.txt', action: 'write', text: 'old\n', create: true },
    ]);
    assert.deepEqual(changedSince, ['src/main.js'], 'edited by the user since');
    assert.deepEqual(undoSteps(record, new Map([['src/util.js', 'A\nb\nc\n'], ['src/main.js', 'y\n'], ['NEW.md', 'new\n'], ['old.txt', 'recreated\n']])).changedSince, ['old.txt']);
  });
});

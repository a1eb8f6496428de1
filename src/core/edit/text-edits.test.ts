import assert from 'node:assert/strict';
import { applyEdits, lineEdits } from './text-edits';

describe('edit/text-edits: the smallest line edits between two texts', () => {
  const cases: [string, string, string][] = [
    ['one changed line', 'a\nb\nc\n', 'a\nB\nc\n'],
    ['lines added at the end, no final newline', 'a\nb', 'a\nb\nc\nd'],
    ['lines removed at the start', 'x\ny\na\nb\n', 'a\nb\n'],
    ['two separate hunks', '1\n2\n3\n4\n5\n6\n', '1\nTWO\n3\n4\nFIVE\n6\n'],
    ['everything replaced', 'old\n', 'new\ntext\n'],
    ['from empty', '', 'created\n'],
    ['to empty', 'gone\n', ''],
    ['CRLF kept', 'a\r\nb\r\n', 'a\r\nc\r\n'],
    ['unchanged', 'same\n', 'same\n'],
  ];
  for (const [name, before, after] of cases) {
    it(`${name}: applying the edits gives the new text`, () => {
      assert.equal(applyEdits(before, lineEdits(before, after)), after);
    });
  }

  it('touches only the changed lines', () => {
    const before = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 40\n', 'line forty\n').replace('line 90\n', '');
    const edits = lineEdits(before, after);
    assert.equal(edits.length, 2);
    assert.equal(before.slice(edits[0].start, edits[0].end), 'line 40\n');
    assert.equal(edits[0].text, 'line forty\n');
    assert.equal(before.slice(edits[1].start, edits[1].end), 'line 90\n');
    assert.equal(edits[1].text, '');
  });

  it('no edits for equal texts', () => {
    assert.deepEqual(lineEdits('a\nb\n', 'a\nb\n'), []);
  });
});

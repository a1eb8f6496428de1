import assert from 'node:assert/strict';
import { buildSelectionTask, fenceFor } from './selection-task';

describe('selection task prompt', () => {
  const base = { instruction: '  Add error handling  ', path: 'src/a.ts', languageId: 'typescript', startLine: 3, endLine: 9, code: 'const x = 1;', wholeFile: false };

  it('states the instruction, the place and the code in a fence of the right language', () => {
    const p = buildSelectionTask(base);
    assert.ok(p.startsWith('Add error handling\n'));
    assert.match(p, /Apply this to lines 3–9 of src\/a\.ts \(typescript\):\n```typescript\nconst x = 1;\n```/);
    assert.match(p, /complete replacement in one fenced code block/);
  });

  it('says "whole file" when nothing was selected', () => {
    assert.match(buildSelectionTask({ ...base, wholeFile: true }), /Apply this to the whole file src\/a\.ts/);
  });

  it('uses a fence longer than any backtick run in the code', () => {
    assert.equal(fenceFor('no ticks'), '```');
    assert.equal(fenceFor('a ```` b'), '`````');
    const p = buildSelectionTask({ ...base, code: 'md with ```js\nx\n```' });
    assert.match(p, /````typescript\nmd with ```js/);
  });
});

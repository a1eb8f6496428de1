import assert from 'node:assert/strict';
import { applyToText, lineDiffStats, reanchorSelection, type ReanchorResult } from './reanchor';

/** Selection of the first occurrence of `needle` in `doc`. */
function sel(doc: string, needle: string): { start: number; end: number } {
  const start = doc.indexOf(needle);
  assert.ok(start >= 0, `fixture: ${JSON.stringify(needle)} not in doc`);
  return { start, end: start + needle.length };
}

function expectOk(r: ReanchorResult): { start: number; end: number; shifted: boolean } {
  if (!r.ok) assert.fail(`expected ok, got refusal: ${r.reason}`);
  return r;
}

function expectRefused(r: ReanchorResult): { reason: string; kind: string } {
  if (r.ok) assert.fail(`expected a refusal, got ${r.start}–${r.end}`);
  return r;
}

/** Re-anchors and checks the invariant: the mapped range holds exactly the originally selected text. */
function reanchorText(originalDoc: string, currentDoc: string, needle: string) {
  const { start, end } = sel(originalDoc, needle);
  const r = expectOk(reanchorSelection({ originalDoc, currentDoc, start, end }));
  assert.equal(currentDoc.slice(r.start, r.end), needle);
  return r;
}

const DOC = [
  'import { a } from "./a";',
  '',
  'function add(x: number, y: number) {',
  '  return x + y;',
  '}',
  '',
  'export const z = add(1, 2);',
  '',
].join('\n');
const BODY = 'function add(x: number, y: number) {\n  return x + y;\n}\n';

describe('reanchorSelection', () => {
  it('returns the same offsets with shifted:false when the document is unchanged', () => {
    const { start, end } = sel(DOC, BODY);
    assert.deepEqual(reanchorSelection({ originalDoc: DOC, currentDoc: DOC, start, end }), { ok: true, start, end, shifted: false });
  });

  it('shifts the selection by the length of an edit before it', () => {
    const cur = DOC.replace('import { a } from "./a";', 'import { a, b } from "./a";\nimport c from "c";');
    const { start, end } = sel(DOC, BODY);
    const r = reanchorText(DOC, cur, BODY);
    assert.equal(r.shifted, true);
    assert.equal(r.start - start, cur.length - DOC.length);
    assert.equal(r.end - end, cur.length - DOC.length);
  });

  it('shifts backwards when text before the selection was deleted', () => {
    const cur = DOC.replace('import { a } from "./a";\n\n', '');
    const r = reanchorText(DOC, cur, BODY);
    assert.equal(r.start, 0);
    assert.equal(r.shifted, true);
  });

  it('keeps the offsets (shifted:false) when the only edit is after the selection', () => {
    const cur = DOC.replace('add(1, 2)', 'add(10, 20) + add(3, 4)') + '// trailing\n';
    const { start, end } = sel(DOC, BODY);
    const r = reanchorText(DOC, cur, BODY);
    assert.deepEqual(r, { ok: true, start, end, shifted: false });
  });

  it('handles edits both before and after the selection', () => {
    const cur = '// header\n' + DOC.replace('"./a"', '"./aa"').replace('add(1, 2)', 'add(2, 1)') + 'more();\n';
    const { start } = sel(DOC, BODY);
    const r = reanchorText(DOC, cur, BODY);
    assert.equal(r.start, start + '// header\n'.length + 1);
  });

  it('handles several separate edits before the selection', () => {
    const original = 'a1\na2\na3\na4\nSELECTED\nb1\n';
    const current = 'a1 changed\na2\nnew line\na3\na4\nSELECTED\nb1\n';
    const r = reanchorText(original, current, 'SELECTED\n');
    assert.equal(r.start, current.indexOf('SELECTED'));
  });

  it('tolerates an edit on the same line as the selection but outside the selected characters', () => {
    const original = 'const total = compute(a, b);\nconst other = 1;\n';
    const current = 'const sum = compute(a, b); // renamed\nconst other = 2;\n';
    const r = reanchorText(original, current, 'compute(a, b)');
    assert.equal(r.start, current.indexOf('compute(a, b)'));
  });

  it('tolerates edits on the lines around a multi-line selection, anchored by character diff', () => {
    const original = 'x = 1\nif ok:\n    run()\n    stop()\ny = 2\n';
    const current = 'x = 10\nif ok:\n    run()\n    stop()\ny = 20\n';
    reanchorText(original, current, 'if ok:\n    run()\n    stop()\n');
  });

  it('refuses when a selected line was edited, naming the line', () => {
    const cur = DOC.replace('return x + y;', 'return x - y;');
    const { start, end } = sel(DOC, BODY);
    const r = expectRefused(reanchorSelection({ originalDoc: DOC, currentDoc: cur, start, end }));
    assert.equal(r.kind, 'changed');
    assert.match(r.reason, /selected text \(lines 3–5\) was changed/);
    assert.match(r.reason, /line 4/);
  });

  it('refuses when a single character inside a one-line selection changed', () => {
    const original = 'let value = 41;\n';
    const current = 'let value = 42;\n';
    const { start, end } = sel(original, 'value = 41');
    const r = expectRefused(reanchorSelection({ originalDoc: original, currentDoc: current, start, end }));
    assert.equal(r.kind, 'changed');
  });

  it('refuses when a line was inserted inside the selection', () => {
    const cur = DOC.replace('  return x + y;\n', '  console.log(x);\n  return x + y;\n');
    const { start, end } = sel(DOC, BODY);
    const r = expectRefused(reanchorSelection({ originalDoc: DOC, currentDoc: cur, start, end }));
    assert.equal(r.kind, 'changed');
    assert.match(r.reason, /inserted at line 4/);
  });

  it('refuses when part of the selection was deleted', () => {
    const cur = DOC.replace('  return x + y;\n', '');
    const { start, end } = sel(DOC, BODY);
    const r = expectRefused(reanchorSelection({ originalDoc: DOC, currentDoc: cur, start, end }));
    assert.equal(r.kind, 'changed');
    assert.match(r.reason, /partly deleted/);
  });

  it('refuses with kind "deleted" when the whole selection was deleted', () => {
    const cur = DOC.replace(BODY, '');
    const { start, end } = sel(DOC, BODY);
    const r = expectRefused(reanchorSelection({ originalDoc: DOC, currentDoc: cur, start, end }));
    assert.equal(r.kind, 'deleted');
    assert.match(r.reason, /lines 3–5\) was deleted/);
  });

  it('refuses with kind "deleted" when the selection was replaced wholesale', () => {
    const cur = DOC.replace(BODY, 'const add = (x: number, y: number) => x + y;\n');
    const { start, end } = sel(DOC, BODY);
    const r = expectRefused(reanchorSelection({ originalDoc: DOC, currentDoc: cur, start, end }));
    assert.ok(r.kind === 'deleted' || r.kind === 'changed', r.kind);
    assert.match(r.reason, /selected text \(lines 3–5\)/);
  });

  it('refuses when the selected block was moved past more text than it holds', () => {
    // (Moving it past fewer lines than it has is indistinguishable from moving those lines the other way, and the
    // selected text then legitimately stays anchored; the invariant test below covers that.)
    const rest = 'one();\ntwo();\nthree();\nfour();\nfive();\n';
    const original = BODY + rest;
    const cur = rest + BODY;
    const r = expectRefused(reanchorSelection({ originalDoc: original, currentDoc: cur, start: 0, end: BODY.length }));
    assert.equal(r.kind, 'deleted');
  });

  it('refuses when the document became empty', () => {
    const { start, end } = sel(DOC, BODY);
    const r = expectRefused(reanchorSelection({ originalDoc: DOC, currentDoc: '', start, end }));
    assert.equal(r.kind, 'deleted');
  });

  it('accepts insertions right at the selection boundaries (before the start, after the end)', () => {
    const original = 'aaa\nSEL\nbbb\n';
    const current = 'aaa\nNEW BEFORE\nSEL\nNEW AFTER\nbbb\n';
    const r = reanchorText(original, current, 'SEL\n');
    assert.equal(r.start, 'aaa\nNEW BEFORE\n'.length);
  });

  it('accepts typing immediately before and after a selection within a line', () => {
    const original = 'call(foo);\n';
    const current = 'call(x, foo, y);\n';
    const r = reanchorText(original, current, 'foo');
    assert.equal(r.start, 8);
  });

  it('accepts an edit before and after on the same line when a common prefix/suffix alone cannot place it', () => {
    const original = 'let a = f(b) + g(c);\nnext();\n';
    const current = 'const a = f(b) + g(c) * 2;\nnext();\n';
    const r = reanchorText(original, current, 'f(b) + g(c)');
    assert.equal(r.start, current.indexOf('f(b)'));
  });

  it('refuses when the word the selection sits in was changed (word-level granularity, conservative)', () => {
    const original = 'call(foo);\n';
    const current = 'call(xfoox);\n';
    const { start, end } = sel(original, 'foo');
    expectRefused(reanchorSelection({ originalDoc: original, currentDoc: current, start, end }));
  });

  it('does not anchor an insertion point on letters that merely recur in a rewritten line', () => {
    const original = 'a = 1\nline2\nb = 2\n';
    const current = 'a = 1\nsomething else\nb = 2\n';
    const mid = original.indexOf('ine2');
    expectRefused(reanchorSelection({ originalDoc: original, currentDoc: current, start: mid, end: mid }));
  });

  describe('CRLF documents', () => {
    const crlf = DOC.replace(/\n/g, '\r\n');
    const body = BODY.replace(/\n/g, '\r\n');

    it('shifts by CRLF-counted offsets for edits before the selection', () => {
      const cur = crlf.replace('import { a } from "./a";\r\n', 'import { a } from "./a";\r\nimport { b } from "./b";\r\n');
      const { start } = sel(crlf, body);
      const r = reanchorText(crlf, cur, body);
      assert.equal(r.start, start + 'import { b } from "./b";\r\n'.length);
    });

    it('refuses an edit inside the selection', () => {
      const cur = crlf.replace('x + y', 'y + x');
      const { start, end } = sel(crlf, body);
      expectRefused(reanchorSelection({ originalDoc: crlf, currentDoc: cur, start, end }));
    });

    it('explains a LF → CRLF conversion that changed a multi-line selection', () => {
      const { start, end } = sel(DOC, BODY);
      const r = expectRefused(reanchorSelection({ originalDoc: DOC, currentDoc: crlf, start, end }));
      assert.match(r.reason, /line endings were converted/);
    });

    it('still anchors a within-line selection across a LF → CRLF conversion', () => {
      const r = reanchorText(DOC, crlf, 'return x + y;');
      assert.equal(r.start, crlf.indexOf('return x + y;'));
      assert.equal(r.shifted, true);
    });

    it('anchors across a CRLF → LF conversion, including an insertion point at the end of a line', () => {
      const r = reanchorText(crlf, DOC, 'add(1, 2)');
      assert.equal(r.start, DOC.indexOf('add(1, 2)'));
      const eol = crlf.indexOf('\r\n', crlf.indexOf('return')); // before the \r of "return x + y;\r\n"
      const p = expectOk(reanchorSelection({ originalDoc: crlf, currentDoc: DOC, start: eol + 1, end: eol + 1 })); // between \r and \n
      assert.equal(p.start, DOC.indexOf('\n', DOC.indexOf('return')));
    });

    // Its time per line, against a document a tenth the size, is measured by the bench (`scale` scenario).
    it('handles the line-ending conversion of a large document', () => {
      const big = Array.from({ length: 40_000 }, (_, i) => `const v${i} = f(${i});`).join('\n') + '\n';
      const needle = 'const v30000 = f(30000);';
      const r = reanchorText(big, big.replace(/\n/g, '\r\n'), needle);
      assert.equal(r.start, big.indexOf(needle) + 30_000);
    });
  });

  describe('empty selection (insertion point)', () => {
    const original = 'line1\nline2\nline3\n';
    const point = original.indexOf('line2');

    it('stays put when nothing changed', () => {
      assert.deepEqual(reanchorSelection({ originalDoc: original, currentDoc: original, start: point, end: point }), { ok: true, start: point, end: point, shifted: false });
    });

    it('moves with a line inserted above', () => {
      const current = 'line0\nline1\nline2\nline3\n';
      const r = expectOk(reanchorSelection({ originalDoc: original, currentDoc: current, start: point, end: point }));
      assert.equal(r.start, current.indexOf('line2'));
      assert.equal(r.end, r.start);
      assert.equal(r.shifted, true);
    });

    it('moves after text inserted exactly at the point (caret-like)', () => {
      const current = 'line1\ninserted\nline2\nline3\n';
      const r = expectOk(reanchorSelection({ originalDoc: original, currentDoc: current, start: point, end: point }));
      assert.equal(r.start, current.indexOf('line2'));
    });

    it('does not move for edits after it, including a change of the line it sits at the start of', () => {
      const current = 'line1\nLINE2 edited\nline3\n';
      const r = expectOk(reanchorSelection({ originalDoc: original, currentDoc: current, start: point, end: point }));
      assert.deepEqual(r, { ok: true, start: point, end: point, shifted: false });
    });

    it('refuses when the text around the point was replaced', () => {
      const mid = original.indexOf('ine2'); // inside "line2"
      const current = 'line1\nsomething else\nline3\n';
      const r = expectRefused(reanchorSelection({ originalDoc: original, currentDoc: current, start: mid, end: mid }));
      assert.match(r.reason, /insertion point \(line 2\)/);
    });

    it('works at offset 0 and at the very end', () => {
      const current = 'line1\nline2\nline3\nline4\n';
      assert.deepEqual(reanchorSelection({ originalDoc: original, currentDoc: current, start: 0, end: 0 }), { ok: true, start: 0, end: 0, shifted: false });
      const r = expectOk(reanchorSelection({ originalDoc: original, currentDoc: 'top\n' + original, start: original.length, end: original.length }));
      assert.equal(r.start, original.length + 4);
    });
  });

  it('handles a document starting with a blank line edited at offset 0 together with an edit after the selection', () => {
    const original = '\nfoo();\nSEL();\nbar();\n';
    const current = 'x\nfoo();\nSEL();\nbar(1);\n';
    const r = reanchorText(original, current, 'SEL();\n');
    assert.equal(r.start, original.indexOf('SEL') + 1);
  });

  it('selects the right one of repeated identical lines after an edit before them', () => {
    const original = 'x();\nx();\nx();\n';
    const current = 'y();\nx();\nx();\nx();\n';
    const start = 'x();\n'.length; // the second x();
    const r = expectOk(reanchorSelection({ originalDoc: original, currentDoc: current, start, end: start + 4 }));
    assert.equal(r.start, start + 5);
  });

  it('rejects invalid ranges', () => {
    for (const [start, end] of [[-1, 2], [3, 2], [0, DOC.length + 1], [0.5, 2], [NaN, 1]] as const) {
      const r = expectRefused(reanchorSelection({ originalDoc: DOC, currentDoc: DOC, start, end }));
      assert.equal(r.kind, 'invalid-range', `${start}–${end}`);
    }
  });

  it('keeps the invariant on a randomized set of edits outside the selection', () => {
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const words = ['alpha', 'beta', 'gamma', 'delta', '{', '}', '(x)', ' ', '\n', ';'];
    const text = (n: number) => Array.from({ length: n }, () => words[rnd(words.length)]).join('');
    for (let i = 0; i < 200; i++) {
      const before = text(rnd(30));
      const selected = text(1 + rnd(20));
      const after = text(rnd(30));
      const originalDoc = before + selected + after;
      const currentDoc = text(rnd(30)) + selected + text(rnd(30));
      const r = reanchorSelection({ originalDoc, currentDoc, start: before.length, end: before.length + selected.length });
      // Either anchored on an identical copy of the selected text, or refused: never a wrong range.
      if (r.ok) assert.equal(currentDoc.slice(r.start, r.end), selected, `case ${i}`);
      // With the selection's text kept verbatim and only its surroundings rewritten, the prefix/suffix diff finds it.
      if (!r.ok) assert.notEqual(r.kind, 'invalid-range');
    }
  });

  it('always anchors whole-line selections under random line edits outside them, and always refuses edits inside', () => {
    let seed = 777;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    // Disjoint vocabularies before/after the block, so no alignment can cross it.
    const lines = (prefix: string, n: number) => Array.from({ length: n }, () => `${prefix}${rnd(4)}`);
    const mutate = (ls: string[], prefix: string) => {
      const out = [...ls];
      for (let k = rnd(4); k > 0; k--) {
        const at = rnd(out.length + 1);
        const op = rnd(3);
        if (op === 0) out.splice(at, 0, `${prefix}new${rnd(9)}`);
        else if (op === 1 && out.length > 0) out.splice(Math.min(at, out.length - 1), 1);
        else if (out.length > 0) out[Math.min(at, out.length - 1)] += ' // edited';
      }
      return out;
    };
    const join = (ls: string[]) => ls.map((l) => l + '\n').join('');
    let anchored = 0;
    for (let i = 0; i < 150; i++) {
      const before = lines('before', rnd(8));
      const block = Array.from({ length: 1 + rnd(4) }, (_, k) => `  selected_${i}_${k}(x, y);`);
      const after = lines('after', rnd(8));
      const originalDoc = join(before) + join(block) + join(after);
      const start = join(before).length;
      const end = start + join(block).length;
      const currentDoc = join(mutate(before, 'before')) + join(block) + join(mutate(after, 'after'));
      const r = reanchorSelection({ originalDoc, currentDoc, start, end });
      if (!r.ok) assert.fail(`case ${i}: ${r.reason}`);
      assert.equal(currentDoc.slice(r.start, r.end), join(block), `case ${i}`);
      anchored++;

      const changedBlock = [...block];
      changedBlock[rnd(block.length)] = `  changed_${i}();`;
      const editedDoc = join(mutate(before, 'before')) + join(changedBlock) + join(mutate(after, 'after'));
      assert.equal(reanchorSelection({ originalDoc, currentDoc: editedDoc, start, end }).ok, false, `case ${i} (inside)`);
    }
    assert.equal(anchored, 150);
  });
});

describe('applyToText', () => {
  it('replaces a range', () => {
    assert.equal(applyToText('hello world', 6, 11, 'there'), 'hello there');
  });

  it('inserts at an empty range, including at both ends', () => {
    assert.equal(applyToText('ab', 1, 1, 'X'), 'aXb');
    assert.equal(applyToText('ab', 0, 0, 'X'), 'Xab');
    assert.equal(applyToText('ab', 2, 2, 'X'), 'abX');
  });

  it('deletes with an empty replacement', () => {
    assert.equal(applyToText('a\r\nb\r\n', 1, 3, ''), 'ab\r\n');
  });

  it('round-trips with reanchorSelection', () => {
    const cur = '// new header\n' + DOC;
    const { start, end } = sel(DOC, BODY);
    const r = expectOk(reanchorSelection({ originalDoc: DOC, currentDoc: cur, start, end }));
    const out = applyToText(cur, r.start, r.end, 'const add = (x: number, y: number) => x + y;\n');
    assert.equal(out, '// new header\n' + DOC.replace(BODY, 'const add = (x: number, y: number) => x + y;\n'));
  });

  it('throws on an invalid range', () => {
    assert.throws(() => applyToText('abc', 2, 1, ''), RangeError);
    assert.throws(() => applyToText('abc', 0, 4, ''), RangeError);
    assert.throws(() => applyToText('abc', -1, 1, ''), RangeError);
  });
});

describe('lineDiffStats', () => {
  it('is zero for identical texts', () => {
    assert.deepEqual(lineDiffStats('a\nb\n', 'a\nb\n'), { added: 0, removed: 0 });
    assert.deepEqual(lineDiffStats('', ''), { added: 0, removed: 0 });
  });

  it('counts a changed line once on each side', () => {
    assert.deepEqual(lineDiffStats('a\nb\nc\n', 'a\nB\nc\n'), { added: 1, removed: 1 });
  });

  it('counts pure additions and removals', () => {
    assert.deepEqual(lineDiffStats('a\nc\n', 'a\nb1\nb2\nc\n'), { added: 2, removed: 0 });
    assert.deepEqual(lineDiffStats('a\nb\nc\n', 'c\n'), { added: 0, removed: 2 });
  });

  it('handles empty sides', () => {
    assert.deepEqual(lineDiffStats('', 'x\ny\n'), { added: 2, removed: 0 });
    assert.deepEqual(lineDiffStats('x\ny', ''), { added: 0, removed: 2 });
  });

  it('treats a missing final newline as a change of the last line', () => {
    assert.deepEqual(lineDiffStats('a\nb', 'a\nb\n'), { added: 1, removed: 1 });
  });

  it('works on CRLF text', () => {
    assert.deepEqual(lineDiffStats('a\r\nb\r\n', 'a\r\nb\r\nc\r\n'), { added: 1, removed: 0 });
  });
});

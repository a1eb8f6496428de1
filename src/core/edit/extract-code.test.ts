import assert from 'node:assert/strict';
import { codeForFile, codeSimilarity, extractCode, fenceNamesFor, findFencedBlocks } from './extract-code';

const F = '```';

describe('findFencedBlocks', () => {
  it('parses backtick and tilde fences with and without info strings', () => {
    const blocks = findFencedBlocks(`a\n${F}ts\nx;\n${F}\nb\n~~~\ny\n~~~\n`);
    assert.equal(blocks.length, 2);
    assert.deepEqual(blocks.map((b) => [b.lang, b.content, b.line, b.closed]), [['ts', 'x;\n', 2, true], ['', 'y\n', 6, true]]);
  });

  it('reads the first word of the info string, lower-cased, in its common spellings', () => {
    const langOf = (info: string) => findFencedBlocks(`${F}${info}\nx\n${F}\n`)[0]!.lang;
    assert.equal(langOf('TypeScript title="a.ts"'), 'typescript');
    assert.equal(langOf(' python'), 'python');
    assert.equal(langOf('{python}'), 'python');
    assert.equal(langOf('typescript:src/a.ts'), 'typescript');
    assert.equal(langOf('c++'), 'c++');
    assert.equal(langOf('language-js'), 'js');
    assert.equal(langOf(''), '');
  });

  it('keeps shorter fences inside a longer one as content', () => {
    const answer = `\`\`\`\`md\nUse:\n${F}ts\nconst a = 1;\n${F}\n\`\`\`\`\n`;
    const [b] = findFencedBlocks(answer);
    assert.equal(b!.content, `Use:\n${F}ts\nconst a = 1;\n${F}\n`);
    assert.equal(b!.closed, true);
  });

  it('does not close a backtick fence with tildes or vice versa', () => {
    const [b] = findFencedBlocks(`~~~\na\n${F}\nb\n~~~\n`);
    assert.equal(b!.content, `a\n${F}\nb\n`);
  });

  it('does not close on a fence line with trailing text', () => {
    const [b] = findFencedBlocks(`${F}\na\n${F}js\nb\n${F}\n`);
    assert.equal(b!.content, `a\n${F}js\nb\n`);
  });

  it('runs an unclosed fence to the end of the answer', () => {
    const [b] = findFencedBlocks(`Here:\n${F}py\ndef f():\n    return 1\n`);
    assert.equal(b!.closed, false);
    assert.equal(b!.content, 'def f():\n    return 1\n');
  });

  it('ignores inline triple backticks that are not at the start of a line, and ```x``` on one line', () => {
    assert.equal(findFencedBlocks(`use ${F}x${F} here\n`).length, 0);
    assert.equal(findFencedBlocks(`${F}x${F}\n`).length, 0);
  });

  it('removes an indented fence\'s indentation when every line carries it', () => {
    const [b] = findFencedBlocks(`1. Change it:\n   ${F}ts\n   if (a) {\n     b();\n   }\n\n   ${F}\n`);
    assert.equal(b!.content, 'if (a) {\n  b();\n}\n\n');
  });

  it('keeps content verbatim when an indented fence\'s lines are not all indented', () => {
    const [b] = findFencedBlocks(`  ${F}python\ndef f():\n    pass\n  ${F}\n`);
    assert.equal(b!.content, 'def f():\n    pass\n');
  });

  it('parses CRLF answers, keeping CRLF in the content', () => {
    const [b] = findFencedBlocks(`Text\r\n${F}js\r\na();\r\nb();\r\n${F}\r\n`);
    assert.equal(b!.lang, 'js');
    assert.equal(b!.content, 'a();\r\nb();\r\n');
  });
});

describe('fenceNamesFor', () => {
  it('maps VS Code language ids to common fence names', () => {
    assert.ok(fenceNamesFor('typescript').includes('ts'));
    assert.ok(fenceNamesFor('javascript').includes('js'));
    assert.ok(fenceNamesFor('python').includes('py'));
    assert.ok(fenceNamesFor('shellscript').includes('bash'));
    assert.ok(fenceNamesFor('shellscript').includes('sh'));
    assert.ok(fenceNamesFor('csharp').includes('cs'));
    assert.ok(fenceNamesFor('cpp').includes('c++'));
    assert.ok(fenceNamesFor('typescriptreact').includes('tsx'));
    assert.ok(!fenceNamesFor('javascript').includes('ts'));
  });

  it('falls back to the id itself', () => {
    assert.deepEqual(fenceNamesFor('zig'), ['zig']);
    assert.deepEqual(fenceNamesFor('Zig'), ['zig']);
  });
});

describe('codeSimilarity', () => {
  it('is 1 for identical code, 0 for unrelated code, and in between for an edit', () => {
    const a = 'function add(a, b) {\n  return a + b;\n}\n';
    assert.equal(codeSimilarity(a, a), 1);
    assert.equal(codeSimilarity(a, 'SELECT * FROM t'), 0);
    const edited = codeSimilarity(a, 'function add(a, b) {\n  return b + a;\n}\n');
    assert.ok(edited > 0.5 && edited < 1, String(edited));
  });

  it('ignores indentation and blank lines', () => {
    assert.equal(codeSimilarity('  a();\n\n  b();\n', 'a();\nb();'), 1);
  });
});

describe('extractCode', () => {
  describe('fenced answers', () => {
    it('takes the code out of prose around a single fence', () => {
      const r = extractCode(`Here is the fix:\n\n${F}ts\nconst x = 1;\n${F}\n\nThis declares x.`, { languageId: 'typescript', originalText: 'let x = 1;\n' });
      assert.deepEqual(r, { code: 'const x = 1;\n', source: 'fenced' });
    });

    it('prefers the block tagged with the document language over a longer one in another language', () => {
      const answer = [
        'Install it first:', `${F}bash`, 'npm install --save-dev some-long-package-name another-package yet-another', `${F}`,
        'Then:', `${F}ts`, 'import x from "x";', `${F}`,
      ].join('\n');
      assert.equal(extractCode(answer, { languageId: 'typescript' }).code, 'import x from "x";\n');
      assert.equal(extractCode(answer, { languageId: 'shellscript' }).code.startsWith('npm install'), true);
    });

    it('maps language ids to fence aliases (py for python, c++ for cpp, cs for csharp)', () => {
      const answer = (tag: string) => `${F}text\nsome output that is much longer than the code itself\n${F}\n${F}${tag}\ncode();\n${F}\n`;
      assert.equal(extractCode(answer('py'), { languageId: 'python' }).code, 'code();\n');
      assert.equal(extractCode(answer('c++'), { languageId: 'cpp' }).code, 'code();\n');
      assert.equal(extractCode(answer('cs'), { languageId: 'csharp' }).code, 'code();\n');
      assert.equal(extractCode(answer('sh'), { languageId: 'shellscript' }).code, 'code();\n');
    });

    it('ranks an untagged block above one tagged with another language', () => {
      const answer = `${F}json\n{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}\n${F}\n${F}\nx = 1\n${F}\n`;
      assert.equal(extractCode(answer, { languageId: 'python' }).code, 'x = 1\n');
    });

    it('ranks output-like fences (text, console, diff) below untagged ones when the language is unknown', () => {
      const answer = `${F}console\n$ run the long command with lots of output here\n${F}\n${F}\nfix();\n${F}\n`;
      assert.equal(extractCode(answer, {}).code, 'fix();\n');
    });

    it('among blocks in the right language, picks the one most similar to the selection', () => {
      const original = 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n';
      const answer = [
        'Usage:', `${F}js`, 'console.log(total(cart.items.filter((i) => i.inStock)), "is the total of everything");', `${F}`,
        'Implementation:', `${F}js`, 'function total(items) {', '  return items.reduce((sum, i) => sum + i.price, 0);', '}', `${F}`,
      ].join('\n');
      const r = extractCode(answer, { languageId: 'javascript', originalText: original });
      assert.equal(r.code, 'function total(items) {\n  return items.reduce((sum, i) => sum + i.price, 0);\n}\n');
    });

    it('falls back to the longest block when nothing else separates them', () => {
      const answer = `${F}\nshort();\n${F}\n${F}\nmuch_longer_call(with, several, args);\nand_another_line();\n${F}\n`;
      const r = extractCode(answer, {});
      assert.equal(r.code, 'much_longer_call(with, several, args);\nand_another_line();\n');
      assert.equal(r.note, undefined);
    });

    it('notes an ambiguous pick between similar blocks', () => {
      const answer = `Option A:\n${F}py\nreturn sorted(xs)\n${F}\nOption B:\n${F}py\nreturn list(sorted(xs))\n${F}\n`;
      const r = extractCode(answer, { languageId: 'python', originalText: 'return xs.sort()\n' });
      assert.equal(r.source, 'fenced');
      assert.ok(r.note, 'expected a note');
      assert.match(r.note!, /2 code blocks/);
      assert.equal(r.code, 'return sorted(xs)\n');
      assert.match(r.note!, /block 2 was about as likely a fit; used block 1 of 2 \(py, line 2\)/);
    });

    it('does not note a clear-cut pick', () => {
      const original = 'def area(r):\n    return 3.14 * r * r\n';
      const answer = `${F}py\nimport math\n\ndef area(r):\n    return math.pi * r * r\n${F}\nTest:\n${F}py\nassert area(1) > 3\n${F}\n`;
      const r = extractCode(answer, { languageId: 'python', originalText: original });
      assert.equal(r.code, 'import math\n\ndef area(r):\n    return math.pi * r * r\n');
      assert.equal(r.note, undefined);
    });

    it('picks the first of otherwise identical blocks', () => {
      const answer = `${F}\nsame();\n${F}\n${F}\nsame();\n${F}\n`;
      const r = extractCode(answer, {});
      assert.equal(r.code, 'same();\n');
      assert.match(r.note!, /used block 1 of 2/);
    });

    it('tolerates a missing closing fence at the end and says so', () => {
      const r = extractCode(`Here you go:\n${F}ts\nconst a = 1;\nconst b = 2;\n`, { languageId: 'typescript', originalText: 'const a = 0;\nconst b = 0;\n' });
      assert.equal(r.code, 'const a = 1;\nconst b = 2;\n');
      assert.match(r.note!, /not closed/);
    });

    it('supports tilde fences', () => {
      const r = extractCode(`Result:\n~~~python\nx = [i * 2 for i in xs]\n~~~\n`, { languageId: 'python', originalText: 'x = []\n' });
      assert.equal(r.code, 'x = [i * 2 for i in xs]\n');
    });

    it('returns a 4-backtick block with nested ``` lines intact', () => {
      const inner = `# Title\n\n${F}bash\nnpm test\n${F}\n`;
      const r = extractCode(`\`\`\`\`markdown\n${inner}\`\`\`\`\n`, { languageId: 'markdown', originalText: '# Old\n' });
      assert.equal(r.code, inner);
    });

    it('preserves inner indentation and blank lines exactly', () => {
      const body = '    def method(self):\n\n        if self.ok:\n\t\t\treturn 1\n        return 2\n';
      const r = extractCode(`${F}python\n${body}${F}\n`, { languageId: 'python', originalText: '    def method(self):\n        return 0\n' });
      assert.equal(r.code, body);
    });

    it('skips empty blocks', () => {
      const r = extractCode(`${F}ts\n${F}\n${F}ts\nreal();\n${F}\n`, { languageId: 'typescript' });
      assert.equal(r.code, 'real();\n');
    });

    it('returns empty code with a note when every block is empty', () => {
      const r = extractCode(`Nothing:\n${F}\n\n${F}\n`, {});
      assert.equal(r.code, '');
      assert.equal(r.source, 'fenced');
      assert.match(r.note!, /empty/);
    });
  });

  describe('trailing newline and line endings', () => {
    const answer = `${F}js\nfoo();\n${F}\n`;

    it('drops the block\'s final newline when the selection had none', () => {
      assert.equal(extractCode(answer, { originalText: 'bar()' }).code, 'foo();');
    });

    it('keeps it when the selection ended with a newline', () => {
      assert.equal(extractCode(answer, { originalText: 'bar();\n' }).code, 'foo();\n');
    });

    it('adds one when the selection ended with a newline and the code does not', () => {
      assert.equal(extractCode('foo();', { originalText: 'bar();\n' }).code, 'foo();\n');
    });

    it('strips several trailing blank lines when the selection had no final newline', () => {
      assert.equal(extractCode(`${F}\nfoo();\n\n\n${F}\n`, { originalText: 'bar();' }).code, 'foo();');
    });

    it('keeps the code\'s own ending when there is no original text (or an empty insertion point)', () => {
      assert.equal(extractCode(answer, {}).code, 'foo();\n');
      assert.equal(extractCode(answer, { originalText: '' }).code, 'foo();\n');
      assert.equal(extractCode('foo();', { originalText: '' }).code, 'foo();');
    });

    it('uses CRLF when the selection used CRLF', () => {
      assert.equal(extractCode(`${F}js\na();\nb();\n${F}\n`, { originalText: 'x();\r\ny();\r\n' }).code, 'a();\r\nb();\r\n');
      assert.equal(extractCode('a();\nb();', { originalText: 'x();\r\ny();\r\n' }).code, 'a();\r\nb();\r\n');
      assert.equal(extractCode('a();\nb();\n', { originalText: 'x();\r\ny();' }).code, 'a();\r\nb();');
    });

    it('leaves line endings alone for a mixed or LF selection', () => {
      assert.equal(extractCode('a();\nb();\n', { originalText: 'x();\r\ny();\nz();\n' }).code, 'a();\nb();\n');
    });
  });

  describe('unfenced answers', () => {
    it('uses the whole answer', () => {
      const r = extractCode('const x = 1;\nconst y = 2;', { originalText: 'let x;\nlet y;' });
      assert.deepEqual(r, { code: 'const x = 1;\nconst y = 2;', source: 'whole' });
    });

    it('drops leading blank lines and trailing whitespace but keeps the first line\'s indentation', () => {
      const r = extractCode('\n\n    return a + b;\n  \n', { originalText: '    return a - b;' });
      assert.equal(r.code, '    return a + b;');
    });

    it('drops a clear "Here is…:" preamble line and notes it', () => {
      for (const lead of ['Here is the updated function:', "Here's the refactored code:", 'Sure! Here is the fix:', 'The updated code:', "I've refactored it as follows:"]) {
        const r = extractCode(`${lead}\n\ndef f(x):\n    return x * 2\n`, { languageId: 'python', originalText: 'def f(x):\n    return x\n' });
        assert.equal(r.code, 'def f(x):\n    return x * 2\n', lead);
        assert.equal(r.source, 'whole');
        assert.match(r.note!, /Dropped/, lead);
      }
    });

    it('is conservative: keeps first lines that are code or not clearly a preamble', () => {
      const keep = [
        'def here(x):\n    return x\n',
        '# Here is the config:\nkey: value\n',
        'here_is = {"a": 1}\nprint(here_is)\n',
        'Here is: the value\nnext line\n',
        'Note that this changes behaviour:\nx = 1\n',
        'here is x = 1;\ny();\n',
        'Here is the map {a, b}:\nnext\n',
        '// Here is the updated function:\nf();\n',
      ];
      for (const text of keep) {
        const r = extractCode(text, { originalText: 'old\n' });
        assert.equal(r.code, text, JSON.stringify(text));
        assert.equal(r.note, undefined);
      }
    });

    it('keeps a lone preamble-looking line when nothing follows it', () => {
      assert.equal(extractCode('Here is the updated function:', {}).code, 'Here is the updated function:');
    });
  });
});

describe('codeForFile', () => {
  const original = 'def add(a, b):\n    return a + b\n';

  it('is null for prose: an answer without a code block is never code for the file', () => {
    const r = codeForFile('The function is fine as it is; nothing needs to change.', { languageId: 'python', originalText: original });
    assert.equal(r.code, null);
    assert.match(r.code === null ? r.reason : '', /no python code block/);
  });

  it('is null when every block is in another language or is output', () => {
    const r = codeForFile('Run it like this:\n```bash\npython add.py\n```\nor see\n```text\n3\n```', { languageId: 'python', originalText: original });
    assert.equal(r.code, null);
    assert.match(r.code === null ? r.reason : '', /no python code block \(only bash, text\)/);
  });

  it('takes the block for the file, as extractCode does', () => {
    const answer = 'Here:\n```python\ndef add(a, b):\n    return a + b  # sum\n```\nDone.';
    const r = codeForFile(answer, { languageId: 'python', originalText: original });
    assert.deepEqual(r, extractCode(answer, { languageId: 'python', originalText: original }));
    assert.equal(r.code, 'def add(a, b):\n    return a + b  # sum\n');
  });

  it('takes an untagged block (agents often leave the tag out)', () => {
    const r = codeForFile('```\ndef add(a, b):\n    return b + a\n```', { languageId: 'python', originalText: original });
    assert.equal(r.code, 'def add(a, b):\n    return b + a\n');
  });

  it('is null when the only blocks are empty', () => {
    assert.equal(codeForFile('```python\n\n```', { languageId: 'python' }).code, null);
  });
});

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentToolbox } from '../engine/ports';
import { createFileToolbox, EDIT_FILE, LIST_DIRECTORY, READ_FILE, SEARCH_FILES, WRITE_FILE } from './file-tools';
import { createScratch, type Scratch } from './scratch';

const AGENTS = [
  { id: 'model-a', label: 'agent1' },
  { id: 'model-b', label: 'agent2' },
];

let callSeq = 0;
async function run(box: AgentToolbox, name: string, args: unknown, signal = new AbortController().signal) {
  const raw = typeof args === 'string' ? args : JSON.stringify(args);
  return box.execute({ id: `c${++callSeq}`, name, arguments: raw }, signal);
}

function assertFail(result: { ok: boolean; content: string }, pattern: RegExp): void {
  assert.equal(result.ok, false, `expected failure, got: ${result.content}`);
  assert.match(result.content, pattern);
}

describe('workspace/file-tools', () => {
  let tmp: string;
  let scratch: Scratch;
  let box: AgentToolbox;
  let own: string;
  let peer: string;

  beforeEach(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ftools-')));
    scratch = await createScratch(join(tmp, 'base'), 'run1', AGENTS);
    await scratch.seedAll([
      { relativePath: 'src/index.ts', content: 'export const a = 1;\nexport const b = 2;\n' },
      { relativePath: 'README.md', content: '# Title\n' },
    ]);
    box = createFileToolbox(scratch, 'agent1');
    own = scratch.folderOf('agent1');
    peer = scratch.folderOf('agent2');
    writeFileSync(join(peer, 'notes.txt'), 'peer notes\n');
    writeFileSync(join(tmp, 'outside.txt'), 'outside secret');
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('offers five tools with OpenAI function-parameter schemas that document paths and peers/', () => {
    assert.deepEqual(box.tools.map((t) => t.name), [READ_FILE, WRITE_FILE, LIST_DIRECTORY, EDIT_FILE, SEARCH_FILES]);
    for (const t of box.tools) {
      assert.equal(t.parameters.type, 'object');
      assert.equal(typeof t.parameters.properties, 'object');
      assert.ok(Array.isArray(t.parameters.required));
      assert.match(t.description, /peers\//);
    }
    assert.deepEqual(box.tools.find((t) => t.name === EDIT_FILE)!.parameters.required, ['path', 'old_text', 'new_text']);
    assert.throws(() => createFileToolbox(scratch, 'agent5'), /unknown agent label/);
  });

  describe('read_file', () => {
    it('reads own files exactly, nested and normalised', async () => {
      assert.deepEqual(await run(box, READ_FILE, { path: 'src/index.ts' }), { ok: true, content: 'export const a = 1;\nexport const b = 2;\n' });
      assert.deepEqual(await run(box, READ_FILE, { path: './src/../README.md' }), { ok: true, content: '# Title\n' });
    });

    it('reads peers under peers/agentK (including the own label, so it is not singled out)', async () => {
      assert.deepEqual(await run(box, READ_FILE, { path: 'peers/agent2/notes.txt' }), { ok: true, content: 'peer notes\n' });
      assert.deepEqual(await run(box, READ_FILE, { path: 'peers/agent1/README.md' }), { ok: true, content: '# Title\n' });
      assertFail(await run(box, READ_FILE, { path: 'peers/agent9/x' }), /no agent folder "agent9"; peers\/ contains agent1, agent2/);
      assertFail(await run(box, READ_FILE, { path: 'peers/agent2' }), /is a folder; use list_directory/);
      assertFail(await run(box, READ_FILE, { path: 'peers' }), /is a folder/);
      assertFail(await run(box, READ_FILE, { path: 'peers/agent2/../../../outside.txt' }), /leaves your folder/);
    });

    it('refuses every escape attempt', async () => {
      symlinkSync(join(tmp, 'outside.txt'), join(own, 'link.txt'));
      symlinkSync(tmp, join(own, 'up'));
      symlinkSync(join(tmp, 'nowhere'), join(own, 'broken'));
      symlinkSync(peer, join(own, 'peer-link'));
      const attempts: [string, RegExp][] = [
        ['../outside.txt', /leaves your folder/],
        ['a/../../x', /leaves your folder/],
        ['/etc/passwd', /absolute/],
        ['C:\\x', /drive/],
        ['\\\\server\\share', /UNC/],
        ['..\\x', /backslashes/],
        ['a\0b', /NUL/],
        ['CON', /device name/],
        ['nul.txt', /device name/],
        ['link.txt', /points outside/],
        ['up/outside.txt', /points outside/],
        ['broken', /target does not exist \(a dangling link\)/],
        ['peer-link/notes.txt', /points outside/],
        ['', /empty/],
      ];
      for (const [p, pattern] of attempts) {
        const r = await run(box, READ_FILE, { path: p });
        assertFail(r, pattern);
        assert.ok(!r.content.includes(tmp), `host path leaked: ${r.content}`);
      }
    });

    it('refuses excluded names and hides them from listings', async () => {
      mkdirSync(join(own, '.git'));
      writeFileSync(join(own, '.git', 'config'), '[core]');
      writeFileSync(join(own, '.env'), 'KEY=1');
      assertFail(await run(box, READ_FILE, { path: '.git/config' }), /off limits/);
      assertFail(await run(box, READ_FILE, { path: '.env' }), /off limits/);
      assertFail(await run(box, READ_FILE, { path: 'peers/agent1/.env' }), /off limits/);
      const list = await run(box, LIST_DIRECTORY, {});
      assert.equal(list.ok, true);
      assert.ok(!/\.git|\.env/.test(list.content.split('\n').slice(1, -1).join('\n')), list.content);
      assert.match(list.content, /\[2 protected entries \(such as \.git or \.env\) hidden\]/);
    });

    it('reports a missing file and a folder clearly', async () => {
      assertFail(await run(box, READ_FILE, { path: 'nope.ts' }), /"nope.ts" does not exist; use list_directory/);
      assertFail(await run(box, READ_FILE, { path: 'src' }), /"src" is a folder/);
      assertFail(await run(box, READ_FILE, { path: 'peers/agent2/nope' }), /"peers\/agent2\/nope" does not exist/);
    });

    it('refuses binary and non-UTF-8 files', async () => {
      writeFileSync(join(own, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
      writeFileSync(join(own, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      assertFail(await run(box, READ_FILE, { path: 'img.png' }), /not UTF-8 text/);
      assertFail(await run(box, READ_FILE, { path: 'latin1.txt' }), /not UTF-8 text/);
      writeFileSync(join(own, 'utf8.txt'), 'café ✓');
      assert.deepEqual(await run(box, READ_FILE, { path: 'utf8.txt' }), { ok: true, content: 'café ✓' });
    });

    it('truncates long files at a line boundary with a note, and start_line continues', async () => {
      const small = createFileToolbox(scratch, 'agent1', { maxReadChars: 40 });
      const lines = Array.from({ length: 10 }, (_, i) => `line ${String(i + 1).padStart(2, '0')}\n`); // 8 chars each
      writeFileSync(join(own, 'long.txt'), lines.join(''));
      const first = await run(small, READ_FILE, { path: 'long.txt' });
      assert.equal(first.ok, true);
      assert.ok(first.content.startsWith(lines.slice(0, 5).join('')), first.content);
      assert.match(first.content, /\[truncated: showing lines 1-5 of 10 .*start_line 6 to continue\.\]$/);
      const second = await run(small, READ_FILE, { path: 'long.txt', start_line: 6 });
      assert.deepEqual(second, { ok: true, content: lines.slice(5).join('') });
      assertFail(await run(small, READ_FILE, { path: 'long.txt', start_line: 11 }), /has 10 lines/);
      assertFail(await run(small, READ_FILE, { path: 'long.txt', start_line: 0 }), /start_line/);
      writeFileSync(join(own, 'one-line.txt'), 'x'.repeat(100));
      const cut = await run(small, READ_FILE, { path: 'one-line.txt' });
      assert.ok(cut.content.startsWith('x'.repeat(40) + '\n[truncated'), cut.content);
      assert.match(cut.content, /Line 1 is longer than 40 characters and was cut/);
    });

    it('refuses files over the read size limit', async () => {
      const small = createFileToolbox(scratch, 'agent1', { maxReadFileBytes: 10 });
      assertFail(await run(small, READ_FILE, { path: 'src/index.ts' }), /larger than the 10-byte limit/);
    });

    it('says so for an empty file', async () => {
      writeFileSync(join(own, 'empty.txt'), '');
      assert.deepEqual(await run(box, READ_FILE, { path: 'empty.txt' }), { ok: true, content: '[empty.txt is empty: 0 bytes]' });
    });
  });

  describe('write_file', () => {
    it('creates nested files and overwrites existing ones in the own folder', async () => {
      const created = await run(box, WRITE_FILE, { path: 'src/new/util.ts', content: 'export {};\n' });
      assert.deepEqual(created, { ok: true, content: 'Wrote 11 bytes to src/new/util.ts (new file).' });
      assert.equal(readFileSync(join(own, 'src', 'new', 'util.ts'), 'utf8'), 'export {};\n');
      const replaced = await run(box, WRITE_FILE, { path: 'README.md', content: 'é' });
      assert.deepEqual(replaced, { ok: true, content: 'Wrote 2 bytes to README.md (replaced the existing file).' });
      assert.equal(readFileSync(join(own, 'README.md'), 'utf8'), 'é');
    });

    it('never writes to peers (nor through any spelling of peers/)', async () => {
      for (const p of ['peers/agent2/notes.txt', 'peers/agent2/new.txt', 'Peers/agent2/x.txt', 'peers/agent1/README.md', 'peers/x', 'src/../peers/agent2/a']) {
        assertFail(await run(box, WRITE_FILE, { path: p, content: 'pwned' }), /read-only/);
      }
      assertFail(await run(box, EDIT_FILE, { path: 'peers/agent2/notes.txt', old_text: 'peer', new_text: 'x' }), /read-only/);
      assert.equal(readFileSync(join(peer, 'notes.txt'), 'utf8'), 'peer notes\n');
      assert.ok(!existsSync(join(peer, 'new.txt')));
    });

    it('refuses escapes, symlinks out, excluded and write-protected names', async () => {
      symlinkSync(tmp, join(own, 'up'));
      symlinkSync(join(tmp, 'created-outside.txt'), join(own, 'broken.txt'));
      for (const [p, pattern] of [
        ['../x.txt', /leaves your folder/],
        ['up/x.txt', /points outside/],
        ['up/outside.txt', /points outside/],
        ['broken.txt', /target does not exist \(a dangling link\)/],
        ['.git/hooks/post-checkout', /off limits/],
        ['.env.local', /off limits/],
        ['node_modules/pkg/index.js', /read-only/],
        ['lpt1.js', /device name/],
      ] as [string, RegExp][]) {
        assertFail(await run(box, WRITE_FILE, { path: p, content: 'x' }), pattern);
      }
      assert.equal(readFileSync(join(tmp, 'outside.txt'), 'utf8'), 'outside secret');
      assert.ok(!existsSync(join(tmp, 'x.txt')));
      assert.ok(!existsSync(join(tmp, 'created-outside.txt')));
      assert.ok(!existsSync(join(own, 'node_modules')));
    });

    it('caps the size of a write', async () => {
      const small = createFileToolbox(scratch, 'agent1', { maxWriteBytes: 8 });
      assertFail(await run(small, WRITE_FILE, { path: 'big.txt', content: '123456789' }), /9 bytes; the limit is 8 bytes per write/);
      assert.ok(!existsSync(join(own, 'big.txt')));
      assert.equal((await run(small, WRITE_FILE, { path: 'ok.txt', content: '12345678' })).ok, true);
    });

    it('refuses writing over a folder and bad arguments', async () => {
      assertFail(await run(box, WRITE_FILE, { path: 'src', content: 'x' }), /"src" is a folder/);
      assertFail(await run(box, WRITE_FILE, { path: 'a.txt' }), /"content" must be a string/);
      assertFail(await run(box, WRITE_FILE, { path: 'src/index.ts/x', content: 'x' }), /is a file, not a folder/);
    });
  });

  describe('list_directory', () => {
    it('lists the own folder sorted, with sizes, folders marked, and the virtual peers/ entry', async () => {
      mkdirSync(join(own, 'node_modules'));
      const r = await run(box, LIST_DIRECTORY, {});
      assert.deepEqual(r, {
        ok: true,
        content: [
          'Your folder (4 entries):',
          'README.md (8 bytes)',
          'node_modules/ (read-only)',
          'src/',
          "peers/ (read-only view of every agent's folder in this run)",
        ].join('\n'),
      });
      assert.deepEqual(await run(box, LIST_DIRECTORY, { path: 'src' }), { ok: true, content: 'src/ (1 entry):\nindex.ts (40 bytes)' });
    });

    it('lists peers/ and a peer folder', async () => {
      assert.deepEqual(await run(box, LIST_DIRECTORY, { path: 'peers' }), {
        ok: true,
        content: 'peers/ (read-only; one folder per agent, labels as in CURRENT ANSWERS):\nagent1/\nagent2/',
      });
      const r = await run(box, LIST_DIRECTORY, { path: 'peers/agent2' });
      assert.deepEqual(r, { ok: true, content: 'peers/agent2/ (3 entries):\nREADME.md (8 bytes)\nnotes.txt (11 bytes)\nsrc/' });
    });

    it('marks symlinks, caps entries with a note, reports empty folders and refuses escapes', async () => {
      symlinkSync(tmp, join(own, 'up'));
      const r = await run(box, LIST_DIRECTORY, { path: '.' });
      assert.match(r.content, /^up \(symbolic link\)$/m);
      mkdirSync(join(own, 'many'));
      for (let i = 0; i < 7; i++) writeFileSync(join(own, 'many', `f${i}.txt`), '');
      const capped = await run(createFileToolbox(scratch, 'agent1', { maxListEntries: 3 }), LIST_DIRECTORY, { path: 'many' });
      assert.equal(capped.content, 'many/ (7 entries):\nf0.txt (0 bytes)\nf1.txt (0 bytes)\nf2.txt (0 bytes)\n[4 more entries not shown; list a subfolder to narrow down]');
      mkdirSync(join(own, 'void'));
      assert.equal((await run(box, LIST_DIRECTORY, { path: 'void' })).content, 'void/ (0 entries):\n[empty folder]');
      assertFail(await run(box, LIST_DIRECTORY, { path: '..' }), /leaves your folder/);
      assertFail(await run(box, LIST_DIRECTORY, { path: 'up' }), /points outside/);
      assertFail(await run(box, LIST_DIRECTORY, { path: 'README.md' }), /is a file; use read_file/);
      assertFail(await run(box, LIST_DIRECTORY, { path: 'missing' }), /does not exist/);
    });
  });

  describe('edit_file', () => {
    it('replaces exactly one occurrence', async () => {
      const r = await run(box, EDIT_FILE, { path: 'src/index.ts', old_text: 'b = 2', new_text: 'b = 3' });
      assert.deepEqual(r, { ok: true, content: 'Edited src/index.ts: replaced 1 occurrence starting on line 2.' });
      assert.equal(readFileSync(join(own, 'src', 'index.ts'), 'utf8'), 'export const a = 1;\nexport const b = 3;\n');
      // `$` patterns in new_text are literal, not replacement patterns
      await run(box, EDIT_FILE, { path: 'README.md', old_text: 'Title', new_text: "$&$1$'" });
      assert.equal(readFileSync(join(own, 'README.md'), 'utf8'), "# $&$1$'\n");
    });

    it('refuses zero matches and multiple matches with actionable messages, leaving the file alone', async () => {
      assertFail(await run(box, EDIT_FILE, { path: 'src/index.ts', old_text: 'const c', new_text: 'x' }), /old_text was not found in "src\/index.ts"\. read_file it/);
      assertFail(
        await run(box, EDIT_FILE, { path: 'src/index.ts', old_text: 'export const', new_text: 'let' }),
        /old_text occurs 2 times in "src\/index.ts" \(starting on lines 1, 2\); include more surrounding text/,
      );
      assert.equal(readFileSync(join(own, 'src', 'index.ts'), 'utf8'), 'export const a = 1;\nexport const b = 2;\n');
    });

    it('counts overlapping matches as multiple', async () => {
      writeFileSync(join(own, 'aaa.txt'), 'aaa');
      assertFail(await run(box, EDIT_FILE, { path: 'aaa.txt', old_text: 'aa', new_text: 'b' }), /occurs 2 times/);
    });

    it('hints at CRLF line endings', async () => {
      writeFileSync(join(own, 'win.txt'), 'one\r\ntwo\r\n');
      assertFail(await run(box, EDIT_FILE, { path: 'win.txt', old_text: 'one\ntwo', new_text: 'x' }), /CRLF/);
    });

    it('refuses empty or no-op edits, missing files, binary files and oversized results', async () => {
      assertFail(await run(box, EDIT_FILE, { path: 'README.md', old_text: '', new_text: 'x' }), /"old_text" is empty/);
      assertFail(await run(box, EDIT_FILE, { path: 'README.md', old_text: 'a', new_text: 'a' }), /identical/);
      assertFail(await run(box, EDIT_FILE, { path: 'README.md', old_text: 'a' }), /must both be strings/);
      assertFail(await run(box, EDIT_FILE, { path: 'gone.md', old_text: 'a', new_text: 'b' }), /does not exist/);
      writeFileSync(join(own, 'bin.dat'), Buffer.from([1, 0, 2]));
      assertFail(await run(box, EDIT_FILE, { path: 'bin.dat', old_text: 'a', new_text: 'b' }), /not UTF-8 text/);
      const small = createFileToolbox(scratch, 'agent1', { maxWriteBytes: 10 });
      assertFail(await run(small, EDIT_FILE, { path: 'README.md', old_text: 'Title', new_text: 'A much longer title' }), /would be \d+ bytes; the limit is 10/);
      assert.equal(readFileSync(join(own, 'README.md'), 'utf8'), '# Title\n');
    });
  });

  describe('search_files', () => {
    it('searches the own folder and the live peer folders, with virtual paths', async () => {
      writeFileSync(join(peer, 'notes.txt'), 'peer notes\nexport const b = 9;\n');
      assert.deepEqual(await run(box, SEARCH_FILES, { pattern: 'const b' }), { ok: true, content: 'src/index.ts:2: export const b = 2;' });
      assert.deepEqual(await run(box, SEARCH_FILES, { pattern: 'const b', path: 'peers/agent2' }), {
        ok: true,
        content: 'peers/agent2/notes.txt:2: export const b = 9;\npeers/agent2/src/index.ts:2: export const b = 2;',
      });
      assertFail(await run(box, SEARCH_FILES, { pattern: 'x', path: 'peers' }), /search one of them, e.g. path "peers\/agent1"/);
      assertFail(await run(box, SEARCH_FILES, { pattern: 'x', path: '../' }), /leaves your folder/);
    });
  });

  describe('execute never throws', () => {
    it('turns bad calls into ok:false results', async () => {
      assertFail(await run(box, READ_FILE, '{not json'), /not valid JSON/);
      assertFail(await run(box, READ_FILE, '[1,2]'), /must be a JSON object/);
      assertFail(await run(box, READ_FILE, 'null'), /must be a JSON object/);
      assertFail(await run(box, READ_FILE, { path: 7 }), /must be a string/);
      assertFail(await run(box, READ_FILE, {}), /names your folder itself/);
      assertFail(await run(box, 'delete_file', { path: 'README.md' }), /unknown tool "delete_file"; the file tools are read_file, write_file, list_directory, edit_file/);
      assertFail(await run(box, '__proto__', {}), /unknown tool/);
      const aborted = new AbortController();
      aborted.abort();
      assertFail(await run(box, WRITE_FILE, { path: 'x.txt', content: 'x' }, aborted.signal), /cancelled/);
      assert.ok(!existsSync(join(own, 'x.txt')));
    });

    it('reports a vanished folder as a tool failure', async () => {
      await scratch.dispose();
      assertFail(await run(box, READ_FILE, { path: 'README.md' }), /not available/);
      assertFail(await run(box, WRITE_FILE, { path: 'a.txt', content: 'x' }), /not available/);
      assertFail(await run(box, LIST_DIRECTORY, {}), /not available/);
    });
  });
});

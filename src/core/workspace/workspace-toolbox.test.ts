import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentToolbox } from '../engine/ports';
import { createWorkspaceToolbox, EDIT_FILE, LIST_DIRECTORY, READ_FILE, SEARCH_FILES, WRITE_FILE, type PeerViews } from './file-tools';
import type { GrepOptions, GrepResult, TreeEntry, TreeView } from './types';

type FakeNode = string | { symlink: string } | { submodule: true };

/** An in-memory snapshot. grep is a plain JS regex scan that records how it was called. */
class FakeView implements TreeView {
  readonly greps: { pattern: string; options: GrepOptions }[] = [];
  reads = 0;
  grepResult?: GrepResult;
  constructor(private readonly files: Record<string, FakeNode>) {}

  private entry(p: string): TreeEntry | null {
    const name = p.split('/').pop()!;
    const node = Object.hasOwn(this.files, p) ? this.files[p] : undefined;
    if (typeof node === 'string') return { name, kind: 'file', size: Buffer.byteLength(node) };
    if (node) return { name, kind: 'symlink' in node ? 'symlink' : 'submodule', size: 0 };
    const isDir = p === '.' || Object.keys(this.files).some((f) => f.startsWith(`${p}/`));
    return isDir ? { name, kind: 'directory', size: 0 } : null;
  }
  async readFile(p: string) {
    this.reads++;
    const node = this.files[p];
    return typeof node === 'string' ? Buffer.from(node) : null;
  }
  async stat(p: string) {
    return this.entry(p);
  }
  async list(p: string) {
    if (this.entry(p)?.kind !== 'directory') return null;
    const prefix = p === '.' ? '' : `${p}/`;
    const names = new Set(Object.keys(this.files).filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length).split('/')[0]));
    return [...names].sort().map((n) => this.entry(prefix + n)!);
  }
  async grep(pattern: string, options: GrepOptions): Promise<GrepResult> {
    this.greps.push({ pattern, options });
    if (this.grepResult) return this.grepResult;
    let re: RegExp;
    try {
      re = new RegExp(pattern);
    } catch {
      return { ok: false, reason: `the pattern ${JSON.stringify(pattern)} is not a valid regular expression` };
    }
    const matches = [];
    for (const [file, node] of Object.entries(this.files)) {
      if (typeof node !== 'string' || (options.path && !file.startsWith(options.path))) continue;
      const lines = node.split('\n');
      for (let i = 0; i < lines.length; i++) if (re.test(lines[i])) matches.push({ path: file, line: i + 1, text: lines[i] });
    }
    return { ok: true, matches: matches.slice(0, options.maxMatches), truncated: matches.length > options.maxMatches };
  }
}

let callSeq = 0;
async function run(box: AgentToolbox, name: string, args: unknown, signal = new AbortController().signal) {
  return box.execute({ id: `w${++callSeq}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }, signal);
}

function assertFail(result: { ok: boolean; content: string }, pattern: RegExp): void {
  assert.equal(result.ok, false, `expected failure, got: ${result.content}`);
  assert.match(result.content, pattern);
}

function gitRepo(dir: string, files: Record<string, string>): void {
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  execFileSync('git', ['init', '-q', dir]);
}

describe('workspace/file-tools in a workspace run', () => {
  let tmp: string;
  let own: string;
  let docs: string;
  let answers: Map<string, FakeView>;
  let box: AgentToolbox;
  const peers: PeerViews = { labels: ['agent1', 'agent2', 'agent3'], view: (label) => answers.get(label) };

  beforeEach(() => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'wtools-')));
    own = join(tmp, 'copies', 'agent2');
    docs = join(tmp, 'reference docs');
    gitRepo(own, {
      'src/app.ts': 'export function load() {\n  return 1; // TODO speed up\n}\n',
      'README.md': '# App\n',
      '.gitignore': 'build/\n',
      'build/out.js': 'function load() {}\n',
      '.env': 'TOKEN=load\n',
    });
    gitRepo(docs, { 'guide.md': 'How to load data\nTODO: write more\n' });
    writeFileSync(join(tmp, 'secret.txt'), 'TODO outside\n');
    answers = new Map([
      ['agent1', new FakeView({ 'src/app.ts': 'export function load() {\n  return 2;\n}\n', 'notes.md': 'from agent1\n', '.env': 'X=1', 'link': { symlink: 'src' }, 'vendor': { submodule: true } })],
      ['agent3', new FakeView({ 'src/app.ts': 'export const load = () => 3;\n' })],
    ]);
    box = createWorkspaceToolbox({ own, peers, context: [{ name: 'docs', folder: docs }] }, { searchTimeoutMs: 5000 });
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('describes the layout: answers under peers/, reference folders under context/, a regex search_files', () => {
    assert.deepEqual(box.tools.map((t) => t.name), [READ_FILE, WRITE_FILE, LIST_DIRECTORY, EDIT_FILE, SEARCH_FILES]);
    const read = box.tools.find((t) => t.name === READ_FILE)!;
    assert.match(read.description, /peers\/agentK\/<path>" reads agentK's files as of its current answer/);
    assert.match(read.description, /context\/<name>\/<path>" reads a reference folder \(read-only\): docs/);
    const search = box.tools.find((t) => t.name === SEARCH_FILES)!;
    assert.match(search.description, /regular expression \(PCRE-like/);
    assert.match(search.description, /\.gitignore/);
    assert.match(search.description, /protected names/);
    assert.deepEqual(search.parameters.required, ['pattern']);
    assert.deepEqual(Object.keys(search.parameters.properties as object), ['pattern', 'path', 'glob']);
    assert.throws(() => createWorkspaceToolbox({ own, peers, context: [{ name: '../x', folder: docs }] }), /unsafe reference folder name/);
    assert.throws(() => createWorkspaceToolbox({ own, peers, context: [{ name: '.env', folder: docs }] }), /unsafe reference folder name/);
    assert.throws(() => createWorkspaceToolbox({ own, peers, context: [{ name: 'docs', folder: docs }, { name: 'Docs', folder: own }] }), /duplicate/);
  });

  describe('peers/ (answer snapshots through the port)', () => {
    it('lists every label, the own one included, and says which have no answer yet', async () => {
      assert.deepEqual(await run(box, LIST_DIRECTORY, { path: 'peers' }), {
        ok: true,
        content: "peers/ (read-only; each agent's files as of its current answer, labels as in CURRENT ANSWERS):\nagent1/\nagent2/ (no answer yet)\nagent3/",
      });
      const root = await run(box, LIST_DIRECTORY, {});
      assert.match(root.content, /^peers\/ \(read-only: every agent's files as of its current answer\)$/m);
      assert.match(root.content, /^context\/ \(read-only reference folders: docs\)$/m);
    });

    it('reads and lists a peer answer, hiding protected names and marking links and submodules', async () => {
      assert.deepEqual(await run(box, READ_FILE, { path: 'peers/agent1/src/app.ts' }), { ok: true, content: 'export function load() {\n  return 2;\n}\n' });
      assert.deepEqual(await run(box, READ_FILE, { path: 'Peers/AGENT3/src/app.ts', start_line: 1 }), { ok: true, content: 'export const load = () => 3;\n' });
      assert.deepEqual(await run(box, LIST_DIRECTORY, { path: 'peers/agent1' }), {
        ok: true,
        content: [
          'peers/agent1/ (4 entries):',
          'link (symbolic link)',
          'notes.md (12 bytes)',
          'src/',
          'vendor/ (git submodule, not part of this copy)',
          '[1 protected entry (such as .git or .env) hidden]',
        ].join('\n'),
      });
      assertFail(await run(box, READ_FILE, { path: 'peers/agent1/link' }), /"peers\/agent1\/link" is a symbolic link/);
      assertFail(await run(box, READ_FILE, { path: 'peers/agent1/vendor' }), /submodule/);
      assertFail(await run(box, READ_FILE, { path: 'peers/agent1/src' }), /"peers\/agent1\/src" is a folder/);
      assertFail(await run(box, READ_FILE, { path: 'peers/agent1/missing.ts' }), /"peers\/agent1\/missing.ts" does not exist/);
      assertFail(await run(box, LIST_DIRECTORY, { path: 'peers/agent1/notes.md' }), /is a file; use read_file/);
      const reads = answers.get('agent1')!.reads;
      assertFail(await run(box, READ_FILE, { path: 'peers/agent1/.env' }), /off limits/);
      assert.equal(answers.get('agent1')!.reads, reads, 'a protected name must be refused before the snapshot is read');
    });

    it('says when an agent has no answer yet, naming those that have, and follows new answers', async () => {
      for (const [tool, args] of [
        [READ_FILE, { path: 'peers/agent2/src/app.ts' }],
        [LIST_DIRECTORY, { path: 'peers/agent2' }],
        [SEARCH_FILES, { pattern: 'load', path: 'peers/agent2' }],
      ] as const) {
        assertFail(await run(box, tool, args), /agent2 has no answer yet, so there are no files under "peers\/agent2" \(agents with an answer: peers\/agent1, peers\/agent3\)/);
      }
      answers.clear();
      assertFail(await run(box, READ_FILE, { path: 'peers/agent1/notes.md' }), /no agent has an answer yet/);
      answers.set('agent2', new FakeView({ 'a.txt': 'new answer\n' }));
      assert.deepEqual(await run(box, READ_FILE, { path: 'peers/agent2/a.txt' }), { ok: true, content: 'new answer\n' });
      assertFail(await run(box, READ_FILE, { path: 'peers/agent7/a.txt' }), /no agent folder "agent7"; peers\/ contains agent1, agent2, agent3/);
    });

    it('refuses every write under peers/ and context/, saying where to write instead', async () => {
      for (const p of ['peers/agent1/notes.md', 'peers/agent2/new.txt', 'peers', 'PEERS/agent1/x', 'context/docs/guide.md', 'Context/docs/new.md', 'context']) {
        assertFail(await run(box, WRITE_FILE, { path: p, content: 'x' }), /is read-only; write in your own folder with a path without "(peers|context)\/"/);
        assertFail(await run(box, EDIT_FILE, { path: p, old_text: 'a', new_text: 'b' }), /read-only; write in your own folder/);
      }
      assert.equal(readFileSync(join(docs, 'guide.md'), 'utf8'), 'How to load data\nTODO: write more\n');
    });

    it('searches a peer answer through its view, with virtual paths, the sub-path and the glob passed on', async () => {
      const r = await run(box, SEARCH_FILES, { pattern: 'load', path: 'peers/agent1/src', glob: '*.ts' });
      assert.deepEqual(r, { ok: true, content: 'peers/agent1/src/app.ts:1: export function load() {' });
      const call = answers.get('agent1')!.greps[0];
      assert.equal(call.pattern, 'load');
      assert.equal(call.options.path, 'src');
      assert.equal(call.options.glob, '*.ts');
      assert.equal(call.options.maxMatches, 200);
      assert.equal(call.options.timeoutMs, 5000);
      assert.ok(call.options.signal);
      await run(box, SEARCH_FILES, { pattern: 'x', path: 'peers/agent3' });
      assert.equal(answers.get('agent3')!.greps[0].options.path, undefined, 'the root of a tree is searched without a sub-path');
    });

    it('caps matches and line length with notes, drops protected paths, and passes search errors on in words', async () => {
      const view = answers.get('agent1')!;
      const long = 'y'.repeat(1000);
      view.grepResult = {
        ok: true,
        truncated: true,
        matches: [
          { path: 'src/app.ts', line: 3, text: long },
          { path: 'config/.env', line: 1, text: 'SECRET=1' },
        ],
      };
      const r = await run(box, SEARCH_FILES, { pattern: 'y', path: 'peers/agent1' });
      assert.equal(r.ok, true);
      const lines = r.content.split('\n');
      assert.equal(lines[0], `peers/agent1/src/app.ts:3: ${'y'.repeat(300)}…`);
      assert.match(lines[1], /^\[stopped at 200 matches; narrow down with a more specific pattern, a path \(a folder or file\) or a glob/);
      assert.match(lines[2], /^\[lines longer than 300 characters were cut/);
      assert.ok(!r.content.includes('SECRET'), r.content);
      view.grepResult = { ok: false, reason: 'the search took longer than 5 s and was stopped; use a simpler pattern' };
      assertFail(await run(box, SEARCH_FILES, { pattern: '(a+)+$', path: 'peers/agent1' }), /search_files failed: the search took longer than 5 s/);
      view.grepResult = undefined;
      assert.deepEqual(await run(box, SEARCH_FILES, { pattern: 'nothing-here', path: 'peers/agent1' }), { ok: true, content: 'No matches for "nothing-here" in "peers/agent1".' });
      assertFail(await run(box, SEARCH_FILES, { pattern: 'x', path: 'peers' }), /"peers" holds one folder each; search one of them, e.g. path "peers\/agent1"/);
    });
  });

  describe('own folder and context/ (real folders)', () => {
    it('reads, writes and edits the own copy; edit_file also takes upstream\'s old_string/new_string', async () => {
      assert.deepEqual(await run(box, READ_FILE, { path: 'README.md' }), { ok: true, content: '# App\n' });
      assert.deepEqual(await run(box, WRITE_FILE, { path: 'src/new.ts', content: 'export {};\n' }), { ok: true, content: 'Wrote 11 bytes to src/new.ts (new file).' });
      assert.deepEqual(await run(box, EDIT_FILE, { path: 'README.md', old_string: 'App', new_string: 'Tool' }), {
        ok: true,
        content: 'Edited README.md: replaced 1 occurrence starting on line 1.',
      });
      assert.equal(readFileSync(join(own, 'README.md'), 'utf8'), '# Tool\n');
      assertFail(await run(box, EDIT_FILE, { path: 'README.md', old_text: 'Tool', old_string: 'App', new_text: 'x' }), /give "old_text" or "old_string", not both/);
      assert.deepEqual(await run(box, READ_FILE, { path: 'context/docs/guide.md', start_line: 2 }), { ok: true, content: 'TODO: write more\n' });
      assert.deepEqual(await run(box, LIST_DIRECTORY, { path: 'context' }), { ok: true, content: 'context/ (read-only reference folders):\ndocs/' });
      assertFail(await run(box, READ_FILE, { path: 'context/papers/x.md' }), /no reference folder "papers"; context\/ contains docs/);
    });

    it('searches the own folder by default and context/<name>/ on request, skipping ignored and protected files', async () => {
      const r = await run(box, SEARCH_FILES, { pattern: 'function\\s+load' });
      assert.deepEqual(r, { ok: true, content: 'src/app.ts:1: export function load() {' });
      assert.deepEqual(await run(box, SEARCH_FILES, { pattern: 'TODO', path: 'context/docs' }), { ok: true, content: 'context/docs/guide.md:2: TODO: write more' });
      assert.deepEqual(await run(box, SEARCH_FILES, { pattern: 'TODO', path: 'src/app.ts' }), { ok: true, content: 'src/app.ts:2:   return 1; // TODO speed up' });
      assert.deepEqual(await run(box, SEARCH_FILES, { pattern: 'load', glob: '*.md' }), { ok: true, content: 'No matches for "load" in your folder (files matching "*.md").' });
      assertFail(await run(box, SEARCH_FILES, { pattern: 'x', path: 'nope' }), /"nope" does not exist/);
      assertFail(await run(box, SEARCH_FILES, { pattern: '(unclosed' }), /search_files failed: the pattern is not a valid regular expression/);
    });

    it('refuses hostile search arguments in words', async () => {
      const cases: [unknown, RegExp][] = [
        [{}, /"pattern" must be a non-empty string/],
        [{ pattern: 7 }, /"pattern" must be a non-empty string/],
        [{ pattern: '' }, /"pattern" must be a non-empty string/],
        [{ pattern: ['a'] }, /"pattern" must be a non-empty string/],
        [{ pattern: 'a'.repeat(1001) }, /1001 characters long; the limit is 1000/],
        [{ pattern: 'a\nb' }, /line break/],
        [{ pattern: 'a\0b' }, /control character/],
        [{ pattern: 'a', glob: 3 }, /"glob" must be a file-name pattern/],
        [{ pattern: 'a', glob: '/etc/*' }, /cannot start with "\/" or ":"/],
        [{ pattern: 'a', glob: ':(top)*' }, /cannot start with "\/" or ":"/],
        [{ pattern: 'a', glob: 'src/../../*' }, /contain "\.\."/],
        [{ pattern: 'a', path: 12 }, /must be a string/],
      ];
      for (const [args, pattern] of cases) assertFail(await run(box, SEARCH_FILES, args), pattern);
    });

    // Unbounded, the backtracking on 50,000 characters would outlast this test's timeout: returning at all is the bound.
    it('returns a catastrophic pattern on a long line within the timeout, never hanging the turn', async function () {
      this.timeout(15_000);
      writeFileSync(join(own, 'evil.txt'), `${'a'.repeat(50_000)}!\n`);
      const quick = createWorkspaceToolbox({ own, peers }, { searchTimeoutMs: 1000 });
      const r = await run(quick, SEARCH_FILES, { pattern: '(a+)+$' });
      // git with PCRE stops at its match limit; an ERE-only git has no backtracking to blow up.
      if (r.ok) assert.equal(r.content, 'No matches for "(a+)+$" in your folder.');
      else assert.match(r.content, /search_files failed: the (pattern is too costly to run|search took longer than 1 s)/);
    });

    // How long the search takes against plain `git grep` is measured by the bench (`workspace` scenario).
    it('finds the one match in a 10,000-file tree, and stops at the match cap', async function () {
      this.timeout(60_000);
      const big = join(tmp, 'big');
      for (let d = 0; d < 100; d++) {
        mkdirSync(join(big, `d${d}`), { recursive: true });
        for (let f = 0; f < 100; f++) writeFileSync(join(big, `d${d}`, `f${f}.ts`), `export const v${f} = ${d * 100 + f};\n// filler line\n`);
      }
      execFileSync('git', ['init', '-q', big]);
      const wide = createWorkspaceToolbox({ own: big, peers }, { maxSearchMatches: 5 });
      const r = await run(wide, SEARCH_FILES, { pattern: 'v42 = 4242;' });
      assert.deepEqual(r, { ok: true, content: 'd42/f42.ts:1: export const v42 = 4242;' });
      const capped = await run(wide, SEARCH_FILES, { pattern: 'filler' });
      assert.equal(capped.content.split('\n').length, 6, capped.content);
      assert.match(capped.content, /\[stopped at 5 matches/);
    });
  });

  it('says when a real top-level folder of the project is hidden behind a virtual one; context/ is only reserved when used', async () => {
    mkdirSync(join(own, 'peers'));
    mkdirSync(join(own, 'context'));
    const r = await run(box, LIST_DIRECTORY, {});
    assert.match(r.content, /^\[your folder's own "peers" is hidden behind the virtual peers\/ and cannot be used with these tools\]$/m);
    assert.match(r.content, /^\[your folder's own "context" is hidden behind the virtual context\/ and cannot be used with these tools\]$/m);
    const noContext = createWorkspaceToolbox({ own, peers });
    assert.equal((await run(noContext, WRITE_FILE, { path: 'context/a.md', content: 'x' })).ok, true);
    assert.equal(readFileSync(join(own, 'context', 'a.md'), 'utf8'), 'x');
    assert.match((await run(noContext, LIST_DIRECTORY, {})).content, /^context\/$/m);
  });

  describe('path escapes are refused on every tool and every root', () => {
    beforeEach(() => {
      symlinkSync(join(tmp, 'secret.txt'), join(docs, 'leak.txt'));
      symlinkSync(tmp, join(docs, 'up'));
      symlinkSync(join(tmp, 'secret.txt'), join(own, 'leak.txt'));
    });

    const roots = ['', 'peers/agent1/', 'context/docs/'];
    const escapes: [string, RegExp][] = [
      ['../../../secret.txt', /leaves your folder/],
      ['/etc/passwd', /absolute paths are not allowed/],
      ['a\0b', /NUL/],
      ['.git/config', /off limits/],
      ['.env', /off limits/],
      ['sub/.env.local', /off limits/],
    ];

    it('read_file, list_directory and search_files', async () => {
      for (const root of roots) {
        for (const [inner, pattern] of escapes) {
          // An absolute path is only "absolute" at the start; under a root it is a plain (refused) name.
          const p = inner.startsWith('/') ? inner : root + inner;
          for (const [tool, args] of [
            [READ_FILE, { path: p }],
            [LIST_DIRECTORY, { path: p }],
            [SEARCH_FILES, { pattern: 'TODO', path: p }],
          ] as const) {
            const r = await run(box, tool, args);
            assertFail(r, pattern);
            assert.ok(!r.content.includes(tmp), `host path leaked: ${r.content}`);
          }
        }
      }
    });

    it('symlinks out of a context folder or the own folder', async () => {
      for (const p of ['context/docs/leak.txt', 'context/docs/up/secret.txt', 'leak.txt']) {
        for (const [tool, args] of [
          [READ_FILE, { path: p }],
          [LIST_DIRECTORY, { path: p }],
          [SEARCH_FILES, { pattern: 'TODO', path: p }],
        ] as const) {
          const r = await run(box, tool, args);
          assertFail(r, /symbolic link that points outside the folder/);
          assert.ok(!r.content.includes(tmp), `host path leaked: ${r.content}`);
        }
      }
      const all = await run(box, SEARCH_FILES, { pattern: 'outside', path: 'context/docs' });
      assert.ok(!all.content.includes('TODO outside'), `search followed a link out: ${all.content}`);
    });

    it('write_file and edit_file', async () => {
      for (const [inner, pattern] of [...escapes, ['leak.txt', /points outside/] as [string, RegExp]]) {
        assertFail(await run(box, WRITE_FILE, { path: inner, content: 'x' }), pattern);
        assertFail(await run(box, EDIT_FILE, { path: inner, old_text: 'TODO', new_text: 'x' }), pattern);
      }
      assert.equal(readFileSync(join(tmp, 'secret.txt'), 'utf8'), 'TODO outside\n');
      assert.equal(readFileSync(join(own, '.env'), 'utf8'), 'TOKEN=load\n');
    });
  });
});

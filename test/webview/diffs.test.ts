// The webview's diff logic, in Node: the unified-diff parser (real git-style patches, then hostile and broken
// ones), the per-version patch store, and the change summaries.

import assert from 'node:assert/strict';
import { hostMessage, type WebviewMessage } from '../../src/protocol/messages';
import type { Host } from '../../webview/bridge';
import { fileDiffOf, parsePatch, type FileDiff } from '../../webview/diff-parse';
import { DiffStore, type PatchState } from '../../webview/diff-store';
import { changeStat, fileStat, visible } from '../../webview/format';
import { addedFile, binaryFile, deletedFile, joinPatches } from './patches';
import { HOSTILE_PATH, workspaceRun } from './scenarios';

const kinds = (f: FileDiff | undefined) => f?.rows.map((r) => r.kind).join(' ');

describe('vote viewer (webview logic): parsing unified diffs', () => {
  it('splits a git patch into files, hunks and numbered lines; notes binary files', () => {
    const patch = parsePatch(workspaceRun().patches.get('agent1.1')!);
    assert.deepEqual(
      patch.files.map((f) => [f.path, f.oldPath, f.binary, f.rows.length]),
      [
        ['src/config.ts', null, false, 21],
        ['src/errors.ts', null, false, 3],
        ['assets/logo.png', null, true, 0],
      ],
    );
    assert.equal(patch.stray, 0);
    const config = fileDiffOf(patch, 'src/config.ts')!;
    assert.equal(kinds(config), 'hunk ctx del add add ctx hunk ctx del del del add add add add add add add add ctx ctx');
    assert.deepEqual(config.rows.slice(0, 5).map((r) => [r.oldNo, r.newNo, r.text]), [
      [null, null, '@@ -1,3 +1,4 @@'],
      [1, 1, "import { readFileSync } from 'node:fs';"],
      [2, null, 'export function parseConfig(text: string): Config {'],
      [null, 2, 'export function parseConfig(text: string): Result<Config> {'],
      [null, 3, '  let raw: unknown;'],
    ]);
    assert.deepEqual(config.rows.at(-1), { kind: 'ctx', text: 'export default parseConfig;', oldNo: 17, newNo: 23 });
  });

  it('names added, deleted, renamed and quoted files by the right side', () => {
    const { patch } = joinPatches([addedFile('new.ts', ['a']), deletedFile('gone.ts', ['b', 'c'])]);
    const renamed = 'diff --git a/old name.ts b/new name.ts\nsimilarity index 90%\nrename from old name.ts\nrename to new name.ts\n--- a/old name.ts\n+++ b/new name.ts\n@@ -1 +1 @@\n-x\n+y\n';
    const pure = 'diff --git a/lib/a.ts b/lib/b.ts\nsimilarity index 100%\nrename from lib/a.ts\nrename to lib/b.ts\n';
    const quoted = 'diff --git "a/sp ace\\"q\\303\\251\\t.ts" "b/sp ace\\"q\\303\\251\\t.ts"\nnew file mode 100644\n--- /dev/null\n+++ "b/sp ace\\"q\\303\\251\\t.ts"\n@@ -0,0 +1 @@\n+z\n';
    const spaced = 'diff --git a/my file.ts b/my file.ts\nindex 1..2 100644\nBinary files a/my file.ts and b/my file.ts differ\n';
    const named = '--- a/logo.gif\n+++ b/logo.gif\nBinary files differ\n';
    const files = parsePatch(patch + renamed + pure + quoted + spaced + named).files;
    assert.deepEqual(
      files.map((f) => [f.path, f.oldPath, kinds(f), f.binary]),
      [
        ['new.ts', null, 'hunk add', false],
        ['gone.ts', null, 'hunk del del', false],
        ['new name.ts', 'old name.ts', 'hunk del add', false],
        ['lib/b.ts', 'lib/a.ts', '', false],
        ['sp ace"qé\t.ts', null, 'hunk add', false],
        ['my file.ts', null, '', true],
        ['logo.gif', null, '', true],
      ],
    );
    assert.equal(fileDiffOf({ files, stray: 0 }, 'lib/a.ts')?.path, 'lib/b.ts', 'found by its old path too');
  });

  it('keeps hostile paths and lines verbatim (the view sets them as text)', () => {
    const { patch } = joinPatches([addedFile(HOSTILE_PATH, ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>']), binaryFile('<b>bin</b>.png', 'added')]);
    const files = parsePatch(patch).files;
    assert.deepEqual(files.map((f) => [f.path, f.binary]), [[HOSTILE_PATH, false], ['<b>bin</b>.png', true]]);
    assert.deepEqual(files[0].rows.slice(1).map((r) => r.text), ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>']);
    assert.equal(files[1].rows.length, 0, 'base85 data is never a row');
  });

  it('reads lines like "--- x" inside a hunk as lines, not as a new file', () => {
    const text = 'diff --git a/notes.md b/notes.md\n--- a/notes.md\n+++ b/notes.md\n@@ -1,3 +1,3 @@\n--- a/heading\n+++ b/heading\n diff --git a/x b/x\n';
    const files = parsePatch(text).files;
    assert.equal(files.length, 1);
    assert.equal(kinds(files[0]), 'hunk del add ctx');
    assert.deepEqual(files[0].rows.slice(1).map((r) => r.text), ['-- a/heading', '++ b/heading', 'diff --git a/x b/x']);
  });

  it('handles CRLF, "\\ No newline at end of file" and context lines stripped of their space', () => {
    const text = 'diff --git a/w.txt b/w.txt\r\n--- a/w.txt\r\n+++ b/w.txt\r\n@@ -1,3 +1,3 @@\r\n a\r\n\r\n-b\r\n\\ No newline at end of file\r\n+c\r\n\\ No newline at end of file\r\ndiff --git a/v.txt b/v.txt\n--- a/v.txt\n+++ b/v.txt\n@@ -1 +1 @@\n-1\n+2\n';
    const [w, v] = parsePatch(text).files;
    assert.deepEqual(w.rows.map((r) => [r.kind, r.text, r.oldNo, r.newNo]), [
      ['hunk', '@@ -1,3 +1,3 @@', null, null],
      ['ctx', 'a', 1, 1],
      ['ctx', '', 2, 2],
      ['del', 'b', 3, null],
      ['meta', '\\ No newline at end of file', null, null],
      ['add', 'c', null, 3],
      ['meta', '\\ No newline at end of file', null, null],
    ]);
    assert.equal(v.path, 'v.txt');
    assert.equal(kinds(v), 'hunk del add');
  });

  it('copes with missing headers, malformed hunks, garbage and a patch cut short', () => {
    // Only ---/+++ pairs (no diff --git), with text before them.
    const plain = parsePatch('Here is my patch:\n\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n--- y.ts\t2026-01-02 03:04:05\n+++ y.ts\t2026-01-02 03:04:06\n@@ -1 +1,2 @@\n a\n+b\n');
    assert.deepEqual(plain.files.map((f) => [f.path, kinds(f)]), [['x.ts', 'hunk del add'], ['y.ts', 'hunk ctx add']]);
    assert.equal(plain.stray, 2);
    // Hunks with no file header at all.
    const bare = parsePatch('@@ -1 +1 @@\n-a\n+b\n');
    assert.deepEqual(bare.files.map((f) => [f.path, kinds(f)]), [['', 'hunk del add']]);
    // A header without numbers: rows without line numbers, until a line that is not a diff line.
    const odd = parsePatch('diff --git a/q b/q\n@@ who knows @@\n+x\n-y\nnot a diff line\n');
    assert.deepEqual(odd.files[0].rows.map((r) => [r.kind, r.oldNo, r.newNo]), [['hunk', null, null], ['add', null, null], ['del', null, null]]);
    assert.equal(odd.stray, 1);
    // Cut in the middle of a hunk (the host's size cap).
    const whole = workspaceRun().patches.get('agent1.1')!;
    const cut = parsePatch(whole.slice(0, whole.indexOf('+  const errors')));
    assert.deepEqual(cut.files.map((f) => f.path), ['src/config.ts']);
    assert.equal(kinds(cut.files[0]), 'hunk ctx del add add ctx hunk ctx del del del');
    assert.deepEqual(parsePatch(''), { files: [], stray: 0 });
  });

  it('never throws on random input', () => {
    const pieces = ['diff --git a/x b/x', '--- a/x', '+++ b/x', '--- /dev/null', '+++ "b/\\q', '@@ -1,2 +1,2 @@', '@@ -', '@@ -9999999999,1 +0 @@', '+', '-', ' ', '\\', 'rename from ', 'rename to "', 'Binary files', 'GIT binary patch', '"', '\r', '', '<script>'];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let i = 0; i < 300; i++) {
      const text = Array.from({ length: rand(40) }, () => pieces[rand(pieces.length)] + (rand(3) ? '\n' : '')).join('');
      const parsed = parsePatch(text);
      assert.ok(parsed.files.every((f) => typeof f.path === 'string' && Array.isArray(f.rows)), text);
    }
  });

  // Its time per line, against a patch a tenth the size, is measured by the bench (`scale` scenario).
  it('parses a 50,000-line patch', () => {
    const { patch } = joinPatches([addedFile('big.ts', Array.from({ length: 50_000 }, (_, i) => `export const value${i} = ${i};`))]);
    const parsed = parsePatch(patch);
    assert.equal(parsed.files[0].rows.length, 50_001);
    const last = parsed.files[0].rows.at(-1);
    assert.deepEqual([last?.kind, last?.newNo, last?.text], ['add', 50_000, 'export const value49999 = 49999;']);
  });
});

describe('vote viewer (webview logic): the patch store', () => {
  const store = () => {
    const posted: Omit<WebviewMessage, 'v'>[] = [];
    const host: Host = { surface: 'panel', ui: { runId: null, follow: true, collapsed: [], closed: [] }, post: (m) => posted.push(m), saveUi: () => undefined };
    return { posted, diffs: new DiffStore(host, 'run-1') };
  };

  it('asks the host once per version, parses the reply once, and tells every view', () => {
    const { posted, diffs } = store();
    const a: PatchState[] = [];
    const b: PatchState[] = [];
    diffs.watch('agent1.1', (s) => a.push(s));
    const stop = diffs.watch('agent1.1', (s) => b.push(s));
    assert.deepEqual(posted, [{ type: 'requestDiff', runId: 'run-1', version: 'agent1.1' }]);
    assert.deepEqual([a.map((s) => s.kind), b.map((s) => s.kind)], [['loading'], ['loading']]);
    stop();
    diffs.receive(hostMessage({ type: 'diff', runId: 'run-1', version: 'agent1.1', patch: workspaceRun().patches.get('agent1.1')!, truncated: false }));
    assert.deepEqual(a.map((s) => s.kind), ['loading', 'ready']);
    assert.equal(b.length, 1, 'an unsubscribed view is not told');
    const late: PatchState[] = [];
    diffs.watch('agent1.1', (s) => late.push(s));
    assert.equal(late[0], a[1], 'a later view gets the parsed patch at once');
    assert.equal(posted.length, 1);
  });

  it('keeps the host’s note for a missing patch, the first reply only, and nothing of another run', () => {
    const { posted, diffs } = store();
    const seen: PatchState[] = [];
    diffs.watch('agent2.1', (s) => seen.push(s));
    diffs.receive(hostMessage({ type: 'diff', runId: 'other-run', version: 'agent2.1', patch: '', truncated: false }));
    assert.deepEqual(seen, [{ kind: 'loading' }]);
    diffs.receive(hostMessage({ type: 'diff', runId: 'run-1', version: 'agent2.1', patch: null, truncated: false, note: 'This run did not work on a workspace: its answers have no diffs.' }));
    diffs.receive(hostMessage({ type: 'diff', runId: 'run-1', version: 'agent2.1', patch: '', truncated: false }));
    assert.deepEqual(seen, [{ kind: 'loading' }, { kind: 'missing', note: 'This run did not work on a workspace: its answers have no diffs.' }]);
    // A reply to a request the page made before its last snapshot: kept, so the version is not asked again (the
    // host, having answered, would drop the repeat).
    diffs.receive(hostMessage({ type: 'diff', runId: 'run-1', version: 'agent3.1', patch: '', truncated: false }));
    const later: PatchState[] = [];
    diffs.watch('agent3.1', (s) => later.push(s));
    assert.deepEqual(later.map((s) => s.kind), ['ready']);
    assert.deepEqual(posted.map((m) => 'version' in m && m.version), ['agent2.1']);
  });
});

describe('vote viewer (webview logic): change summaries', () => {
  it('counts files and lines like git, binary files as files', () => {
    const change = (files: Parameters<typeof changeStat>[0]['files']) => ({ id: 't', files, bytesWritten: 0 });
    assert.equal(changeStat(change([])), 'No file changes');
    assert.equal(changeStat(change([{ path: 'a', status: 'added', added: 1, removed: 0 }])), '1 file changed, +1 \u22120');
    assert.equal(
      changeStat(change([{ path: 'a', status: 'modified', added: 12_000, removed: 4 }, { path: 'b.png', status: 'modified', added: null, removed: null }, { path: 'c', status: 'deleted', added: 0, removed: 3 }])),
      '3 files changed, +12,000 \u22127',
    );
    assert.equal(fileStat({ path: 'b.png', status: 'added', added: null, removed: null }), 'binary');
    assert.equal(fileStat({ path: 'a', status: 'modified', added: 1234, removed: 5 }), '+1,234 \u22125');
  });

  it('writes out invisible and bidi-override characters in names and lines, keeping tabs', () => {
    assert.equal(visible('safe\u202Etxt.exe'), 'safe\\u202Etxt.exe');
    assert.equal(visible('a\tb\nc\u0000d\u200Be\u2066'), 'a\tb\\u000Ac\\u0000d\\u200Be\\u2066');
    assert.equal(visible('<img src=x onerror=alert(1)>.ts'), '<img src=x onerror=alert(1)>.ts');
  });
});

import assert from 'node:assert/strict';
import { patchSymlinks, symlinksLeaving, unquoteGitPath } from './patch-symlinks';

/** A git patch section adding a symlink, as `git diff-tree -p` writes it. */
function addLink(p: string, target: string): string {
  return [`diff --git a/${p} b/${p}`, 'new file mode 120000', 'index 0000000000000000000000000000000000000000..1111111111111111111111111111111111111111', '--- /dev/null', `+++ b/${p}`, '@@ -0,0 +1 @@', `+${target}`, '\\ No newline at end of file', ''].join('\n');
}

const TEXT_FILE = ['diff --git a/a.txt b/a.txt', 'new file mode 100644', 'index 0000000..2222222', '--- /dev/null', '+++ b/a.txt', '@@ -0,0 +1 @@', '+../../outside', ''].join('\n');

describe('patch-symlinks', () => {
  it('finds added links and their targets; ordinary files are not links', () => {
    assert.deepEqual(patchSymlinks(TEXT_FILE + addLink('src/link', '../lib')), [{ path: 'src/link', target: '../lib' }]);
  });

  it('a link changed to point elsewhere counts with its new target', () => {
    const changed = ['diff --git a/l b/l', 'index 1111111..3333333 120000', '--- a/l', '+++ b/l', '@@ -1 +1 @@', '-inside', '\\ No newline at end of file', '+../../x', '\\ No newline at end of file', ''].join('\n');
    assert.deepEqual(patchSymlinks(changed), [{ path: 'l', target: '../../x' }]);
  });

  it('refuses links climbing out or absolute outside the folder; links inside are fine', () => {
    const patch = [addLink('link', '../../outside'), addLink('deep/ok', '../src/a.ts'), addLink('abs', '/etc/passwd'), addLink('absin', '/work/p/src'), addLink('deep/out', '../..')].join('');
    assert.deepEqual(
      symlinksLeaving(patch, '/work/p').map((l) => l.path),
      ['link', 'abs', 'deep/out'],
    );
  });

  it('refuses a `..` after a name, which may be a link: chained links (`s -> .`, `t -> s/..`) climb out', () => {
    const patch = [addLink('s', '.'), addLink('t', 's/..'), addLink('u', '/work/p/s/..'), addLink('a/v', '../b/../c'), addLink('a/w', '../../x/y')].join('');
    assert.deepEqual(
      symlinksLeaving(patch, '/work/p').map((l) => l.path),
      ['t', 'u', 'a/v', 'a/w'],
    );
  });

  it('reads header lines ending in a carriage return as git does', () => {
    const crlf = addLink('link', '../../outside').replace('new file mode 120000\n', 'new file mode 120000\r\n');
    assert.deepEqual(symlinksLeaving(crlf, '/work/p').map((l) => l.path), ['link']);
  });

  it('a link whose target is not shown as text is refused (fail closed)', () => {
    const binary = ['diff --git a/l b/l', 'new file mode 120000', 'index 0000000..4444444', 'GIT binary patch', 'literal 3', 'xyz', ''].join('\n');
    assert.deepEqual(symlinksLeaving(binary, '/work/p'), [{ path: 'l', target: null }]);
  });

  it('unquotes C-quoted paths with octal UTF-8 bytes', () => {
    assert.equal(unquoteGitPath('"b/caf\\303\\251 \\"x\\""'), 'b/café "x"');
    assert.equal(unquoteGitPath('b/plain'), 'b/plain');
  });
});

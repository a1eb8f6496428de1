import assert from 'node:assert/strict';
import { caseInsensitivePattern, literalExcludeLine, noAccessExcludeLines } from './exclude-patterns';
import { cleanup, put, sh, tempDir } from './git-fixtures.test-helper';

/** The paths git ignores among `paths` under the exclude lines `lines` (a real check-ignore). */
function ignored(lines: readonly string[], paths: readonly string[]): string[] {
  const made: string[] = [];
  try {
    const dir = tempDir('exclude', made);
    sh(dir, ['init', '-q']);
    put(dir, '.git/info/exclude', `${lines.join('\n')}\n`);
    return sh(dir, ['check-ignore', '--no-index', '--stdin'], `${paths.join('\n')}\n`).split('\n').filter((l) => l !== '');
  } catch {
    return []; // check-ignore exits 1 when nothing is ignored
  } finally {
    cleanup(made);
  }
}

describe('workspace/exclude-patterns', () => {
  it('leaves out protected names at any depth and in any case', () => {
    assert.equal(caseInsensitivePattern('.env.*'), '.[eE][nN][vV].*');
    const paths = ['.env', 'sub/.ENV.local', '.hg/store', 'a/.svn/x', '.npmrc', 'env.txt', 'src/.environment', 'keep.md'];
    assert.deepEqual(ignored(noAccessExcludeLines(), paths), ['.env', 'sub/.ENV.local', '.hg/store', 'a/.svn/x', '.npmrc']);
  });

  it('leaves out exactly one path, whatever characters its name has', () => {
    const line = literalExcludeLine('dir/a[1]*?.txt ');
    assert.deepEqual(ignored([line], ['dir/a[1]*?.txt ', 'dir/a1x.txt', 'other/dir/a[1]*?.txt ', 'dir/a[1]*?.txt']), ['dir/a[1]*?.txt ']);
  });
});

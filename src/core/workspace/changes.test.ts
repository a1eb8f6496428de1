import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffFolder } from './changes';
import { createFileToolbox, EDIT_FILE, WRITE_FILE } from './file-tools';
import { createScratch, type SeedFile } from './scratch';

describe('workspace/changes: diffFolder', () => {
  let tmp: string;
  let folder: string;
  const seed: SeedFile[] = [
    { relativePath: 'src/a.ts', content: 'export const a = 1;\n' },
    { relativePath: 'src/b.ts', content: 'export const b = 2;\n' },
    { relativePath: 'README.md', content: '# Title\n' },
    { relativePath: 'gone.txt', content: 'bye\n' },
  ];

  beforeEach(() => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'changes-')));
    folder = join(tmp, 'agent1');
    mkdirSync(join(folder, 'src'), { recursive: true });
    for (const f of seed) writeFileSync(join(folder, ...f.relativePath.split('/')), f.content);
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('reports nothing for an untouched folder', async () => {
    assert.deepEqual(await diffFolder(folder, seed), []);
  });

  it('reports added, modified and deleted files sorted by path, ignoring unchanged ones', async () => {
    writeFileSync(join(folder, 'src', 'a.ts'), 'export const a = 42;\n');
    writeFileSync(join(folder, 'README.md'), '# Title\n'); // rewritten with identical content: unchanged
    unlinkSync(join(folder, 'gone.txt'));
    mkdirSync(join(folder, 'src', 'util'));
    writeFileSync(join(folder, 'src', 'util', 'new.ts'), 'export {};\n');
    assert.deepEqual(await diffFolder(folder, seed), [
      { relativePath: 'gone.txt', kind: 'deleted', before: 'bye\n' },
      { relativePath: 'src/a.ts', kind: 'modified', before: 'export const a = 1;\n', after: 'export const a = 42;\n' },
      { relativePath: 'src/util/new.ts', kind: 'added', after: 'export {};\n' },
    ]);
  });

  it('treats a line-ending-only change as a modification', async () => {
    writeFileSync(join(folder, 'README.md'), '# Title\r\n');
    assert.deepEqual(await diffFolder(folder, seed), [{ relativePath: 'README.md', kind: 'modified', before: '# Title\n', after: '# Title\r\n' }]);
  });

  it('accepts seeded paths in non-normal form', async () => {
    const odd = seed.map((f) => ({ ...f, relativePath: `./${f.relativePath}` }));
    assert.deepEqual(await diffFolder(folder, odd), []);
    await assert.rejects(diffFolder(folder, [{ relativePath: '../x', content: '' }]), /invalid seeded path/);
  });

  it('ignores symlinks and protected names, and marks binary additions', async () => {
    writeFileSync(join(tmp, 'outside.txt'), 'secret');
    symlinkSync(join(tmp, 'outside.txt'), join(folder, 'link.txt'));
    symlinkSync(tmp, join(folder, 'up'));
    mkdirSync(join(folder, '.git'));
    writeFileSync(join(folder, '.git', 'HEAD'), 'ref');
    writeFileSync(join(folder, '.env'), 'KEY=1');
    mkdirSync(join(folder, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(folder, 'node_modules', 'x', 'i.js'), '');
    writeFileSync(join(folder, 'logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    assert.deepEqual(await diffFolder(folder, seed), [{ relativePath: 'logo.png', kind: 'added', binary: true }]);
  });

  it('reports a seeded file replaced by a symlink as deleted (the link is not followed)', async () => {
    unlinkSync(join(folder, 'README.md'));
    writeFileSync(join(tmp, 'outside.txt'), 'secret');
    symlinkSync(join(tmp, 'outside.txt'), join(folder, 'README.md'));
    assert.deepEqual(await diffFolder(folder, seed), [{ relativePath: 'README.md', kind: 'deleted', before: '# Title\n' }]);
  });

  it('does not follow a symlinked parent folder of a seeded file', async () => {
    rmSync(join(folder, 'src'), { recursive: true });
    mkdirSync(join(tmp, 'elsewhere'));
    writeFileSync(join(tmp, 'elsewhere', 'a.ts'), 'outside content\n');
    writeFileSync(join(tmp, 'elsewhere', 'b.ts'), 'export const b = 2;\n');
    symlinkSync(join(tmp, 'elsewhere'), join(folder, 'src'));
    assert.deepEqual(await diffFolder(folder, seed), [
      { relativePath: 'src/a.ts', kind: 'deleted', before: 'export const a = 1;\n' },
      { relativePath: 'src/b.ts', kind: 'deleted', before: 'export const b = 2;\n' },
    ]);
  });

  it('refuses a runaway folder', async () => {
    for (let i = 0; i < 5; i++) writeFileSync(join(folder, `f${i}`), '');
    await assert.rejects(diffFolder(folder, seed, { maxFiles: 3 }), /more than 3 files/);
  });

  it('end to end: the winner edits through its tools and the diff is what it changed', async () => {
    const scratch = await createScratch(join(tmp, 'base'), 'run', [
      { id: 'x', label: 'agent1' },
      { id: 'y', label: 'agent2' },
    ]);
    await scratch.seedAll(seed);
    const box = createFileToolbox(scratch, 'agent2');
    const signal = new AbortController().signal;
    await box.execute({ id: '1', name: EDIT_FILE, arguments: JSON.stringify({ path: 'src/b.ts', old_text: '2', new_text: '3' }) }, signal);
    await box.execute({ id: '2', name: WRITE_FILE, arguments: JSON.stringify({ path: 'docs/notes.md', content: 'n' }) }, signal);
    assert.deepEqual(await diffFolder(scratch.folderOf('agent2'), scratch.seededFiles('agent2')), [
      { relativePath: 'docs/notes.md', kind: 'added', after: 'n' },
      { relativePath: 'src/b.ts', kind: 'modified', before: 'export const b = 2;\n', after: 'export const b = 3;\n' },
    ]);
    assert.deepEqual(await diffFolder(scratch.folderOf('agent1'), scratch.seededFiles('agent1')), []);
    await scratch.dispose();
  });
});

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratch } from './scratch';

const AGENTS = [
  { id: 'gpt-4o-mini', label: 'agent1' },
  { id: 'claude-sonnet', label: 'agent2' },
  { id: 'local-llama', label: 'agent3' },
];

describe('workspace/scratch', () => {
  let base: string;
  beforeEach(() => {
    base = join(realpathSync(mkdtempSync(join(tmpdir(), 'scratch-'))), 'storage');
  });
  afterEach(() => rmSync(join(base, '..'), { recursive: true, force: true }));

  it('creates <base>/<runId>/<label>/ per agent, named by label (never by id)', async () => {
    const s = await createScratch(base, 'run-2025.01', AGENTS);
    assert.equal(s.runDir, join(base, 'run-2025.01'));
    assert.deepEqual(readdirSync(s.runDir).sort(), ['agent1', 'agent2', 'agent3']);
    assert.equal(s.folderOf('agent2'), join(base, 'run-2025.01', 'agent2'));
    assert.equal(s.labelOf('claude-sonnet'), 'agent2');
    assert.deepEqual(s.labels, ['agent1', 'agent2', 'agent3']);
    assert.throws(() => s.folderOf('agent9'), /unknown agent label/);
    assert.throws(() => s.folderOf('AGENT1'), /unknown agent label/);
    assert.throws(() => s.labelOf('nobody'), /unknown agent id/);
  });

  it('refuses unsafe run ids and labels, duplicates, and an existing run folder', async () => {
    for (const runId of ['', '..', '.', '../x', 'a/b', 'a\\b', '.hidden', 'CON', 'x'.repeat(200)]) {
      await assert.rejects(createScratch(base, runId, AGENTS), /unsafe run id/, runId);
    }
    for (const label of ['../agent1', 'a/b', '', '.git', 'nul', 'agent 1']) {
      await assert.rejects(createScratch(base, 'r1', [{ id: 'x', label }]), /unsafe agent label/, label);
    }
    await assert.rejects(createScratch(base, 'r2', [{ id: 'a', label: 'agent1' }, { id: 'b', label: 'Agent1' }]), /duplicate agent label/);
    await assert.rejects(createScratch(base, 'r3', [{ id: 'a', label: 'agent1' }, { id: 'a', label: 'agent2' }]), /duplicate agent id/);
    await assert.rejects(createScratch(base, 'r4', []), /at least one agent/);
    await createScratch(base, 'r5', AGENTS);
    await assert.rejects(createScratch(base, 'r5', AGENTS), /already exists/);
    assert.ok(!existsSync(join(base, '..', 'x')));
  });

  it('seeds files (nested folders created) and remembers them normalised', async () => {
    const s = await createScratch(base, 'r', AGENTS);
    await s.seed('agent1', [
      { relativePath: 'src/index.ts', content: 'export const a = 1;\n' },
      { relativePath: './README.md', content: '# hi' },
    ]);
    assert.equal(readFileSync(join(s.folderOf('agent1'), 'src', 'index.ts'), 'utf8'), 'export const a = 1;\n');
    assert.deepEqual(readdirSync(s.folderOf('agent2')), []);
    assert.deepEqual(s.seededFiles('agent1'), [
      { relativePath: 'src/index.ts', content: 'export const a = 1;\n' },
      { relativePath: 'README.md', content: '# hi' },
    ]);
    await s.seedAll([{ relativePath: 'shared.txt', content: 'x' }]);
    for (const label of s.labels) assert.equal(readFileSync(join(s.folderOf(label), 'shared.txt'), 'utf8'), 'x');
  });

  it('refuses unsafe, excluded, reserved and duplicate seed paths, seeding nothing from a bad list', async () => {
    const s = await createScratch(base, 'r', AGENTS);
    const bad: [string, RegExp][] = [
      ['../escape.txt', /leaves your folder/],
      ['/etc/passwd', /absolute/],
      ['C:\\x', /drive/],
      ['.git/config', /off limits/],
      ['.env', /off limits/],
      ['peers/agent2/x.txt', /reserved/],
      ['nul.txt', /device/],
    ];
    for (const [relativePath, pattern] of bad) {
      await assert.rejects(s.seed('agent1', [{ relativePath: 'ok.txt', content: '' }, { relativePath, content: 'x' }]), pattern, relativePath);
    }
    await assert.rejects(s.seed('agent1', [{ relativePath: 'a.txt', content: '' }, { relativePath: 'A.txt', content: '' }]), /listed twice/);
    assert.deepEqual(readdirSync(s.folderOf('agent1')), []);
    assert.ok(!existsSync(join(base, 'escape.txt')));
    await assert.rejects(s.seed('agent7', []), /unknown agent label/);
  });

  it('seeds into node_modules are allowed (readable for agents, never writable)', async () => {
    const s = await createScratch(base, 'r', AGENTS);
    await s.seed('agent1', [{ relativePath: 'node_modules/lib/index.d.ts', content: 'export {};' }]);
    assert.equal(readFileSync(join(s.folderOf('agent1'), 'node_modules', 'lib', 'index.d.ts'), 'utf8'), 'export {};');
  });

  it('dispose removes the run folder only, and is idempotent', async () => {
    mkdirSync(join(base, 'other-run'), { recursive: true });
    const s = await createScratch(base, 'r', AGENTS);
    await s.seed('agent1', [{ relativePath: 'a/b/c.txt', content: 'x' }]);
    await s.dispose();
    assert.ok(!existsSync(s.runDir));
    assert.ok(existsSync(join(base, 'other-run')));
    await s.dispose();
    await assert.rejects(s.seed('agent1', []), /disposed/);
  });
});

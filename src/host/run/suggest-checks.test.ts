import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderFiles, suggestCheck, type ProjectFiles } from './suggest-checks';

/** A project from a map of path → text; folders are the paths' parents. */
function project(entries: Record<string, string>): ProjectFiles {
  return {
    read: (p) => entries[p],
    list: (p) => {
      const names = Object.keys(entries).filter((k) => k.startsWith(`${p}/`)).map((k) => k.slice(p.length + 1).split('/')[0]);
      return names.length ? names : undefined;
    },
  };
}
const suggested = (entries: Record<string, string>) => suggestCheck(project(entries))?.command;

describe('suggest-checks: the project\'s own test command', () => {
  it('package.json\'s test script, run by the project\'s package manager; npm\'s placeholder is not a test', () => {
    assert.deepEqual(suggestCheck(project({ 'package.json': '{"scripts":{"test":"mocha"}}' })), { command: 'npm test', why: "package.json's test script (“mocha”)" });
    assert.equal(suggested({ 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' }), undefined);
    assert.equal(suggested({ 'package.json': '{"scripts":{"build":"tsc"}}' }), undefined);
    assert.equal(suggested({ 'package.json': '{"scripts":{"test":"  "}}' }), undefined);
    assert.equal(suggested({ 'package.json': 'not json' }), undefined);
    assert.equal(suggested({ 'package.json': 'null' }), undefined);
    assert.equal(suggested({ 'package.json': '{"scripts":{"test":"vitest run"}}', 'pnpm-lock.yaml': '' }), 'pnpm test');
    assert.equal(suggested({ 'package.json': '{"scripts":{"test":"jest"}}', 'yarn.lock': '' }), 'yarn test');
    assert.equal(suggested({ 'package.json': '{"packageManager":"pnpm@9.1.0","scripts":{"test":"jest"}}' }), 'pnpm test');
    assert.equal(suggested({ 'package.json': '{"scripts":{"test":"bun test"}}', 'bun.lock': '' }), 'bun run test');
  });

  it('a Makefile `test:` target, not a variable named test', () => {
    assert.deepEqual(suggestCheck(project({ Makefile: 'all:\n\tcc a.c\n\ntest: all\n\t./run-tests\n' })), { command: 'make test', why: 'the “test” target of Makefile' });
    assert.equal(suggested({ makefile: 'test:\n\tgo test\n' }), 'make test');
    assert.equal(suggested({ Makefile: 'test := yes\nbuild:\n\tcc a.c\n' }), undefined);
    assert.equal(suggested({ Makefile: 'unittest:\n\t./t\n' }), undefined);
  });

  it('pytest from its settings or a tests folder of Python tests', () => {
    assert.equal(suggested({ 'pytest.ini': '[pytest]\n' }), 'pytest');
    assert.deepEqual(suggestCheck(project({ 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' })), { command: 'pytest', why: 'the pytest settings in pyproject.toml' });
    assert.equal(suggested({ 'pyproject.toml': '[project]\nname = "x"\n[tool.ruff]\n' }), undefined, 'a pyproject without pytest');
    assert.equal(suggested({ 'setup.cfg': '[tool:pytest]\ntestpaths = tests\n' }), 'pytest');
    assert.equal(suggested({ 'tox.ini': '[tox]\n[pytest]\n' }), 'pytest');
    assert.deepEqual(suggestCheck(project({ 'tests/test_parse.py': '' })), { command: 'pytest', why: 'the Python tests in tests/' });
    assert.equal(suggested({ 'tests/fixtures.json': '' }), undefined, 'a tests folder without Python tests');
    assert.equal(suggested({ 'sample.py': 'def add(a, b): ...' }), undefined, 'Python without tests');
  });

  it('cargo and go; the order when several match', () => {
    assert.equal(suggested({ 'Cargo.toml': '[package]\n' }), 'cargo test');
    assert.equal(suggested({ 'go.mod': 'module x\n' }), 'go test ./...');
    assert.equal(suggested({ 'go.mod': '', Makefile: 'test:\n\tgo test ./...\n' }), 'make test');
    assert.equal(suggested({ 'package.json': '{"scripts":{"test":"jest"}}', Makefile: 'test:\n\tnpm test\n', 'Cargo.toml': '' }), 'npm test');
    assert.equal(suggested({}), undefined);
  });

  it('reads a folder on disk (files only; folders as lists)', () => {
    const root = mkdtempSync(join(tmpdir(), 'massgen-suggest-'));
    try {
      mkdirSync(join(root, 'tests'));
      writeFileSync(join(root, 'tests', 'test_add.py'), 'def test_add(): pass\n');
      mkdirSync(join(root, 'package.json'));
      assert.deepEqual(suggestCheck(folderFiles(root)), { command: 'pytest', why: 'the Python tests in tests/' }, 'a folder named package.json is not read');
      writeFileSync(join(root, 'go.mod'), 'module x\n');
      assert.equal(folderFiles(root).read('go.mod'), 'module x\n');
      assert.equal(folderFiles(root).list('nope'), undefined);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

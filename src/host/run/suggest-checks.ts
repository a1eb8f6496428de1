// A check to suggest when a workspace run starts without one: the project's own test command, found from its files
// (package.json's test script, a Makefile `test:` target, pytest, cargo, go). No `vscode` here: the detector reads
// through ProjectFiles, so it is tested on plain objects and on a temp folder.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface ProjectFiles {
  /** The file's text, or undefined when there is no such file. */
  read(path: string): string | undefined;
  /** The entries of a folder, or undefined when there is no such folder. */
  list(path: string): string[] | undefined;
}

export interface CheckSuggestion {
  command: string;
  /** Where it was found, in words (plain text: notifications show no markdown): "package.json's test script (“jest”)". */
  why: string;
}

/** What `npm init` writes: a test script that only fails. */
const NPM_PLACEHOLDER = /no test specified/i;

function packageScript(files: ProjectFiles): CheckSuggestion | undefined {
  const text = files.read('package.json');
  if (text === undefined) return undefined;
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return undefined;
  }
  const test = (pkg as { scripts?: { test?: unknown } } | null)?.scripts?.test;
  if (typeof test !== 'string' || !test.trim() || NPM_PLACEHOLDER.test(test)) return undefined;
  // The project's package manager runs its script, as its developers do.
  const manager = String((pkg as { packageManager?: unknown }).packageManager ?? '').split('@')[0];
  const has = (f: string) => files.read(f) !== undefined;
  const runner = manager === 'pnpm' || has('pnpm-lock.yaml') ? 'pnpm test' : manager === 'yarn' || has('yarn.lock') ? 'yarn test' : manager === 'bun' || has('bun.lockb') || has('bun.lock') ? 'bun run test' : 'npm test';
  return { command: runner, why: `package.json's test script (“${test.trim()}”)` };
}

function makeTarget(files: ProjectFiles): CheckSuggestion | undefined {
  for (const name of ['GNUmakefile', 'makefile', 'Makefile']) {
    const text = files.read(name);
    // A rule `test:` or `test: deps`, not a variable `test := …`.
    if (text !== undefined && /^test\s*:(?!=)/m.test(text)) return { command: 'make test', why: `the “test” target of ${name}` };
  }
  return undefined;
}

function pytest(files: ProjectFiles): CheckSuggestion | undefined {
  const configured: [string, RegExp | null][] = [
    ['pytest.ini', null],
    ['pyproject.toml', /^\[tool\.pytest\b/m],
    ['setup.cfg', /^\[tool:pytest\]/m],
    ['tox.ini', /^\[pytest\]/m],
  ];
  for (const [file, section] of configured) {
    const text = files.read(file);
    if (text !== undefined && (!section || section.test(text))) return { command: 'pytest', why: section ? `the pytest settings in ${file}` : file };
  }
  const pythonTests = (folder: string) => (files.list(folder) ?? []).some((n) => /^test_.*\.py$|_test\.py$|^conftest\.py$/.test(n));
  for (const folder of ['tests', 'test']) if (pythonTests(folder)) return { command: 'pytest', why: `the Python tests in ${folder}/` };
  return undefined;
}

/** The first of: package.json's test script, a Makefile `test:` target, pytest, Cargo.toml, go.mod. */
export function suggestCheck(files: ProjectFiles): CheckSuggestion | undefined {
  return (
    packageScript(files) ??
    makeTarget(files) ??
    pytest(files) ??
    (files.read('Cargo.toml') !== undefined ? { command: 'cargo test', why: 'Cargo.toml' } : undefined) ??
    (files.read('go.mod') !== undefined ? { command: 'go test ./...', why: 'go.mod' } : undefined)
  );
}

/** A folder on disk as ProjectFiles (only its top level and the test folders are read). */
export function folderFiles(root: string): ProjectFiles {
  return {
    read(path) {
      try {
        return statSync(join(root, path)).isFile() ? readFileSync(join(root, path), 'utf8') : undefined;
      } catch {
        return undefined;
      }
    },
    list(path) {
      try {
        return readdirSync(join(root, path));
      } catch {
        return undefined;
      }
    },
  };
}

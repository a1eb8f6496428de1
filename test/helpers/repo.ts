// Real git repositories for the tests: git with the one test identity, the add.js/test.js project most suites run
// agents on, and a fingerprint of a folder to prove a run left it untouched.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitEnv } from '../../src/core/workspace/git';

/**
 * The environment of every test's git: git's own scrubbed environment (no GIT_* of the developer's shell), the test
 * identity (in the environment, which no config file overrides) and no signing.
 */
export function testGitEnv(): Record<string, string> {
  return gitEnv({
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'init.defaultBranch',
    GIT_CONFIG_VALUE_0: 'main',
    GIT_CONFIG_KEY_1: 'commit.gpgSign',
    GIT_CONFIG_VALUE_1: 'false',
  });
}

/** Runs git in `cwd` as the test identity; returns stdout. Throws on failure. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: testGitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `add(a, b)` as the agents find it: it subtracts, so `node test.js` fails until an agent fixes it. */
export const WRONG_ADD = 'exports.add = (a, b) => a - b;\n';
/** The test the checks run: "AssertionError: add(2, 3) should be 5, got -1" and exit 1, or "1 passing". */
export const ADD_TEST = "const { add } = require('./src/add');\nif (add(2, 3) !== 5) { console.log('AssertionError: add(2, 3) should be 5, got ' + add(2, 3)); process.exit(1); }\nconsole.log('1 passing');\n";

/**
 * A repository at `dir` with src/add.js (WRONG_ADD) and test.js (ADD_TEST), and `files` (relative paths; they may
 * replace those two), all committed on main; returns `dir`. Ignored files (a .gitignore in `files`) stay uncommitted.
 */
export function makeAddProject(dir: string, files: Record<string, string> = {}): string {
  for (const [rel, content] of Object.entries({ 'src/add.js': WRONG_ADD, 'test.js': ADD_TEST, ...files })) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

function walk(root: string, rel: string, out: string[]): void {
  const dir = rel === '' ? root : join(root, rel);
  for (const name of readdirSync(dir).sort()) {
    const childRel = rel === '' ? name : `${rel}/${name}`;
    const st = lstatSync(join(root, childRel));
    if (st.isSymbolicLink()) out.push(`L ${childRel} -> ${readlinkSync(join(root, childRel))}`);
    else if (st.isDirectory()) {
      out.push(`D ${childRel}`);
      walk(root, childRel, out);
    } else out.push(`F ${childRel} ${st.mode.toString(8)} ${createHash('sha1').update(readFileSync(join(root, childRel))).digest('hex')}`);
  }
}

/**
 * Everything a run could have changed in a folder: every file's path, mode and bytes (the .git folder included:
 * index, refs, objects, config, worktrees), and for a repository git's status (ignored files too), refs and
 * worktree list.
 */
export function fingerprint(dir: string): string {
  const out: string[] = [];
  walk(dir, '', out);
  let gitView = '';
  try {
    gitView = [git(dir, 'status', '--porcelain=v1', '--untracked-files=all', '--ignored'), git(dir, 'for-each-ref'), git(dir, 'worktree', 'list', '--porcelain')].join('\n');
  } catch {
    gitView = '(not a repository)';
  }
  return `${out.join('\n')}\n---\n${gitView}`;
}

// Workspace runs through the CLI, as a new user would run them: a real git repository with uncommitted and untracked
// work, the real `massgen` bundle as a subprocess, and scripted agents behind the real OpenAI SDK that call the file
// tools by their names. The repository must come out byte-identical without --apply, carry exactly the winner's
// change with it, and no copy may be left behind.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliSuite, runCli, type CliRun } from '../helpers/cli';
import { fingerprint, git, makeAddProject } from '../helpers/repo';
import { coordinationScript, startFakeOpenAI, type AgentScript } from '../fakes/openai-server';

const work = mkdtempSync(join(tmpdir(), 'massgen-ws-'));


/** A project as a user has it: commits, an uncommitted edit, an untracked file, an ignored build folder. */
function makeRepo(name: string): string {
  const dir = makeAddProject(join(work, name), { 'README.md': '# calc\n', '.gitignore': 'build/\n' });
  writeFileSync(join(dir, 'README.md'), '# calc\n\nWork in progress.\n');
  writeFileSync(join(dir, 'notes.txt'), 'untracked notes\n');
  mkdirSync(join(dir, 'build'));
  writeFileSync(join(dir, 'build', 'out.txt'), 'ignored build output\n');
  return dir;
}


const FIXED = 'exports.add = (a, b) => a + b;\n';

function team(url: string): string {
  const file = join(work, `team-${Math.random().toString(36).slice(2)}.yaml`);
  const agents = ['m1', 'm2', 'm3'].map((m, i) => `  - id: ${String.fromCharCode(97 + i)}\n    backend: { type: chatcompletion, model: ${m}, base_url: ${url} }\n`).join('');
  writeFileSync(file, `agents:\n${agents}`);
  return file;
}

/** agent1 reads and fixes the bug with the file tools, then answers; the others answer without changes; all vote for agent1. */
const scripts = (extra: Record<string, AgentScript> = {}) =>
  coordinationScript({
    m1: { answer: 'Fixed add(): it subtracted.', first: [{ toolCalls: [{ name: 'read_file', arguments: { path: 'src/add.js' } }] }, { toolCalls: [{ name: 'write_file', arguments: { path: 'src/add.js', content: FIXED } }] }] },
    m2: { answer: 'I changed nothing.' },
    m3: { answer: 'Nothing to change here either.' },
    ...extra,
  }, { voteFor: 'agent1' });

describe('massgen run --workspace (subprocess, real git)', function () {
  this.timeout(60_000);
  const suite = cliSuite(work);

  /** The CLI with its own temp folder, so what it leaves behind there can be checked. */
  function run(args: string[], cwd: string, tmp: string): Promise<CliRun> {
    return runCli(suite.cli, args, { cwd, env: { HOME: work, TMPDIR: tmp } });
  }

  it('leaves the repository byte-identical, records every answer\'s patch and the winner\'s change, and leaves no copy behind', async () => {
    const repo = makeRepo('repo-plain');
    const before = fingerprint(repo);
    suite.server = await startFakeOpenAI(scripts());
    const tmp = mkdtempSync(join(work, 'tmp-'));
    const logDir = join(work, 'logs-plain');
    const r = await run(['run', '--config', team(suite.server.baseUrl), '--workspace', repo, '--log-dir', logDir, 'Fix add()'], work, tmp);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Fixed add(): it subtracted.\n');
    assert.match(r.stderr, /Changes: 1 file\(s\) in .*changes\.patch: src\/add\.js/);
    assert.equal(fingerprint(repo), before, 'the repository is untouched');

    // agent1 read the copy with the user's uncommitted edit, and the others saw its change beside its answer.
    const requests = suite.server.chatRequests();
    const m1 = requests.filter((q) => q.body!.model === 'm1');
    const readResult = m1[1].body!.messages.find((m) => m.role === 'tool');
    assert.equal(readResult?.content, 'exports.add = (a, b) => a - b;\n');
    const m2Vote = requests.filter((q) => q.body!.model === 'm2').map((q) => JSON.stringify(q.body!.messages)).find((t) => t.includes('Fixed add()'));
    assert.match(m2Vote ?? '', /Changed files \(read them under peers\/agent1\/\): src\/add\.js \(\+1 -1\)/);

    const patch = readFileSync(join(logDir, 'final', 'a', 'changes.patch'), 'utf8');
    assert.match(patch, /^diff --git a\/src\/add\.js b\/src\/add\.js/m);
    assert.match(patch, /^-exports\.add = \(a, b\) => a - b;$/m);
    assert.match(patch, /^\+exports\.add = \(a, b\) => a \+ b;$/m);
    assert.doesNotMatch(patch, /README|notes\.txt|build\//, 'the user\'s own uncommitted and untracked work is not part of the change');
    assert.equal(readFileSync(join(logDir, 'agents', 'a', 'agent1.1.patch'), 'utf8'), patch);
    assert.equal(readFileSync(join(logDir, 'agents', 'b', 'agent2.1.patch'), 'utf8'), '');
    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
    assert.deepEqual(status.workspace.answers['agent1.1'], [{ path: 'src/add.js', status: 'modified', added: 1, removed: 1 }]);
    assert.deepEqual(status.workspace.answers['agent2.1'], []);
    assert.equal(status.workspace.kind, 'git');
    const copies = join(tmp, `massgen-${process.getuid?.()}`, 'workspaces');
    assert.ok(existsSync(copies), 'the copies were made under the temp folder');
    assert.deepEqual(readdirSync(copies), [], 'no copy, worktree or shadow repository is left behind');
  });

  it('--apply writes exactly the winner\'s change, keeping the user\'s own uncommitted and untracked work', async () => {
    const repo = makeRepo('repo-apply');
    const indexBefore = readFileSync(join(repo, '.git', 'index'));
    suite.server = await startFakeOpenAI(scripts());
    const r = await run(['run', '--config', team(suite.server.baseUrl), '--workspace', repo, '--apply', '--log-dir', join(work, 'logs-apply'), 'Fix add()'], work, mkdtempSync(join(work, 'tmp-')));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /APPLIED: 1 file\(s\) changed/);
    assert.equal(readFileSync(join(repo, 'src', 'add.js'), 'utf8'), FIXED);
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# calc\n\nWork in progress.\n');
    assert.equal(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'untracked notes\n');
    assert.deepEqual(readFileSync(join(repo, '.git', 'index')), indexBefore, 'the index is not touched');
    assert.equal(git(repo, 'status', '--porcelain'), ' M README.md\n M src/add.js\n?? notes.txt\n');
    assert.equal(execFileSync(process.execPath, ['test.js'], { cwd: repo, encoding: 'utf8' }), '1 passing\n');
  });

  it('refuses to keep copies in a run folder others can write to (made in advance by another user), touching nothing', async function () {
    if (process.platform === 'win32') this.skip();
    const repo = makeRepo('repo-shared-tmp');
    const tmp = mkdtempSync(join(work, 'tmp-'));
    const planted = join(tmp, `massgen-${process.getuid?.()}`);
    mkdirSync(planted);
    chmodSync(planted, 0o777);
    const before = fingerprint(repo);
    const r = await run(['run', '--config', team('http://127.0.0.1:9/v1'), '--workspace', repo, 'Fix add()'], work, tmp);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /refusing to keep the agents' working copies in .*: others can write to it \(mode 777\)/);
    assert.deepEqual(readdirSync(planted), [], 'nothing was put in it');
    assert.equal(fingerprint(repo), before);
  });

  it('--apply refuses, touching nothing, when the user changed the same lines during the run', async () => {
    const repo = makeRepo('repo-conflict');
    let edited = false;
    const inner = scripts();
    suite.server = await startFakeOpenAI((request) => {
      // While the agents vote, the user edits the very line the winner changed.
      if (!edited && JSON.stringify(request.body?.messages ?? []).includes('Fixed add()')) {
        writeFileSync(join(repo, 'src', 'add.js'), 'exports.add = (a, b) => b - a;\n');
        edited = true;
      }
      return inner(request);
    });
    const logDir = join(work, 'logs-conflict');
    const r = await run(['run', '--config', team(suite.server.baseUrl), '--workspace', repo, '--apply', '--log-dir', logDir, 'Fix add()'], work, mkdtempSync(join(work, 'tmp-')));
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /APPLIED: no — .*src\/add\.js/);
    assert.match(r.stderr, /changes\.patch/);
    assert.equal(readFileSync(join(repo, 'src', 'add.js'), 'utf8'), 'exports.add = (a, b) => b - a;\n', "the user's edit stands");
    assert.ok(existsSync(join(logDir, 'final', 'a', 'changes.patch')));
  });

  it('a folder that is not a git repository is copied honouring .gitignore', async () => {
    const dir = join(work, 'plain-folder');
    mkdirSync(join(dir, 'src'), { recursive: true });
    mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(dir, 'src', 'add.js'), 'exports.add = (a, b) => a - b;\n');
    writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
    writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    suite.server = await startFakeOpenAI(scripts({ m2: { answer: 'Looked around.', first: [{ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }] } }));
    const r = await run(['run', '--config', team(suite.server.baseUrl), '--workspace', dir, '--apply', '--log-dir', join(work, 'logs-folder'), 'Fix add()'], work, mkdtempSync(join(work, 'tmp-')));
    assert.equal(r.code, 0, r.stderr);
    const listing = suite.server.chatRequests().filter((q) => q.body!.model === 'm2')[1].body!.messages.find((m) => m.role === 'tool')?.content ?? '';
    assert.match(String(listing), /src\//);
    assert.doesNotMatch(String(listing), /node_modules\//, 'ignored folders are not copied');
    assert.match(String(listing), /node_modules \(symbolic link\)/, 'installed dependencies are linked in (read-only), not copied');
    assert.equal(readFileSync(join(dir, 'src', 'add.js'), 'utf8'), FIXED);
    assert.equal(existsSync(join(dir, '.git')), false, 'no repository is made in the user\'s folder');
  });

  it('says clearly when --apply has nowhere to go', async () => {
    suite.server = await startFakeOpenAI(scripts());
    const r = await run(['run', '--config', team(suite.server.baseUrl), '--apply', 'Fix add()'], work, mkdtempSync(join(work, 'tmp-')));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--apply needs a folder/);
  });
});

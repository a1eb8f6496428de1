// Checks decide with the votes, through the CLI as the issue checks it: a real git repository whose tests need an
// installed dependency, the real `massgen` bundle, scripted agents behind the real OpenAI SDK that change their copies
// with the file tools, and the project's test command run by MassGen in the bubblewrap sandbox. The majority votes for
// a plausible but wrong change the tests reject; under gate the passing answer must win, the voters must have been
// shown the failure, and the repository must stay untouched.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliSuite, readJsonl, runCli, type CliRun } from '../helpers/cli';
import { fingerprint, makeAddProject } from '../helpers/repo';
import { coordinationScript, startFakeOpenAI, type FakeMessage } from '../fakes/openai-server';

const work = mkdtempSync(join(tmpdir(), 'massgen-checks-'));

const WRONG = 'exports.add = (a, b) => Math.abs(a - b);\n';
const RIGHT = 'exports.add = (a, b) => a + b;\n';

/** The add project, its test importing a package from its (ignored, installed) node_modules, as real projects do. */
function makeProject(name: string): string {
  return makeAddProject(join(work, name), {
    'node_modules/tiny-assert/index.js': "module.exports = (ok, msg) => { if (!ok) { console.log('AssertionError: ' + msg); process.exit(1); } };\n",
    'test.js': "const check = require('tiny-assert');\nconst { add } = require('./src/add');\ncheck(add(2, 3) === 5, 'add(2, 3) should be 5, got ' + add(2, 3));\nconsole.log('1 passing');\n",
    '.gitignore': 'node_modules/\n',
  });
}

function team(url: string, models: string[]): string {
  const file = join(work, `team-${models.length}-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, `agents:\n${models.map((m, i) => `  - id: ${String.fromCharCode(97 + i)}\n    backend: { type: chatcompletion, model: ${m}, base_url: ${url} }\n`).join('')}`);
  return file;
}

const writes = (content: string) => [{ toolCalls: [{ name: 'write_file', arguments: { path: 'src/add.js', content } }] }];
const text = (messages: FakeMessage[]) => messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))).join('\n');

describe('checks through the CLI (subprocess, real git, real sandbox)', function () {
  this.timeout(60_000);
  const suite = cliSuite(work);
  const run = (args: string[], tmp: string): Promise<CliRun> => runCli(suite.cli, args, { cwd: work, env: { TMPDIR: tmp } });

  it('gate: the majority votes for a change the tests reject; the passing answer wins and the repository is untouched', async () => {
    const repo = makeProject('project-gate');
    const before = fingerprint(repo);
    // agent1 and agent3 make the same plausible but wrong change; agent2 fixes it; everyone votes for agent1.
    suite.server = await startFakeOpenAI(coordinationScript({
      m1: { answer: 'add() now takes the absolute difference, which is what callers need.', first: writes(WRONG) },
      m2: { answer: 'add() subtracted; it now adds.', first: writes(RIGHT) },
      m3: { answer: 'Use Math.abs so add() never goes negative.', first: writes(WRONG) },
    }, { voteFor: 'agent1' }));
    const logDir = join(work, 'logs-gate');
    const tmp = mkdtempSync(join(work, 'tmp-'));
    const r = await run(['run', '--config', team(suite.server.baseUrl, ['m1', 'm2', 'm3']), '--workspace', repo, '--check', 'node test.js', '--verification', 'gate', '--log-dir', logDir, 'Fix add()'], tmp);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'add() subtracted; it now adds.\n');
    assert.match(r.stderr, /winner: agent2 \(b\) with agent2\.1; votes: a 3; checks passed \(the votes chose agent1\.1, which failed node test\.js\)/);
    // agent1's and agent3's identical change was checked once: whichever came second reused the result.
    assert.match(r.stderr, /agent[13]\.1 node test\.js: FAILED \(exit 1\) in [\d.]+s — AssertionError: add\(2, 3\) should be 5, got 1/);
    assert.match(r.stderr, /agent[13]\.1 node test\.js: FAILED \(exit 1\) in [\d.]+s \(same change as checked before\)/);
    assert.match(r.stderr, /note: MassGen runs the checks \(node test\.js\) on every answer's change in bubblewrap/);
    assert.equal(fingerprint(repo), before, 'the repository is untouched');

    // Every voter was shown agent1's failure, with the test's own words, before it voted.
    for (const model of ['m1', 'm2', 'm3']) {
      const voting = suite.server.chatRequests().filter((q) => q.body.model === model && (q.body.tools ?? []).some((t) => t.function.name === 'vote') && text(q.body.messages).includes('<agent1>'));
      assert.ok(voting.length > 0, `${model} voted`);
      assert.match(text(voting[voting.length - 1].body.messages), /\[Checks on agent1's change: node test\.js FAILED \(exit 1\)\]\nOutput of node test\.js \(its end\):\nAssertionError: add\(2, 3\) should be 5, got 1/);
    }

    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
    assert.deepEqual(status.results.verification, { status: 'passed', overruled: { label: 'agent1.1', failed: ['node test.js'] } });
    assert.equal(status.checks['agent2.1'].results[0].status, 'passed');
    assert.equal(status.checks['agent1.1'].results[0].status, 'failed');
    const cached = [status.checks['agent1.1'].results[0].cached, status.checks['agent3.1'].results[0].cached];
    assert.deepEqual(cached.sort(), [false, true], 'the identical wrong change was checked once');
    const finished = readJsonl(join(logDir, 'events.jsonl')).filter((e) => e.type === 'check_finished');
    assert.equal(finished.length, 3);
    assert.match(readFileSync(join(logDir, 'final', 'b', 'changes.patch'), 'utf8'), /^\+exports\.add = \(a, b\) => a \+ b;$/m);
    assert.deepEqual(readdirSync(join(tmp, `massgen-${process.getuid?.()}`, 'workspaces')), [], 'no copy or checkout is left behind');
  });

  it('inform: the results are shown and reported, the votes decide', async () => {
    const repo = makeProject('project-inform');
    suite.server = await startFakeOpenAI(coordinationScript({
      m1: { answer: 'Absolute difference.', first: writes(WRONG) },
      m2: { answer: 'It adds now.', first: writes(RIGHT) },
    }, { voteFor: 'agent1' }));
    const r = await run(['run', '--automation', '--config', team(suite.server.baseUrl, ['m1', 'm2']), '--workspace', repo, '--check', 'node test.js', '--log-dir', join(work, 'logs-inform'), 'Fix add()'], mkdtempSync(join(work, 'tmp-')));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^WINNER: a$/m);
    assert.match(r.stdout, /^VERIFICATION: failed$/m);
  });

  it('--check without --workspace is a clear error', async () => {
    suite.server = await startFakeOpenAI(coordinationScript());
    const r = await run(['run', '--config', team(suite.server.baseUrl, ['m1']), '--check', 'npm test', 'Q'], mkdtempSync(join(work, 'tmp-')));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--check runs on the agents' changes: pass --workspace DIR too\./);
    assert.equal(suite.server.chatRequests().length, 0);
  });
});

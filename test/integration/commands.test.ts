// Commands in the agents' copies through the CLI, as the issue checks them: scripted agents behind the real OpenAI
// SDK call `execute_command` by name; the real bubblewrap sandbox runs them. The output must reach the model, no key
// may reach a command, nothing outside the copy may be written, the network is closed unless allowed, a hanging
// command is killed at its timeout, and nothing keeps running after the run.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli, runCli, type CliRun } from '../helpers/cli';
import { git, makeAddProject } from '../helpers/repo';
import { coordinationScript, startFakeOpenAI, type FakeOpenAIServer, type FakeReply } from '../fakes/openai-server';

const work = mkdtempSync(join(tmpdir(), 'massgen-cmd-'));
const SECRET = 'sk-test-SECRET-0123456789';
const CONFIG_SECRET = 'cfg-SECRET-abcdef987654';

let cli = '';

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCli(cli, args, { cwd: work, env: { TMPDIR: join(work, 'tmp'), ...env } });
}

/** The add project with a test that passes (the commands here are the agents' own, not checks). */
const makeProject = () => makeAddProject(mkdtempSync(join(work, 'project-')), { 'test.js': "console.log('tests: 3 passed');\n" });

const exec = (command: string, extra: Record<string, unknown> = {}): FakeReply => ({ toolCalls: [{ name: 'execute_command', arguments: { command, ...extra } }] });

/** The tool results agent m1 was sent, in order. */
function toolResults(server: FakeOpenAIServer): string[] {
  const last = server.chatRequests().filter((q) => q.body?.model === 'm1').pop();
  return (last?.body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
}

function processesMatching(text: string): string[] {
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p)).flatMap((pid) => {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      return cmd.includes(text) ? [`${pid}: ${cmd}`] : [];
    } catch {
      return [];
    }
  });
}

describe('massgen run --allow-commands (subprocess, real bubblewrap)', function () {
  this.timeout(90_000);
  let server: FakeOpenAIServer | undefined;
  let web: Server;
  let webUrl = '';

  before(async () => {
    cli = await buildCli(work);
    mkdirSync(join(work, 'tmp'));
    web = createServer((_req, res) => res.end('reachable')).listen(0, '127.0.0.1');
    await new Promise((r) => web.once('listening', r));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`;
  });
  after(() => web.close());
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  function config(url: string): string {
    const file = join(work, `c-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, `agents:\n  - id: a\n    backend: { type: openai, model: m1, base_url: ${url} }\n  - id: b\n    backend: { type: chatcompletion, model: m2, base_url: ${url}, api_key: "\${CFG_KEY}" }\n`);
    return file;
  }

  it('runs commands in the copy: output reaches the model; no key, no write outside, no network; a hang is killed; nothing is left running', async () => {
    const project = makeProject();
    // Next to the copy (the temp folder the copies live in is private inside the sandbox) and in a system folder.
    const outside = join(work, 'outside-target');
    const system = `/usr/local/massgen-test-${process.pid}`;
    const fetch = `node -e "fetch('${webUrl}').then(r=>r.text()).then(t=>console.log('NET', t),e=>console.log('NET FAIL', e.cause && e.cause.code))"`;
    server = await startFakeOpenAI(
      coordinationScript({
        m1: {
          answer: 'Ran the checks.',
          first: [exec('node test.js'), exec('env'), exec(`touch ${outside}; touch ${system}; echo done`), exec(fetch), exec('sleep 601', { timeout_seconds: 1 }), exec('sleep 302', { background: true }), exec('echo changed >> test.js && git status --porcelain')],
        },
      }, { voteFor: 'agent1' }),
    );
    // `sleep 601` and `sleep 302` outlast this suite's 90 s timeout: the run ends at all only if it waited for neither.
    const r = await run(['run', '--config', config(server.baseUrl), '--workspace', project, '--allow-commands', '--log-dir', join(work, 'logs-cmd'), 'Run the tests'], { OPENAI_API_KEY: SECRET, CFG_KEY: CONFIG_SECRET, GITHUB_TOKEN: 'ghp_SECRET_token' });
    assert.equal(r.code, 0, r.stderr);
    const [test, env, touch, net, sleep, background, gitStatus] = toolResults(server);
    assert.match(test, /exit code 0/);
    assert.match(test, /tests: 3 passed/);
    assert.doesNotMatch(env, /SECRET|OPENAI_API_KEY|CFG_KEY|GITHUB_TOKEN/, 'no key reaches a command');
    assert.match(env, /PATH=/);
    assert.equal(existsSync(outside), false, 'nothing is written next to the copy');
    assert.equal(existsSync(system), false, 'nothing is written to the system');
    assert.match(touch, /Read-only file system/);
    assert.match(net, /NET FAIL/);
    assert.match(sleep, /timed out after 1 s/i);
    assert.match(background, /bg1/);
    assert.match(gitStatus, /exit code 0[\s\S]* M test\.js/, 'git works in the copy (read-only repository)');
    assert.deepEqual(processesMatching('sleep 601'), [], 'the hanging command was killed');
    assert.deepEqual(processesMatching('sleep 302'), [], 'the background command ended with the run');
    const status = JSON.parse(readFileSync(join(work, 'logs-cmd', 'status.json'), 'utf8'));
    assert.equal(status.agents.a.tools.execute_command.calls, 7);
    assert.equal(git(project, 'status', '--porcelain'), '', 'the project is untouched');
  });

  it('the project\'s installed node_modules is in each copy, read-only, and never part of a change', async () => {
    const project = makeProject();
    writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
    git(project, 'add', '.gitignore');
    git(project, 'commit', '-qm', 'ignore');
    mkdirSync(join(project, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(project, 'node_modules', 'dep', 'index.js'), "module.exports = 'DEP-LOADED';\n");
    server = await startFakeOpenAI(coordinationScript({
      m1: { answer: 'Used the dependency.', first: [exec(`node -e "console.log(require('dep'))"`), exec('touch node_modules/dep/new.js; echo rc=$?'), exec("echo '// checked' >> test.js && git status --porcelain")] },
    }, { voteFor: 'agent1' }));
    const logs = join(work, 'logs-deps');
    const r = await run(['run', '--config', config(server.baseUrl), '--workspace', project, '--allow-commands', '--log-dir', logs, 'Use dep'], { OPENAI_API_KEY: SECRET, CFG_KEY: CONFIG_SECRET });
    assert.equal(r.code, 0, r.stderr);
    const [required, touched, status] = toolResults(server);
    assert.match(required, /exit code 0[\s\S]*DEP-LOADED/, 'the copy resolves the project\'s dependency');
    assert.match(touched, /Read-only file system[\s\S]*rc=1/);
    assert.equal(existsSync(join(project, 'node_modules', 'dep', 'new.js')), false, 'the user\'s node_modules is not written');
    assert.match(status, / M test\.js/);
    assert.doesNotMatch(status, /node_modules/, 'the link is not a change');
    const patch = readFileSync(join(logs, 'final', 'a', 'changes.patch'), 'utf8');
    assert.match(patch, /test\.js/);
    assert.doesNotMatch(patch, /node_modules/);
    assert.match(r.stderr, /see the project's node_modules read-only/);
    assert.equal(git(project, 'status', '--porcelain'), '', 'the project is untouched');
  });

  it('--allow-network opens the network to commands', async () => {
    const project = makeProject();
    const fetch = `node -e "fetch('${webUrl}').then(r=>r.text()).then(t=>console.log('NET', t),e=>console.log('NET FAIL', e.cause && e.cause.code))"`;
    server = await startFakeOpenAI(coordinationScript({ m1: { answer: 'Fetched.', first: [exec(fetch)] } }, { voteFor: 'agent1' }));
    const r = await run(['run', '--config', config(server.baseUrl), '--workspace', project, '--allow-commands', '--allow-network', 'Fetch'], { OPENAI_API_KEY: SECRET, CFG_KEY: CONFIG_SECRET });
    assert.equal(r.code, 0, r.stderr);
    assert.match(toolResults(server)[0], /NET reachable/);
  });

  it('without --allow-commands the tool does not exist for the agents', async () => {
    const project = makeProject();
    server = await startFakeOpenAI(coordinationScript({ m1: { answer: 'Tried.', first: [exec('node test.js')] } }, { voteFor: 'agent1' }));
    const r = await run(['run', '--config', config(server.baseUrl), '--workspace', project, 'Run the tests'], { OPENAI_API_KEY: SECRET, CFG_KEY: CONFIG_SECRET });
    assert.equal(r.code, 0, r.stderr);
    const offered = server.chatRequests()[0].body?.tools?.map((t) => t.function.name) ?? [];
    assert.ok(!offered.includes('execute_command'), offered.join(', '));
    assert.match(toolResults(server).join('\n'), /Unknown tool 'execute_command'/);
  });
});

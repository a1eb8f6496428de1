// Coding agents as team members, through the CLI as a user runs them: the real Claude Code and Codex programs (the
// test rig's, tools/peers/agents.sh), each on its own fake model server speaking the real wire format, with a
// chat-completions agent beside them, in a workspace run on a real git repository with the project's test as a gate
// check. The programs edit with their own tools and run commands in their own sandboxes, and answer and vote through
// the `massgen` MCP server.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { ensureAgentPrograms, CLAUDE, CODEX } from '../helpers/agent-programs';
import { cliSuite, readJsonl, runCli } from '../helpers/cli';
import { processesWith } from '../helpers/processes';
import { fingerprint, makeAddProject } from '../helpers/repo';
import { startFakeAnthropic, type FakeAnthropicServer } from '../fakes/anthropic-server';
import { startFakeResponses, type FakeResponsesServer } from '../fakes/openai-responses-server';
import { coordinationScript, startFakeOpenAI } from '../fakes/openai-server';
import { claudeReply, claudeToolResults, codexReply, codexToolOutputs, type ProgramScript } from './scripts';

// Not under the system's temp folder: Codex will not set up its sandbox helper below it (its CODEX_HOME is $HOME/.codex).
mkdirSync('/var/tmp/massgen-harness-tests', { recursive: true });
const work = mkdtempSync('/var/tmp/massgen-harness-tests/cli-');

const RIGHT = 'exports.add = (a, b) => a + b;\n';
const SECRETS = { GITHUB_TOKEN: 'ghp-not-for-any-agent', ANTHROPIC_API_KEY: 'sk-ant-claude-own', OPENAI_API_KEY: 'sk-codex-own' };

/** Every request of a fake server, as the model saw them: usage summed as the fake reported it. */
const sum = (n: number, per: number) => n * per;

/**
 * A server on this machine's own address, recording the paths it was asked for: the network a command reaches or not.
 * Not on loopback, where a sandbox with a network of its own would reach itself.
 */
async function startProbe(): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  const address = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  assert.ok(address, 'this machine has a network address');
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.end('probe reached\n');
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://${address}:${port}`, paths, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('coding agents through the CLI (real claude and codex programs, fake models)', function () {
  const suite = cliSuite(work);
  let claudeServer: FakeAnthropicServer | undefined;
  let codexServer: FakeResponsesServer | undefined;
  let probe: Awaited<ReturnType<typeof startProbe>> | undefined;
  before(() => ensureAgentPrograms());
  afterEach(async () => {
    await claudeServer?.close();
    await codexServer?.close();
    await probe?.close();
    probe = undefined;
  });

  /** A team of one Claude Code and one Codex, each on its fake model playing its script: the config's path. */
  async function startPair(claude: ProgramScript, codex: ProgramScript, name: string): Promise<string> {
    claudeServer = await startFakeAnthropic(({ body }) => claudeReply(claude, body), { validate: false });
    codexServer = await startFakeResponses(({ body }) => codexReply(codex, body));
    const config = join(work, name);
    writeFileSync(config, [
      'agents:',
      `  - { id: claude, backend: { type: claude_code, model: claude-fake, base_url: ${claudeServer.baseUrl}, path: ${CLAUDE} } }`,
      `  - { id: codex, backend: { type: codex, model: gpt-fake, base_url: ${codexServer.baseUrl}, path: ${CODEX} } }`,
      '',
    ].join('\n'));
    return config;
  }

  it('a mixed team answers and votes; the passing change wins, each program in its own copy, nothing else touched', async () => {
    const repo = makeAddProject(join(work, 'project'));
    const outside = join(work, 'outside');
    mkdirSync(outside);
    // The project holds a link out of itself, as a repository may: each copy has it too.
    symlinkSync(outside, join(repo, 'docs'));
    execFileSync('git', ['-C', repo, 'add', 'docs']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-qm', 'a link out']);
    const before = fingerprint(repo);
    const net = (probe = await startProbe());
    const claude: ProgramScript = {
      steps: [
        () => ({ name: 'Write', input: { file_path: join(outside, 'claude-write.txt'), content: 'escaped\n' } }),
        (folder) => ({ name: 'Write', input: { file_path: join(folder, 'docs', 'claude-link.txt'), content: 'escaped through the link\n' } }),
        (folder) => ({ name: 'Read', input: { file_path: join(folder, 'src/add.js') } }),
        (folder) => ({ name: 'Write', input: { file_path: join(folder, 'src/add.js'), content: RIGHT } }),
        () => ({ name: 'Bash', input: { command: `node test.js; echo escaped > ${outside}/claude-bash.txt; curl -sS -m 10 ${net.url}/claude; env`, description: 'run the tests' } }),
        // A tool that would open a WebSocket from Claude Code's own process, outside its sandbox.
        () => ({ name: 'Monitor', input: { description: 'watch', timeout_ms: 5000, ws: { url: `${net.url.replace(/^http/, 'ws')}/monitor` } } }),
      ],
      answer: 'add() subtracted; it now adds (Claude Code).',
      voteFor: 'agent1',
      // Answers are read under peers/, as every agent reads them, through the massgen server: here Codex's.
      readBeforeVote: { path: 'peers/agent2/src/add.js' },
    };
    const codex: ProgramScript = {
      steps: [() => ({ name: 'exec_command', input: { cmd: `printf 'exports.add = (a, b) => a * b;\\n' > src/add.js; node test.js; echo escaped > ${outside}/codex.txt; curl -sS -m 10 ${net.url}/codex; env` } })],
      answer: 'add() now multiplies (Codex).',
      voteFor: 'agent1',
      readBeforeVote: { path: 'peers/agent1/src/add.js' },
    };
    // Claude Code's first request of a session carries a system-role message (a beta of the API version the fake checks
    // against); the fake's request validation would refuse it and Claude Code send it again folded into a user turn.
    claudeServer = await startFakeAnthropic(({ body }) => claudeReply(claude, body), { validate: false });
    codexServer = await startFakeResponses(({ body }) => codexReply(codex, body));
    suite.server = await startFakeOpenAI(coordinationScript({ m3: { answer: 'add() fixed by the API agent.', first: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'src/add.js', content: 'exports.add = (a, b) => b + a - 0;\n' } }] }] } }, { voteFor: 'agent1' }));
    const config = join(work, 'team.yaml');
    writeFileSync(config, [
      'agents:',
      `  - id: claude`,
      `    backend: { type: claude_code, model: claude-fake, base_url: ${claudeServer.baseUrl}, path: ${CLAUDE} }`,
      `  - id: codex`,
      `    backend: { type: codex, model: gpt-fake, base_url: ${codexServer.baseUrl}, path: ${CODEX} }`,
      `  - id: api`,
      `    backend: { type: chatcompletion, model: m3, base_url: ${suite.server.baseUrl} }`,
      '',
    ].join('\n'));
    const logDir = join(work, 'logs');
    const r = await runCli(suite.cli, ['run', '--config', config, '--workspace', repo, '--check', 'node test.js', '--verification', 'gate', '--log-dir', logDir, 'Fix add()'], { cwd: work, env: { ...SECRETS, TMPDIR: mkdtempSync(join(work, 'tmp-')) } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${claude.answer}\n`, r.stderr);
    assert.match(r.stderr, /winner: agent1 \(claude\)/);
    assert.equal(fingerprint(repo), before, 'the repository is untouched');
    assert.match(readFileSync(join(logDir, 'final', 'claude', 'changes.patch'), 'utf8'), /^\+exports\.add = \(a, b\) => a \+ b;$/m);

    // Neither program wrote outside its copy, with its file tool or its commands.
    for (const file of ['claude-write.txt', 'claude-link.txt', 'claude-bash.txt', 'codex.txt']) assert.ok(!existsSync(join(outside, file)), `${file} was not written`);
    // Nor did their commands reach the network (the user did not allow it).
    assert.deepEqual(net.paths, []);
    const claudeSaw = claudeToolResults(claudeServer.messageRequests().map((q) => q.body)).join('\n');
    assert.match(claudeSaw, /not allowed: you work in .* and may use files there only/, 'the write outside was refused');
    assert.match(claudeSaw, /1 passing/, 'its command ran the tests in its copy');
    assert.match(claudeSaw, /claude-bash\.txt: Read-only file system/);
    assert.match(claudeSaw, /Monitor is not available in a team run/);
    assert.match(claudeSaw, /exports\.add = \(a, b\) => a \* b;/, "it read Codex's answer under peers/ through the massgen server");
    const codexSaw = codexToolOutputs(codexServer.responseRequests().map((q) => q.body)).join('\n');
    assert.match(codexSaw, /AssertionError: add\(2, 3\) should be 5, got 6/, 'its command ran the tests on its own change');
    assert.match(codexSaw, /codex\.txt: Read-only file system/);
    assert.match(codexSaw, /exports\.add = \(a, b\) => a \+ b;/, "it read Claude Code's answer under peers/ through the massgen server");
    // Each program calls its model with its own key; no other key reaches a program, and no key its commands.
    assert.ok(claudeServer.messageRequests().every((q) => q.headers['x-api-key'] === SECRETS.ANTHROPIC_API_KEY));
    assert.ok(codexServer.responseRequests().every((q) => q.headers.authorization === `Bearer ${SECRETS.OPENAI_API_KEY}`));
    assert.match(claudeSaw, /PWD=/, 'its command printed its environment');
    for (const secret of Object.values(SECRETS)) {
      assert.ok(!claudeSaw.includes(secret), `claude's commands do not see ${secret}`);
      assert.ok(!codexSaw.includes(secret), `codex's commands do not see ${secret}`);
    }

    // The run's record: answers with their changes, the programs' own tools as tool events, usage as the fakes reported.
    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
    assert.deepEqual(status.results.verification, { status: 'passed' });
    assert.equal(status.checks['agent2.1'].results[0].status, 'failed');
    assert.deepEqual(status.agents.claude.tools, { Write: { calls: 3, failed: 2 }, Read: { calls: 1, failed: 0 }, Bash: { calls: 1, failed: 0 }, Monitor: { calls: 1, failed: 1 }, mcp__massgen__read_file: { calls: 1, failed: 0 } });
    assert.deepEqual(Object.keys(status.agents.codex.tools).sort(), ['mcp__massgen__read_file', 'shell']);
    assert.deepEqual(status.agents.codex.tools.mcp__massgen__read_file, { calls: 1, failed: 0 });
    const claudeRequests = claudeServer.messageRequests().length;
    assert.equal(status.agents.claude.usage.input_tokens, sum(claudeRequests, 1320));
    assert.equal(status.agents.claude.usage.cached_input_tokens, sum(claudeRequests, 300));
    assert.equal(status.agents.claude.usage.output_tokens, sum(claudeRequests, 50));
    const codexRequests = codexServer.responseRequests().length;
    assert.equal(status.agents.codex.usage.input_tokens, sum(codexRequests, 2000));
    assert.equal(status.agents.codex.usage.cached_input_tokens, sum(codexRequests, 500));
    assert.equal(status.agents.codex.usage.output_tokens, sum(codexRequests, 40));
    const events = readJsonl(join(logDir, 'events.jsonl'));
    assert.ok(events.some((e) => e.type === 'tool_call' && e.agentId === 'claude' && e.name === 'Bash'));
    assert.ok(events.some((e) => e.type === 'answer_added' && e.agentId === 'codex'));
  });

  it("with the user's network setting on, both programs' commands reach the network, still writing in their copies only", async () => {
    const repo = makeAddProject(join(work, 'networked'));
    const before = fingerprint(repo);
    const net = (probe = await startProbe());
    // A home with an SSH key: with the network on, Claude Code's commands still cannot read it.
    const home = mkdtempSync(join(work, 'home-'));
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_probe'), 'ssh-key-not-for-commands\n');
    const claude: ProgramScript = { steps: [() => ({ name: 'Bash', input: { command: `curl -sS -m 20 ${net.url}/claude > fetched.txt; cat ~/.ssh/id_probe`, description: 'fetch' } })], answer: 'Claude fetched it.', voteFor: 'agent1' };
    const codex: ProgramScript = { steps: [() => ({ name: 'exec_command', input: { cmd: `curl -sS -m 20 ${net.url}/codex > fetched.txt` } })], answer: 'Codex fetched it.', voteFor: 'agent1' };
    const config = await startPair(claude, codex, 'networked.yaml');
    const logDir = join(work, 'networked-logs');
    const r = await runCli(suite.cli, ['run', '--config', config, '--workspace', repo, '--allow-network', '--log-dir', logDir, 'Fetch the probe'], { cwd: work, env: { ...SECRETS, HOME: home, TMPDIR: mkdtempSync(join(work, 'tmp-')) } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([...net.paths].sort(), ['/claude', '/codex']);
    assert.match(r.stderr, /note: the coding agents' own commands \(Claude Code, Codex\) may use the network/);
    const claudeSaw = claudeToolResults(claudeServer!.messageRequests().map((q) => q.body)).join('\n');
    assert.match(claudeSaw, /id_probe/, 'it tried');
    assert.ok(!claudeSaw.includes('ssh-key-not-for-commands'), 'the key in the home folder stays hidden from its commands');
    for (const agent of ['claude', 'codex']) assert.match(readFileSync(join(logDir, 'agents', agent, `agent${agent === 'claude' ? 1 : 2}.1.patch`), 'utf8'), /^\+probe reached$/m);
    assert.equal(fingerprint(repo), before, 'the repository is untouched');
  });

  it("a team written as upstream writes it reaches its servers through the programs' own settings, as when run by hand", async () => {
    const claude: ProgramScript = { steps: [], answer: 'Claude Code answers.', voteFor: 'agent1' };
    const codex: ProgramScript = { steps: [() => ({ name: 'exec_command', input: { cmd: 'env' } })], answer: 'Codex answers.', voteFor: 'agent1' };
    claudeServer = await startFakeAnthropic(({ body }) => claudeReply(claude, body), { validate: false });
    codexServer = await startFakeResponses(({ body }) => codexReply(codex, body));
    // No base_url and no path (upstream has neither): the programs come from PATH, Claude Code's server from
    // ANTHROPIC_BASE_URL, Codex's from a model provider in its own config.toml.
    const config = join(work, 'upstream-style.yaml');
    writeFileSync(config, [
      'agents:',
      '  - id: "claude_code_agent"',
      '    backend:',
      '      type: "claude_code"',
      '      model: "claude-sonnet-4-5"',
      '      cwd: "claude_code_workspace"',
      '      permission_mode: "bypassPermissions"',
      '      allowed_tools: ["Read", "Write", "Edit", "Bash"]',
      '  - id: "codex_agent"',
      '    backend:',
      '      type: codex',
      '      model: gpt-5.4',
      '      cwd: workspace',
      'orchestrator:',
      '  snapshot_storage: "snapshots"',
      '  agent_temporary_workspace: "temp_workspaces"',
      'ui:',
      '  display_type: "rich_terminal"',
      '  logging_enabled: true',
      '',
    ].join('\n'));
    const codexHome = mkdtempSync(join(work, 'codex-home-'));
    writeFileSync(join(codexHome, 'config.toml'), `model_provider = "local"\n\n[model_providers.local]\nname = "local"\nbase_url = "${codexServer.baseUrl}"\nwire_api = "responses"\nenv_key = "OPENAI_API_KEY"\n`);
    const path = [dirname(CLAUDE), dirname(CODEX), process.env.PATH].join(delimiter);
    const env = { ...SECRETS, PATH: path, ANTHROPIC_BASE_URL: claudeServer.baseUrl, CODEX_HOME: codexHome, TMPDIR: mkdtempSync(join(work, 'tmp-')) };
    const r = await runCli(suite.cli, ['run', '--config', config, 'Say something'], { cwd: work, env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${claude.answer}\n`);
    assert.match(r.stderr, /permission_mode bypassPermissions would let Claude Code write outside its own copy/, 'what is not honoured is said');
    assert.ok(claudeServer.messageRequests().length > 0 && codexServer.responseRequests().length > 0, 'each program called its server');
    assert.ok(claudeServer.messageRequests().every((q) => q.body.model === 'claude-sonnet-4-5'));
    assert.ok(codexServer.responseRequests().every((q) => q.body.model === 'gpt-5.4'));
    // The provider of its config.toml got the key it names; its commands got none.
    assert.ok(codexServer.responseRequests().every((q) => q.headers.authorization === `Bearer ${SECRETS.OPENAI_API_KEY}`));
    const codexSaw = codexToolOutputs(codexServer.responseRequests().map((q) => q.body)).join('\n');
    assert.match(codexSaw, /PATH=/, 'its command printed its environment');
    for (const secret of Object.values(SECRETS)) assert.ok(!codexSaw.includes(secret), `codex's commands do not see ${secret}`);
  });

  it('Ctrl-C stops both programs and every command they started, and removes their folders', async () => {
    // Each program starts a long command in its own folder (a question run: folders made for the run), then waits.
    // (Claude Code refuses a bare `sleep`, and Codex leaves a command running on in the background after a while.)
    const LONG_CLAUDE = 'setTimeout(() => {}, 3017e3)';
    const claude: ProgramScript = { steps: [() => ({ name: 'Bash', input: { command: `node -e '${LONG_CLAUDE}'`, description: 'wait' } })], answer: 'never', voteFor: 'agent1' };
    const codex: ProgramScript = { steps: [() => ({ name: 'exec_command', input: { cmd: 'sleep 3018' } })], answer: 'never', voteFor: 'agent1' };
    const config = await startPair(claude, codex, 'pair.yaml');
    const tmp = mkdtempSync(join(work, 'tmp-'));
    let poll: NodeJS.Timeout | undefined;
    const r = await runCli(suite.cli, ['run', '--config', config, 'Wait for me'], {
      cwd: work,
      env: { ...SECRETS, TMPDIR: tmp },
      onSpawn: ({ kill }) => {
        poll = setInterval(() => {
          if (processesWith(LONG_CLAUDE).length > 0 && processesWith('sleep 3018').length > 0) {
            clearInterval(poll);
            kill('SIGINT');
          }
        }, 50);
      },
    }).finally(() => clearInterval(poll));
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /Interrupted/);
    for (const needle of [LONG_CLAUDE, 'sleep 3018', CLAUDE, CODEX]) assert.deepEqual(processesWith(needle), [], `nothing of ${needle} runs`);
    assert.deepEqual(readdirSync(tmp).filter((name) => /^massgen-.*-agent\d-/.test(name)), [], 'the programs\' folders are gone');
  });

  it('programs that never answer, are not signed in or exit fail as agents, saying why; the team goes on', async () => {
    // One Claude Code's model only talks; another Claude Code has no login; the "codex" fails at once, saying why.
    claudeServer = await startFakeAnthropic(() => ({ text: 'I looked around and have nothing to add.', usage: { inputTokens: 10, outputTokens: 5 } }), { validate: false });
    const broken = join(work, 'broken-codex');
    writeFileSync(broken, '#!/bin/sh\necho "codex: error loading config.toml: invalid type" >&2\nexit 3\n', { mode: 0o755 });
    suite.server = await startFakeOpenAI(coordinationScript({ m3: { answer: 'The API agent answers.' } }, { voteFor: 'agent4' }));
    const config = join(work, 'failing.yaml');
    const claude = `type: claude_code, model: claude-fake, base_url: ${claudeServer.baseUrl}, path: ${CLAUDE}`;
    writeFileSync(config, [
      'agents:',
      `  - { id: talker, backend: { ${claude}, api_key: sk-ant-talker } }`,
      `  - { id: nologin, backend: { ${claude} } }`,
      `  - { id: codex, backend: { type: codex, model: gpt-fake, path: ${broken} } }`,
      `  - { id: api, backend: { type: chatcompletion, model: m3, base_url: ${suite.server.baseUrl} } }`,
      '',
    ].join('\n'));
    const logDir = join(work, 'failing-logs');
    const { ANTHROPIC_API_KEY: _, ...env } = SECRETS;
    const r = await runCli(suite.cli, ['run', '--config', config, '--log-dir', logDir, 'Say something'], { cwd: work, env: { ...env, TMPDIR: mkdtempSync(join(work, 'tmp-')) } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'The API agent answers.\n');
    assert.match(r.stderr, /agent2 \(nologin\) FAILED: Claude Code: Not logged in.*: sign in with `claude`, or give it a key/);
    assert.match(r.stderr, /agent3 \(codex\) FAILED: .*error loading config\.toml: invalid type/);
    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
    assert.deepEqual([status.agents.nologin.status, status.agents.codex.status], ['failed', 'failed']);
    assert.equal(status.agents.nologin.usage.calls, 1, 'a missing login is not retried');
    assert.match(status.agents.codex.error.message, /Codex .*error loading config\.toml/);
    assert.notEqual(status.agents.talker.status, 'answered', JSON.stringify(status.agents.talker));
    assert.ok(claudeServer.messageRequests().length >= 2, 'the talking Claude Code was reminded at least once');
    for (const needle of [CLAUDE, broken]) assert.deepEqual(processesWith(needle), [], `nothing of ${needle} runs`);
  });
});

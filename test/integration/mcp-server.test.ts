// `massgen mcp` end to end, as an agent uses it: the MCP SDK's own Client over StdioClientTransport launches the real
// CLI bundle, lists the tools and calls them; a fake OpenAI-compatible server plays the team. Checked: progress
// notifications and the winner's answer, a workspace run's patch and checks (the repository untouched), massgen_status,
// cancellation closing the model streams, tool errors in words with the server still up, and nothing left running
// (the server, its runs' MCP servers, the agents' copies) once the client closes.

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { RunOutput } from '../../src/cli/mcp/schemas';
import { buildCli } from '../helpers/cli';
import { eventually } from '../helpers/eventually';
import { alive } from '../helpers/processes';
import { git, makeAddProject, WRONG_ADD } from '../helpers/repo';
import { coordinationScript, startFakeOpenAI, type FakeOpenAIServer } from '../fakes/openai-server';

const work = mkdtempSync(join(tmpdir(), 'massgen-mcp-server-'));
const SECRET = 'sk-test-SECRET-mcp-0123456789';
const EVERYTHING_JS = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const FILESYSTEM_JS = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
let cli = '';

interface Connected {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  /** Anything the client could not parse: stdout must carry the protocol only. */
  protocolErrors: Error[];
}

async function connect(cwd: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', ...args], cwd, env: { PATH: process.env.PATH ?? '', HOME: work, ...env } as Record<string, string>, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d));
  const client = new Client({ name: 'massgen-test-client', version: '1.0.0' });
  const protocolErrors: Error[] = [];
  client.onerror = (err) => protocolErrors.push(err);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, protocolErrors };
}

/** `backendExtra`: more YAML lines inside each agent's backend (indented by 6). */
function writeTeam(url: string, models: string[], backendExtra = ''): string {
  const file = join(work, `team-${Math.random().toString(36).slice(2)}.yaml`);
  const agents = models
    .map((m, i) => `  - id: ${String.fromCharCode(97 + i)}\n    backend:\n      type: chatcompletion\n      model: ${m}\n      base_url: "${url}"\n      api_key: ${SECRET}\n${backendExtra}`)
    .join('');
  writeFileSync(file, `agents:\n${agents}`);
  return file;
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function callRun(c: Connected, args: Record<string, unknown>, progress: Progress[] = [], signal?: AbortSignal): Promise<CallToolResult> {
  return (await c.client.callTool({ name: 'massgen_run', arguments: args }, undefined, { onprogress: (p) => progress.push(p), signal, timeout: 60_000 })) as CallToolResult;
}

/** Every process below `pid` (Linux /proc), found by parent links. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      parents.set(Number(p), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid !== parent) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

const makeRepo = () => makeAddProject(mkdtempSync(join(work, 'repo-')));

describe('massgen mcp (the SDK client against the CLI bundle)', function () {
  this.timeout(60_000);
  let server: FakeOpenAIServer | undefined;
  let conn: Connected | undefined;

  before(async () => {
    cli = await buildCli(work);
  });

  afterEach(async () => {
    await conn?.client.close();
    conn = undefined;
    await server?.close();
    server = undefined;
  });

  it('lists massgen_run and massgen_status with their schemas', async () => {
    conn = await connect(work);
    const { tools } = await conn.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['massgen_run', 'massgen_status']);
    const run = tools.find((t) => t.name === 'massgen_run')!;
    assert.deepEqual(Object.keys(run.inputSchema.properties ?? {}).sort(), ['checks', 'config', 'question', 'verification', 'workspace']);
    assert.deepEqual(run.inputSchema.required, ['question']);
    assert.ok(run.outputSchema?.properties && 'answer' in run.outputSchema.properties && 'tally' in run.outputSchema.properties);
    assert.deepEqual(tools.find((t) => t.name === 'massgen_status')!.inputSchema.required, ['log_dir']);
  });

  it('massgen_run: progress notifications for rounds, answers, votes and the winner; the answer, tally, usage and log dir; then massgen_status', async () => {
    server = await startFakeOpenAI(
      coordinationScript({ m1: { answer: 'Answer ONE.', voteFor: 'agent2' }, m2: { answer: 'Answer TWO, the best.', voteFor: 'agent2' }, m3: { answer: 'Answer THREE.', voteFor: 'agent2' } }, { reply: { usage: { promptTokens: 100, completionTokens: 10 } } }),
    );
    conn = await connect(work);
    const progress: Progress[] = [];
    const result = await callRun(conn, { question: 'What is best?', config: writeTeam(server.baseUrl, ['m1', 'm2', 'm3']) }, progress);

    assert.notEqual(result.isError, true, textOf(result));
    assert.match(textOf(result), /^Answer TWO, the best\.\n/);
    const out = result.structuredContent as RunOutput;
    assert.equal(out.answer, 'Answer TWO, the best.');
    assert.deepEqual(out.winner, { agent_id: 'b', label: 'agent2.1', model: 'm2' });
    assert.equal(out.end_reason, 'consensus');
    assert.deepEqual(out.tally, { 'agent2.1': 3 });
    assert.equal(out.usage.calls, 6);
    assert.equal(out.usage.input_tokens, 600);
    assert.equal(out.change, null);
    assert.equal(readFileSync(out.answer_file!, 'utf8'), 'Answer TWO, the best.');
    assert.equal(JSON.parse(readFileSync(join(out.log_dir, 'status.json'), 'utf8')).results.winner, 'b');

    const messages = progress.map((p) => p.message ?? '');
    assert.deepEqual(progress.map((p) => p.progress), progress.map((_, i) => i + 1), 'progress increases by one per notification');
    assert.equal(messages[0], `Log directory: ${out.log_dir} (massgen_status {log_dir} shows how the run is going)`);
    assert.match(messages[1], /3 agent\(s\)/);
    for (const re of [/round 1/, /answered agent2\.1/, /voted for agent2\.1/, /winner: agent2 \(b\) with agent2\.1/]) assert.ok(messages.some((m) => re.test(m)), `a progress message matching ${re}:\n${messages.join('\n')}`);
    assert.ok(!JSON.stringify(result).includes(SECRET) && !messages.join('').includes(SECRET) && !conn.stderr().includes(SECRET), 'no key in results, progress or logs');

    const status = (await conn.client.callTool({ name: 'massgen_status', arguments: { log_dir: out.log_dir } })) as CallToolResult;
    assert.notEqual(status.isError, true, textOf(status));
    assert.match(textOf(status), /Ended \(consensus\); winner: agent2\.1 \(b\)/);
    assert.equal((status.structuredContent as { running: boolean }).running, false);
    assert.deepEqual(conn.protocolErrors, []);
  });

  it('zero-config: without `config` the project\'s .massgen/config.yaml is used', async () => {
    server = await startFakeOpenAI(coordinationScript({ local: { answer: 'From the project config.' } }));
    const project = mkdtempSync(join(work, 'project-'));
    mkdirSync(join(project, '.massgen'));
    writeFileSync(join(project, '.massgen', 'config.yaml'), `agents:\n  - id: p\n    backend: { type: chatcompletion, model: local, base_url: "${server.baseUrl}" }\n`);
    conn = await connect(project);
    const result = await callRun(conn, { question: 'Q' });
    assert.match(textOf(result), /^From the project config\./);
    const out = result.structuredContent as { notes: string[]; log_dir: string };
    assert.ok(out.notes.some((n) => n.includes(join(project, '.massgen', 'config.yaml'))), out.notes.join('\n'));
    assert.ok(out.log_dir.startsWith(join(project, '.massgen', 'logs')));
  });

  it('a working folder that cannot hold logs (a client may start servers in /): the log directory goes to the temp folder, said in the notes', async () => {
    server = await startFakeOpenAI(coordinationScript());
    const cwd = mkdtempSync(join(work, 'no-logs-'));
    writeFileSync(join(cwd, '.massgen'), 'a file where the folder would be');
    const tmp = mkdtempSync(join(work, 'tmp-'));
    conn = await connect(cwd, { TMPDIR: tmp });
    const result = await callRun(conn, { question: 'Q', config: writeTeam(server.baseUrl, ['m1']) });
    assert.notEqual(result.isError, true, textOf(result));
    const out = result.structuredContent as RunOutput;
    assert.ok(out.log_dir.startsWith(join(tmp, 'massgen', 'logs')), out.log_dir);
    assert.ok(existsSync(join(out.log_dir, 'status.json')));
    assert.ok(out.notes.some((n) => n.startsWith('The log directory is in the temp folder')), out.notes.join('\n'));
  });

  it('a workspace run returns the winner\'s patch, leaves the repository untouched, and runs the checks: the gate overrules the votes', async () => {
    const repo = makeRepo();
    const writes = (content: string) => [{ toolCalls: [{ name: 'write_file', arguments: { path: 'src/add.js', content } }] }];
    // agent1 fixes add(); agent2 makes a plausible but wrong change the test rejects, and both vote for agent2.
    server = await startFakeOpenAI(
      coordinationScript({ m1: { answer: 'Fixed add().', first: writes('exports.add = (a, b) => a + b;\n') }, m2: { answer: 'add() takes the absolute difference.', first: writes('exports.add = (a, b) => Math.abs(a - b);\n') } }, { voteFor: 'agent2' }),
    );
    const tmp = mkdtempSync(join(work, 'tmp-'));
    conn = await connect(work, { TMPDIR: tmp });
    const result = await callRun(conn, { question: 'Fix add', config: writeTeam(server.baseUrl, ['m1', 'm2']), workspace: repo, checks: ['node test.js'], verification: 'gate' });
    assert.notEqual(result.isError, true, textOf(result));
    const out = result.structuredContent as RunOutput;
    assert.equal(out.winner?.label, 'agent1.1', 'the passing answer wins against the votes');
    assert.deepEqual(out.tally, { 'agent2.1': 2 });
    const change = out.change!;
    assert.deepEqual(change.files.map((f) => [f.path, f.status]), [['src/add.js', 'modified']]);
    assert.match(change.patch!, /^-exports\.add = \(a, b\) => a - b;$/m);
    assert.match(change.patch!, /^\+exports\.add = \(a, b\) => a \+ b;$/m);
    assert.equal(readFileSync(change.patch_file!, 'utf8'), change.patch);

    const checks = out.checks!;
    assert.deepEqual([checks.requested, checks.verification, checks.run, checks.note], [['node test.js'], 'gate', true, null]);
    assert.deepEqual(Object.keys(checks.versions).sort(), ['agent1.1', 'agent2.1']);
    assert.equal(checks.versions['agent1.1'].status, 'passed');
    assert.match(checks.versions['agent1.1'].results[0].output, /1 passing/);
    const failed = checks.versions['agent2.1'];
    assert.deepEqual([failed.status, failed.results[0].status, failed.results[0].exit_code], ['failed', 'failed', 1]);
    assert.match(failed.results[0].output, /AssertionError: add\(2, 3\) should be 5, got 1/);
    assert.deepEqual(checks.winner, { status: 'passed', overruled: { label: 'agent2.1', failed: ['node test.js'] } });
    const text = textOf(result);
    assert.match(text, /Checks \(node test\.js\) — agent1\.1: check passed; agent2\.1: check failed\. Checks overruled the votes: they chose agent2\.1, which failed node test\.js; agent1\.1 passed and wins\./);
    assert.match(text, /agent2\.1 node test\.js: failed \(exit 1\) — AssertionError: add\(2, 3\) should be 5, got 1/);
    assert.match(text, /```diff\n[\s\S]*\+exports\.add = \(a, b\) => a \+ b;/);
    assert.equal(readFileSync(join(repo, 'src', 'add.js'), 'utf8'), WRONG_ADD, 'the folder is not changed');
    assert.equal(git(repo, 'status', '--porcelain'), '');
    assert.deepEqual(readdirSync(join(tmp, `massgen-${process.getuid?.()}`, 'workspaces')), [], 'no copy or checkout is left');
  });

  it('tools that need approval are refused (the notes say how to allow them) and run under --approve-tools', async () => {
    const dir = mkdtempSync(join(work, 'fs-'));
    const target = join(dir, 'out.txt');
    const write = { toolCalls: [{ name: 'mcp__files__write_file', arguments: { path: target, content: 'written by the agent' } }] };
    const files = `      mcp_servers:\n        - { name: files, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FILESYSTEM_JS)}, ${JSON.stringify(dir)}] }\n`;
    server = await startFakeOpenAI(coordinationScript({ m1: { answer: 'Tried to write.', first: [write] } }, { voteFor: 'agent1' }));
    conn = await connect(work);
    const denied = await callRun(conn, { question: 'Write the file', config: writeTeam(server.baseUrl, ['m1'], files) });
    assert.ok((denied.structuredContent as RunOutput).notes.some((n) => /a's mcp__files__write_file was refused: .*massgen mcp --approve-tools/.test(n)), textOf(denied));
    assert.equal(existsSync(target), false);
    await conn.client.close();
    await server.close();

    server = await startFakeOpenAI(coordinationScript({ m1: { answer: 'Wrote it.', first: [write] } }, { voteFor: 'agent1' }));
    conn = await connect(work, {}, ['--approve-tools']);
    const approved = await callRun(conn, { question: 'Write the file', config: writeTeam(server.baseUrl, ['m1'], files) });
    assert.notEqual(approved.isError, true, textOf(approved));
    assert.equal(readFileSync(target, 'utf8'), 'written by the agent');
  });

  it('bad input is a tool error in words, and the server keeps serving', async () => {
    conn = await connect(work);
    const missing = await callRun(conn, { question: 'Q', config: join(work, 'nope.yaml') });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /Configuration error: .*nope\.yaml/);
    const nowhere = await callRun(conn, { question: 'Q', config: writeTeam('http://127.0.0.1:9/v1', ['m1']), workspace: join(work, 'no-such-folder') });
    assert.equal(nowhere.isError, true);
    assert.match(textOf(nowhere), /workspace .*no-such-folder does not exist/);
    const unplaced = await callRun(conn, { question: 'Q', config: writeTeam('http://127.0.0.1:9/v1', ['m1']), checks: ['npm test'] });
    assert.equal(unplaced.isError, true);
    assert.match(textOf(unplaced), /checks run on the agents' changes: pass workspace too/);
    const empty = await callRun(conn, { question: '   ' });
    assert.equal(empty.isError, true);
    assert.match(textOf(empty), /question is empty/);
    const status = (await conn.client.callTool({ name: 'massgen_status', arguments: { log_dir: join(work, 'not-a-log') } })) as CallToolResult;
    assert.equal(status.isError, true);
    assert.match(textOf(status), /No status\.json in .*not-a-log/);
    assert.equal((await conn.client.listTools()).tools.length, 2, 'still serving');
    assert.ok(alive(conn.transport.pid!));
  });

  it('cancelling the call cancels the run: the model streams are closed, the server stays up', async () => {
    server = await startFakeOpenAI(coordinationScript({ fast: { answer: 'Fast.' }, slow: { reply: { ttftMs: 30_000 } } }));
    conn = await connect(work);
    const abort = new AbortController();
    const progress: Progress[] = [];
    const call = callRun(conn, { question: 'Q', config: writeTeam(server.baseUrl, ['fast', 'slow']) }, progress, abort.signal);
    const logDir = await eventually(() => /^Log directory: (\S+)/.exec(progress[0]?.message ?? '')?.[1], { what: 'the log directory' });
    await eventually(() => existsSync(join(logDir, 'agents', 'a', 'agent1.1.txt')), { what: 'the fast answer' });
    const live = (await conn.client.callTool({ name: 'massgen_status', arguments: { log_dir: logDir } })) as CallToolResult;
    assert.equal((live.structuredContent as { running: boolean }).running, true, textOf(live));
    assert.match(textOf(live), /^Running: /);
    abort.abort();
    await assert.rejects(call);
    // Cancelled, not waited for: the slow agent's request was closed by the client.
    const slow = server.chatRequests().find((r) => r.body.model === 'slow')!;
    assert.equal(await slow.outcome, 'client_closed');
    await eventually(() => JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8')).results.end_reason === 'cancelled', { what: 'the run to end as cancelled' });
    // A cancel proposes nothing: no winner, no final answer; the answer so far stays in the log.
    assert.equal(JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8')).results.winner, null);
    assert.ok(!existsSync(join(logDir, 'final')));
    assert.ok(existsSync(join(logDir, 'agents', 'a', 'agent1.1.txt')));
    assert.ok(progress.length > 0);
    assert.equal((await conn.client.listTools()).tools.length, 2, 'still serving');
  });

  it('closing the client mid-run ends the server and everything it started: agents\' MCP servers, copies', async () => {
    const repo = makeRepo();
    const marker = `massgen-mcp-close-${process.pid}-${Date.now()}`;
    server = await startFakeOpenAI(coordinationScript({}, { reply: { ttftMs: 30_000 } }));
    const mcpServers = `      mcp_servers:\n        - { name: everything, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING_JS)}, stdio, "${marker}"] }\n`;
    const tmp = mkdtempSync(join(work, 'tmp-'));
    conn = await connect(work, { TMPDIR: tmp });
    const pid = conn.transport.pid!;
    const call = callRun(conn, { question: 'Q', config: writeTeam(server.baseUrl, ['m1', 'm2'], mcpServers), workspace: repo });
    call.catch(() => undefined);
    await eventually(() => server!.chatRequests().length >= 2, { what: 'both agents requesting' });
    const children = descendants(pid);
    assert.ok(children.length >= 2, `the agents' MCP servers run under the server: ${children.join(', ')}`);
    assert.ok(readdirSync(join(tmp, `massgen-${process.getuid?.()}`, 'workspaces')).length > 0, 'the agents have copies');
    // Only stdin is closed here (the SDK's close() would send SIGTERM after 2 s): exiting proves it exits on stdin close.
    (conn.transport as unknown as { _process: ChildProcess })._process.stdin!.end();
    await eventually(() => !alive(pid), { what: 'the server to exit on stdin close' });
    await conn.client.close();
    conn = undefined;
    for (const child of children) assert.equal(alive(child), false, `process ${child} is gone`);
    assert.equal(await server.chatRequests()[0].outcome, 'client_closed');
    assert.deepEqual(readdirSync(join(tmp, `massgen-${process.getuid?.()}`, 'workspaces')), [], 'no copy is left');
  });
});

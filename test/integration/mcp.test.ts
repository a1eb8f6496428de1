// MCP toolboxes against real servers: @modelcontextprotocol/server-everything and server-filesystem started over
// stdio from node_modules, a small scripted stdio server written here (crashes, hangs, slow calls, a grandchild
// process), and a streamable-HTTP server built with the SDK on 127.0.0.1. Agents are the engine's scripted
// provider, so every run goes through the real Orchestrator. After every test no server process may be left.

import assert from 'node:assert/strict';
import { eventually } from '../helpers/eventually';
import { alive } from '../helpers/processes';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { parseConfigText } from '../../src/core/config/load';
import type { McpServerConfig } from '../../src/core/config/types';
import { runTeam } from '../helpers/test-team';
import {
  createMcpToolbox, liveServerPids, McpServerPool, type ApprovalRequest, type McpLogEntry, type McpToolbox, type McpToolboxOptions,
} from '../../src/core/mcp';
import { reply, type Script } from '../../src/core/providers/scripted';
import type { ModelRequest } from '../../src/core/providers/types';
import { combineToolboxes } from '../../src/core/tools/combine';

const root = join(__dirname, '..', '..');
const sdkEsm = join(root, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm');
const EVERYTHING_JS = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const FILESYSTEM_JS = join(root, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const work = mkdtempSync(join(tmpdir(), 'massgen-mcp-'));

// ---- servers ----------------------------------------------------------------------------------------------------

const everything = (extra: Partial<McpServerConfig> = {}): McpServerConfig => ({ name: 'everything', type: 'stdio', command: process.execPath, args: [EVERYTHING_JS, 'stdio'], ...extra });
const filesystem = (dir: string, extra: Partial<McpServerConfig> = {}): McpServerConfig => ({ name: 'files', type: 'stdio', command: process.execPath, args: [FILESYSTEM_JS, dir], ...extra });

/** A scripted stdio server on the SDK's low-level Server: echo, crash, sleep, pid, grandchild, big, fail. */
const SCRIPTED_JS = join(work, 'scripted-server.mjs');
writeFileSync(
  SCRIPTED_JS,
  `
import { spawn } from 'node:child_process';
import { Server } from ${JSON.stringify(pathToFileURL(join(sdkEsm, 'server', 'index.js')).href)};
import { StdioServerTransport } from ${JSON.stringify(pathToFileURL(join(sdkEsm, 'server', 'stdio.js')).href)};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${JSON.stringify(pathToFileURL(join(sdkEsm, 'types.js')).href)};
console.error('scripted server up, pid ' + process.pid);
if (process.argv.includes('--hang')) {
  setInterval(() => {}, 1000); // never answers initialize
} else {
  const grandchild = process.argv.includes('--grandchild') ? spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }) : undefined;
  const obj = (props = {}) => ({ type: 'object', properties: props });
  const server = new Server({ name: 'scripted', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
    { name: 'echo', description: 'Echoes text', inputSchema: obj({ text: { type: 'string' } }), annotations: { readOnlyHint: true } },
    { name: 'crash', description: 'Exits the server', inputSchema: obj() },
    { name: 'sleep', description: 'Waits ms', inputSchema: obj({ ms: { type: 'number' } }) },
    { name: 'pid', description: 'The server pid', inputSchema: obj() },
    { name: 'grandchild', description: 'The pid of a process the server started', inputSchema: obj() },
    { name: 'big', description: 'n characters', inputSchema: obj({ n: { type: 'number' } }) },
    { name: 'fail', description: 'Always reports an error', inputSchema: obj() },
  ] }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const a = req.params.arguments ?? {};
    const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });
    switch (req.params.name) {
      case 'echo': return text('echo: ' + a.text);
      case 'crash': setTimeout(() => process.exit(3), 5); return new Promise(() => {});
      case 'sleep': await new Promise((r) => setTimeout(r, a.ms)); return text('slept ' + a.ms);
      case 'pid': return text(process.pid);
      case 'grandchild': return text(grandchild?.pid ?? 'none');
      case 'big': return text('x'.repeat(a.n));
      case 'fail': return { content: [{ type: 'text', text: 'the database is locked' }], isError: true };
    }
    throw new Error('no such tool');
  });
  await server.connect(new StdioServerTransport());
}
`,
);
const scripted = (extra: Partial<McpServerConfig> = {}, ...flags: string[]): McpServerConfig => ({ name: 'scripted', type: 'stdio', command: process.execPath, args: [SCRIPTED_JS, ...flags], ...extra });

/** A streamable-HTTP MCP server (SDK McpServer, stateful sessions) on 127.0.0.1 with a `whoami` tool. */
async function startHttpServer(): Promise<{ url: string; deletes: number; sessions: Set<string>; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const state = { deletes: 0, sessions: new Set<string>() };
  const readBody = (req: IncomingMessage) =>
    new Promise<unknown>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined));
    });
  const http: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const sid = req.headers['mcp-session-id'] as string | undefined;
    if (req.method === 'DELETE') state.deletes++;
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    let transport = sid ? transports.get(sid) : undefined;
    if (!transport) {
      if (sid || req.method !== 'POST') {
        res.writeHead(404).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      const t = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, t);
          state.sessions.add(id);
        },
      });
      t.onclose = () => t.sessionId && transports.delete(t.sessionId);
      const server = new McpServer({ name: 'http-test', version: '1.0.0' });
      server.registerTool('whoami', { description: 'Returns the Authorization header it was called with', inputSchema: { prefix: z.string() } }, async ({ prefix }, extra) => ({
        content: [{ type: 'text', text: `${prefix}${String(extra.requestInfo?.headers.authorization ?? 'anonymous')}` }],
      }));
      server.registerTool('delete_everything', { description: 'Dangerous', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'deleted' }] }));
      await server.connect(t);
      transport = t;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get deletes() {
      return state.deletes;
    },
    sessions: state.sessions,
    async close() {
      for (const t of transports.values()) await t.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

// ---- helpers ----------------------------------------------------------------------------------------------------


/** Live processes that are children of this test process and run an MCP server (Linux /proc; [] elsewhere). */
function serverChildren(): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (Number(ppid) === process.pid && state !== 'Z' && (cmdline.includes('@modelcontextprotocol/server-') || cmdline.includes(SCRIPTED_JS))) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Every server pid any toolbox of these tests started. */
const everyPid = new Set<number>();

const entries: McpLogEntry[] = [];
const log = (e: McpLogEntry) => entries.push(e);
const opened: McpToolbox[] = [];

function toolbox(servers: McpServerConfig[], options: Partial<McpToolboxOptions> = {}): McpToolbox {
  const t = createMcpToolbox(servers, { agentId: 'a', log, ...options, defaults: { closeGraceMs: 300, ...options.defaults } });
  opened.push(t);
  return t;
}

const never = new AbortController().signal;
const call = (t: McpToolbox, name: string, args: Record<string, unknown> = {}, signal = never) => t.execute({ id: `c-${name}`, name, arguments: JSON.stringify(args) }, signal);

function lastToolResult(request: ModelRequest): string | undefined {
  return [...request.messages].reverse().find((m) => m.role === 'tool')?.content;
}

/** Calls the tool on its first call, answers with the tool result on its second, votes for agent1 afterwards. */
function toolThenAnswer(name: string, args: Record<string, unknown>): Script {
  return (request, i) => {
    if (i === 0) return { toolCalls: [{ name, arguments: args }] };
    if (i === 1) return reply.answer(`Tool said: ${lastToolResult(request)}`);
    return reply.vote('agent1');
  };
}

// ---- tests ------------------------------------------------------------------------------------------------------

describe('MCP toolboxes against real servers', function () {
  this.timeout(20_000);

  afterEach(async () => {
    const boxes = opened.splice(0);
    await Promise.all(boxes.map((t) => t.close()));
    for (const b of boxes) for (const pid of b.processIds()) everyPid.add(pid);
    entries.length = 0;
  });

  after(() => {
    assert.deepEqual([...everyPid].filter(alive), [], 'no MCP server process outlives the tests');
    assert.deepEqual(serverChildren(), []);
    assert.deepEqual(liveServerPids(), []);
  });

  describe('the tool loop through the engine', () => {
    it('an agent calls a stdio tool and its answer carries the result; the server is gone after the run', async () => {
      const box = toolbox([everything()]);
      const team = runTeam([{ id: 'a', toolbox: box, script: toolThenAnswer('mcp__everything__echo', { message: 'hello from a' }) }]);
      const result = await team.result;
      assert.equal(result.reason, 'consensus');
      assert.equal(result.finalAnswer, 'Tool said: Echo: hello from a');
      const ready = team.of('tools_ready');
      assert.equal(ready.length, 1);
      assert.equal(ready[0].error, undefined);
      assert.ok(ready[0].tools.includes('mcp__everything__echo') && ready[0].tools.includes('mcp__everything__get-sum'), ready[0].tools.join());
      // The model was offered the MCP tools next to the coordination tools, with the server's schema.
      const offered = team.requests('a')[0].tools;
      assert.deepEqual(offered.slice(0, 2).map((t) => t.name), ['new_answer', 'vote']);
      const echo = offered.find((t) => t.name === 'mcp__everything__echo')!;
      assert.match(echo.description, /Echoes back/);
      assert.deepEqual((echo.parameters as { required?: string[] }).required, ['message']);
      const results = team.of('tool_result').filter((e) => e.name === 'mcp__everything__echo');
      assert.deepEqual(results.map((r) => [r.ok, r.summary]), [[true, 'Echo: hello from a']]);
      const pids = box.processIds();
      assert.equal(pids.length, 1);
      assert.ok(pids.every((p) => !alive(p)), 'closed with the run');
      assert.ok(entries.some((e) => e.source === 'stderr' && /Starting default \(STDIO\) server/.test(e.message)), 'stderr goes to the log');
      assert.ok(entries.some((e) => e.source === 'lifecycle' && /connected \(pid \d+\)/.test(e.message)));
    });

    it('file tools and MCP tools together: combineToolboxes routes each call', async () => {
      const files = {
        tools: [{ name: 'read_file', description: 'reads', parameters: { type: 'object', properties: {} } }],
        execute: async () => ({ ok: true, content: 'file content' }),
        closed: 0,
        async close() {
          this.closed++;
        },
      };
      const mcp = toolbox([everything()]);
      const both = combineToolboxes(files, mcp);
      const script: Script = (request, i) => {
        if (i === 0) return { toolCalls: [{ name: 'read_file', arguments: {} }, { name: 'mcp__everything__get-sum', arguments: { a: 2, b: 40 } }] };
        if (i === 1) return reply.answer(request.messages.filter((m) => m.role === 'tool').map((m) => m.content).join(' | '));
        return reply.vote('agent1');
      };
      const team = runTeam([{ id: 'a', toolbox: both, script }]);
      const result = await team.result;
      assert.match(result.finalAnswer!, /^file content \| .*42/);
      assert.ok(team.of('tools_ready')[0].tools.includes('read_file'));
      assert.equal(files.closed, 1);
      assert.ok(mcp.processIds().every((p) => !alive(p)));
    });

    it('a server that never starts (bad command): the run goes on with the other servers and says why', async () => {
      const box = toolbox([{ name: 'broken', type: 'stdio', command: join(work, 'no-such-mcp-server') }, everything()]);
      const team = runTeam([{ id: 'a', toolbox: box, script: toolThenAnswer('mcp__everything__echo', { message: 'still here' }) }]);
      const result = await team.result;
      assert.equal(result.finalAnswer, 'Tool said: Echo: still here');
      const [ready] = team.of('tools_ready');
      assert.match(ready.error!, /MCP server "broken" failed to start: cannot start ".*no-such-mcp-server": ENOENT \(command .* not found\)/);
      assert.ok(ready.tools.includes('mcp__everything__echo'));
      assert.ok(!ready.tools.some((t) => t.startsWith('mcp__broken__')));
      assert.deepEqual(box.servers().map((s) => [s.name, s.state === 'closed' ? 'closed' : s.state]), [['broken', 'closed'], ['everything', 'closed']]);
    });

    it('a server that starts but never answers: connect times out, its process is ended', async () => {
      const box = toolbox([scripted({ connectTimeoutSeconds: 0.5 }, '--hang')]);
      await assert.rejects(box.start(never), /MCP server "scripted" failed to start: did not connect within 0\.5 s/);
      assert.deepEqual(box.tools, []);
      const [pid] = box.processIds();
      await box.close();
      assert.equal(alive(pid), false);
    });

    // The operation takes 10 minutes, far past this suite's timeout: the run ends at all only if cancel ended it.
    it('cancel during a long tool call ends the run without waiting for the call, and leaves no process', async () => {
      const box = toolbox([everything()], { approve: async () => true });
      const script: Script = () => ({ toolCalls: [{ name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 600, steps: 2 } }] });
      const team = runTeam([{ id: 'a', toolbox: box, script }]);
      const poll = setInterval(() => {
        if (team.of('tool_call').length > 0) {
          clearInterval(poll);
          setTimeout(() => team.orchestrator.cancel(), 100);
        }
      }, 10);
      const result = await team.result;
      clearInterval(poll);
      assert.equal(result.reason, 'cancelled');
      assert.equal(box.processIds().length, 1);
      assert.ok(box.processIds().every((p) => !alive(p)));
    });

    // The connect timeout (10 minutes) is far past this suite's timeout: the run ends at all only if cancel ended it.
    it('cancel while servers are still connecting: nothing is left running', async () => {
      const box = toolbox([scripted({ connectTimeoutSeconds: 600 }, '--hang'), everything()]);
      const controller = new AbortController();
      const team = runTeam([{ id: 'a', toolbox: box, script: () => reply.answer('x') }], { signal: controller.signal });
      // Cancelled once a server process is up (and, hanging, still connecting): not after a guess at how long that takes.
      await eventually(() => box.processIds().length >= 1, { what: 'a server process to start' });
      controller.abort();
      const result = await team.result;
      assert.equal(result.reason, 'cancelled');
      assert.ok(box.processIds().length >= 1);
      assert.ok(box.processIds().every((p) => !alive(p)));
    });

    it('shared: true gives every agent one client and one process, closed after the run', async () => {
      const pool = new McpServerPool({ log, defaults: { closeGraceMs: 300 } });
      const shared = everything({ shared: true });
      const a = toolbox([shared], { agentId: 'a', pool });
      const b = toolbox([shared], { agentId: 'b', pool });
      const script: Script = (request, i) => {
        if (i === 0) return { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hi' } }] };
        if (i === 1) return reply.answer(`${lastToolResult(request)} (${request.messages.length})`);
        return reply.vote('agent1');
      };
      const team = runTeam([{ id: 'a', toolbox: a, script }, { id: 'b', toolbox: b, script }]);
      const result = await team.result;
      assert.equal(result.reason, 'consensus');
      assert.equal(team.of('tool_result').filter((e) => e.name === 'mcp__everything__echo' && e.ok).length, 2);
      assert.deepEqual(a.processIds(), b.processIds());
      assert.equal(a.processIds().length, 1);
      assert.equal(alive(a.processIds()[0]), false);
      await pool.close();
    });
  });

  describe('filters, names and results', () => {
    it('allowed_tools and exclude_tools accept raw and prefixed names, at server and backend level', async () => {
      const box = toolbox([everything({ allowedTools: ['echo', 'mcp__everything__get-sum', 'get-tiny-image'] })], { excludeTools: ['get-tiny-image'] });
      await box.start(never);
      assert.deepEqual(box.tools.map((t) => t.name).sort(), ['mcp__everything__echo', 'mcp__everything__get-sum']);
      const other = toolbox([everything({ excludeTools: ['mcp__everything__echo'] })], { allowedTools: ['echo', 'get-env'] });
      await other.start(never);
      assert.deepEqual(other.tools.map((t) => t.name), ['mcp__everything__get-env']);
      assert.equal((await call(other, 'mcp__everything__echo', { message: 'x' })).ok, false, 'filtered tools cannot be called');
    });

    it('maps content: resources as text, images as a placeholder; isError results are ok:false', async () => {
      const box = toolbox([everything()]);
      await box.start(never);
      const image = await call(box, 'mcp__everything__get-tiny-image');
      assert.equal(image.ok, true);
      assert.match(image.content, /^Here's the image you requested:\n\[image: image\/png, [\d.]+ KB; not shown to the model\]\nThe image above is the MCP logo\.$/);
      const resource = await call(box, 'mcp__everything__get-resource-reference', { resourceType: 'Text', resourceId: 3 });
      assert.match(resource.content, /\[resource demo:\/\/resource\/dynamic\/text\/3 \(text\/plain\)\]\nResource 3: This is a plaintext resource/);
      const bad = await call(box, 'mcp__everything__echo', {});
      assert.equal(bad.ok, false);
      assert.match(bad.content, /^mcp__everything__echo returned an error: .*Invalid arguments/);
      const notJson = await box.execute({ id: 'x', name: 'mcp__everything__echo', arguments: '{oops' }, never);
      assert.match(notJson.content, /not valid JSON/);
    });

    it('cuts long results to max_result_chars with a note', async () => {
      const box = toolbox([scripted({ maxResultChars: 500 })]);
      await box.start(never);
      const r = await call(box, 'mcp__scripted__big', { n: 5000 });
      assert.equal(r.ok, true);
      assert.ok(r.content.length <= 500, String(r.content.length));
      assert.match(r.content, /\n\[truncated: the tool result was 5000 characters; showing the first 340\./);
      const fail = await call(box, 'mcp__scripted__fail');
      assert.deepEqual(fail, { ok: false, content: 'mcp__scripted__fail returned an error: the database is locked' });
    });

    it('stdio servers get only the configured env plus a minimal base', async () => {
      const box = toolbox([everything({ env: { MY_SETTING: 'configured-value' } })], {
        processEnv: { PATH: process.env.PATH, HOME: '/home/test-user', OPENAI_API_KEY: 'sk-must-not-leak', SOME_OTHER: 'nope' },
      });
      await box.start(never);
      const r = await call(box, 'mcp__everything__get-env');
      const env = JSON.parse(r.content) as Record<string, string>;
      assert.equal(env.MY_SETTING, 'configured-value');
      assert.equal(env.HOME, '/home/test-user');
      assert.equal(env.PATH, process.env.PATH);
      assert.equal(env.OPENAI_API_KEY, undefined);
      assert.equal(env.SOME_OTHER, undefined);
      assert.ok(!entries.some((e) => e.message.includes('configured-value')), 'env values are never logged');
    });
  });

  describe('failures', () => {
    // The operation takes 10 minutes, far past this suite's timeout: the call ends at all only by its own timeout.
    it('a per-call timeout fails the call, not the server', async () => {
      const box = toolbox([everything({ timeoutSeconds: 0.3, requireApproval: false })]);
      await box.start(never);
      const r = await call(box, 'mcp__everything__trigger-long-running-operation', { duration: 600, steps: 5 });
      assert.deepEqual(r, { ok: false, content: 'mcp__everything__trigger-long-running-operation failed: no result within 0.3 s (the call was cancelled)' });
      assert.equal((await call(box, 'mcp__everything__echo', { message: 'after' })).content, 'Echo: after');
    });

    it('a server that crashes mid-run: the call fails, the next call restarts it, the old process is gone', async () => {
      const box = toolbox([scripted()], { defaults: { retryBaseDelayMs: 10, maxAttempts: 1 } });
      await box.start(never);
      const first = Number((await call(box, 'mcp__scripted__pid')).content);
      const crash = await call(box, 'mcp__scripted__crash');
      assert.equal(crash.ok, false);
      assert.match(crash.content, /^mcp__scripted__crash failed: the server closed the connection; the server is restarted on the next call$/);
      const again = await call(box, 'mcp__scripted__pid');
      assert.equal(again.ok, true, again.content);
      assert.notEqual(Number(again.content), first);
      assert.equal(alive(first), false);
      assert.deepEqual(box.processIds(), [first, Number(again.content)]);
      assert.ok(entries.some((e) => /went away \(exit code 3\)/.test(e.message)));
    });

    it('a crash inside a turn: the agent is told, the run goes on to an answer', async () => {
      const box = toolbox([scripted()], { defaults: { maxAttempts: 1 } });
      const script: Script = (request, i) => {
        if (i === 0) return { toolCalls: [{ name: 'mcp__scripted__crash', arguments: {} }] };
        if (i === 1) return { toolCalls: [{ name: 'mcp__scripted__echo', arguments: { text: 'back' } }] };
        if (i === 2) return reply.answer(`after the crash: ${lastToolResult(request)}`);
        return reply.vote('agent1');
      };
      const team = runTeam([{ id: 'a', toolbox: box, script }]);
      const result = await team.result;
      assert.equal(result.finalAnswer, 'after the crash: echo: back');
      assert.deepEqual(team.of('tool_result').slice(0, 2).map((r) => r.ok), [false, true]);
      assert.equal(box.processIds().length, 2);
      assert.ok(box.processIds().every((p) => !alive(p)));
    });

    it('repeated crashes open the circuit breaker; after the pause one trial call goes through', async () => {
      const box = toolbox([scripted()], { defaults: { retryBaseDelayMs: 5, maxAttempts: 3, breaker: { maxFailures: 3, resetMs: 300, maxBackoffFactor: 8 } } });
      await box.start(never);
      // crash is read-only by its name, so it is retried: three crashes in one call open the breaker.
      const crash = await call(box, 'mcp__scripted__crash');
      assert.equal(crash.ok, false);
      const paused = await call(box, 'mcp__scripted__echo', { text: 'x' });
      assert.equal(paused.ok, false);
      assert.match(paused.content, /^MCP server "scripted" is paused after repeated failures .*tried again in 1 s/);
      assert.equal(box.processIds().length, 3);
      await new Promise((r) => setTimeout(r, 350));
      assert.equal((await call(box, 'mcp__scripted__echo', { text: 'y' })).content, 'echo: y');
      assert.ok(entries.some((e) => /circuit breaker open/.test(e.message)));
    });

    it('closing ends processes the server started itself (its process group)', async () => {
      const box = toolbox([scripted({}, '--grandchild')]);
      await box.start(never);
      const grandchild = Number((await call(box, 'mcp__scripted__grandchild')).content);
      assert.ok(grandchild > 0 && alive(grandchild));
      await box.close();
      await eventually(() => !alive(grandchild), { what: `the grandchild ${grandchild} to end` });
    });
  });

  describe('approval and planning mode', () => {
    it('side-effecting tools need approval: denied without an approver, run when approved', async () => {
      const dir = mkdtempSync(join(work, 'fs-'));
      writeFileSync(join(dir, 'notes.txt'), 'existing notes');
      const requests: ApprovalRequest[] = [];
      let answer = false;
      const box = toolbox([filesystem(dir)], { agentId: 'agent-x', approve: async (r) => (requests.push(r), answer) });
      await box.start(never);
      const write = box.tools.find((t) => t.name === 'mcp__files__write_file')!;
      assert.match(write.description, /Runs only if the user approves the call\./);
      const read = await call(box, 'mcp__files__read_text_file', { path: join(dir, 'notes.txt') });
      assert.deepEqual(read, { ok: true, content: 'existing notes' });
      assert.equal(requests.length, 0, 'reading needs no approval');

      const target = join(dir, 'new.txt');
      const denied = await call(box, 'mcp__files__write_file', { path: target, content: 'hello' });
      assert.equal(denied.ok, false);
      assert.match(denied.content, /^mcp__files__write_file was not run: the user did not approve it \(tools that change things need approval\)\. Do not call it again/);
      assert.equal(existsSync(target), false);
      assert.deepEqual(requests, [{ agentId: 'agent-x', server: 'files', tool: 'write_file', toolName: 'mcp__files__write_file', argumentsSummary: `path: ${JSON.stringify(target)}, content: "hello"`, reason: 'side-effecting' }]);

      answer = true;
      const approved = await call(box, 'mcp__files__write_file', { path: target, content: 'hello' });
      assert.equal(approved.ok, true, approved.content);
      assert.equal(readFileSync(target, 'utf8'), 'hello');

      const noApprover = toolbox([filesystem(dir)]);
      await noApprover.start(never);
      assert.equal((await call(noApprover, 'mcp__files__create_directory', { path: join(dir, 'sub') })).ok, false);
      assert.equal(existsSync(join(dir, 'sub')), false);
    });

    it('require_approval lists tools (raw or prefixed); false on a server trusts it', async () => {
      const dir = mkdtempSync(join(work, 'fs-'));
      const asked: string[] = [];
      const approve = async (r: ApprovalRequest) => (asked.push(`${r.toolName}:${r.reason}`), false);
      const box = toolbox([everything({ requireApproval: ['mcp__everything__get-sum'] }), filesystem(dir, { requireApproval: false })], { requireApproval: ['echo'], approve });
      await box.start(never);
      assert.equal((await call(box, 'mcp__everything__echo', { message: 'x' })).ok, false);
      assert.equal((await call(box, 'mcp__everything__get-sum', { a: 1, b: 2 })).ok, false);
      assert.equal((await call(box, 'mcp__everything__get-env')).ok, true);
      assert.equal((await call(box, 'mcp__files__write_file', { path: join(dir, 'trusted.txt'), content: 't' })).ok, true);
      assert.deepEqual(asked, ['mcp__everything__echo:configured', 'mcp__everything__get-sum:configured']);
    });

    it('planning mode blocks side-effecting tools during coordination; the switch lets the final presenter use them', async () => {
      const dir = mkdtempSync(join(work, 'fs-'));
      const box = toolbox([filesystem(dir)], { planningMode: { enabled: true }, approve: async () => true });
      await box.start(never);
      assert.equal(box.planningModeActive, true);
      assert.match(box.tools.find((t) => t.name === 'mcp__files__move_file')!.description, /Blocked during coordination \(planning mode\)/);
      const blocked = await call(box, 'mcp__files__write_file', { path: join(dir, 'plan.txt'), content: 'x' });
      assert.deepEqual(blocked, { ok: false, content: "🚫 [MCP] Tool 'mcp__files__write_file' blocked during coordination (planning mode active). Do not call it again now: describe in your answer what you would do with it, with the exact arguments." });
      assert.equal(existsSync(join(dir, 'plan.txt')), false);
      assert.equal((await call(box, 'mcp__files__list_directory', { path: dir })).ok, true, 'reading is allowed');
      box.setPlanningMode(false);
      assert.equal((await call(box, 'mcp__files__write_file', { path: join(dir, 'plan.txt'), content: 'x' })).ok, true);

      const listed = toolbox([filesystem(dir)], { planningMode: { enabled: true, blockedTools: ['read_text_file'] }, approve: async () => true });
      await listed.start(never);
      assert.match((await call(listed, 'mcp__files__read_text_file', { path: join(dir, 'plan.txt') })).content, /blocked during coordination/);
      assert.equal((await call(listed, 'mcp__files__write_file', { path: join(dir, 'other.txt'), content: 'y' })).ok, true);
    });

    it('planning mode inside a run: the agent is told the tool is blocked and answers anyway', async () => {
      const dir = mkdtempSync(join(work, 'fs-'));
      const box = toolbox([filesystem(dir)], { planningMode: { enabled: true }, approve: async () => true });
      const team = runTeam([{ id: 'a', toolbox: box, script: toolThenAnswer('mcp__files__write_file', { path: join(dir, 'x.txt'), content: 'x' }) }]);
      const result = await team.result;
      assert.match(result.finalAnswer!, /^Tool said: 🚫 \[MCP\] Tool 'mcp__files__write_file' blocked during coordination/);
      assert.equal(existsSync(join(dir, 'x.txt')), false);
    });
  });

  describe('streamable HTTP', () => {
    it('a YAML config with ${ENV} headers: the agent calls the HTTP tool; the session is closed after the run', async () => {
      const http = await startHttpServer();
      try {
        const { config } = parseConfigText(
          [
            'agents:',
            '  - id: web',
            '    backend:',
            '      type: ollama',
            '      model: m',
            '      mcp_servers:',
            '        - name: remote',
            '          type: streamable-http',
            `          url: ${http.url}`,
            '          headers: { Authorization: "Bearer ${REMOTE_TOKEN}" }',
            '',
          ].join('\n'),
          'http.yaml',
          { REMOTE_TOKEN: 'tok-123' },
        );
        const [agent] = config.agents;
        const box = toolbox(agent.backend.mcpServers!, { agentId: agent.id });
        const team = runTeam([{ id: 'web', toolbox: box, script: toolThenAnswer('mcp__remote__whoami', { prefix: 'caller: ' }) }]);
        const result = await team.result;
        assert.equal(result.finalAnswer, 'Tool said: caller: Bearer tok-123');
        const ready = team.of('tools_ready')[0];
        assert.deepEqual(ready.tools, ['mcp__remote__whoami', 'mcp__remote__delete_everything']);
        assert.equal(http.sessions.size, 1);
        assert.equal(http.deletes, 1, 'the session is terminated at close');
        assert.ok(!entries.some((e) => e.message.includes('tok-123')), 'headers are never logged');
      } finally {
        await http.close();
      }
    });

    it('an HTTP server that is down: start reports it, calls are not offered', async () => {
      const http = await startHttpServer();
      const url = http.url;
      await http.close();
      const box = toolbox([{ name: 'down', type: 'streamable-http', url, connectTimeoutSeconds: 2 }]);
      await assert.rejects(box.start(never), /MCP server "down" failed to start: .*(fetch failed|ECONNREFUSED)/);
      assert.deepEqual(box.tools, []);
    });
  });
});

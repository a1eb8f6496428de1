// Toolbox logic that needs no server process (the real-server tests are in test/integration/mcp.test.ts).

import assert from 'node:assert/strict';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { combineToolboxes } from '../tools/combine';
import { classifyError } from './connection';
import { escapeCmdArgument, serverEnvironment } from './stdio-transport';
import { createMcpToolbox, summarizeArguments } from './toolbox';

const signal = new AbortController().signal;

describe('mcp toolbox (no servers)', () => {
  it('summarizes arguments for an approval prompt', () => {
    assert.equal(summarizeArguments({ path: 'a.txt', content: 'x'.repeat(200), n: 3, deep: { a: [1, 2] } }), `path: "a.txt", content: "${'x'.repeat(120)}…" (200 chars), n: 3, deep: {"a":[1,2]}`);
    assert.equal(summarizeArguments({}), '(no arguments)');
    assert.ok(summarizeArguments({ a: 'y'.repeat(5000), b: 'z'.repeat(5000), c: 'w'.repeat(5000), d: 'v'.repeat(5000), e: 'u'.repeat(5000) }).length <= 600);
  });

  it('classifies errors: timeouts, closed connections, HTTP status, network, refusals', () => {
    assert.equal(classifyError(new McpError(ErrorCode.RequestTimeout, 'Request timed out')).kind, 'timeout');
    assert.equal(classifyError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed')).kind, 'disconnected');
    assert.equal(classifyError(new McpError(ErrorCode.InvalidParams, 'bad')).kind, 'rejected');
    assert.equal(classifyError(new StreamableHTTPError(503, 'unavailable')).kind, 'transient');
    assert.equal(classifyError(new StreamableHTTPError(401, 'unauthorized')).kind, 'rejected');
    assert.equal(classifyError(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })).kind, 'transient');
    assert.equal(classifyError(new Error('Not connected')).kind, 'disconnected');
    const aborted = new AbortController();
    aborted.abort();
    assert.equal(classifyError(new Error('whatever'), aborted.signal).kind, 'aborted');
  });

  it('the stdio environment is the base variables plus the configured ones, nothing else', () => {
    const env = serverEnvironment({ A: '1', PATH: '/custom' }, { PATH: '/usr/bin', HOME: '/h', OPENAI_API_KEY: 'sk', BASH_FUNC: '() { x; }' });
    if (process.platform !== 'win32') assert.deepEqual(env, { PATH: '/custom', HOME: '/h', A: '1' });
  });

  it('Windows: arguments for cmd.exe are escaped as cross-spawn does (npx is a .cmd file there)', () => {
    assert.equal(escapeCmdArgument('with space', false), '^"with^ space^"');
    assert.equal(escapeCmdArgument('a&b', false), '^"a^&b^"');
    assert.equal(escapeCmdArgument('q"uote', false), '^"q\\^"uote^"');
    assert.equal(escapeCmdArgument('dir\\', false), '^"dir\\\\^"');
    assert.equal(escapeCmdArgument('%PATH%', true), '^^^"^^^%PATH^^^%^^^"');
  });

  it('before start: no tools, unknown calls explain themselves, close is safe and start after close refuses', async () => {
    const box = createMcpToolbox([{ name: 'x', type: 'stdio', command: 'never-started' }], { agentId: 'a' });
    assert.deepEqual(box.tools, []);
    assert.deepEqual(await box.execute({ id: '1', name: 'mcp__x__y', arguments: '{}' }, signal), { ok: false, content: 'unknown tool "mcp__x__y"; the MCP tools are (none available)' });
    await box.close();
    await box.close();
    await assert.rejects(box.start(signal), /closed/);
    assert.deepEqual(box.processIds(), []);
  });

  it('combineToolboxes: first toolbox wins a name, calls are routed, start failures are joined, close reaches all', async () => {
    const calls: string[] = [];
    const make = (id: string, names: string[], startError?: string) => ({
      tools: names.map((name) => ({ name, description: id, parameters: { type: 'object' } })),
      async start() {
        if (startError) throw new Error(startError);
      },
      async execute(call: { name: string }) {
        calls.push(`${id}:${call.name}`);
        return { ok: true, content: id };
      },
      closed: false,
      async close() {
        this.closed = true;
      },
    });
    const a = make('a', ['read_file', 'shared']);
    const b = make('b', ['shared', 'mcp__s__t'], 'server s failed');
    const c = make('c', [], 'server u failed');
    const both = combineToolboxes(a, undefined, b, c);
    assert.deepEqual(both.tools.map((t) => `${t.description}:${t.name}`), ['a:read_file', 'a:shared', 'b:mcp__s__t']);
    await assert.rejects(both.start(signal), /^Error: server s failed; server u failed$/);
    await both.execute({ id: '1', name: 'shared', arguments: '{}' }, signal);
    await both.execute({ id: '2', name: 'mcp__s__t', arguments: '{}' }, signal);
    assert.deepEqual(calls, ['a:shared', 'b:mcp__s__t']);
    assert.match((await both.execute({ id: '3', name: 'nope', arguments: '{}' }, signal)).content, /unknown tool "nope"; the available tools are read_file, shared, mcp__s__t/);
    await both.close();
    assert.ok(a.closed && b.closed && c.closed);
  });
});

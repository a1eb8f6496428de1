// `massgen mcp --config FILE` (and MASSGEN_CONFIG): the server's own team, as users register it with their agent
// (`claude mcp add massgen -- massgen mcp --config team.yaml`). Through the real stdio server and the MCP SDK's
// client: a call without `config` runs the server's team, a call's `config` still wins, and a broken team file ends
// the server at start with the reason on stderr and exit 1.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliSuite, runCli } from '../helpers/cli';
import { coordinationScript, startFakeOpenAI } from '../fakes/openai-server';

const work = mkdtempSync(join(tmpdir(), 'massgen-mcp-team-'));

/** A one-agent team on `url` whose model is `model`, written to `name`. */
function team(name: string, url: string, model: string): string {
  const file = join(work, name);
  writeFileSync(file, `agents:\n  - id: ${model}\n    backend: { type: chatcompletion, model: ${model}, base_url: "${url}" }\n`);
  return file;
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('massgen mcp --config / MASSGEN_CONFIG (the server\'s team)', function () {
  this.timeout(60_000);
  const suite = cliSuite(work);
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
    // The working folder has no .massgen/config.yaml and the environment no keys: without the server's team, a call
    // without `config` would fall back to a local Ollama.
    const transport = new StdioClientTransport({ command: process.execPath, args: [suite.cli, 'mcp', ...args], cwd: work, env: { PATH: process.env.PATH ?? '', HOME: work, ...env }, stderr: 'pipe' });
    client = new Client({ name: 'massgen-test-client', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  const ask = async (c: Client, args: Record<string, unknown>) =>
    (await c.callTool({ name: 'massgen_run', arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;

  it('a call without config runs the --config team; a call\'s own config wins', async () => {
    suite.server = await startFakeOpenAI(coordinationScript({ server_team: { answer: 'From the server team.' }, call_team: { answer: 'From the call team.' } }));
    const serverTeam = team('server-team.yaml', suite.server.baseUrl, 'server_team');
    const callTeam = team('call-team.yaml', suite.server.baseUrl, 'call_team');
    const c = await connect(['--config', 'server-team.yaml']);
    const { tools } = await c.listTools();
    assert.match(tools.find((t) => t.name === 'massgen_run')!.description ?? '', new RegExp(`else the server's team \\(${serverTeam.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));

    const own = await ask(c, { question: 'Q' });
    assert.notEqual(own.isError, true, textOf(own));
    assert.match(textOf(own), /^From the server team\./);

    const given = await ask(c, { question: 'Q', config: callTeam });
    assert.match(textOf(given), /^From the call team\./);
  });

  it('MASSGEN_CONFIG names the team when --config is not given', async () => {
    suite.server = await startFakeOpenAI(coordinationScript({ env_team: { answer: 'From MASSGEN_CONFIG.' } }));
    const file = team('env-team.yaml', suite.server.baseUrl, 'env_team');
    const c = await connect([], { MASSGEN_CONFIG: file });
    assert.match(textOf(await ask(c, { question: 'Q' })), /^From MASSGEN_CONFIG\./);
  });

  it('a team file that cannot run ends the server at start: the reason on stderr, exit 1', async () => {
    writeFileSync(join(work, 'broken.yaml'), 'agents:\n  - id: x\n    backend: { type: chatcompletions, model: m, base_url: "http://localhost:1/v1" }\n');
    const broken = await runCli(suite.cli, ['mcp', '--config', 'broken.yaml'], { cwd: work });
    assert.equal(broken.code, 1, broken.stderr);
    assert.equal(broken.stdout, '', 'nothing on the protocol channel');
    assert.match(broken.stderr, /--config broken\.yaml: .*broken\.yaml:3: agents\[0\] \(x\): unknown backend type "chatcompletions" \(did you mean chatcompletion\?\)/);

    const missing = await runCli(suite.cli, ['mcp'], { cwd: work, env: { MASSGEN_CONFIG: 'nowhere.yaml' } });
    assert.equal(missing.code, 1, missing.stderr);
    assert.match(missing.stderr, /MASSGEN_CONFIG nowhere\.yaml: .*nowhere\.yaml/);

    const keyless = join(work, 'keyless.yaml');
    writeFileSync(keyless, 'agents:\n  - id: gpt\n    backend: { type: openai, model: gpt-4.1-mini }\n');
    const noKey = await runCli(suite.cli, ['mcp', '--config', keyless], { cwd: work });
    assert.equal(noKey.code, 1, noKey.stderr);
    assert.match(noKey.stderr, /OPENAI_API_KEY/);
  });
});

// The `massgen` CLI end to end: the real bundle (built here with esbuild from the current sources) as a subprocess,
// talking to a fake OpenAI-compatible server on 127.0.0.1 through the real SDK.

import assert from 'node:assert/strict';
import { cliSuite, readJsonl, runCli, type CliRun, type CliRunOptions, type CliSuite } from '../helpers/cli';
import { alive, processesWith } from '../helpers/processes';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coordinationScript as anthropicScript, startFakeAnthropic } from '../fakes/anthropic-server';
import { coordinationScript, startFakeOpenAI, type FakeHandler } from '../fakes/openai-server';

const work = mkdtempSync(join(tmpdir(), 'massgen-cli-'));

/** Runs the suite's CLI; HOME stays the work folder wherever the CLI runs. */
function runner(suite: CliSuite) {
  return (args: string[], opts: Omit<CliRunOptions, 'cwd'> & { cwd?: string } = {}): Promise<CliRun> =>
    runCli(suite.cli, args, { ...opts, cwd: opts.cwd ?? work, env: { HOME: work, ...opts.env } });
}

let configCount = 0;
function writeConfig(yaml: string): string {
  const file = join(work, `config-${++configCount}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

function team(baseUrl: string, models: string[], extra = ''): string {
  const agents = models
    .map((m, i) => `  - id: ${String.fromCharCode(97 + i)}\n    backend:\n      type: chatcompletion\n      model: ${m}\n      base_url: ${baseUrl}\n`)
    .join('');
  return writeConfig(`agents:\n${agents}${extra}`);
}

describe('massgen CLI (subprocess)', function () {
  this.timeout(30_000);
  const suite = cliSuite(work);
  const run = runner(suite);

  async function serve(handler: FakeHandler): Promise<string> {
    suite.server = await startFakeOpenAI(handler);
    return suite.server.baseUrl;
  }

  const usage = { promptTokens: 120, completionTokens: 30, cachedTokens: 20 };

  it('runs a team to consensus: answer on stdout, status.json, logs, exit 0', async () => {
    const url = await serve(
      coordinationScript({
        m1: { answer: 'Answer ONE.', voteFor: 'agent2' },
        m2: { answer: 'Answer TWO, the best.', voteFor: 'agent2' },
        m3: { answer: 'Answer THREE.', voteFor: 'agent2' },
      }, { reply: { usage } }),
    );
    const config = team(url, ['m1', 'm2', 'm3']);
    const logDir = join(work, 'logs-consensus');
    const r = await run(['run', '--config', config, '--log-dir', logDir, 'What is best?']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Answer TWO, the best.\n');
    assert.match(r.stderr, /winner: agent2 \(b\) with agent2\.1/);

    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
    assert.equal(status.results.winner, 'b');
    assert.deepEqual(status.results.votes, { 'agent2.1': 3 });
    assert.equal(status.results.end_reason, 'consensus');
    assert.equal(status.coordination.completion_percentage, 100);
    assert.equal(status.meta.question, 'What is best?');
    for (const id of ['a', 'b', 'c']) {
      assert.equal(status.agents[id].status, 'completed');
      assert.equal(status.agents[id].vote_cast.voted_for_label, 'agent2.1');
      assert.deepEqual(status.agents[id].usage, { input_tokens: 240, cached_input_tokens: 40, output_tokens: 60, calls: 2, estimated: false, cost_usd: null, cost_partial: false });
    }
    assert.equal(status.agents.a.latest_answer_label, 'agent1.1');
    assert.deepEqual(status.usage, { input_tokens: 720, cached_input_tokens: 120, output_tokens: 180, calls: 6, estimated: false, cost_usd: null, cost_partial: false });
    assert.equal(suite.server!.chatRequests().length, 6);

    assert.equal(readFileSync(join(logDir, 'final', 'b', 'answer.txt'), 'utf8'), 'Answer TWO, the best.');
    assert.equal(readFileSync(join(logDir, 'agents', 'a', 'agent1.1.txt'), 'utf8'), 'Answer ONE.');
    const events = readJsonl(join(logDir, 'events.jsonl'));
    events.forEach((e, i) => assert.equal(e.seq, i + 1));
    assert.equal(events[0].type, 'run_started');
    assert.equal(events[events.length - 1].type, 'run_ended');
    assert.equal(readJsonl(join(logDir, 'agents', 'c', 'votes.jsonl'))[0].targetLabel, 'agent2.1');
  });

  it('prints the answer when the log folder cannot be written, with one warning, exit 0', async () => {
    const url = await serve(coordinationScript({ m1: { answer: 'Answer ONE.', voteFor: 'agent1' }, m2: { answer: 'Answer TWO.', voteFor: 'agent1' } }));
    const logDir = join(work, 'logs-unwritable');
    mkdirSync(logDir);
    // A file where the final answer's folder must go: the write fails at final_answer (ENOTDIR, even as root).
    writeFileSync(join(logDir, 'final'), '');
    const r = await run(['run', '--config', team(url, ['m1', 'm2']), '--log-dir', logDir, 'Which?']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Answer ONE.\n');
    assert.equal(r.stderr.match(/^warning: /gm)?.length, 1, r.stderr);
    assert.match(r.stderr, /warning: the run log .* stopped .*ENOTDIR/);
  });

  it('--automation prints only the KEY: value lines, and --status-file gets the status', async () => {
    const url = await serve(coordinationScript({}, { voteFor: 'agent1' }));
    const config = team(url, ['solo']);
    const statusFile = join(work, 'auto-status.json');
    const r = await run(['run', '--automation', '--config', config, '--status-file', statusFile, 'Say hi']);
    assert.equal(r.code, 0, r.stderr);
    const keys = r.stdout.trim().split('\n').map((l) => (l.startsWith('[') ? l : l.split(':')[0]));
    assert.deepEqual(keys, ['LOG_DIR', 'STATUS', 'QUESTION', '[Coordination in progress - monitor status.json for real-time updates]', 'WINNER', 'ANSWER_FILE', 'DURATION', 'ANSWER_PREVIEW', 'COMPLETED']);
    const answerFile = /ANSWER_FILE: (.*)/.exec(r.stdout)![1];
    assert.equal(readFileSync(answerFile, 'utf8'), 'Answer from solo.');
    assert.match(r.stdout, /WINNER: a\n/);
    assert.match(r.stdout, /COMPLETED: consensus/);
    assert.equal(JSON.parse(readFileSync(statusFile, 'utf8')).results.winner, 'a');
    assert.equal(r.stderr, '');
  });

  it('exits 2 naming the URL when the server is unreachable', async () => {
    const url = await serve(() => ({ text: 'unused' }));
    await suite.server!.close();
    suite.server = undefined;
    const config = team(url, ['m1', 'm2']);
    const r = await run(['run', '--config', config, '--log-dir', join(work, 'logs-down'), 'Hello?']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.includes(url), r.stderr);
    assert.match(r.stderr, /Every agent failed/);
    assert.doesNotMatch(r.stderr, /\n\s+at .*\.js:\d+/, 'no stack trace');
  });

  it('retries a 429 after the server\'s retry-after and succeeds', async () => {
    const url = await serve(
      coordinationScript({ m1: { first: [{ error: { status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '200' } } }] } }),
    );
    const config = team(url, ['m1']);
    const logDir = join(work, 'logs-429');
    const r = await run(['run', '--config', config, '--log-dir', logDir, 'Q']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /retrying in 0\.2s: .*Rate limit reached/);
    const retry = readJsonl(join(logDir, 'events.jsonl')).find((e) => e.type === 'retry');
    assert.equal(retry?.delayMs, 200);
  });

  it('exits 3 on timeout, still printing and saving the best answer', async () => {
    // The slow agent's first byte comes after the run's timeout, the fast agent's answer well before it, even on a
    // loaded machine.
    const url = await serve(coordinationScript({ fast: { answer: 'Fast answer.' }, slow: { reply: { ttftMs: 25_000 } } }));
    const config = team(url, ['fast', 'slow']);
    const logDir = join(work, 'logs-timeout');
    const r = await run(['run', '--config', config, '--log-dir', logDir, '--timeout', '8', 'Q']);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stdout, 'Fast answer.\n');
    assert.equal(readFileSync(join(logDir, 'final', 'a', 'answer.txt'), 'utf8'), 'Fast answer.');
    assert.equal(JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8')).results.end_reason, 'timeout');
  });

  it('exits 4 on Ctrl-C after an answer, saving it in the log, printing no answer, and the server sees the streams closed', async () => {
    const url = await serve(coordinationScript({ fast: { answer: 'Partial but useful.' }, slow: { reply: { ttftMs: 20_000 } } }));
    const config = team(url, ['fast', 'slow']);
    const logDir = join(work, 'logs-sigint');
    const r = await run(['run', '--config', config, '--log-dir', logDir, 'Q'], {
      onSpawn: ({ kill }) => {
        const poll = setInterval(() => {
          if (existsSync(join(logDir, 'agents', 'a', 'agent1.1.txt'))) {
            clearInterval(poll);
            kill('SIGINT');
          }
        }, 20);
      },
    });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /Interrupted/);
    assert.equal(r.stdout, '', 'a cancel proposes no answer: nothing on stdout');
    const events = readJsonl(join(logDir, 'events.jsonl'));
    assert.deepEqual([events[events.length - 1].reason, events[events.length - 1].winnerId], ['cancelled', null]);
    assert.equal(readFileSync(join(logDir, 'agents', 'a', 'agent1.1.txt'), 'utf8'), 'Partial but useful.', 'the answer so far is kept');
    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
    assert.equal(status.results.winner, null);
    assert.ok(!existsSync(join(logDir, 'final')), 'no final answer is written');
    const slow = suite.server!.chatRequests().filter((q) => q.body.model === 'slow');
    assert.equal(await slow[0].outcome, 'client_closed');
  });

  it('never writes the API key to output, status or logs', async () => {
    const secret = 'sk-test-SECRET-0123456789abcdef';
    const url = await serve(coordinationScript());
    const config = writeConfig(`agents:\n  - id: keyed\n    backend:\n      type: openai\n      model: m1\n      base_url: ${url}\n      api_key: ${secret}\n`);
    const logDir = join(work, 'logs-secret');
    const r = await run(['run', '--config', config, '--log-dir', logDir, 'Q']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(suite.server!.chatRequests()[0].headers.authorization, `Bearer ${secret}`);
    const files = (readdirSync(logDir, { recursive: true }) as string[]).map((f) => join(logDir, f)).filter((f) => f.includes('.'));
    assert.ok(files.length >= 4);
    for (const f of files) assert.ok(!readFileSync(f, 'utf8').includes(secret), `${f} contains the key`);
    assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret));
  });

  it('exits 1 with file and line for a broken config', async () => {
    const config = writeConfig('agents:\n  - id: a\n    backend:\n      type: gemini-ultra\n      model: x\n');
    const r = await run(['run', '--config', config, 'Q']);
    assert.equal(r.code, 1);
    assert.ok(r.stderr.includes(`${config}:4`), r.stderr);
    assert.match(r.stderr, /chatcompletion/);
  });

  it('exits 1 naming the env var when a key is missing', async () => {
    const config = writeConfig('agents:\n  - id: gpt\n    backend:\n      type: openai\n      model: gpt-4o-mini\n');
    const r = await run(['run', '--config', config, 'Q']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /OPENAI_API_KEY/);
  });

  it('exits 1 for a missing config file and for usage errors', async () => {
    const missing = await run(['run', '--config', join(work, 'nope.yaml'), 'Q']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nope\.yaml/);
    const usage = await run(['run', '--bogus', 'Q']);
    assert.equal(usage.code, 1);
    assert.match(usage.stderr, /Usage:/);
    const noQuestion = await run(['run']);
    assert.equal(noQuestion.code, 1);
  });

  it('keeps V8\'s compiled code between starts (Node 20: v8-compile-cache) and starts the same way from the cache', async function () {
    if ('enableCompileCache' in (await import('node:module'))) this.skip(); // Node ≥ 22 uses its own cache
    const cacheDir = mkdtempSync(join(tmpdir(), 'massgen-v8-cache-'));
    const first = await run(['--version'], { env: { V8_COMPILE_CACHE_CACHE_DIR: cacheDir } });
    const stored = readdirSync(cacheDir);
    assert.ok(stored.some((f) => f.endsWith('BLOB')), `a code cache is written on the first start: ${stored.join(', ')}`);
    const second = await run(['--version'], { env: { V8_COMPILE_CACHE_CACHE_DIR: cacheDir } });
    const off = await run(['--version'], { env: { DISABLE_V8_COMPILE_CACHE: '1', V8_COMPILE_CACHE_CACHE_DIR: join(cacheDir, 'off') } });
    assert.deepEqual([first.code, second.code, off.code], [0, 0, 0]);
    assert.equal(second.stdout, first.stdout);
    assert.equal(off.stdout, first.stdout);
    assert.ok(!existsSync(join(cacheDir, 'off')), 'DISABLE_V8_COMPILE_CACHE=1 writes no cache');
  });

  it('validate: 0 for a good file with a note about keys, 1 for a bad one', async () => {
    const ok = await run(['validate', join(process.cwd(), 'examples', 'openai-three-agents.yaml')]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^OK: .*3 agent\(s\)/);
    assert.match(ok.stderr, /OPENAI_API_KEY/);
    const bad = await run(['validate', writeConfig('agents: []\n')]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /agents/);
  });

  it('with no config and no keys, says how to get going and exits 1', async () => {
    const empty = mkdtempSync(join(work, 'empty-'));
    const r = await run(['run', 'Q'], { cwd: empty });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /OPENAI_API_KEY/);
    assert.match(r.stderr, /ollama/i);
  });

  it('picks up .massgen/config.yaml from the working directory', async () => {
    const url = await serve(coordinationScript({ local: { answer: 'From the project config.' } }));
    const dir = mkdtempSync(join(work, 'project-'));
    mkdirSync(join(dir, '.massgen'));
    writeFileSync(join(dir, '.massgen', 'config.yaml'), `agents:\n  - id: p\n    backend:\n      type: chatcompletion\n      model: local\n      base_url: ${url}\n`);
    const r = await run(['run', 'Q'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'From the project config.\n');
    assert.ok(existsSync(join(dir, '.massgen', 'logs')), 'default log dir under .massgen/logs');
  });

  describe('usage, cost and budgets', () => {
    it('a mixed OpenAI + Anthropic team: usage totals are exactly what the servers reported, priced per agent', async () => {
      const url = await serve(coordinationScript({ gpt: { answer: 'GPT answer.', voteFor: 'agent2' } }, { reply: { usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: 400 } } }));
      const claude = await startFakeAnthropic(
        anthropicScript({ claude: { answer: 'Claude answer.', voteFor: 'agent2' } }, { reply: { usage: { inputTokens: 300, cacheReadInputTokens: 500, cacheCreationInputTokens: 200, outputTokens: 50 } } }),
      );
      try {
        const config = writeConfig(
          [
            'agents:',
            '  - id: gpt',
            '    backend: { type: openai, model: gpt, base_url: "' + url + '", api_key: sk-test-openai,',
            '               pricing: { input_per_million: 2, cached_input_per_million: 1, output_per_million: 10 } }',
            '  - id: claude',
            '    backend: { type: claude, model: claude, base_url: "' + claude.baseUrl + '", api_key: sk-ant-test,',
            '               pricing: { input_per_million: 3, cached_input_per_million: 0.3, output_per_million: 15 } }',
            '',
          ].join('\n'),
        );
        const logDir = join(work, 'logs-mixed');
        const r = await run(['run', '--config', config, '--log-dir', logDir, 'Q']);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, 'Claude answer.\n');
        const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
        // OpenAI: prompt_tokens already include the cached ones. Anthropic: input + cache reads + cache writes.
        const gptCost = (2 * ((1000 - 400) * 2 + 400 * 1 + 100 * 10)) / 1e6;
        const claudeCost = (2 * ((1000 - 500) * 3 + 500 * 0.3 + 50 * 15)) / 1e6;
        assert.deepEqual(status.agents.gpt.usage, { input_tokens: 2000, cached_input_tokens: 800, output_tokens: 200, calls: 2, estimated: false, cost_usd: gptCost, cost_partial: false });
        assert.equal(status.agents.claude.usage.input_tokens, 2000);
        assert.equal(status.agents.claude.usage.cached_input_tokens, 1000);
        assert.equal(status.agents.claude.usage.output_tokens, 100);
        assert.ok(Math.abs(status.agents.claude.usage.cost_usd - claudeCost) < 1e-9);
        assert.ok(Math.abs(status.usage.cost_usd - (gptCost + claudeCost)) < 1e-9);
        assert.equal(status.usage.calls, suite.server!.chatRequests().length + claude.messageRequests().length);
        assert.match(r.stderr, new RegExp(`cost \\$${(gptCost + claudeCost).toFixed(4).replace('.', '\\.')}`));
      } finally {
        await claude.close();
      }
    });

    it('stops at the budget, exits 0 with the reason shown and recorded', async () => {
      const url = await serve(coordinationScript({}, { reply: { usage: { promptTokens: 500, completionTokens: 50 } } }));
      const config = team(url, ['m1', 'm2', 'm3'], 'orchestrator:\n  budget:\n    max_calls: 4\n');
      const logDir = join(work, 'logs-budget');
      const r = await run(['run', '--config', config, '--log-dir', logDir, 'Q']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /budget reached \(max_calls 4\)/);
      assert.match(r.stderr, /done: budget/);
      assert.ok(suite.server!.chatRequests().length <= 4);
      const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
      assert.equal(status.results.end_reason, 'budget');
      assert.deepEqual(status.budget, { max_cost_usd: null, max_total_tokens: null, max_calls: 4, reached: 'max_calls' });
      assert.ok(r.stdout.startsWith('Answer from m'));
    });

    it('--estimate prints calls, tokens and cost and sends nothing', async () => {
      const url = await serve(coordinationScript());
      const config = writeConfig(
        `agents:\n  - id: a\n    backend: { type: openai, model: gpt-4o-mini, base_url: "${url}", api_key: sk-x }\n  - id: b\n    backend: { type: chatcompletion, model: llama3.2, base_url: "${url}" }\n`,
      );
      const r = await run(['run', '--estimate', '--config', config, 'How do B-trees work?']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /model calls: +4–\d+/);
      assert.match(r.stdout, /cost: +\$[\d.]+–\$[\d.]+ \(without b: no known price\)/);
      assert.equal(suite.server!.requests.length, 0);
    });
  });
});

// ---- MCP servers through the CLI -----------------------------------------------------------------------------------

describe('massgen CLI with MCP servers (subprocess)', function () {
  this.timeout(30_000);
  const EVERYTHING_JS = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  const FILESYSTEM_JS = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
  const suite = cliSuite(work);
  const run = runner(suite);

  /** Plays one agent: calls `tool` first, then answers with what the tool returned, then votes. */
  function toolThenAnswer(tool: string, args: Record<string, unknown>): FakeHandler {
    return ({ body }) => {
      const called = body.messages.find((m) => m.tool_calls?.some((c) => c.function.name === tool));
      if (!called) return { toolCalls: [{ name: tool, arguments: args, id: 'call_tool_1' }] };
      const result = body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_tool_1');
      const answer = `Tool said: ${String(result?.content)}`;
      const answered = body.messages.some((m) => JSON.stringify(m).includes('Your answer was recorded'));
      if (!answered) return { toolCalls: [{ name: 'new_answer', arguments: { content: answer } }] };
      return { toolCalls: [{ name: 'vote', arguments: { agent_id: 'agent1', reason: 'mine' } }] };
    };
  }

  function mcpConfig(url: string, serverYaml: string[]): string {
    return writeConfig(['agents:', '  - id: tooluser', '    backend:', '      type: chatcompletion', '      model: m1', `      base_url: ${url}`, '      mcp_servers:', ...serverYaml.map((l) => `        ${l}`), ''].join('\n'));
  }

  function serverPids(logDir: string): number[] {
    return [...readFileSync(join(logDir, 'mcp.log'), 'utf8').matchAll(/connected \(pid (\d+)\)/g)].map((m) => Number(m[1]));
  }

  it('an agent calls mcp__everything__echo and answers with it; the server is gone when the CLI exits', async () => {
    suite.server = await startFakeOpenAI(toolThenAnswer('mcp__everything__echo', { message: 'ping from the model' }));
    const marker = `massgen-cli-test-${process.pid}-${Date.now()}`;
    const config = mcpConfig(suite.server.baseUrl, ['- name: everything', '  type: stdio', `  command: ${JSON.stringify(process.execPath)}`, `  args: [${JSON.stringify(EVERYTHING_JS)}, stdio, "${marker}"]`]);
    const logDir = join(work, 'logs-mcp');
    const r = await run(['run', '--config', config, '--log-dir', logDir, 'Use the echo tool.']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Tool said: Echo: ping from the model\n');
    const first = suite.server.chatRequests()[0].body;
    assert.ok(first.tools!.some((t) => t.function.name === 'mcp__everything__echo'), 'the tool was offered');
    const pids = serverPids(logDir);
    assert.equal(pids.length, 1);
    assert.equal(alive(pids[0]), false);
    assert.deepEqual(processesWith(marker), []);
    assert.match(readFileSync(join(logDir, 'mcp.log'), 'utf8'), /everything@tooluser stderr: Starting default \(STDIO\) server/);
    const events = readJsonl(join(logDir, 'events.jsonl'));
    assert.ok((events.find((e) => e.type === 'tools_ready')?.tools as string[]).includes('mcp__everything__echo'));
    assert.deepEqual(events.filter((e) => e.type === 'tool_result' && e.name === 'mcp__everything__echo').map((e) => e.ok), [true]);
  });

  it('tools that write are denied without --approve-tools (the model is told) and run with it', async () => {
    const dir = mkdtempSync(join(work, 'mcp-fs-'));
    const target = join(dir, 'out.txt');
    const serverYaml = ['- name: files', `  command: ${JSON.stringify(process.execPath)}`, `  args: [${JSON.stringify(FILESYSTEM_JS)}, ${JSON.stringify(dir)}]`];
    suite.server = await startFakeOpenAI(toolThenAnswer('mcp__files__write_file', { path: target, content: 'written by the agent' }));
    const denied = await run(['run', '--config', mcpConfig(suite.server.baseUrl, serverYaml), '--log-dir', join(work, 'logs-mcp-deny'), 'Write the file.']);
    assert.equal(denied.code, 0, denied.stderr);
    assert.match(denied.stdout, /^Tool said: mcp__files__write_file was not run: the user did not approve it/);
    assert.match(denied.stderr, /note: tooluser was denied mcp__files__write_file \(it needs approval; run with --approve-tools/);
    assert.equal(existsSync(target), false);
    await suite.server.close();

    suite.server = await startFakeOpenAI(toolThenAnswer('mcp__files__write_file', { path: target, content: 'written by the agent' }));
    const approved = await run(['run', '--approve-tools', '--config', mcpConfig(suite.server.baseUrl, serverYaml), '--log-dir', join(work, 'logs-mcp-approve'), 'Write the file.']);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /^Tool said: Successfully wrote to /);
    assert.equal(readFileSync(target, 'utf8'), 'written by the agent');
  });

  it('Ctrl-C during a long tool call: exit 4 and the server process is gone', async () => {
    // The operation takes 10 minutes, far past this suite's timeout: the run ends at all only because of Ctrl-C.
    suite.server = await startFakeOpenAI(toolThenAnswer('mcp__everything__trigger-long-running-operation', { duration: 600, steps: 3 }));
    const marker = `massgen-cli-sigint-${process.pid}-${Date.now()}`;
    const config = mcpConfig(suite.server.baseUrl, ['- name: everything', `  command: ${JSON.stringify(process.execPath)}`, `  args: [${JSON.stringify(EVERYTHING_JS)}, stdio, "${marker}"]`]);
    const logDir = join(work, 'logs-mcp-sigint');
    const r = await run(['run', '--approve-tools', '--config', config, '--log-dir', logDir, 'Q'], {
      onSpawn: ({ kill }) => {
        const poll = setInterval(() => {
          if (suite.server!.chatRequests().length >= 1 && processesWith(marker).length > 0) {
            clearInterval(poll);
            setTimeout(() => kill('SIGINT'), 300);
          }
        }, 20);
      },
    });
    assert.equal(r.code, 4, r.stderr);
    const pids = serverPids(logDir);
    assert.equal(pids.length, 1);
    assert.equal(alive(pids[0]), false);
    assert.deepEqual(processesWith(marker), []);
  });
});

// Upstream configs run unchanged: the real `massgen validate` over upstream MassGen's own example configs (half of
// them, in test/fixtures/upstream-configs). Configs whose backends are model APIs must be accepted (at least 95 %),
// every one with a coding agent (claude_code, codex) too, every other one (agent programs that cannot run here, files
// that are no run config) refused in one line, and nothing printed may be a stack trace.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { AGENT_PROGRAM_BACKENDS } from '../../src/core/config/backends';
import { startFakeGemini, type FakeGeminiBody, type FakeGeminiReply, type FakeGeminiServer } from '../fakes/gemini-server';
import { startFakeResponses, type FakeResponsesBody, type FakeResponsesReply, type FakeResponsesServer } from '../fakes/openai-responses-server';
import { buildCli, readJsonl, runCli, type CliRun } from '../helpers/cli';

const ROOT = join(__dirname, '..', 'fixtures', 'upstream-configs');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : /\.ya?ml$/.test(name) ? [path] : [];
  });
}

type Kind = 'api' | 'coding-agent' | 'agent-program' | 'not-a-run-config';

/** What a config is, read from the file itself (not from our loader, which is what is under test). */
function kindOf(file: string): Kind {
  const raw = parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
  const agents = raw && (Array.isArray(raw.agents) ? raw.agents : raw.agent ? [raw.agent] : null);
  if (!agents) return 'not-a-run-config';
  const types = agents.map((a) => String((a as { backend?: { type?: unknown } })?.backend?.type ?? '').toLowerCase());
  if (types.some((t) => Object.hasOwn(AGENT_PROGRAM_BACKENDS, t))) return 'agent-program';
  return types.some((t) => t === 'claude_code' || t === 'codex') ? 'coding-agent' : 'api';
}

/** Runs `task` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]);
    }
  }));
  return results;
}

const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\)|<anonymous>)$/m;

describe('massgen validate over upstream MassGen’s example configs', function () {
  this.timeout(180_000);
  const work = mkdtempSync(join(tmpdir(), 'massgen-upstream-configs-'));
  const files = yamlFiles(ROOT);
  let runs: { file: string; kind: Kind; run: CliRun }[] = [];

  before(async () => {
    const cli = await buildCli(work);
    runs = await pool(files, 8, async (file) => ({ file: relative(ROOT, file), kind: kindOf(file), run: await runCli(cli, ['validate', file], { cwd: work }) }));
  });

  it('has the fixtures', () => {
    assert.ok(files.length >= 140, `${files.length} configs`);
  });

  it('accepts at least 95 % of the configs whose backends are model APIs', () => {
    const api = runs.filter((r) => r.kind === 'api');
    const refused = api.filter((r) => r.run.code !== 0);
    const accepted = api.length - refused.length;
    const report = refused.map((r) => `${r.file}: ${r.run.stderr.trim()}`).join('\n');
    assert.ok(api.length >= 100, `${api.length} API-backend configs`);
    assert.ok(accepted / api.length >= 0.95, `accepted ${accepted} of ${api.length}:\n${report}`);
    for (const r of api.filter((x) => x.run.code === 0)) assert.match(r.run.stdout, /^OK: .*: \d+ agent\(s\): /, r.file);
  });

  it('accepts every config with a coding agent, saying whether its program is installed', () => {
    const coding = runs.filter((r) => r.kind === 'coding-agent');
    assert.ok(coding.length >= 20, `${coding.length} configs with claude_code or codex`);
    for (const { file, run } of coding) {
      assert.equal(run.code, 0, `${file}:\n${run.stderr}`);
      assert.match(run.stdout, /^OK: .*\((claude_code|codex) /, file);
      assert.match(run.stderr, /^note: agent '.+' (uses (Claude Code|Codex), which was not found on PATH, in its VS Code extension or its SDK package: install|runs (Claude Code|Codex) at .* signed in with )/m, file);
    }
  });

  it('refuses every other config in one clear line', () => {
    const others = runs.filter((r) => r.kind !== 'api' && r.kind !== 'coding-agent');
    assert.ok(others.some((r) => r.kind === 'agent-program') && others.some((r) => r.kind === 'not-a-run-config'), 'both kinds are among the fixtures');
    for (const { file, kind, run } of others) {
      assert.equal(run.code, 1, `${file}: exit ${run.code}`);
      assert.equal(run.stdout, '', file);
      const lines = run.stderr.trimEnd().split('\n').filter((l) => !l.startsWith('warning: ') && !l.startsWith('note: '));
      assert.equal(lines.length, 1, `${file}:\n${run.stderr}`);
      assert.match(lines[0], /^Configuration error: .*\.yaml:\d+: /, file);
      if (kind === 'agent-program') assert.match(lines[0], /an agent program, not a model API, .* because .*; use /, file);
      else assert.match(lines[0], /not a MassGen run config|MassGen v1 config/, file);
    }
  });

  it('prints no stack trace for any of them', () => {
    for (const { file, run } of runs) {
      assert.doesNotMatch(run.stderr, STACK_LINE, file);
      assert.doesNotMatch(run.stdout, STACK_LINE, file);
      assert.doesNotMatch(run.stderr, /^massgen: /m, `${file}: an unexpected error\n${run.stderr}`);
    }
  });
});

/** A MassGen agent: its answer first, then a vote for agent1 once it has answered (seen in its own history). */
function geminiAgent(answer: string) {
  return ({ body }: { body: FakeGeminiBody }): FakeGeminiReply => {
    const offered = new Set((body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name)));
    const answered = JSON.stringify(body.contents).includes(answer);
    if (offered.has('new_answer') && !answered) return { thinking: 'Let me work it out.', toolCalls: [{ name: 'new_answer', args: { content: answer } }], usage: { promptTokens: 300, cachedTokens: 100, candidatesTokens: 20, thoughtsTokens: 10 } };
    if (offered.has('vote')) return { toolCalls: [{ name: 'vote', args: { agent_id: 'agent1', reason: 'It is right.' } }] };
    return { text: answer };
  };
}

function responsesAgent(answer: string) {
  return ({ body }: { body: FakeResponsesBody }): FakeResponsesReply => {
    const offered = new Set((body.tools ?? []).map((t) => t.name));
    const answered = JSON.stringify(body.input).includes(answer);
    if (offered.has('new_answer') && !answered) return { reasoningSummary: ['Checking the sum.'], toolCalls: [{ name: 'new_answer', arguments: { content: answer } }], usage: { inputTokens: 400, cachedTokens: 200, outputTokens: 30 } };
    if (offered.has('vote')) return { toolCalls: [{ name: 'vote', arguments: { agent_id: 'agent1', reason: 'Agreed.' } }] };
    return { text: answer };
  };
}

describe('an upstream-style team of Gemini and Responses agents runs end to end', function () {
  this.timeout(60_000);
  const work = mkdtempSync(join(tmpdir(), 'massgen-gemini-responses-'));
  let gemini: FakeGeminiServer;
  let responses: FakeResponsesServer;
  let cli: string;

  before(async () => {
    cli = await buildCli(work);
    gemini = await startFakeGemini(geminiAgent('It is 4.'));
    responses = await startFakeResponses(responsesAgent('Four.'));
  });
  after(async () => {
    await Promise.all([gemini?.close(), responses?.close()]);
  });

  it('answers, votes and records usage through the real CLI, the keys from upstream’s env vars', async () => {
    const config = join(work, 'team.yaml');
    writeFileSync(config, [
      'agents:',
      '  - id: gem',
      `    backend: {type: gemini, model: gemini-2.5-flash, base_url: "${gemini.baseUrl}", enable_web_search: true}`,
      '  - id: gpt',
      `    backend: {type: openai, model: gpt-5-mini, base_url: "${responses.baseUrl}", api: responses, reasoning: {effort: low}, text: {verbosity: low}}`,
      'orchestrator: {final_answer_strategy: winner_reuse}',
      'ui: {display_type: textual_terminal}',
    ].join('\n'));
    const logDir = join(work, 'logs');
    const r = await runCli(cli, ['run', '--config', config, '--log-dir', logDir, 'What is 2+2?'], { cwd: work, env: { GEMINI_API_KEY: 'AIza-e2e-0123456789', OPENAI_API_KEY: 'sk-e2e-0123456789' } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'It is 4.\n');
    assert.equal(gemini.requests[0].headers['x-goog-api-key'], 'AIza-e2e-0123456789');
    assert.deepEqual(gemini.streamRequests()[0].body.tools?.slice(1), [{ googleSearch: {} }]);
    const first = responses.responseRequests()[0].body;
    assert.deepEqual([first.reasoning, first.text], [{ effort: 'low', summary: 'auto' }, { verbosity: 'low' }]);
    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8')) as { results: { winner: string }; usage: { cached_input_tokens: number; cost_partial: boolean; estimated: boolean } };
    assert.equal(status.results.winner, 'gem');
    // Both answers' cached prompt tokens, as each server reported them; both models are in the price table.
    assert.deepEqual([status.usage.cached_input_tokens, status.usage.cost_partial, status.usage.estimated], [300, false, false]);
    const events = readJsonl(join(logDir, 'events.jsonl'));
    const reasoned = new Set(events.filter((e) => e.type === 'reasoning_delta').map((e) => e.agentId));
    assert.deepEqual([...reasoned].sort(), ['gem', 'gpt']);
    for (const f of readdirSync(logDir, { recursive: true }) as string[]) {
      const path = join(logDir, f);
      if (statSync(path).isFile()) assert.ok(!readFileSync(path, 'utf8').includes('0123456789'), `${f} holds a key`);
    }
  });
});

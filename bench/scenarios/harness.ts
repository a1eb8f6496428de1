// Scenario: coding agents (issue 29). The real Claude Code and Codex programs (the test rig's, tools/peers/agents.sh)
// through the production CLI, each on its own fake model server (test/harness/scripts.ts plays their models).
// 1. Start-up: process spawn → the first model request at the agent's server, for a one-agent run of a model agent
//    (chatcompletion), of claude_code and of codex; the programs' cost as a ratio to the model agent's, medians.
// 2. A mixed team (claude_code + codex + chatcompletion) on the scripted consensus case (each answers, then votes
//    for agent1): per agent, the engine's calls (one per turn), the model requests its server saw (a program makes
//    several per turn) and the tokens status.json counted.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeAnthropic } from '../../test/fakes/anthropic-server';
import { coordinationScript, startFakeOpenAI } from '../../test/fakes/openai-server';
import { startFakeResponses } from '../../test/fakes/openai-responses-server';
import { claudeReply, codexReply, type ProgramScript } from '../../test/harness/scripts';
import { CLAUDE, CODEX, ensureAgentPrograms } from '../../test/helpers/agent-programs';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { median } from '../lib/stats';

type Kind = 'model' | 'claude_code' | 'codex';

/** Runs the CLI; `output` is its stdout and stderr, for the error when it fails. */
function runCli(cli: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const script = (answer: string): ProgramScript => ({ steps: [], answer, voteFor: 'agent1' });

/** Fake servers for the three kinds, each noting when its first request came. */
async function servers() {
  const first: Record<Kind, number> = { model: NaN, claude_code: NaN, codex: NaN };
  const note = (kind: Kind) => {
    if (Number.isNaN(first[kind])) first[kind] = performance.now();
  };
  const claude = await startFakeAnthropic(({ body }) => (note('claude_code'), claudeReply(script('Claude Code answers.'), body)), { validate: false });
  const codex = await startFakeResponses(({ body }) => (note('codex'), codexReply(script('Codex answers.'), body)));
  const model = await startFakeOpenAI((req) => (note('model'), coordinationScript({}, { voteFor: 'agent1' })(req)));
  const backend: Record<Kind, string> = {
    model: `{ type: chatcompletion, model: m, base_url: ${model.baseUrl} }`,
    claude_code: `{ type: claude_code, model: claude-fake, base_url: ${claude.baseUrl}, path: ${CLAUDE} }`,
    codex: `{ type: codex, model: gpt-fake, base_url: ${codex.baseUrl}, path: ${CODEX} }`,
  };
  return {
    first,
    backend,
    requests: () => ({ model: model.chatRequests().length, claude_code: claude.messageRequests().length, codex: codex.responseRequests().length }),
    reset: () => Object.assign(first, { model: NaN, claude_code: NaN, codex: NaN }),
    close: () => Promise.all([claude.close(), codex.close(), model.close()]),
  };
}

export const harness: Scenario = {
  name: 'harness',
  title: '12. Coding agents: start-up and a mixed team (real claude and codex programs)',
  async run(ctx: BenchContext) {
    const r = new Results();
    ensureAgentPrograms();
    const cli = join(ctx.dist, 'cli.js');
    const home = join(ctx.tmp, 'home');
    mkdirSync(home, { recursive: true });
    // Codex sets up its sandbox helper only outside the system's temp folder (as in test/harness/).
    const work = join('/var/tmp', `massgen-bench-harness-${process.pid}`);
    mkdirSync(work, { recursive: true });
    // Stand-in keys: the programs' own logins are not used against the fakes.
    const env = { PATH: process.env.PATH, HOME: home, TMPDIR: work, ANTHROPIC_API_KEY: 'sk-ant-bench', OPENAI_API_KEY: 'sk-bench' };
    const s = await servers();
    try {
      const kinds: Kind[] = ['model', 'claude_code', 'codex'];
      const times: Record<Kind, number[]> = { model: [], claude_code: [], codex: [] };
      const repeats = ctx.quick ? 1 : 5;
      // One untimed round first (the OS file cache decides a cold first start of a 200 MB program), then rounds in turn.
      for (let i = -1; i < repeats; i++) {
        for (const kind of kinds) {
          const config = join(work, `${kind}.yaml`);
          writeFileSync(config, `agents:\n  - { id: ${kind.replace('_', '-')}, backend: ${s.backend[kind]} }\n`);
          s.reset();
          const t0 = performance.now();
          const res = await runCli(cli, ['run', '--automation', '--config', config, 'Say hi'], work, env);
          if (res.code !== 0) throw new Error(`a one-agent ${kind} run exited ${res.code}: ${res.output.slice(-600)}`);
          if (i >= 0) times[kind].push(s.first[kind] - t0);
        }
      }
      const modelMs = median(times.model);
      for (const kind of ['claude_code', 'codex'] as const) {
        const ms = median(times[kind]);
        r.info(`${kind}: spawn → first model request, ratio to a model agent's`, `${fmt(ms / modelMs, 2)}× (${fmt(ms, 0)} ms against ${fmt(modelMs, 0)} ms, median of ${repeats})`);
      }
      r.figure('startup_ms', Object.fromEntries(kinds.map((k) => [k, times[k].map(Math.round)])));

      // The mixed team, from fresh servers' counts.
      const before = s.requests();
      const config = join(work, 'team.yaml');
      writeFileSync(config, ['agents:', `  - { id: claude, backend: ${s.backend.claude_code} }`, `  - { id: codex, backend: ${s.backend.codex} }`, `  - { id: api, backend: ${s.backend.model} }`, ''].join('\n'));
      const logDir = join(work, 'team-logs');
      const res = await runCli(cli, ['run', '--config', config, '--log-dir', logDir, 'Say hi'], work, env);
      if (res.code !== 0) throw new Error(`the mixed team exited ${res.code}: ${res.output.slice(-600)}`);
      const after = s.requests();
      const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8')) as { agents: Record<string, { usage: { calls: number; input_tokens: number; cached_input_tokens: number; output_tokens: number } }> };
      const rows: Record<string, unknown> = {};
      for (const [id, kind] of [['claude', 'claude_code'], ['codex', 'codex'], ['api', 'model']] as const) {
        const u = status.agents[id].usage;
        const requests = after[kind] - before[kind];
        rows[id] = { engine_calls: u.calls, model_requests: requests, input_tokens: u.input_tokens, cached_input_tokens: u.cached_input_tokens, output_tokens: u.output_tokens };
        r.info(`mixed team, ${id} (${kind})`, `${u.calls} engine calls, ${requests} model requests, ${u.input_tokens} in (${u.cached_input_tokens} cached), ${u.output_tokens} out`);
      }
      r.figure('mixed_team', rows);
    } finally {
      await s.close();
    }
    return r.result();
  },
};

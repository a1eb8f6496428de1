// Scenario 2a: CLI start-up. Spawns `node dist/cli.js run …` (the production bundle) against the fake OpenAI server
// and times spawn → the server receiving the first chat request, median of several runs. For reference, the same
// for a bare `node` that sends one HTTP request (the floor no CLI can beat) and `node dist/cli.js --version` (loading
// the bundle and exiting). The CLI keeps V8's compiled code between starts (src/cli/launch.ts): the bench gives it a
// fresh cache directory, so the untimed first run is a start with an empty cache (shown apart) and fills it.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { coordinationScript, startFakeOpenAI } from '../../test/fakes/openai-server';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { median } from '../lib/stats';

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; ms: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ms: performance.now() - t0, stderr }));
  });
}

export const startup: Scenario = {
  name: 'startup',
  title: '2a. CLI start-up: process spawn to first model request',
  async run(ctx: BenchContext) {
    const r = new Results();
    const cli = join(ctx.dist, 'cli.js');
    if (!existsSync(cli)) throw new Error(`${cli} is missing`);
    let firstRequestAt = NaN;
    const server = await startFakeOpenAI(async (req) => {
      if (Number.isNaN(firstRequestAt)) firstRequestAt = performance.now();
      return coordinationScript()(req);
    });
    const cacheDir = join(ctx.tmp, 'v8-cache');
    const env = { PATH: process.env.PATH, HOME: ctx.tmp, V8_COMPILE_CACHE_CACHE_DIR: cacheDir, NODE_COMPILE_CACHE: cacheDir };
    const times = { cli: [] as number[], bare: [] as number[], version: [] as number[] };
    let coldMs = NaN;
    try {
      const config = join(ctx.tmp, 'config.yaml');
      writeFileSync(config, `agents:\n  - id: a\n    backend:\n      type: chatcompletion\n      model: fake-model\n      base_url: ${server.baseUrl}\n`);
      const bare = `require('http').request(${JSON.stringify(`${server.baseUrl}/chat/completions`)}, { method: 'POST' }, (r) => r.resume()).end('{"model":"m","messages":[],"stream":true}')`;
      const repeats = ctx.quick ? 3 : 9;
      // One untimed run of each first (the OS file cache, not our code, decides a cold first start); the CLI's own
      // first start, with an empty code cache, is shown apart.
      for (let i = -1; i < repeats; i++) {
        firstRequestAt = NaN;
        const t0 = performance.now();
        const logDir = join(ctx.tmp, `logs-${i + 1}`);
        mkdirSync(logDir, { recursive: true });
        const res = await run([cli, 'run', '--automation', '--config', config, '--log-dir', logDir, 'Say hi'], ctx.tmp, env);
        if (res.code !== 0) throw new Error(`massgen run exited ${res.code}: ${res.stderr}`);
        if (i >= 0) times.cli.push(firstRequestAt - t0);
        else coldMs = firstRequestAt - t0;

        firstRequestAt = NaN;
        const t1 = performance.now();
        await run(['-e', bare], ctx.tmp, env);
        if (i >= 0) times.bare.push(firstRequestAt - t1);

        const v = await run([cli, '--version'], ctx.tmp, env);
        if (i >= 0) times.version.push(v.ms);
      }
    } finally {
      await server.close();
    }
    const cliMs = median(times.cli);
    const bareMs = median(times.bare);
    r.goal('startup.cli_first_request_ms', 'CLI spawn → first model request (median)', cliMs, '<=', 500, ' ms', { digits: 0 });
    r.info('  bare node spawn → one HTTP request (floor)', `${fmt(bareMs, 0)} ms; the CLI adds ${fmt(cliMs - bareMs, 0)} ms`);
    r.info('  node dist/cli.js --version (load + exit)', `${fmt(median(times.version), 0)} ms`);
    r.info('  first start, empty code cache (one run)', `${fmt(coldMs, 0)} ms`);
    r.figure('cli_ms', times.cli.map((t) => Math.round(t)));
    r.figure('bare_node_ms', times.bare.map((t) => Math.round(t)));
    r.figure('version_ms', times.version.map((t) => Math.round(t)));
    r.figure('cold_cli_ms', Math.round(coldMs));
    return r.result();
  },
};

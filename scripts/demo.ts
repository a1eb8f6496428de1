// An offline demo of the whole CLI: a local OpenAI-compatible fake server plays three agents (each answers, sees
// the others' answers anonymously, and votes), and the real `massgen` bundle runs against it. No key, no network.
// Then a workspace run: the agents work on their own copies of a small git repository with a bug, one runs its
// test (sandboxed, when this machine has bubblewrap), fixes it and runs it again; the winner's change is applied.
//   npm run demo

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSandbox } from '../src/core/sandbox';
import { coordinationScript, startFakeOpenAI, type FakeReply } from '../test/fakes/openai-server';

const ANSWERS = {
  'careful-reviewer': 'Use `git rebase -i HEAD~3`, mark the commits as `squash`, then force-push with `--force-with-lease`.',
  'pragmatic-engineer': 'Run `git reset --soft HEAD~3 && git commit`, then `git push --force-with-lease`: fewer steps, same result.',
  'creative-solver': 'Squash on merge instead: enable "Squash and merge" in the repository settings and leave history alone.',
};

function cli(args: string[]): Promise<number> {
  const child = spawn(process.execPath, ['dist/cli.js', ...args], { stdio: 'inherit' });
  return new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
}

function teamConfig(dir: string, baseUrl: string, models: string[]): string {
  const config = join(dir, `team-${models.length}.yaml`);
  writeFileSync(config, ['agents:', ...models.flatMap((model) => [`  - id: ${model}`, '    backend:', '      type: chatcompletion', `      model: ${model}`, `      base_url: ${baseUrl}`])].join('\n') + '\n');
  return config;
}

async function questionRun(dir: string): Promise<number> {
  const usage = { promptTokens: 400, completionTokens: 60, cachedTokens: 120 };
  const slow = { usage, chunkSize: 6, delayMsPerChunk: 15, ttftMs: 150 };
  const server = await startFakeOpenAI(
    coordinationScript(
      Object.fromEntries(Object.entries(ANSWERS).map(([model, answer]) => [model, { answer, voteFor: 'agent2', reason: `${model}: the shortest correct recipe.`, reply: slow }])),
    ),
  );
  const config = teamConfig(dir, server.baseUrl, Object.keys(ANSWERS));
  process.stderr.write(`Demo server at ${server.baseUrl}; config ${config}\n\n`);
  const code = await cli(['run', '--config', config, '--log-dir', join(dir, 'logs'), 'How do I squash my last three commits?']);
  await server.close();
  process.stderr.write(`\nLogs and status.json: ${join(dir, 'logs')}\n`);
  return code;
}

const BUGGY = 'exports.add = (a, b) => a - b;\n';
const FIXED = 'exports.add = (a, b) => a + b;\n';

async function workspaceRun(dir: string): Promise<number> {
  const repo = join(dir, 'calc');
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'src', 'add.js'), BUGGY);
  writeFileSync(join(repo, 'test.js'), "const { add } = require('./src/add');\nconst ok = add(2, 3) === 5;\nconsole.log(ok ? 'test passed' : `test FAILED: add(2, 3) = ${add(2, 3)}`);\nprocess.exit(ok ? 0 : 1);\n");
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=demo', '-c', 'user.email=demo@example.com', ...args], { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'calc with a bug');
  const sandbox = await detectSandbox();
  const commands = !sandbox.requiresApproval;
  const run = (command: string): FakeReply => ({ toolCalls: [{ name: 'execute_command', arguments: { command } }] });
  const fix: FakeReply = { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/add.js', old_text: 'a - b', new_text: 'a + b' } }] };
  const server = await startFakeOpenAI(
    coordinationScript(
      {
        fixer: { answer: 'add() subtracted; it adds now, and test.js passes.', first: commands ? [run('node test.js'), fix, run('node test.js')] : [fix] },
        reviewer: { answer: 'The tests are the place to start; I made no change.', first: [{ toolCalls: [{ name: 'read_file', arguments: { path: 'test.js' } }] }] },
        skeptic: { answer: 'Nothing to change here, as far as I can see.' },
      },
      { voteFor: 'agent1', reason: 'It fixes the bug and runs the test.' },
    ),
  );
  const config = teamConfig(dir, server.baseUrl, ['fixer', 'reviewer', 'skeptic']);
  process.stderr.write(`\n\nWorkspace run on ${repo}${commands ? ` (commands in ${sandbox.description})` : ` (no sandbox here: ${sandbox.description}; commands left out)`}\n\n`);
  const code = await cli(['run', '--config', config, '--workspace', repo, '--apply', ...(commands ? ['--allow-commands'] : []), '--log-dir', join(dir, 'logs-workspace'), 'Fix the failing test']);
  await server.close();
  process.stderr.write(`\n${repo}/src/add.js now: ${readFileSync(join(repo, 'src', 'add.js'), 'utf8') === FIXED ? 'fixed (the winner\'s change, applied with --apply)' : 'NOT fixed'}\n`);
  return code;
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'massgen-demo-'));
  const first = await questionRun(dir);
  const second = await workspaceRun(dir);
  return first || second;
}

main().then((code) => (process.exitCode = code));

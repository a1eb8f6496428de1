// An offline demo of the whole CLI: a local OpenAI-compatible fake server plays three agents (each answers, sees
// the others' answers anonymously, and votes), and the real `massgen` bundle runs against it. No key, no network.
//   npm run demo

import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coordinationScript, startFakeOpenAI } from '../test/fakes/openai-server';

const ANSWERS = {
  'careful-reviewer': 'Use `git rebase -i HEAD~3`, mark the commits as `squash`, then force-push with `--force-with-lease`.',
  'pragmatic-engineer': 'Run `git reset --soft HEAD~3 && git commit`, then `git push --force-with-lease`: fewer steps, same result.',
  'creative-solver': 'Squash on merge instead: enable "Squash and merge" in the repository settings and leave history alone.',
};

async function main(): Promise<number> {
  const usage = { promptTokens: 400, completionTokens: 60, cachedTokens: 120 };
  const slow = { usage, chunkSize: 6, delayMsPerChunk: 15, ttftMs: 150 };
  const server = await startFakeOpenAI(
    coordinationScript(
      Object.fromEntries(Object.entries(ANSWERS).map(([model, answer]) => [model, { answer, voteFor: 'agent2', reason: `${model}: the shortest correct recipe.`, reply: slow }])),
    ),
  );
  const dir = mkdtempSync(join(tmpdir(), 'massgen-demo-'));
  const config = join(dir, 'demo.yaml');
  writeFileSync(
    config,
    ['agents:', ...Object.keys(ANSWERS).flatMap((model) => [`  - id: ${model}`, '    backend:', '      type: chatcompletion', `      model: ${model}`, `      base_url: ${server.baseUrl}`])].join('\n') + '\n',
  );
  process.stderr.write(`Demo server at ${server.baseUrl}; config ${config}\n\n`);
  const child = spawn(process.execPath, ['dist/cli.js', 'run', '--config', config, '--log-dir', join(dir, 'logs'), 'How do I squash my last three commits?'], { stdio: 'inherit' });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  await server.close();
  process.stderr.write(`\nLogs and status.json: ${join(dir, 'logs')}\n`);
  return code;
}

main().then((code) => (process.exitCode = code));

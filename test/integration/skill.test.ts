// The Agent Skill (skills/massgen/): SKILL.md in the Agent Skills format `npx skills add` installs (frontmatter with
// a name matching its folder and a description), and its script run as an agent runs it, against the real CLI
// bundle and a fake OpenAI-compatible team: run_summary.json, result.md, and refusals in words.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { cliSuite } from '../helpers/cli';
import { coordinationScript, startFakeOpenAI } from '../fakes/openai-server';

const SKILL_DIR = join(process.cwd(), 'skills', 'massgen');
const SCRIPT = join(SKILL_DIR, 'scripts', 'massgen_run.sh');
const work = mkdtempSync(join(tmpdir(), 'massgen-skill-'));

function runScript(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT, ...args], { cwd: work, env: { PATH: process.env.PATH, HOME: work, ...env } }, (err, stdout, stderr) => {
      const code = err ? Number((err as NodeJS.ErrnoException & { code?: unknown }).code ?? 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the MassGen Agent Skill', function () {
  this.timeout(60_000);
  const suite = cliSuite(work);

  it('SKILL.md has the Agent Skills frontmatter: its folder\'s name and a description', () => {
    const text = readFileSync(join(SKILL_DIR, 'SKILL.md'), 'utf8');
    const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
    assert.ok(match, 'frontmatter between --- lines');
    const meta = parse(match[1]) as { name: string; description: string };
    assert.equal(meta.name, 'massgen');
    assert.match(meta.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.ok(meta.description.length > 50 && meta.description.length <= 1024, `description of ${meta.description.length} characters`);
    assert.match(text, /scripts\/massgen_run\.sh/);
    assert.match(text, /massgen run --automation/);
  });

  it('the script runs the team and leaves result.md and run_summary.json', async () => {
    suite.server = await startFakeOpenAI(coordinationScript({ m1: { answer: 'Merge sort is stable.' } }, { voteFor: 'agent1' }));
    const config = join(work, 'team.yaml');
    writeFileSync(config, `agents:\n  - id: a\n    backend: { type: chatcompletion, model: m1, base_url: "${suite.server.baseUrl}" }\n  - id: b\n    backend: { type: chatcompletion, model: m2, base_url: "${suite.server.baseUrl}" }\n`);
    const dir = join(work, 'run-1');
    const prompt = join(work, 'prompt.md');
    writeFileSync(prompt, 'Which sorting algorithms are "stable"?\nName one.');
    const r = await runScript(['--work-dir', dir, '--prompt-file', prompt, '--config', config], { MASSGEN_BIN: `${process.execPath} ${suite.cli}` });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const summary = JSON.parse(readFileSync(join(dir, 'run_summary.json'), 'utf8'));
    assert.equal(summary.exit_code, 0);
    assert.equal(summary.completed, 'consensus');
    assert.equal(summary.winner, 'a');
    assert.equal(summary.changes_file, null);
    assert.equal(summary.error, null);
    assert.equal(readFileSync(join(dir, 'result.md'), 'utf8'), 'Merge sort is stable.');
    assert.equal(JSON.parse(readFileSync(summary.status_file, 'utf8')).results.winner, 'a');
    assert.equal(JSON.parse(readFileSync(join(summary.log_dir, 'status.json'), 'utf8')).meta.question, 'Which sorting algorithms are "stable"?\nName one.');
  });

  it('a configuration error is exit code 1 with the reason in the summary', async () => {
    const dir = join(work, 'run-2');
    const prompt = join(work, 'prompt.md');
    writeFileSync(prompt, 'Q');
    const r = await runScript(['--work-dir', dir, '--prompt-file', prompt, '--config', join(work, 'nope.yaml')], { MASSGEN_BIN: `${process.execPath} ${suite.cli}` });
    assert.equal(r.code, 1);
    const summary = JSON.parse(readFileSync(join(dir, 'run_summary.json'), 'utf8'));
    assert.equal(summary.exit_code, 1);
    assert.match(summary.error, /nope\.yaml/);
    assert.equal(summary.result_file, null);
  });

  it('refuses a `massgen` that is not this CLI, and a missing prompt file, in words', async () => {
    const prompt = join(work, 'prompt.md');
    writeFileSync(prompt, 'Q');
    const other = await runScript(['--work-dir', join(work, 'run-3'), '--prompt-file', prompt], { MASSGEN_BIN: 'echo' });
    assert.equal(other.code, 1);
    assert.match(other.stderr, /'echo' is not MassGen for VS Code's CLI/);
    const noPrompt = await runScript(['--work-dir', join(work, 'run-4'), '--prompt-file', join(work, 'missing.md')], { MASSGEN_BIN: `${process.execPath} ${suite.cli}` });
    assert.equal(noPrompt.code, 1);
    assert.match(noPrompt.stderr, /--prompt-file must name an existing file/);
  });
});

// Coding agents in real VS Code: a team of the real Claude Code and Codex programs (the test rig's) and a
// chat-completions agent, set in `massgen.agents`, runs on the workspace. Each program edits its own copy with its own
// tools against a fake model server scripted for it, answers and votes through the `massgen` MCP server; the winner's
// change is the one reviewed, the user's files stay untouched until Apply, and no program is left running.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { assert, log, until, fakeLm, runnerAvailable, refactorPreview } = require('./helpers');
const { ORIGINAL, root, sampleUri, workspaceRunHooks } = require('./workspace-team');
const fakes = require('../out/fakes.js');

const CHANGED = 'def add(a, b):\n    """Adds two numbers."""\n    return a + b\n';
// The programs' own settings and logs go to folders of the test's, not the user's (Codex refuses one under /tmp).
const PROGRAM_HOMES = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : require('os').tmpdir(), 'massgen-vscode-agents-'));

describe('Coding agents as team members in real VS Code', function () {
  this.timeout(180000);
  let api;
  const servers = [];
  const saved = {};

  workspaceRunHooks({ activated: (a) => (api = a) });

  before(() => {
    for (const [name, dir] of [['CLAUDE_CONFIG_DIR', 'claude'], ['CODEX_HOME', 'codex']]) {
      saved[name] = process.env[name];
      process.env[name] = path.join(PROGRAM_HOMES, dir);
      fs.mkdirSync(process.env[name], { recursive: true });
    }
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await api.keys.clear('ANTHROPIC_API_KEY');
    await api.keys.clear('OPENAI_API_KEY');
  });

  it('Run on Workspace with claude_code, codex and an API agent: Claude Code\u2019s change wins and is what Apply offers', async function () {
    if (!runnerAvailable) this.skip();
    const claudeScript = {
      steps: [(folder) => ({ name: 'Write', input: { file_path: path.join(folder, 'sample.py'), content: CHANGED } })],
      answer: 'add() has a docstring now (Claude Code).',
      voteFor: 'agent1',
    };
    const codexScript = { steps: [() => ({ name: 'exec_command', input: { cmd: "printf 'x = 1\\n' > extra.py" } })], answer: 'Added extra.py (Codex).', voteFor: 'agent1' };
    const claude = await fakes.startFakeAnthropic(({ body }) => fakes.claudeReply(claudeScript, body), { validate: false });
    const codex = await fakes.startFakeResponses(({ body }) => fakes.codexReply(codexScript, body));
    const model = await fakes.startFakeOpenAI(fakes.coordinationScript({ m3: { answer: 'Nothing to change (API agent).' } }, { voteFor: 'agent1' }));
    servers.push(claude, codex, model);
    await api.keys.set('ANTHROPIC_API_KEY', 'sk-ant-vscode-claude');
    await api.keys.set('OPENAI_API_KEY', 'sk-vscode-codex');
    await vscode.workspace.getConfiguration('massgen').update('agents', [
      { id: 'claude', backend: { type: 'claude_code', model: 'claude-fake', base_url: claude.baseUrl, path: fakes.CLAUDE } },
      { id: 'codex', backend: { type: 'codex', model: 'gpt-fake', base_url: codex.baseUrl, path: fakes.CODEX } },
      { id: 'api', backend: { type: 'chatcompletion', model: 'm3', base_url: model.baseUrl } },
    ], vscode.ConfigurationTarget.Global);
    assert.strictEqual(await api.runs.problem(), null, 'the team check finds both programs and nothing wrong');

    const title = 'Document add()';
    const running = vscode.commands.executeCommand('massgen.runOnWorkspace', { instruction: title, folder: vscode.workspace.workspaceFolders[0].uri });
    const run = await until(() => api.runs.latest && api.runs.latest.title.startsWith(title) && api.runs.latest, 30000, 'the workspace run');
    const result = await run.result;
    log('coding agents run:', result.reason, result.winnerLabel, result.error || '');

    assert.strictEqual(result.reason, 'consensus', result.error);
    assert.strictEqual(result.winnerLabel, 'agent1.1');
    assert.deepStrictEqual(run.state.agents.filter((a) => a.status === 'failed').map((a) => [a.id, a.error]), [], 'no agent failed');
    assert.deepStrictEqual(result.change.files.map((f) => [f.path, f.status]), [['sample.py', 'modified']]);
    assert.strictEqual(fs.readFileSync(sampleUri().fsPath, 'utf8'), ORIGINAL, 'the user\u2019s file is untouched until Apply');
    assert.ok(!fs.existsSync(path.join(root(), 'extra.py')), 'Codex wrote its own copy only');
    const codexAnswer = run.state.answers.find((a) => a.label === 'agent2.1');
    assert.ok(codexAnswer, 'Codex answered');
    assert.ok(claude.messageRequests().length >= 2 && codex.responseRequests().length >= 2, 'both programs asked their models');
    const usage = (id) => run.state.agents.find((a) => a.id === id).usage;
    assert.ok(usage('claude').inputTokens > 0 && usage('codex').inputTokens > 0, JSON.stringify([usage('claude'), usage('codex')]));

    // The winner is what the refactor preview offers; Discard leaves the file as it was.
    const rows = await refactorPreview.rows('sample.py');
    log('preview rows:', JSON.stringify(rows));
    assert.ok(rows.includes('sample.py') && rows.some((r) => r.includes('Adds two numbers.')), JSON.stringify(rows));
    await refactorPreview.click('Discard');
    await running;
    assert.strictEqual(fs.readFileSync(sampleUri().fsPath, 'utf8'), ORIGINAL);
    for (const program of [fakes.CLAUDE, fakes.CODEX]) assert.deepStrictEqual(fakes.processesWith(program), [], `nothing of ${program} runs`);
  });
});

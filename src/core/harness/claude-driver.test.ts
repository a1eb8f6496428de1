import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowedTools, insideFolder, movedLogins, sandboxSettings, toolPermission, turnError } from './claude-driver';

const context = { folder: '/w/agent1', massgen: ['mcp__massgen__new_answer', 'mcp__massgen__vote'], webSearch: false };

describe("Claude Code's sandbox for its commands", () => {
  it('is required and never left; network only as the user allows, then every host', () => {
    for (const network of [false, true]) {
      const sandbox = sandboxSettings(network);
      assert.deepEqual([sandbox.enabled, sandbox.failIfUnavailable, sandbox.allowUnsandboxedCommands], [true, true, false]);
      assert.deepEqual(sandbox.network, { allowedDomains: network ? ['*'] : [], strictAllowlist: true });
    }
  });

  it('hides its key and the home folder\'s credentials from its commands', () => {
    const { credentials } = sandboxSettings(true);
    assert.deepEqual(credentials.envVars.filter((v) => v.mode === 'deny').map((v) => v.name).slice(0, 1), ['ANTHROPIC_API_KEY']);
    for (const path of ['~/.ssh', '~/.aws', '~/.claude/.credentials.json', '~/.codex/auth.json']) assert.ok(credentials.files.some((f) => f.path === path && f.mode === 'deny'), path);
  });

  it('hides the logins where the user moved them too', () => {
    const logins = movedLogins({ CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '/cfg/codex', HOME: '/home/u' });
    assert.deepEqual(logins, ['/cfg/claude/.credentials.json', '/cfg/codex/auth.json']);
    assert.deepEqual(movedLogins({ HOME: '/home/u' }), []);
    const { files } = sandboxSettings(false, logins).credentials;
    for (const path of logins) assert.ok(files.some((f) => f.path === path && f.mode === 'deny'), path);
  });
});

describe('what Claude Code may do when it asks', () => {
  it("the config's allowed_tools skip the asking only for tools that use no path, command, web or other server", () => {
    assert.deepEqual(allowedTools(['Read', 'Glob', 'Grep(*.ts)', 'Edit(/**)', 'Bash(git:*)', 'WebFetch', 'mcp__github__create_issue', 'Monitor', 'Projects', 'TodoWrite', 'Task']), ['TodoWrite', 'Task']);
  });

  it('a path is inside the folder only when it resolves there (relative paths from the folder, no ../ escape)', () => {
    assert.ok(insideFolder('/w/agent1/src/a.js', '/w/agent1'));
    assert.ok(insideFolder('src/a.js', '/w/agent1'));
    assert.ok(insideFolder('/w/agent1', '/w/agent1'));
    assert.ok(!insideFolder('/w/agent1/../agent2/a.js', '/w/agent1'));
    assert.ok(!insideFolder('../agent2/a.js', '/w/agent1'));
    assert.ok(!insideFolder('/w/agent10/a.js', '/w/agent1'));
    assert.ok(!insideFolder('/etc/passwd', '/w/agent1'));
    assert.ok(insideFolder('/w/agent1/..cache/a.js', '/w/agent1'), 'a name that starts with two dots is inside');
  });

  it('a link inside the folder that leads out of it does not make a path inside; one that stays in does', () => {
    const root = mkdtempSync(join(tmpdir(), 'massgen-inside-'));
    const folder = join(root, 'agent1');
    mkdirSync(join(folder, 'src'), { recursive: true });
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(folder, 'out'));
    symlinkSync(join(folder, 'src'), join(folder, 'in'));
    assert.ok(!insideFolder(join(folder, 'out', 'new.txt'), folder));
    assert.ok(!insideFolder('out/deeper/new.txt', folder));
    assert.ok(insideFolder(join(folder, 'in', 'new.txt'), folder));
    assert.ok(insideFolder(join(folder, 'src', 'not-yet', 'new.txt'), folder));
  });

  it('edits inside its folder, the coordination tools, and sandboxed commands are allowed', () => {
    assert.equal(toolPermission('Write', { file_path: '/w/agent1/a.js' }, context), true);
    assert.equal(toolPermission('NotebookEdit', { notebook_path: 'n.ipynb' }, context), true);
    assert.equal(toolPermission('mcp__massgen__vote', { agent_id: 'agent1' }, context), true);
    assert.equal(toolPermission('Bash', { command: "node -e 'x => x'" }, context), true);
  });

  it('a path outside the folder, a blocked path, a command leaving the sandbox and the web (unless on) are refused with the reason', () => {
    assert.match(String(toolPermission('Edit', { file_path: '/w/agent2/a.js' }, context)), /^not allowed: you work in \/w\/agent1 and may use files there only$/);
    assert.match(String(toolPermission('Bash', { command: 'cat x' }, { ...context, blockedPath: '/home/u/.ssh' })), /\(\/home\/u\/\.ssh is outside it\)/);
    assert.match(String(toolPermission('Bash', { command: 'ls', dangerouslyDisableSandbox: true }, context)), /commands run in the sandbox only/);
    assert.match(String(toolPermission('WebFetch', { url: 'https://example.com' }, context)), /the web is off/);
    assert.match(String(toolPermission('mcp__github__create_issue', { title: 't' }, context)), /only the coordinator's tools/);
    assert.equal(toolPermission('WebSearch', { query: 'q' }, { ...context, webSearch: true }), true);
  });

  it('its session tools are allowed; any other tool is refused, known or not', () => {
    for (const tool of ['TodoWrite', 'Task', 'Agent', 'TaskStop', 'ExitPlanMode']) assert.equal(toolPermission(tool, {}, context), true, tool);
    assert.match(String(toolPermission('Monitor', { description: 'd', timeout_ms: 1000, ws: { url: 'ws://127.0.0.1:1' } }, context)), /^not allowed: Monitor is not available in a team run/);
    for (const tool of ['Projects', 'RemoteTrigger', 'CronCreate', 'SomeToolOfNextYear']) assert.notEqual(toolPermission(tool, {}, context), true, tool);
  });
});

describe('a turn Claude Code ended in error', () => {
  it('is classified by the failed call\'s kind; a missing login says how to sign in', () => {
    const auth = turnError('authentication_failed', 'Not logged in · Please run /login');
    assert.equal(auth.kind, 'auth');
    assert.equal(auth.message, 'Claude Code: Not logged in · Please run /login: sign in with `claude`, or give it a key (ANTHROPIC_API_KEY or backend.api_key)');
    assert.equal(turnError('overloaded', 'Overloaded').kind, 'rate_limit');
    assert.equal(turnError('model_not_found', 'no such model').kind, 'invalid_request');
    assert.deepEqual([turnError(undefined, '').kind, turnError(undefined, '').message], ['unknown', 'Claude Code: its turn failed']);
  });
});

import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import type { AgentConfig } from '../config/types';
import { locateProgram, missingProgram, type LocatorFs } from './binaries';

/** A file system of the given executables (every folder above them listable). */
function filesystem(executables: string[]): LocatorFs {
  const files = new Set(executables);
  return {
    isExecutable: (path) => files.has(path),
    list: (dir) => [...new Set(executables.filter((f) => dirname(f) !== f && f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1).split('/')[0]))],
  };
}

const HOME = '/home/u';
const env = (path: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: path, ...extra });

describe('locating a coding agent\'s program', () => {
  it('the config\'s path wins and must be the program; nothing else is tried then', () => {
    const fs = filesystem(['/opt/claude', '/usr/bin/claude']);
    assert.deepEqual(locateProgram('claude_code', { configured: '/opt/claude', env: env('/usr/bin'), home: HOME, fs }), { path: '/opt/claude', source: 'the config' });
    assert.equal(locateProgram('claude_code', { configured: '/opt/missing', env: env('/usr/bin'), home: HOME, fs }), null);
  });

  it('then the first PATH folder that has it', () => {
    const fs = filesystem(['/b/codex', '/c/codex', '/a/claude']);
    assert.deepEqual(locateProgram('codex', { env: env('/a:/b:/c'), home: HOME, fs }), { path: '/b/codex', source: 'PATH' });
  });

  it('then the newest install of its VS Code extension (or a fork\'s), where the extension keeps it', () => {
    const ext = join(HOME, '.vscode', 'extensions');
    const fs = filesystem([
      join(ext, 'anthropic.claude-code-2.9.1-linux-x64', 'resources', 'native-binary', 'claude'),
      join(ext, 'anthropic.claude-code-2.10.0-linux-x64', 'resources', 'native-binary', 'claude'),
      join(HOME, '.cursor', 'extensions', 'openai.chatgpt-0.5.0', 'bin', 'linux-x86_64', 'codex'),
      join(ext, 'openai.chatgpt-0.4.0', 'README.md'),
    ]);
    assert.deepEqual(locateProgram('claude_code', { env: env('/usr/bin'), home: HOME, fs }), { path: join(ext, 'anthropic.claude-code-2.10.0-linux-x64', 'resources', 'native-binary', 'claude'), source: 'its VS Code extension' });
    assert.deepEqual(locateProgram('codex', { env: env('/usr/bin'), home: HOME, fs }), { path: join(HOME, '.cursor', 'extensions', 'openai.chatgpt-0.5.0', 'bin', 'linux-x86_64', 'codex'), source: 'its VS Code extension' });
  });

  it('VSCODE_EXTENSIONS names another extensions folder; nowhere found is null', () => {
    const fs = filesystem(['/ext/openai.chatgpt-1.0.0/bin/linux-x86_64/codex']);
    assert.equal(locateProgram('codex', { env: env('/usr/bin'), home: HOME, fs }), null);
    assert.equal(locateProgram('codex', { env: env('/usr/bin', { VSCODE_EXTENSIONS: '/ext' }), home: HOME, fs })?.source, 'its VS Code extension');
    assert.equal(locateProgram('claude_code', { env: env('/usr/bin', { VSCODE_EXTENSIONS: '/ext' }), home: HOME, fs }), null);
  });
});

describe('a team\'s missing program, as the start page says it', () => {
  const agent = (id: string, program: 'claude_code' | 'codex', path: string) => ({ id, backend: { type: program, model: 'm', harness: { program, path } } }) as unknown as AgentConfig;
  it('names the first agent whose program is not where its config says, with how to install it; none missing is null', () => {
    const env = { PATH: '' };
    assert.equal(missingProgram([agent('a', 'codex', process.execPath)], env, HOME), null);
    const text = missingProgram([agent('a', 'codex', process.execPath), agent('b', 'claude_code', '/nowhere/claude')], env, HOME);
    assert.equal(text, "agent 'b' uses Claude Code, which was not found at /nowhere/claude (backend.path): install Claude Code (npm install -g @anthropic-ai/claude-code, or the Claude Code extension for VS Code) and sign in with `claude`, or set backend.path.");
  });
});

import assert from 'node:assert/strict';
import { streamGit } from './git-stream';

describe('workspace/git-stream', () => {
  it('a git that cannot start (an argument over the system limit) rejects in words, its timeout cleared', async () => {
    // Before, spawn's throw left the timeout armed, and when it fired it read the child that never was: an uncaught
    // error that ended the process.
    await assert.rejects(streamGit(['grep', '-e', 'x'.repeat(4 * 1024 * 1024)], () => false, { timeoutMs: 60_000 }), /^GitError: git grep could not start: spawn E2BIG/);
  });
});

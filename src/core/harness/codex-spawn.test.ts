import assert from 'node:assert/strict';
import { once } from 'node:events';
import { spawn } from './codex-spawn';

describe('the Codex SDK\'s spawn', () => {
  it('a program that no longer reads its stdin gives a write error that is handled, not thrown', async () => {
    const child = spawn('sh', ['-c', 'exec 0<&-; echo closed; exec sleep 3019'], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      await once(child.stdout!, 'data');
      assert.equal(child.stdin!.listenerCount('error'), 1, 'the spawn handles write errors itself');
      const failed = once(child.stdin!, 'error');
      child.stdin!.write('the prompt\n');
      const [error] = (await failed) as [NodeJS.ErrnoException];
      assert.equal(error.code, 'EPIPE');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { descendants, killTree } from './process-tree';
import { eventually } from '../../../test/helpers/eventually';

/** Running (a killed process whose parent has not reaped it yet is a zombie: not running). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('process tree: stopping a program and what it started', () => {
  it('finds every descendant, parents first', () => {
    const table = new Map([[2, 1], [3, 2], [4, 3], [5, 1], [6, 2]]);
    assert.deepEqual(descendants(2, table), [2, 3, 6, 4]);
  });

  it('kills a shell and the command it left running in the background', async () => {
    // The shell prints its background child's pid, then waits on it.
    const shell = spawn('sh', ['-c', 'sleep 300 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const child = await new Promise<number>((resolve) => shell.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    assert.ok(alive(child));
    await killTree(shell.pid!);
    await eventually(() => !alive(child), { what: 'the background command to end' });
    await new Promise((resolve) => (shell.exitCode !== null || shell.signalCode !== null ? resolve(undefined) : shell.once('exit', resolve)));
  });
});

// Stopping a coding agent's program for good: the program and every process it started (its shells, the commands
// they run, its MCP servers), found by parent id before any is killed, so a child that outlives its parent (a command
// in the background) is stopped too. `ps` lists them on Linux and macOS alike.

import { execFile } from 'node:child_process';

/** pid → parent pid of every process, or an empty map when `ps` cannot run. */
function processTable(): Promise<Map<number, number>> {
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid='], { timeout: 10_000 }, (err, stdout) => {
      const table = new Map<number, number>();
      if (!err) {
        for (const line of stdout.split('\n')) {
          const [pid, ppid] = line.trim().split(/\s+/).map(Number);
          if (Number.isInteger(pid) && Number.isInteger(ppid)) table.set(pid, ppid);
        }
      }
      resolve(table);
    });
  });
}

/** `root` and its descendants, parents first. */
export function descendants(root: number, table: ReadonlyMap<number, number>): number[] {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of table) if (ppid === tree[i] && !tree.includes(pid)) tree.push(pid);
  }
  return tree;
}

/** Kills `pid` and everything below it with SIGKILL. Never throws (a process may be gone already). */
export async function killTree(pid: number): Promise<void> {
  const tree = descendants(pid, await processTable());
  for (const p of tree) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

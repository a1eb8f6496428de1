// Process checks for tests that must leave nothing running.

import { readdirSync, readFileSync } from 'node:fs';

/** True while the process exists and is not a zombie (an orphan killed in a container may stay a zombie). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Live processes whose command line contains `needle` (Linux; elsewhere none are found). */
export function processesWith(needle: string): number[] {
  if (process.platform !== 'linux') return [];
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p)).flatMap((p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const zombie = stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
      return !zombie && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(needle) ? [Number(p)] : [];
    } catch {
      return [];
    }
  });
}

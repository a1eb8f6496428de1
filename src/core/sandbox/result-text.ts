// How a command's end reads to the model: one line that says what happened and, where there is something to do
// about it, what. Pure.

import { constants } from 'node:os';
import { formatBytes } from './output';
import type { CommandLimits } from './policy';
import type { CommandEnd } from './runner';

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, n]) => [n, name]));

/** Why a signal usually ends a command, for the ones with a likely cause. */
function signalCause(name: string, limits: CommandLimits): string {
  switch (name) {
    case 'SIGXFSZ':
      return `, a file reached the ${formatBytes(limits.maxFileBytes)} size limit per file`;
    case 'SIGKILL':
      return ', killed, often for lack of memory';
    case 'SIGSEGV':
      return ', a crash';
    case 'SIGPIPE':
      return ', it wrote to a closed pipe';
    default:
      return '';
  }
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** "exit code 1 (in 0.4 s)", "timed out after 5 s; killed …", "could not start: …". */
export function describeEnd(end: CommandEnd, limits: CommandLimits, timeoutSeconds: number | null): string {
  const took = seconds(end.durationMs);
  const killed = 'it was killed with every process it started';
  switch (end.kind) {
    case 'start-failed':
      return `could not start: ${end.message ?? 'unknown error'}`;
    case 'timeout':
      return `timed out after ${timeoutSeconds !== null ? `${timeoutSeconds} s` : took}; ${killed}. Give a longer timeout_seconds (at most ${limits.maxTimeoutSeconds}), or run it with background: true`;
    case 'aborted':
      return `stopped after ${took}: the turn or the run ended; ${killed}`;
    case 'killed':
      return `stopped with kill_command after ${took}; ${killed}`;
    case 'output-limit':
      return `stopped after ${took}: more than ${formatBytes(limits.killOutputBytes)} of unread output; ${killed}. Redirect long output to a file in your folder (command > out.txt 2>&1) and search or read that file`;
    case 'disk-limit':
      return `stopped after ${took}: the disk your folder is on lost more than ${formatBytes(limits.maxDiskUseBytes)} of free space while it ran; ${killed}. Delete what it wrote if it is not needed`;
    case 'exited':
      break;
  }
  if (end.signal) return `killed by signal ${end.signal}${signalCause(end.signal, limits)} (after ${took})`;
  const code = end.exitCode ?? -1;
  // Through bubblewrap a signal arrives as 128 + N; it may also be a plain exit code, hence "usually".
  const name = code > 128 ? SIGNAL_NAMES.get(code - 128) : undefined;
  const hint = name ? `; ${code} usually means signal ${name}${signalCause(name, limits)}` : '';
  return `exit code ${code} (in ${took}${hint})`;
}

/** The complete result text: the end line, the output (or a note that there was none), the sandbox's own note. */
export function resultText(head: string, output: { text: string; bytes: number }, end: CommandEnd): string {
  const parts = [head];
  parts.push(output.bytes === 0 ? '(no output)' : output.text);
  if (end.kind !== 'start-failed' && end.message) parts.push(`[the sandbox reported: ${end.message}]`);
  return parts.join('\n');
}

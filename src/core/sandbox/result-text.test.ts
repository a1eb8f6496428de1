import assert from 'node:assert/strict';
import { DEFAULT_COMMAND_LIMITS } from './policy';
import { describeEnd, resultText } from './result-text';
import type { CommandEnd } from './runner';

const limits = DEFAULT_COMMAND_LIMITS;
const end = (over: Partial<CommandEnd>): CommandEnd => ({ kind: 'exited', exitCode: 0, signal: null, durationMs: 1234, ...over });

describe('sandbox result text', () => {
  it('says how a command ended, and what to do about it where something can be done', () => {
    const cases: [Partial<CommandEnd>, number | null, string][] = [
      [{}, 120, 'exit code 0 (in 1.2 s)'],
      [{ exitCode: 2 }, 120, 'exit code 2 (in 1.2 s)'],
      [{ exitCode: 137 }, 120, 'exit code 137 (in 1.2 s; 137 usually means signal SIGKILL, killed, often for lack of memory)'],
      [{ exitCode: null, signal: 'SIGXFSZ' }, 120, 'killed by signal SIGXFSZ, a file reached the 1.0 GB size limit per file (after 1.2 s)'],
      [{ exitCode: null, signal: 'SIGTERM' }, 120, 'killed by signal SIGTERM (after 1.2 s)'],
      [{ kind: 'timeout', exitCode: null, signal: 'SIGKILL' }, 5, 'timed out after 5 s; it was killed with every process it started. Give a longer timeout_seconds (at most 600), or run it with background: true'],
      [{ kind: 'timeout', exitCode: null, signal: 'SIGKILL' }, null, 'timed out after 1.2 s; it was killed with every process it started. Give a longer timeout_seconds (at most 600), or run it with background: true'],
      [{ kind: 'start-failed', exitCode: null, message: 'your working folder no longer exists' }, 120, 'could not start: your working folder no longer exists'],
    ];
    for (const [over, timeout, expected] of cases) assert.equal(describeEnd(end(over), limits, timeout), expected);
  });

  it('puts the output under the end line, says when there was none, and adds the sandbox\'s own complaint', () => {
    assert.equal(resultText('exit code 0', { text: 'hi\n', bytes: 3 }, end({})), 'exit code 0\nhi\n');
    assert.equal(resultText('exit code 1', { text: '', bytes: 0 }, end({ exitCode: 1, message: 'bwrap: Can\'t mount proc' })), 'exit code 1\n(no output)\n[the sandbox reported: bwrap: Can\'t mount proc]');
  });
});

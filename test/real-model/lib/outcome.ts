// What every CLI run on the real model must show, whatever the model did: it ended with a named end reason, a
// winner when the exit code says an answer, a clear one-line error when it says none, and never a stack trace.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EndReason } from '../../../src/core/engine/events';
import type { StatusJson } from '../../../src/core/status/status-file';
import type { CliRun } from '../../helpers/cli';

/** Every end reason the engine names (a Record, so a new one fails to compile here until it is listed). */
export const END_REASONS: Record<EndReason, true> = {
  consensus: true,
  answer_cap: true,
  majority: true,
  max_rounds: true,
  timeout: true,
  budget: true,
  cancelled: true,
  user_stop: true,
  all_failed: true,
};

export const isEndReason = (reason: unknown): reason is EndReason => typeof reason === 'string' && Object.hasOwn(END_REASONS, reason);

/** A Node stack frame ("    at fn (/x/file.js:12:3)", "at node:internal/...", "at file:///x.mjs:1:2"), in any output. */
const STACK_FRAME = /^\s+at (?:.+ \()?(?:.*\.[cm]?[jt]s|node:[\w/]+|file:\S+):\d+(?::\d+)?\)?\s*$/m;

export function assertNoStackTrace(text: string, where: string): void {
  const frame = STACK_FRAME.exec(text);
  assert.equal(frame, null, `${where} holds a stack trace: ${frame?.[0]}\n${text.slice(-2000)}`);
}

export function readStatus(logDir: string): StatusJson {
  return JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8')) as StatusJson;
}

/**
 * Checks the run's ending against its status.json and returns that status: the reason is named, the exit code
 * follows from it (0 with a winner and its answer on stdout, 3 on the timeout, 2 when every agent failed or none
 * answered, with the error in short lines on stderr), and no output carries a stack trace.
 */
export function assertNamedEnd(run: CliRun, logDir: string): StatusJson {
  const shown = `exit ${run.code}\n--- stderr\n${run.stderr}\n--- stdout\n${run.stdout}`;
  assertNoStackTrace(run.stderr, `stderr (${shown})`);
  assertNoStackTrace(run.stdout, `stdout (${shown})`);
  const status = readStatus(logDir);
  const reason = status.results.end_reason;
  assert.ok(isEndReason(reason), `end reason ${reason} is not a named one:\n${shown}`);
  const winner = status.results.winner;
  if (run.code === 0) {
    assert.ok(winner, `exit 0 without a winner:\n${shown}`);
    assert.notEqual(reason, 'all_failed');
    assert.notEqual(reason, 'timeout');
    assert.ok(run.stdout.trim().length > 0, `exit 0 without an answer on stdout:\n${shown}`);
  } else if (run.code === 3) {
    assert.equal(reason, 'timeout', shown);
  } else {
    assert.equal(run.code, 2, `exit code ${run.code} is not one a run on a reachable server ends with:\n${shown}`);
    // Every agent failed (the best answer so far, if any, still printed, as at a timeout), or none answered.
    assert.ok(reason === 'all_failed' || !winner, `exit 2 with reason ${reason} and winner ${winner}:\n${shown}`);
    if (!winner) assert.equal(run.stdout, '', `exit 2 with an answer on stdout but no winner:\n${shown}`);
    // The error is said in short lines (a headline, then one per agent), as status.json records it: no dump.
    const error = String(status.results.error ?? '');
    assert.ok(error.trim(), `exit 2 without an error in status.json:\n${shown}`);
    for (const line of error.split('\n')) {
      assert.ok(run.stderr.split('\n').includes(line), `stderr lacks the error line ${JSON.stringify(line)}:\n${shown}`);
      assert.ok(line.length < 500, `an error line of ${line.length} characters:\n${shown}`);
    }
  }
  return status;
}

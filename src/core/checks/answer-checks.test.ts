import assert from 'node:assert/strict';
import type { CheckSpec } from '../config/types';
import type { CheckResult } from '../engine/events';
import { sleep } from '../util/sleep';
import { createAnswerChecks, type VersionCheckout } from './answer-checks';

const SPECS: CheckSpec[] = [
  { name: 'build', command: 'make', timeoutSeconds: 10, required: true },
  { name: 'tests', command: 'make test', timeoutSeconds: 10, required: true },
];
const change = (id: string) => ({ id, files: [], bytesWritten: 0 });
const never = new AbortController().signal;

/** A fake run of each check: `ms` long, passing; records what ran where, and how many ran at once. */
function harness(ms = 50) {
  const ran: string[] = [];
  const disposed: string[] = [];
  let running = 0;
  let peak = 0;
  const checkout = async (label: string): Promise<VersionCheckout> => {
    if (label === 'agent9.1') throw new Error('the copy is gone');
    return { folder: `/checkouts/${label}`, readOnlyPaths: ['/project/node_modules'], dispose: async () => void disposed.push(label) };
  };
  const runOne = async (spec: CheckSpec, folder: string, env: { readOnlyPaths?: readonly string[] }, signal: AbortSignal): Promise<CheckResult> => {
    ran.push(`${folder}:${spec.name}:${env.readOnlyPaths?.join(',')}`);
    peak = Math.max(peak, ++running);
    try {
      await sleep(ms, signal);
      return { name: spec.name, required: spec.required, status: 'passed', exitCode: 0, durationMs: ms, output: '', cached: false };
    } catch {
      return { name: spec.name, required: spec.required, status: 'cancelled', exitCode: null, durationMs: 0, output: '', cached: false };
    } finally {
      running--;
    }
  };
  return { ran, disposed, checkout, runOne, peak: () => peak };
}

describe('checks: createAnswerChecks', () => {
  it('runs a version\'s checks in order in its own checkout with the dependencies readable, then removes it', async () => {
    const h = harness(5);
    const checks = createAnswerChecks({ specs: SPECS, mode: 'gate', checkout: h.checkout, environment: { sandbox: {} as never }, runOne: h.runOne });
    const seen: string[] = [];
    const results = await checks.run({ label: 'agent1.1', change: change('t1') }, never, (r) => seen.push(r.name));
    assert.deepEqual(checks.names, ['build', 'tests']);
    assert.deepEqual(results.map((r) => [r.name, r.status, r.cached]), [['build', 'passed', false], ['tests', 'passed', false]]);
    assert.deepEqual(seen, ['build', 'tests']);
    assert.deepEqual(h.ran, ['/checkouts/agent1.1:build:/project/node_modules', '/checkouts/agent1.1:tests:/project/node_modules']);
    assert.deepEqual(h.disposed, ['agent1.1']);
  });

  it('an identical change is checked once: later versions with the same content reuse the results, marked cached', async () => {
    const h = harness(30);
    const checks = createAnswerChecks({ specs: SPECS, mode: 'inform', checkout: h.checkout, environment: { sandbox: {} as never }, runOne: h.runOne });
    const [first, second, third] = await Promise.all([
      checks.run({ label: 'agent1.1', change: change('same') }, never, () => undefined),
      checks.run({ label: 'agent2.1', change: change('same') }, never, () => undefined),
      checks.run({ label: 'agent3.1', change: change('other') }, never, () => undefined),
    ]);
    assert.equal(h.ran.length, 4, 'two distinct changes, two checks each');
    assert.deepEqual(first.map((r) => r.cached), [false, false]);
    assert.deepEqual(second.map((r) => r.cached), [true, true]);
    assert.deepEqual(third.map((r) => r.cached), [false, false]);
  });

  it('versions are checked in parallel up to the concurrency, never more', async () => {
    const h = harness(40);
    const checks = createAnswerChecks({ specs: SPECS.slice(0, 1), mode: 'inform', checkout: h.checkout, environment: { sandbox: {} as never }, runOne: h.runOne, concurrency: 2 });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id, i) => checks.run({ label: `agent${i + 1}.1`, change: change(id) }, never, () => undefined)));
    assert.equal(h.peak(), 2);
  });

  it('a version that cannot be checked out gets an error result per check; the run ending cancels them', async () => {
    const h = harness(5_000);
    const checks = createAnswerChecks({ specs: SPECS, mode: 'gate', checkout: h.checkout, environment: { sandbox: {} as never }, runOne: h.runOne });
    const gone = await checks.run({ label: 'agent9.1', change: change('g') }, never, () => undefined);
    assert.deepEqual(gone.map((r) => r.status), ['error', 'error']);
    assert.match(gone[0].output, /agent9\.1 could not be checked out \(the copy is gone\)/);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const stopped = await checks.run({ label: 'agent1.1', change: change('s') }, stop.signal, () => undefined);
    assert.deepEqual(stopped.map((r) => r.status), ['cancelled', 'cancelled']);
  });
});

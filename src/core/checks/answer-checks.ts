// The engine's AnswerChecks for a workspace run: each answer version is checked out fresh and its checks run there,
// one after another (a build before its tests), versions in parallel up to the machine's cores. Results are kept by
// the version's content id, so an identical change (the same tree) is checked once and later versions reuse it.

import { availableParallelism } from 'node:os';
import type { CheckSpec } from '../config/types';
import type { AnswerChange, CheckResult } from '../engine/events';
import type { AnswerChecks } from '../engine/ports';
import { errorMessage } from '../util/errors';
import { runCheck, type CheckEnvironment } from './run-check';
import { Slots } from './slots';

export interface VersionCheckout {
  folder: string;
  /** Host folders its checks may read (the dependencies it links to). */
  readOnlyPaths: readonly string[];
  dispose(): Promise<void>;
}

export interface AnswerChecksOptions {
  specs: readonly CheckSpec[];
  mode: 'inform' | 'gate';
  /** A fresh checkout of the answer version `label`. */
  checkout(label: string, signal: AbortSignal): Promise<VersionCheckout>;
  environment: CheckEnvironment;
  /** Versions checked at once (default: the machine's cores). */
  concurrency?: number;
  /** For tests: runs one check (default: the sandboxed command). */
  runOne?: typeof runCheck;
}

export function createAnswerChecks(options: AnswerChecksOptions): AnswerChecks {
  const slots = new Slots(options.concurrency ?? availableParallelism());
  const runOne = options.runOne ?? runCheck;
  const byContent = new Map<string, Promise<CheckResult[]>>();

  const unrun = (status: 'error' | 'cancelled', output: string): CheckResult[] =>
    options.specs.map((s) => ({ name: s.name, required: s.required, status, exitCode: null, durationMs: 0, output, cached: false }));

  async function checkVersion(label: string, signal: AbortSignal, onResult: (r: CheckResult) => void): Promise<CheckResult[]> {
    return slots.use(async () => {
      if (signal.aborted) return report(unrun('cancelled', ''), onResult);
      let checkout: VersionCheckout;
      try {
        checkout = await options.checkout(label, signal);
      } catch (err) {
        return report(unrun(signal.aborted ? 'cancelled' : 'error', signal.aborted ? '' : `the checks could not run: ${label} could not be checked out (${errorMessage(err)})`), onResult);
      }
      try {
        const results: CheckResult[] = [];
        for (const spec of options.specs) {
          const result = await runOne(spec, checkout.folder, { ...options.environment, readOnlyPaths: [...(options.environment.readOnlyPaths ?? []), ...checkout.readOnlyPaths] }, signal);
          results.push(result);
          onResult(result);
        }
        return results;
      } finally {
        await checkout.dispose();
      }
    });
  }

  return {
    mode: options.mode,
    names: options.specs.map((s) => s.name),
    async run(version: { label: string; change: AnswerChange }, signal, onResult) {
      const known = byContent.get(version.change.id);
      if (known) return report((await known).map((r) => ({ ...r, cached: true })), onResult);
      const pending = checkVersion(version.label, signal, onResult);
      byContent.set(version.change.id, pending);
      return pending;
    },
  };
}

function report(results: CheckResult[], onResult: (r: CheckResult) => void): CheckResult[] {
  for (const r of results) onResult(r);
  return results;
}

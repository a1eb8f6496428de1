// node:child_process as the Codex SDK's bundle sees it (esbuild.mjs puts this module in its place there), for two
// things the SDK does not give: the SDK writes each turn's prompt to `codex exec`'s stdin without an error handler,
// so a program that exits before reading it (a broken config, a wrong binary) would throw EPIPE out of the whole run
// (here that write error is dropped; the SDK then reports the program's exit code and stderr); and the driver needs
// the process to stop its whole tree (the SDK only signals `codex exec` itself): each is kept by the AbortSignal the
// SDK spawned it with, one per turn, in a map shared by the bundles (this module is in the SDK's and the driver's).

import { spawn as spawnProcess, type ChildProcess } from 'node:child_process';

export * from 'node:child_process';

const REGISTRY = Symbol.for('massgen.codex-processes');

/** `codex exec` processes by the signal of the turn they run. */
export function codexProcesses(): WeakMap<AbortSignal, ChildProcess> {
  const shared = globalThis as { [REGISTRY]?: WeakMap<AbortSignal, ChildProcess> };
  return (shared[REGISTRY] ??= new WeakMap());
}

export function spawn(...args: Parameters<typeof spawnProcess>): ChildProcess {
  const child = spawnProcess(...args);
  child.stdin?.on('error', () => undefined);
  const signal = (args[2] as { signal?: AbortSignal } | undefined)?.signal;
  if (signal) codexProcesses().set(signal, child);
  return child;
}

// The extension's bundles load: dist/extension.js, dist/runtime.js and the coding agents' SDK bundles as esbuild.mjs
// builds them, required in plain Node with a stand-in for the `vscode` module. A bundling fault (a module initialised lazily on one import path and
// eagerly on another) fails here, at load, instead of in the first command a user runs.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

/** Any property is a constructible function whose properties are the same again: enough for module-level code. */
function standIn(): unknown {
  const fn = function () {} as unknown as Record<string | symbol, unknown>;
  return new Proxy(fn, { get: (target, key) => (key === 'prototype' ? target.prototype : key === Symbol.toPrimitive ? () => '' : standIn()), construct: () => ({}), apply: () => undefined });
}

describe('extension bundles', function () {
  this.timeout(60_000);
  const out = mkdtempSync(join(tmpdir(), 'massgen-bundles-'));
  const load = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const original = load._load;

  before(async () => {
    const { nodeBundles } = (await import(pathToFileURL(join(process.cwd(), 'esbuild.mjs')).href)) as { nodeBundles(o: { outdir: string; production: boolean }): Record<string, esbuild.BuildOptions> };
    const bundles = nodeBundles({ outdir: out, production: true });
    await Promise.all([bundles['extension.js'], bundles['runtime.js'], bundles['claude-agent-sdk.js'], bundles['codex-sdk.js']].map((options) => esbuild.build({ ...options, logLevel: 'error' })));
    const vscode = standIn();
    load._load = function (request, parent, isMain) {
      return request === 'vscode' ? vscode : original.call(this, request, parent, isMain);
    };
  });
  after(() => (load._load = original));

  // Through Node's own require, as VS Code's extension host loads extensions.
  const requireBundle = createRequire(__filename);

  it('runtime.js loads and exports createRuntime', () => {
    const runtime = requireBundle(join(out, 'runtime.js')) as { createRuntime?: unknown };
    assert.equal(typeof runtime.createRuntime, 'function');
  });

  it('extension.js loads and exports activate', () => {
    const extension = requireBundle(join(out, 'extension.js')) as { activate?: unknown };
    assert.equal(typeof extension.activate, 'function');
  });

  it('the coding agents\' SDKs load from their own bundles, as the runtime imports them', () => {
    const claude = requireBundle(join(out, 'claude-agent-sdk.js')) as { query?: unknown; createSdkMcpServer?: unknown };
    assert.equal(typeof claude.query, 'function');
    const codex = requireBundle(join(out, 'codex-sdk.js')) as { Codex?: unknown };
    assert.equal(typeof codex.Codex, 'function');
  });
});

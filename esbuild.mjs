// Bundles the entry points: the extension's activation shell (cjs, `vscode` external, tiny: VS Code counts loading
// it as activation time), the extension's runtime (everything else the extension runs, loaded by the shell on first
// use), the CLI (a launcher with the shebang that turns on V8's code cache, and the CLI bundle it loads) and the
// vote-viewer webview (browser iife, plus its CSS and the codicon font, in dist/webview/). `--production` minifies
// and drops source maps. The bench (bench/lib/build.ts) imports `buildAll` for its own production build, so both
// build the same way.
import * as esbuild from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebview } from './webview/build.mjs';

const root = dirname(fileURLToPath(import.meta.url));

/**
 * zod re-exports all 64 of its locales as `z.locales`, and a namespace import (`import { z } from 'zod'`) keeps every
 * one of them (~150 KB minified in each node bundle). Messages are English only here (zod's default, set in its
 * schemas module), so `locales` is bundled as English alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/]/.test(args.importer)) return undefined;
      return { path: join(dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: dirname(args.path), loader: 'js' }));
  },
};

/**
 * @google/genai's Node build imports google-auth-library (Vertex AI and Google Cloud credentials) and ws (the Live
 * API's WebSocket) at its top, ~300 KB minified with their dependencies. MassGen calls Gemini with an API key only
 * (the SDK then never constructs GoogleAuth) and never opens the Live API, so both are bundled as classes that
 * say so if anything ever constructs them.
 */
const geminiApiKeyOnly = {
  name: 'gemini-api-key-only',
  setup(build) {
    build.onResolve({ filter: /^(google-auth-library|ws)$/ }, (args) => {
      if (!/[\\/]@google[\\/]genai[\\/]/.test(args.importer)) return undefined;
      return { path: args.path, namespace: 'gemini-unbundled' };
    });
    build.onLoad({ filter: /.*/, namespace: 'gemini-unbundled' }, (args) => {
      const name = args.path === 'ws' ? 'WebSocket' : 'GoogleAuth';
      const why = args.path === 'ws' ? "Gemini's Live API is not part of MassGen" : 'MassGen calls Gemini with an API key (GEMINI_API_KEY / GOOGLE_API_KEY); Google Cloud credentials (Vertex AI) are not supported';
      return { contents: `export class ${name} { constructor() { throw new Error(${JSON.stringify(why)}); } }`, loader: 'js' };
    });
  },
};

/**
 * The node bundles' esbuild options, by output file name.
 * @param {{ outdir: string, production: boolean }} options
 * @returns {Record<'extension.js' | 'runtime.js' | 'cli.js' | 'cli-main.js', import('esbuild').BuildOptions>}
 */
export function nodeBundles({ outdir, production }) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const common = {
    absWorkingDir: root,
    bundle: true,
    minify: production,
    sourcemap: production ? false : 'linked',
    logLevel: 'warning',
    legalComments: 'none',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [zodEnglishOnly, geminiApiKeyOnly],
  };
  return {
    // `./runtime.js` stays a run-time require of the sibling bundle.
    'extension.js': { ...common, entryPoints: ['src/host/extension.ts'], outfile: join(outdir, 'extension.js'), external: ['vscode', './runtime.js'] },
    'runtime.js': { ...common, entryPoints: ['src/host/runtime.ts'], outfile: join(outdir, 'runtime.js'), external: ['vscode'] },
    // The `massgen` binary: a launcher that turns on V8's code cache, then requires the CLI bundle beside it.
    'cli.js': { ...common, entryPoints: ['src/cli/launch.ts'], outfile: join(outdir, 'cli.js'), banner: { js: '#!/usr/bin/env node' }, external: ['./cli-main.js'] },
    'cli-main.js': { ...common, entryPoints: ['src/cli/main.ts'], outfile: join(outdir, 'cli-main.js'), define: { __VERSION__: JSON.stringify(version) } },
  };
}

/** Builds every bundle into `outdir` (default dist/). */
export async function buildAll({ outdir = join(root, 'dist'), production = false } = {}) {
  await Promise.all([
    ...Object.values(nodeBundles({ outdir, production })).map((options) => esbuild.build(options)),
    // The vote viewer: dist/webview/{main.js, main.css, codicon.css, codicon.ttf} (see webview/build.mjs).
    buildWebview({ outdir: join(outdir, 'webview'), production }),
  ]);
  chmodSync(join(outdir, 'cli.js'), 0o755);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildAll({ production: process.argv.includes('--production') });
}

// Bundles the three entry points: the extension host (cjs, `vscode` external), the CLI (node, shebang) and the
// vote-viewer webview (browser iife, plus its CSS and the codicon font, in dist/webview/). `--production` minifies
// and drops source maps.
import * as esbuild from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';
import { buildWebview } from './webview/build.mjs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const production = process.argv.includes('--production');
const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: ['src/host/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  }),
  esbuild.build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    define: { __VERSION__: JSON.stringify(version) },
  }),
  // The vote viewer: dist/webview/{main.js, main.css, codicon.css, codicon.ttf} (see webview/build.mjs).
  buildWebview({ production }),
]);
chmodSync('dist/cli.js', 0o755);

// Bundles the three entry points: the extension host (cjs, `vscode` external), the CLI (node, shebang) and the
// vote-viewer webview (browser iife). `--production` minifies and drops source maps.
import * as esbuild from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';

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
  esbuild.build({
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  }),
]);
chmodSync('dist/cli.js', 0o755);

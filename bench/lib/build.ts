// The bench's own production build, in a temp directory: others run `node esbuild.mjs` (a development build into
// dist/) while the bench runs, so the bench never measures dist/ itself. Same options as esbuild.mjs --production
// (keep the two in step): minified, no source maps, no legal comments; extension cjs/node20 with `vscode` external;
// CLI cjs/node20 with its shebang and version; the webview through webview/build.mjs.

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

export interface Build {
  /** The directory standing in for dist/: extension.js, cli.js, webview/. */
  dist: string;
  ms: number;
}

export async function buildProduction(root: string, outDir: string): Promise<Build> {
  const t0 = Date.now();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const dist = join(outDir, 'dist');
  mkdirSync(dist, { recursive: true });
  const common: esbuild.BuildOptions = { absWorkingDir: root, bundle: true, minify: true, sourcemap: false, logLevel: 'warning', legalComments: 'none', platform: 'node', format: 'cjs', target: 'node20' };
  const { buildWebview } = (await import(join(root, 'webview', 'build.mjs'))) as { buildWebview: (o: { outdir: string; production: boolean }) => Promise<unknown> };
  await Promise.all([
    esbuild.build({ ...common, entryPoints: ['src/host/extension.ts'], outfile: join(dist, 'extension.js'), external: ['vscode'] }),
    esbuild.build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: join(dist, 'cli.js'), banner: { js: '#!/usr/bin/env node' }, define: { __VERSION__: JSON.stringify(version) } }),
    buildWebview({ outdir: join(dist, 'webview'), production: true }),
  ]);
  return { dist, ms: Date.now() - t0 };
}

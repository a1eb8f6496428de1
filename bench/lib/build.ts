// The bench's own production build, in a temp directory: others run `node esbuild.mjs` (a development build into
// dist/) while the bench runs, so the bench never measures dist/ itself. It is esbuild.mjs's own `buildAll` with
// `production: true`, so the bench measures exactly what `npm run package` ships.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Build {
  /** The directory standing in for dist/: extension.js, runtime.js, cli.js, cli-main.js, webview/. */
  dist: string;
  ms: number;
}

export type BundleName = 'extension.js' | 'runtime.js' | 'cli.js' | 'cli-main.js';

interface BuildScript {
  buildAll(o: { outdir: string; production: boolean }): Promise<void>;
  nodeBundles(o: { outdir: string; production: boolean }): Record<BundleName, import('esbuild').BuildOptions>;
}

export const buildScript = (root: string) => import(pathToFileURL(join(root, 'esbuild.mjs')).href) as Promise<BuildScript>;

export async function buildProduction(root: string, outDir: string): Promise<Build> {
  const t0 = Date.now();
  const dist = join(outDir, 'dist');
  mkdirSync(dist, { recursive: true });
  await (await buildScript(root)).buildAll({ outdir: dist, production: true });
  return { dist, ms: Date.now() - t0 };
}

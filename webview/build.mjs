// Builds the vote viewer into one directory (the webview's only local resource root besides media/):
//   main.js      the page (browser iife; markdown-it, DOMPurify, zod/mini, two @vscode-elements components)
//   main.css     its styles
//   codicon.css, codicon.ttf   the icon font (@vscode/codicons)
// Used by esbuild.mjs and by the Chromium tests (which build into a temp directory).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {{ outdir?: string, production?: boolean, metafile?: boolean }} [options]
 * @returns {Promise<import('esbuild').BuildResult>}
 */
export async function buildWebview({ outdir = join(root, 'dist', 'webview'), production = false, metafile = false } = {}) {
  // The directory is the bundle's alone: start clean (no source maps left over from a development build).
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['webview/main.ts', 'webview/main.css'],
    entryNames: '[name]',
    outdir,
    bundle: true,
    minify: production,
    sourcemap: production ? false : 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    platform: 'browser',
    format: 'iife',
    target: ['es2022', 'chrome120'],
    metafile,
  });
  const codicons = dirname(createRequire(join(root, 'package.json')).resolve('@vscode/codicons/dist/codicon.css'));
  for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(join(codicons, f), join(outdir, f));
  return result;
}

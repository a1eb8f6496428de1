// Scenario 6: size. The production bundles as `npm run bench` just built them, what is in them (esbuild metafile,
// bytes per package), and the VSIX that `npm run package` would ship (vsce 3.9.2 from tools/vsce, with
// --no-dependencies): built from the working tree as it is, and checked for the files the extension needs at run
// time. Also packed from a staging copy holding exactly the files the extension loads, for the size it should have.

import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { buildScript, type BundleName } from '../lib/build';
import { Results, kb, type BenchContext, type Scenario } from '../lib/report';

function exec(cmd: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : null);

function dirSize(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? dirSize(join(dir, e.name)) : e.name.endsWith('.map') ? 0 : statSync(join(dir, e.name)).size), 0);
}

/** Bytes per package in a bundle, from an in-memory esbuild build with esbuild.mjs's production options. */
async function composition(root: string, bundle: BundleName): Promise<[string, number][]> {
  const options = (await buildScript(root)).nodeBundles({ outdir: join(root, 'bench-metafile'), production: true })[bundle];
  const result = await esbuild.build({ ...options, write: false, metafile: true, logLevel: 'silent' });
  const out = Object.values(result.metafile!.outputs)[0];
  const by = new Map<string, number>();
  for (const [file, info] of Object.entries(out.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    const key = m ? m[1] : file.replace(/^(src\/[^/]+\/[^/]+).*/, '$1');
    by.set(key, (by.get(key) ?? 0) + info.bytesInOutput);
  }
  return [...by.entries()].sort((a, b) => b[1] - a[1]);
}

/** Lists a zip's entries with unzip (Debian's); null when unzip is missing. */
async function zipEntries(file: string, cwd: string): Promise<string[] | null> {
  try {
    const r = await exec('unzip', ['-Z1', file], cwd);
    return r.code === 0 ? r.out.trim().split('\n') : null;
  } catch {
    return null;
  }
}

export const sizes: Scenario = {
  name: 'size',
  title: '6. Bundle and VSIX sizes (production build)',
  async run(ctx: BenchContext) {
    const r = new Results();
    const dist = ctx.dist;
    const ext = size(join(dist, 'extension.js'));
    const runtime = size(join(dist, 'runtime.js'));
    const cli = size(join(dist, 'cli.js'));
    const cliMain = size(join(dist, 'cli-main.js'));
    const webviewDir = dirSize(join(dist, 'webview'));
    const webviewMain = size(join(dist, 'webview', 'main.js'));
    // esbuild.mjs no longer builds dist/webview.js; one lying in the repository's dist/ is stale (and .vscodeignore may ship it).
    const legacyWebview = size(join(ctx.root, 'dist', 'webview.js'));
    r.info('dist/extension.js (activation shell)', ext === null ? 'missing' : kb(ext));
    r.info('dist/runtime.js (loaded on first use)', runtime === null ? 'missing' : kb(runtime));
    r.info('dist/cli.js (launcher) + dist/cli-main.js', `${cli === null ? 'missing' : kb(cli)} + ${cliMain === null ? 'missing' : kb(cliMain)}`);
    r.info('dist/webview/ (main.js, main.css, codicons)', `${kb(webviewDir)} (main.js ${webviewMain === null ? 'missing' : kb(webviewMain)})`);
    if (legacyWebview !== null) r.info('repository dist/webview.js (no longer built: stale)', kb(legacyWebview));
    r.figure('bytes', { extension: ext, runtime, cli, cliMain, webviewDir, webviewMain, legacyWebview });

    const [extParts, runtimeParts, cliParts] = await Promise.all([composition(ctx.root, 'extension.js'), composition(ctx.root, 'runtime.js'), composition(ctx.root, 'cli-main.js')]);
    const top = (parts: [string, number][]) => parts.slice(0, 6).map(([k, v]) => `${k} ${kb(v)}`).join(', ');
    r.info('  extension.js, largest parts', top(extParts));
    r.info('  runtime.js, largest parts', top(runtimeParts));
    r.info('  cli-main.js, largest parts', top(cliParts));
    r.figure('extension_parts', Object.fromEntries(extParts.slice(0, 12)));
    r.figure('runtime_parts', Object.fromEntries(runtimeParts.slice(0, 12)));
    r.figure('cli_parts', Object.fromEntries(cliParts.slice(0, 12)));

    const vsce = join(ctx.root, 'tools', 'vsce', 'node_modules', '.bin', 'vsce');
    if (ctx.quick) {
      r.goal('size.vsix_kb', 'VSIX size', null, '<=', 1024, ' KB', { note: 'skipped in --quick mode (vsce takes ~15 s)' });
      return r.result();
    }
    if (!existsSync(vsce)) {
      ctx.log('size: installing vsce (npm ci --prefix tools/vsce --ignore-scripts)');
      await exec('npm', ['ci', '--prefix', 'tools/vsce', '--ignore-scripts', '--no-audit', '--no-fund'], ctx.root, 300_000);
    }
    if (!existsSync(vsce)) {
      r.goal('size.vsix_kb', 'VSIX size', null, '<=', 1024, ' KB', { note: 'vsce could not be installed' });
      return r.result();
    }
    // 1. The package as `npm run package` makes it: the tree's package.json and .vscodeignore over a fresh production
    //    build (ctx.ext holds exactly those; dist/ of the repository may hold anything meanwhile).
    const vsix = join(ctx.tmp, 'massgen.vsix');
    const packed = await exec(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix], ctx.ext);
    if (packed.code !== 0 || !existsSync(vsix)) throw new Error(`vsce package failed: ${packed.out.slice(-500)}`);
    const vsixBytes = statSync(vsix).size;
    r.goal('size.vsix_kb', 'VSIX size (npm run package: .vscodeignore as it is)', vsixBytes / 1024, '<=', 1024, ' KB', { digits: 1 });
    const entries = await zipEntries(vsix, ctx.tmp);
    // What the extension loads at run time: its main, the runtime it requires, the coding agents' SDKs it imports when
    // such an agent starts, what the vote viewer's page links (src/host/viewer/index.ts), and the manifest's English texts.
    const needed = ['extension/dist/extension.js', 'extension/dist/runtime.js', 'extension/dist/claude-agent-sdk.js', 'extension/dist/codex-sdk.js', 'extension/dist/webview/main.js', 'extension/dist/webview/main.css', 'extension/dist/webview/codicon.css', 'extension/dist/webview/codicon.ttf', 'extension/media/massgen.svg', 'extension/package.nls.json'];
    const missing = entries ? needed.filter((f) => !entries.includes(f)) : null;
    r.info('  files the extension loads but the VSIX lacks', missing === null ? 'not checked (no unzip)' : missing.length ? missing.join(', ') : 'none');
    r.figure('vsix', { bytes: vsixBytes, entries, missing });

    // 2. The package with exactly the run-time files, for the size a correct package has.
    const stage = join(ctx.tmp, 'stage');
    mkdirSync(join(stage, 'dist'), { recursive: true });
    for (const f of ['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) if (existsSync(join(ctx.root, f))) copyFileSync(join(ctx.root, f), join(stage, f));
    for (const f of ['extension.js', 'runtime.js', 'claude-agent-sdk.js', 'codex-sdk.js']) copyFileSync(join(dist, f), join(stage, 'dist', f));
    cpSync(join(dist, 'webview'), join(stage, 'dist', 'webview'), { recursive: true, filter: (src) => !src.endsWith('.map') });
    cpSync(join(ctx.root, 'media'), join(stage, 'media'), { recursive: true });
    writeFileSync(join(stage, '.vscodeignore'), '**/*.map\n');
    const staged = join(ctx.tmp, 'massgen-staged.vsix');
    const packed2 = await exec(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', staged], stage);
    if (packed2.code === 0 && existsSync(staged)) {
      r.goal('size.vsix_runtime_kb', 'VSIX size with exactly the run-time files', statSync(staged).size / 1024, '<=', 1024, ' KB', { digits: 1 });
      r.figure('vsix_runtime_bytes', statSync(staged).size);
    } else {
      r.note(`staged VSIX could not be packed: ${packed2.out.slice(-300)}`);
    }
    return r.result();
  },
};

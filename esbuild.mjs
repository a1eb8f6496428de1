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
 * The Anthropic client builds `client.beta` with every beta resource (agents, sessions, environments and their
 * local tool runners, vaults, …: ~260 KB minified). MassGen calls `client.messages` only, so `Beta` is bundled as
 * an empty resource; the beta error classes the client maps API errors to stay. The build fails if the SDK's
 * `beta.mjs` no longer has the shape this expects.
 */
const anthropicWithoutBeta = {
  name: 'anthropic-without-beta',
  setup(build) {
    build.onLoad({ filter: /[\\/]@anthropic-ai[\\/]sdk[\\/]resources[\\/]beta[\\/]beta\.mjs$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const start = source.indexOf('export var Beta = ');
      const end = source.indexOf('return Beta;\n})();', start);
      if (start < 0 || end < 0) throw new Error(`anthropic-without-beta: ${args.path} has changed; update the plugin in esbuild.mjs`);
      const contents = `${source.slice(0, start)}export var Beta = class Beta extends APIResource {};${source.slice(end + 'return Beta;\n})();'.length)}`;
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/**
 * The coding agents' SDKs are bundles of their own, imported by the others only when a claude_code or codex agent
 * starts, so a run without one never loads them; each keeps only what the drivers import (the Claude Agent SDK's
 * `core` entry, split into modules, lets esbuild drop the rest: 0.4 MB minified with the MCP validator left out as
 * below, instead of its 1.45 MB `sdk.mjs`).
 */
const AGENT_SDKS = {
  '@anthropic-ai/claude-agent-sdk/core': { file: 'claude-agent-sdk.js', exports: ['query'] },
  '@openai/codex-sdk': { file: 'codex-sdk.js', exports: ['Codex'] },
};
const agentSdksApart = {
  name: 'agent-sdks-apart',
  setup(build) {
    build.onResolve({ filter: /^(@anthropic-ai\/claude-agent-sdk\/core|@openai\/codex-sdk)$/ }, (args) => (args.kind === 'entry-point' || args.importer === '<stdin>' ? undefined : { path: `./${AGENT_SDKS[args.path].file}`, external: true }));
  },
};

/**
 * ajv-formats (the MCP SDK's) finds its own copy of ajv, the same version as the MCP SDK's (the top-level ajv is
 * eslint's older one): one copy is bundled, ~100 KB minified less in every bundle with MCP.
 */
const oneAjv = {
  name: 'one-ajv',
  setup(build) {
    const mcpDir = join(root, 'node_modules', '@modelcontextprotocol', 'sdk');
    build.onResolve({ filter: /^ajv(\/.*)?$/ }, (args) => {
      if (!/[\\/]ajv-formats[\\/]/.test(args.importer) || args.pluginData === 'one-ajv') return undefined;
      return build.resolve(args.path, { kind: args.kind, resolveDir: mcpDir, pluginData: 'one-ajv' });
    });
  },
};

/**
 * In the Claude Agent SDK's bundle, the MCP SDK's server is there only for the SDK's own `createSdkMcpServer`, which
 * MassGen never calls (its coordination server is the runtime's, passed in as an instance): its JSON Schema
 * validator (ajv, ~130 KB minified) is bundled as a class that says so if anything ever constructs it.
 */
const claudeSdkWithoutAjv = {
  name: 'claude-sdk-without-ajv',
  setup(build) {
    build.onResolve({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, (args) => (/[\\/]@modelcontextprotocol[\\/]sdk[\\/]/.test(args.importer) ? { path: args.path, namespace: 'claude-sdk-unbundled' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'claude-sdk-unbundled' }, () => ({
      contents: "export class AjvJsonSchemaValidator { constructor() { throw new Error('MCP servers made by the Claude Agent SDK itself are not part of MassGen'); } }",
      loader: 'js',
    }));
  },
};

/** In the Codex SDK's bundle, node:child_process is src/core/harness/codex-spawn.ts (see there why). */
const codexSpawn = {
  name: 'codex-spawn',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/[\\/]@openai[\\/]codex-sdk[\\/]/.test(args.importer) ? { path: join(root, 'src', 'core', 'harness', 'codex-spawn.ts') } : undefined));
  },
};

/**
 * The node bundles' esbuild options, by output file name.
 * @param {{ outdir: string, production: boolean }} options
 * @returns {Record<'extension.js' | 'runtime.js' | 'cli.js' | 'cli-main.js' | 'claude-agent-sdk.js' | 'codex-sdk.js', import('esbuild').BuildOptions>}
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
    plugins: [zodEnglishOnly, geminiApiKeyOnly, anthropicWithoutBeta, oneAjv, agentSdksApart],
    // import() becomes require(): the CLI compiles its bundle with V8's code cache (vm.Script), which has no
    // dynamic-import callback, and the agents' SDK bundles are CommonJS anyway.
    supported: { 'dynamic-import': false },
  };
  // An ES module bundled as CommonJS: its `import.meta.url` becomes the bundle's own file URL.
  const agentSdk = (name) => ({
    ...common,
    stdin: { contents: `export { ${AGENT_SDKS[name].exports.join(', ')} } from '${name}';`, resolveDir: root, loader: 'js' },
    outfile: join(outdir, AGENT_SDKS[name].file),
    plugins: [...common.plugins, name.startsWith('@anthropic-ai/') ? claudeSdkWithoutAjv : codexSpawn],
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  return {
    // `./runtime.js` stays a run-time require of the sibling bundle.
    'extension.js': { ...common, entryPoints: ['src/host/extension.ts'], outfile: join(outdir, 'extension.js'), external: ['vscode', './runtime.js'] },
    'runtime.js': { ...common, entryPoints: ['src/host/runtime.ts'], outfile: join(outdir, 'runtime.js'), external: ['vscode'] },
    // The `massgen` binary: a launcher that turns on V8's code cache, then requires the CLI bundle beside it.
    'cli.js': { ...common, entryPoints: ['src/cli/launch.ts'], outfile: join(outdir, 'cli.js'), banner: { js: '#!/usr/bin/env node' }, external: ['./cli-main.js'] },
    'cli-main.js': { ...common, entryPoints: ['src/cli/main.ts'], outfile: join(outdir, 'cli-main.js'), define: { __VERSION__: JSON.stringify(version) } },
    'claude-agent-sdk.js': agentSdk('@anthropic-ai/claude-agent-sdk/core'),
    'codex-sdk.js': agentSdk('@openai/codex-sdk'),
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

// The layering of ARCHITECTURE.md, enforced: src/core is editor-free and has floors (util < config < providers <
// engine < the adapters mcp, workspace, sandbox, checks, status, edit, harness, usage < run, the one place that assembles a run;
// beside them tools, the tool kit, on util alone); the protocol shared with the webview depends on no host; host
// files named below stay free of runtime `vscode` imports (so they run in Node tests and the benchmark); the
// activation shell loads nothing but `vscode` and ids. The host's user-facing text goes through vscode.l10n.t.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import l10n from './tools/eslint/no-bare-ui-string.mjs';

const VSCODE = { name: 'vscode', message: 'Only src/host may import vscode: inject a port from src/host instead.' };
const HOST = { group: ['**/host/**', '../host', '../../host'], message: 'Only src/host may depend on src/host.' };
/** The engine's class: only the run session (src/core/run) constructs it; everyone else uses engine/ports. */
const ORCHESTRATOR = { group: ['**/engine/orchestrator', '**/engine/orchestrator.js'], message: 'Start runs through src/core/run/session.ts; import types from engine/ports.' };
const ENGINE_INSIDES = {
  group: ['**/engine/turn', '**/engine/finish', '**/engine/run-context', '**/engine/model-call', '**/engine/conversation'],
  message: "These are the engine's insides; use engine/ports, events or run-state.",
};

/** `no-restricted-imports` for one folder: never vscode or host, nor the engine's insides, nor the floors above. */
const restrict = (above = [], { allowOrchestrator = false, insideEngine = false, extra = [] } = {}) => ({
  'no-restricted-imports': ['error', {
    paths: [VSCODE],
    patterns: [
      HOST,
      ...(allowOrchestrator ? [] : [ORCHESTRATOR]),
      ...(insideEngine ? [] : [ENGINE_INSIDES]),
      ...extra,
      ...above.map((folder) => ({ group: [`../${folder}`, `../${folder}/**`, `**/core/${folder}/**`], message: `This floor may not depend on core/${folder}, which sits above it (see ARCHITECTURE.md).` })),
    ],
  }],
});

/** Host files whose logic runs in plain Node (tests, the benchmark): `vscode` as types only, so no vscode.l10n.t. */
const PLAIN_NODE_HOST = ['src/host/viewer/hub.ts', 'src/host/viewer/connection.ts', 'src/host/viewer/coalescer.ts', 'src/host/viewer/history.ts', 'src/host/viewer/html.ts', 'src/host/lm/*.ts', 'src/host/ids.ts', 'src/host/config-template.ts', 'src/host/run/commands-policy.ts'];

const ABOVE_ENGINE = ['mcp', 'workspace', 'sandbox', 'checks', 'status', 'edit', 'harness', 'run', 'eval'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.vscode-test/**', 'test/vscode/rig/**', 'out/**', '**/*.js', '!eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  // src/core, floor by floor.
  { files: ['src/core/util/**/*.ts'], rules: restrict(['tools', 'config', 'providers', 'engine', 'usage', ...ABOVE_ENGINE]) },
  // The tool kit sits on util alone, so the engine and every adapter may build toolboxes on it.
  { files: ['src/core/tools/**/*.ts'], rules: restrict(['config', 'providers', 'engine', 'usage', ...ABOVE_ENGINE]) },
  { files: ['src/core/config/**/*.ts'], rules: restrict(['providers', 'engine', 'usage', ...ABOVE_ENGINE]) },
  { files: ['src/core/providers/**/*.ts'], rules: restrict(['engine', ...ABOVE_ENGINE]) },
  {
    files: ['src/core/engine/**/*.ts'],
    rules: restrict(ABOVE_ENGINE, { allowOrchestrator: true, insideEngine: true, extra: [{ group: ['../usage/estimate'], message: 'The estimate builds on the engine; the engine takes its constants from usage/tokens.' }] }),
  },
  { files: ['src/core/usage/**/*.ts', 'src/core/mcp/**/*.ts', 'src/core/harness/**/*.ts', 'src/core/workspace/**/*.ts', 'src/core/sandbox/**/*.ts', 'src/core/checks/**/*.ts', 'src/core/status/**/*.ts', 'src/core/edit/**/*.ts'], rules: restrict(['run', 'eval']) },
  { files: ['src/core/run/**/*.ts'], rules: restrict(['eval'], { allowOrchestrator: true }) },
  // `massgen eval`'s logic sits on the run floor: it starts its runs through the run session, like a front end.
  { files: ['src/core/eval/**/*.ts'], rules: restrict() },
  { files: ['src/cli/**/*.ts'], rules: restrict() },
  // The protocol both bundles share: no vscode, no host; the webview may take from core only what it re-exports.
  { files: ['src/protocol/**/*.ts'], rules: restrict(['mcp', 'workspace', 'sandbox', 'checks', 'status', 'edit', 'harness', 'run', 'providers', 'usage']) },
  { files: ['webview/**/*.ts'], rules: { 'no-restricted-imports': ['error', { paths: [VSCODE], patterns: [HOST, { group: ['**/core/**'], message: 'The webview takes engine types and the reducer from src/protocol only.' }] }] } },
  // Host files whose logic runs in plain Node (tests, the benchmark): `vscode` as types only.
  {
    files: PLAIN_NODE_HOST,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ ...VSCODE, message: 'This host file runs in plain Node: import vscode as types only, and take the API through a port.', allowTypeImports: true }] }],
    },
  },
  // Localisation: text the host passes to VS Code's UI (notifications, pickers, progress, the chat stream, status
  // bar…) is wrapped in vscode.l10n.t, so no new bare string slips in (tools/eslint/no-bare-ui-string.mjs).
  { files: ['src/host/**/*.ts'], ignores: [...PLAIN_NODE_HOST, 'src/host/**/*.test.ts'], plugins: { l10n }, rules: { 'l10n/no-bare-ui-string': 'error' } },
  // The rest of the host: no engine insides, no orchestrator (runs start in RunManager through the run session).
  { files: ['src/host/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [ORCHESTRATOR, ENGINE_INSIDES] }] } },
  // The bundles carry the Anthropic client without its beta resources (esbuild.mjs, anthropicWithoutBeta).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', { selector: "MemberExpression[property.name='beta']:matches([object.name='client'], [object.property.name='client'])", message: "The bundled Anthropic client has no beta resources (esbuild.mjs, anthropicWithoutBeta): use client.messages." }] },
  },
  // The activation shell: VS Code counts loading it as activation time, so it may load only `vscode` and ./ids;
  // the rest arrives with dist/runtime.js on first use (types are erased, so type imports are fine).
  {
    files: ['src/host/extension.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['./*', '!./ids', '../*', 'node:*'], allowTypeImports: true, message: 'extension.ts loads only vscode and ./ids; put the code in runtime.ts (loaded on first use).' }],
      }],
    },
  },
);

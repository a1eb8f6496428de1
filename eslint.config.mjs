// Layering is enforced here: the engine (src/core) is editor-free and the CLI never touches the host.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscodeOrHost = (extra = []) => ({
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'src/core must stay editor-free: inject a port from src/host instead.' }],
    patterns: [{ group: ['**/host/**', '../host', '../../host', ...extra], message: 'src/core may not depend on src/host.' }],
  }],
});

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
  { files: ['src/core/**/*.ts'], rules: noVscodeOrHost() },
  { files: ['src/cli/**/*.ts'], rules: noVscodeOrHost() },
  { files: ['webview/**/*.ts'], rules: noVscodeOrHost(['**/core/**']) },
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

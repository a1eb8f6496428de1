// Activation outside VS Code, as a steady proxy figure: loads a bundle (default dist/extension.js) in plain Node
// with a stub `vscode` module (every property and call answers another stub) and calls activate() with a minimal
// ExtensionContext, then reads the API's `runs`, which loads the runtime bundle as the first command does. Prints
// one JSON line: { loadMs, activateMs, firstUseMs }. Used by bench/scenarios/activation.ts.
//   node bench/vscode/activate-proxy.js [bundle]
'use strict';
const Module = require('module');
const os = require('os');
const path = require('path');
const { performance } = require('perf_hooks');

function stub(name) {
  const fn = function () {};
  return new Proxy(fn, {
    get(_t, prop) {
      if (prop === Symbol.toPrimitive) return () => name;
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'then') return undefined; // not a promise
      if (prop === 'toString' || prop === 'toJSON') return () => name;
      return stub(`${name}.${String(prop)}`);
    },
    // Assignments (a status-bar item's `name`, `text`…) are accepted and forgotten: a function's own `name` is read-only.
    set: () => true,
    apply: () => stub(`${name}()`),
    construct: () => stub(`new ${name}`),
  });
}

// esbuild's `import * as vscode` copies the module's own properties, so the stub module needs real keys.
const NAMES = ['window', 'commands', 'workspace', 'chat', 'lm', 'env', 'extensions', 'languages', 'l10n', 'authentication', 'debug', 'tasks', 'scm', 'tests', 'comments',
  'Uri', 'EventEmitter', 'Disposable', 'ThemeIcon', 'ThemeColor', 'ViewColumn', 'Range', 'Position', 'Selection', 'WorkspaceEdit', 'TextEdit', 'MarkdownString',
  'ProgressLocation', 'StatusBarAlignment', 'ConfigurationTarget', 'CancellationTokenSource', 'LanguageModelChatMessage', 'LanguageModelChatMessageRole',
  'LanguageModelTextPart', 'LanguageModelToolCallPart', 'LanguageModelToolResultPart', 'LanguageModelChatToolMode', 'LanguageModelError', 'ChatResponseMarkdownPart',
  'ChatRequestTurn', 'ChatResponseTurn', 'FileType', 'RelativePattern', 'TreeItem', 'TreeItemCollapsibleState', 'ExtensionMode', 'LogLevel', 'EndOfLine', 'DiagnosticSeverity'];
const vscode = Object.fromEntries(NAMES.map((n) => [n, stub(`vscode.${n}`)]));
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};

const bundle = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'dist', 'extension.js'));
const dir = os.tmpdir();
const uri = (p) => ({ fsPath: p, path: p, scheme: 'file', toString: () => `file://${p}` });
const memento = { get: (_k, d) => d, update: async () => undefined, keys: () => [] };
const context = {
  subscriptions: [],
  secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) },
  globalState: memento,
  workspaceState: memento,
  extensionUri: uri(path.dirname(path.dirname(bundle))),
  extensionPath: path.dirname(path.dirname(bundle)),
  storageUri: uri(dir),
  globalStorageUri: uri(dir),
  logUri: uri(dir),
  extensionMode: 1,
  environmentVariableCollection: stub('env'),
};

try {
  const t0 = performance.now();
  const ext = require(bundle);
  const t1 = performance.now();
  const api = ext.activate(context);
  const t2 = performance.now();
  if (!api.runs) throw new Error('the API has no runs');
  const t3 = performance.now();
  process.stdout.write(`${JSON.stringify({ loadMs: t1 - t0, activateMs: t2 - t1, firstUseMs: t3 - t2 })}\n`);
  process.exit(0);
} catch (e) {
  process.stdout.write(`${JSON.stringify({ error: String((e && e.message) || e).slice(0, 300) })}\n`);
  process.exit(1);
}

// The same suite through @vscode/test-electron, for machines that can download VS Code (our CI cannot: it uses
// run.sh with code-server). Tests that need the Playwright runner (screenshots, webview DOM, UI clicks) skip here.
//   npm run test:electron
'use strict';
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { downloadAndUnzipVSCode, resolveCliArgsFromVSCodeExecutablePath, runTests } = require('@vscode/test-electron');

async function main() {
  const root = path.resolve(__dirname, '..', '..');
  const vscodeExecutablePath = await downloadAndUnzipVSCode('1.139.1');
  const [cli, ...args] = resolveCliArgsFromVSCodeExecutablePath(vscodeExecutablePath);
  const vsix = path.join(__dirname, 'out', 'fake-lm.vsix');
  if (fs.existsSync(vsix)) cp.spawnSync(cli, [...args, '--install-extension', vsix], { stdio: 'inherit' });
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'massgen-electron-ws-'));
  fs.writeFileSync(path.join(ws, 'sample.py'), 'def add(a, b):\n    return a + b\n');
  await runTests({ vscodeExecutablePath, extensionDevelopmentPath: root, extensionTestsPath: path.join(__dirname, 'suite', 'index'), launchArgs: [ws, '--disable-workspace-trust'] });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

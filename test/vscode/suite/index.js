// Test entry loaded by the extension host (the @vscode/test-electron extensionTestsPath contract: `run()` returns a
// promise that rejects when tests failed). Runs every suite/*.test.js with mocha, alphabetically, and ends with the
// plain line "N passed, N failed, N skipped".
//   MASSGEN_VSCODE_TESTS=a.test.js,b.test.js   only these files     MASSGEN_VSCODE_GREP=regex   only matching tests
//
// Output: the runner prints only extension-host log lines that start with OUTPUT_MARK (the workbench logs a lot of
// noise through the same channel). Mocha's report is marked here; tests print with `log()` from ./helpers. A plain
// console.log still lands in test-artifacts/vscode-logs/automation.log (VS Code pins the extension host's console
// methods, so they cannot be wrapped).
'use strict';
const fs = require('fs');
const path = require('path');
const Mocha = require('mocha');
const { log } = require('./helpers');

exports.run = function run() {
  const savedBaseLog = Mocha.reporters.Base.consoleLog;
  Mocha.reporters.Base.consoleLog = log;
  return new Promise((resolve, reject) => {
    const done = (error) => {
      Mocha.reporters.Base.consoleLog = savedBaseLog;
      if (error) reject(error);
      else resolve();
    };
    try {
      const mocha = new Mocha({ ui: 'bdd', timeout: 60000, color: false, reporter: 'spec', grep: process.env.MASSGEN_VSCODE_GREP || undefined });
      const only = (process.env.MASSGEN_VSCODE_TESTS || '').split(',').map((s) => s.trim()).filter(Boolean);
      const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js') && (!only.length || only.includes(f))).sort();
      if (!files.length) throw new Error(`no test files (MASSGEN_VSCODE_TESTS=${only.join(',')})`);
      for (const f of files) mocha.addFile(path.join(__dirname, f));
      const runner = mocha.run((failures) => {
        const s = runner.stats || {};
        log(`${s.passes || 0} passed, ${failures} failed, ${s.pending || 0} skipped`);
        if (failures) done(new Error(`${failures} tests failed.`));
        else if (!s.passes) done(new Error('no test passed (none ran?)'));
        else done();
      });
    } catch (e) {
      log('the suite could not start:', e);
      log('0 passed, 1 failed, 0 skipped');
      done(e);
    }
  });
};
